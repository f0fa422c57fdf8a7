/**
 * What a chunk of bytes is: a `Uint8Array` by the platform's typed-array tag, which reads the
 * internal slot, so any realm's or subclass's (Node's byte buffers) passes, a look-alike does not, and
 * nothing of the value is read that it could intercept.
 * @module
 */

/** `%TypedArray%.prototype[Symbol.toStringTag]`'s getter: the array's kind, `undefined` for anything else. */
function platformTag(): (this: unknown) => unknown {
  return Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype) as object, Symbol.toStringTag)!.get!;
}

/** The check over `tag`, held by a closure: V8 folds a closure's binding into it, not a module's (a third of the cost). */
function uint8ArrayCheck(tag: (this: unknown) => unknown): (value: unknown) => value is Uint8Array {
  return (value): value is Uint8Array => tag.call(value) === 'Uint8Array';
}

const typedArrayTag = /* @__PURE__ */ platformTag();

/** Whether `value` is a `Uint8Array` (a subclass's, or another realm's, too). */
export const isUint8Array: (value: unknown) => value is Uint8Array = /* @__PURE__ */ uint8ArrayCheck(typedArrayTag);

/**
 * The reducers' check of their `chunk` argument, made before anything else reads it.
 * @throws TypeError "chunk must be a Uint8Array, got …" for anything else.
 */
export function checkChunk(chunk: unknown): asserts chunk is Uint8Array {
  if (!isUint8Array(chunk)) refuseChunk(chunk);
}

/**
 * check-argument's wording, describing only the value's kind: its `invalid` would bring the
 * whole describer (quoting, escaping) into a bundle of the scanner, 540 B gzipped.
 */
function refuseChunk(chunk: unknown): never {
  throw new TypeError(`chunk must be a Uint8Array, got ${kindOf(chunk)}`);
}

/** A value's kind, none of its text: a number, boolean, bigint, null or undefined as it is; a typed array or `DataView` by its tag; else its type. */
function kindOf(value: unknown): string {
  const type = typeof value;
  if (type === 'string' || type === 'symbol' || type === 'function') return `a ${type}`;
  if (type !== 'object' || value === null) return String(value);
  const tag = typedArrayTag.call(value);
  return tag !== undefined ? `[object ${tag as string}]` : ArrayBuffer.isView(value) ? '[object DataView]' : 'an object';
}
