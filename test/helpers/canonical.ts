/**
 * A JSON value as nested arrays that `toEqual` compares in full: object keys in their own order,
 * `-0` told from `0`, the prototype of every object and array checked.
 */
export function canonical(value: unknown): unknown {
  if (typeof value === 'number') return Object.is(value, -0) ? ['number', '-0'] : ['number', String(value)];
  if (typeof value !== 'object' || value === null) return [typeof value, value];
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return ['bad array prototype'];
    return ['array', value.map(canonical)];
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return ['bad object prototype'];
  return ['object', Object.keys(value).map((key) => [key, canonical((value as Record<string, unknown>)[key])])];
}

/** What a parse gives, for `toEqual`: its value in canonical form, or the error it threw as text. */
export function parseOutcome(parse: () => unknown): { value: unknown } | { error: string } {
  try {
    return { value: canonical(parse()) };
  } catch (error) {
    return { error: String(error) };
  }
}
