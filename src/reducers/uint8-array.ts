/**
 * What a chunk of bytes is: a `Uint8Array`, told by the platform's own typed-array tag, which
 * reads the array's internal slot. So a Uint8Array of another realm or of a subclass (a Node
 * `Buffer`) passes, while a `DataView`, another typed array, or an object that merely claims the
 * tag (or the prototype) does not, and nothing of the value is read that it could intercept.
 * @module
 */

/** `%TypedArray%.prototype[Symbol.toStringTag]`'s getter: the array's kind, `undefined` for anything else. */
function platformTag(): (this: unknown) => unknown {
  return Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype) as object, Symbol.toStringTag)!.get!;
}

/**
 * The check over `tag`, held in its closure: V8 folds a closure's binding into the check, not a
 * module's (`drip` 34 against 90 more instructions a chunk than no check, Node 26).
 */
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
 * The refusal of a chunk, in check-argument's wording but describing only the value's kind:
 * `invalid` would bring the whole describer (quoting, escaping) into a bundle of the scanner,
 * 540 B gzipped.
 */
function refuseChunk(chunk: unknown): never {
  throw new TypeError(`chunk must be a Uint8Array, got ${kindOf(chunk)}`);
}

/**
 * What a value that is not a Uint8Array is, as check-argument describes a value but with none
 * of its text: a number, a boolean, `null` or `undefined` as it is; a string, a symbol, a function
 * or an object by its type; a typed array or a `DataView` by its platform tag.
 */
function kindOf(value: unknown): string {
  const type = typeof value;
  if (type === 'string' || type === 'symbol' || type === 'function') return `a ${type}`;
  if (type !== 'object' || value === null) return String(value);
  const tag = typedArrayTag.call(value);
  return tag !== undefined ? `[object ${tag as string}]` : ArrayBuffer.isView(value) ? '[object DataView]' : 'an object';
}
