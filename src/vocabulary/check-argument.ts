/**
 * How a bad argument or option is refused: one wording for every check in the package,
 * "`name` must be `expected`, got `value`", the value quoted through `describeValue`.
 * @module
 */

import { describeValue } from './describe-value.js';

/**
 * The error for an argument or option of the wrong type (a `TypeError`) or out of range (pass
 * `RangeError`). It is returned, not thrown, so that a check reads `throw invalid(…)`.
 */
export function invalid(
  name: string,
  expected: string,
  value: unknown,
  kind: new (message: string) => Error = TypeError,
): Error {
  return new kind(`${name} must be ${expected}, got ${describeValue(value)}`);
}

/** An options argument as an object to read: `undefined` reads as `{}`; anything else but an object is refused. */
export function optionsObject(options: unknown): object {
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null) throw invalid('options', 'an object', options);
  return options;
}
