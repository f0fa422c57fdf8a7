/**
 * A JSON tree's strings mapped: what redacting an error's data (`secrets.ts`) and bounding its
 * detail (`failure.ts`) both do to every string a server sent.
 * @module
 */

/**
 * A copy of the JSON tree `value` (it came from `JSON.parse` or this package) with `map` applied
 * to every string, and to the keys of the objects below its top (the top's keys are the package's
 * names; those below, the server's), where anything changed (the rest shared). Built bottom-up
 * with an explicit stack, so no depth of nesting can overflow the stack; a value that is no tree
 * (a caller's, with a cycle) ends, the reference that closes the cycle kept as it was.
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
