/** A JSON tree's strings mapped (what redaction and the bounded detail both apply), and a caller's JSON written, or a `TypeError` naming the part that cannot be. @module */

import { describeValue, shortText } from './describe-value.js';

/**
 * A copy of the JSON tree `value` with `map` applied to every string and to the keys below its top
 * (the top's are the package's names), the rest shared. Bottom-up with an explicit stack, so no
 * depth overflows; a cycle (a caller's value) ends, its closing reference kept.
 */
export function mapStrings<T>(value: T, map: (text: string) => string): T {
  if (typeof value === 'string') return map(value) as T;
  if (typeof value !== 'object' || value === null) return value;
  // Post-order over the tree: each container is rebuilt once its children are.
  const done = new Map<object, unknown>();
  const stack: { node: object; expanded: boolean }[] = [{ node: value, expanded: false }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const entries = Object.entries(top.node) as [string, unknown][];
    if (!top.expanded) {
      top.expanded = true;
      // Itself until its children are mapped: a value that is no tree (a child is its ancestor)
      // ends, that reference left as it was.
      done.set(top.node, top.node);
      for (const [, child] of entries) {
        if (typeof child === 'object' && child !== null && !done.has(child)) stack.push({ node: child, expanded: false });
      }
      continue;
    }
    stack.pop();
    let changed = false;
    const rebuilt = entries.map(([key, child]): [string, unknown] => {
      const newKey = top.node === value ? key : map(key);
      const newChild = typeof child === 'string' ? map(child) : typeof child === 'object' && child !== null ? done.get(child) : child;
      if (newKey !== key || newChild !== child) changed = true;
      return [newKey, newChild];
    });
    done.set(top.node, !changed ? top.node : Array.isArray(top.node) ? rebuilt.map(([, child]) => child) : Object.fromEntries(rebuilt));
  }
  return done.get(value) as T;
}

/** `value` as JSON, or a `TypeError` naming the part below `name` that cannot be written (a BigInt, a cycle), before anything is sent; what threw is its cause. */
export function writtenJson(value: unknown, name: string): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    const part = unwritablePart(value, name);
    const why = part === undefined ? `${name} cannot be written as JSON: writing it threw ${describeValue(error)}` : `${shortText(part.path)} cannot be written as JSON: it is ${part.what}`;
    throw new TypeError(why, { cause: error });
  }
}

/** Where in `value` lies the first part `JSON.stringify` cannot write (a BigInt, a cycle), as a path below `name`, and what it is. */
export function unwritablePart(value: unknown, name: string): { readonly path: string; readonly what: string } | undefined {
  const onPath = new Set<object>();
  const stack: { readonly node: unknown; readonly path: string; readonly leaving?: object }[] = [{ node: value, path: name }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const { node, path, leaving } = top;
    if (leaving !== undefined) {
      onPath.delete(leaving);
      continue;
    }
    if (typeof node === 'bigint') return { path, what: 'a BigInt' };
    if (typeof node !== 'object' || node === null) continue;
    if (onPath.has(node)) return { path, what: 'a reference to an object that holds it (a cycle)' };
    onPath.add(node);
    stack.push({ node: undefined, path, leaving: node });
    const entries = Object.entries(node);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i]!;
      stack.push({ node: child, path: Array.isArray(node) ? `${path}[${key}]` : `${path}.${key}` });
    }
  }
  return undefined;
}
