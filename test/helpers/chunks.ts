/** Joining and cutting byte arrays, shared by the unit and property tests. */

/**
 * The bytes cut at the given offsets, in the order given (ascending, repeats allowed: a repeated
 * offset yields an empty chunk). Each chunk is a copy, as a network read would deliver it.
 */
export function cutAt(bytes: Uint8Array, cuts: readonly number[]): Uint8Array<ArrayBuffer>[] {
  const out: Uint8Array<ArrayBuffer>[] = [];
  let from = 0;
  for (const cut of cuts) {
    out.push(bytes.slice(from, cut));
    from = cut;
  }
  out.push(bytes.slice(from));
  return out;
}

/** A piece of input: a string (encoded as UTF-8) or byte values. */
export type BytePart = string | readonly number[] | Uint8Array;

const encoder = new TextEncoder();

/** The parts joined into one new byte array. */
export function concat(parts: readonly BytePart[]): Uint8Array<ArrayBuffer> {
  const arrays = parts.map((p) => (typeof p === 'string' ? encoder.encode(p) : p));
  const out = new Uint8Array(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of arrays) {
    out.set(a, at);
    at += a.length;
  }
  return out;
}
