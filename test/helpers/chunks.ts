/** Cutting byte arrays into chunks, shared by the unit and property tests. */

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
