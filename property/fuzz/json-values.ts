/**
 * Comparing and freezing JSON values without recursion, so that nesting as deep as `JSON.parse`
 * accepts (the generators go past 100 000 levels) neither overflows the stack nor hides a difference.
 */

/**
 * Where `actual` differs from `expected` as `JSON.parse` output (types, key order, -0, own keys,
 * plain prototypes), as a path and a note; `undefined` when they are the same.
 */
export function jsonDifference(actual: unknown, expected: unknown): string | undefined {
  const stack: [unknown, unknown, string][] = [[actual, expected, '$']];
  while (stack.length !== 0) {
    const [a, e, path] = stack.pop()!;
    if (typeof a !== 'object' || a === null || typeof e !== 'object' || e === null) {
      if (!Object.is(a, e)) return `${path}: ${show(a)} is not ${show(e)}`;
      continue;
    }
    if (Array.isArray(a) !== Array.isArray(e)) return `${path}: an array and an object`;
    const proto = Array.isArray(e) ? Array.prototype : Object.prototype;
    if (Object.getPrototypeOf(a) !== proto) return `${path}: not a plain ${Array.isArray(e) ? 'array' : 'object'}`;
    const aKeys = Object.keys(a);
    const eKeys = Object.keys(e);
    if (aKeys.join('\u0000') !== eKeys.join('\u0000')) return `${path}: keys ${show(aKeys)} are not ${show(eKeys)}`;
    for (const key of eKeys) {
      stack.push([(a as Record<string, unknown>)[key], (e as Record<string, unknown>)[key], `${path}.${key.length > 20 ? key.slice(0, 20) + '…' : key}`]);
    }
  }
  return undefined;
}

/** Freezes `value` and everything reachable from it, so that a function that mutates its input throws. */
export function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  const seen = new Set<unknown>();
  while (stack.length !== 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null || seen.has(node) || ArrayBuffer.isView(node)) continue;
    seen.add(node);
    Object.freeze(node);
    for (const key of Object.keys(node)) stack.push((node as Record<string, unknown>)[key]);
  }
  return value;
}

/** A short rendering of a value for a message. */
export function show(value: unknown): string {
  let text: string;
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : Object.is(value, -0) ? '-0' : (JSON.stringify(value) ?? String(value));
  } catch {
    text = Object.prototype.toString.call(value);
  }
  return text.length > 200 ? `${text.slice(0, 200)}… (${text.length} chars)` : text;
}
