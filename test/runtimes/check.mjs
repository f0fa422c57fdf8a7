// Comparison for the runtime suite, with web-platform JavaScript only (no test framework runs in
// every runtime): the first difference between two values, as a path and both sides.

/**
 * The first difference between `actual` and `expected`, or `undefined` when they are equal: same
 * primitive values (NaN equals NaN, -0 does not equal 0), arrays of equal length and items,
 * plain objects with the same own keys and values. Anything else compares by identity.
 */
export function difference(actual, expected, path = '$') {
  if (Object.is(actual, expected)) return undefined;
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return at(path, actual, expected);
    if (actual.length !== expected.length) return `${path}: length ${actual.length}, expected ${expected.length}`;
    for (let i = 0; i < expected.length; i++) {
      const found = difference(actual[i], expected[i], `${path}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) return at(path, actual, expected);
    const keys = Object.keys(expected).sort();
    const actualKeys = Object.keys(actual).sort();
    if (keys.join('\u0000') !== actualKeys.join('\u0000')) {
      return `${path}: keys [${actualKeys.join(', ')}], expected [${keys.join(', ')}]`;
    }
    for (const key of keys) {
      const found = difference(actual[key], expected[key], `${path}.${key}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  return at(path, actual, expected);
}

/** Throws when `actual` differs from `expected`; `what` names the check. */
export function same(actual, expected, what) {
  const found = difference(actual, expected);
  if (found !== undefined) throw new Error(`${what}: ${found}`);
}

/** Throws when `condition` is not true; `what` says what should have held. */
export function ok(condition, what) {
  if (condition !== true) throw new Error(what);
}

function isPlainObject(value) {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function at(path, actual, expected) {
  return `${path}: got ${show(actual)}, expected ${show(expected)}`;
}

/** A short, readable rendering of a value for a failure message. */
export function show(value) {
  if (typeof value === 'string') {
    const text = JSON.stringify(value.length > 80 ? `${value.slice(0, 60)}…(${value.length} chars)` : value);
    return text;
  }
  if (value === undefined) return 'undefined';
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'number' && Object.is(value, -0)) return '-0';
  try {
    const text = JSON.stringify(value);
    if (text !== undefined) return text.length > 200 ? `${text.slice(0, 200)}…` : text;
  } catch {
    // fall through to the type name
  }
  return Object.prototype.toString.call(value);
}
