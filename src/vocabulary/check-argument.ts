/** How a bad argument or option is refused: one wording, "`name` must be `expected`, got `value`". @module */

import { describeValue } from './describe-value.js';

/** The error for a bad argument or option (a `TypeError`, or `kind`): returned, so that a check reads `throw invalid(…)`. */
export function invalid(
  name: string,
  expected: string,
  value: unknown,
  kind: new (message: string) => Error = TypeError,
): Error {
  return new kind(`${name} must be ${expected}, got ${describeValue(value)}`);
}

interface TypeOf {
  string: string;
  boolean: boolean;
  function: (...args: never[]) => unknown;
}

/** The one rule for an argument of a plain type: `typeof value` is `type` (a `TypeError` otherwise). */
export function checkType<K extends keyof TypeOf>(name: string, value: unknown, type: K): asserts value is TypeOf[K] {
  if (typeof value !== type) throw invalid(name, `a ${type}`, value);
}

/** The one rule for an endpoint: a `URL`, or a string that parses as an absolute URL. */
export function checkUrl(url: unknown): asserts url is string | URL {
  if (!(url instanceof URL || (typeof url === 'string' && URL.canParse(url)))) throw invalid('url', 'a URL', url);
}

/** An options argument as an object to read: `undefined` reads as `{}`; anything else but an object is refused. */
export function optionsObject(options: unknown): object {
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null) throw invalid('options', 'an object', options);
  return options;
}

/** The one rule of a request id the package is given: a string or an integer, as MCP requires (`TypeError`; `RangeError` for a number that is no integer). */
export function checkRequestId(name: string, id: unknown): string | number {
  if (typeof id !== 'string' && typeof id !== 'number') throw invalid(name, 'a string or a number', id);
  if (typeof id === 'number' && !Number.isInteger(id)) throw invalid(name, 'an integer', id, RangeError);
  return id;
}
