/**
 * Text that grows by appends until it is read whole — the scanner's pending line, a JSON body —
 * held as two immutable strings: `settled + recent`.
 *
 * Why two: appending to a JS string is O(1) (engines build a rope and flatten it once, when it
 * is read), but a rope node per append that lives as long as the text is what text in tiny
 * chunks costs most — each node is promoted to the old generation, and where fresh pages fault
 * slowly that made time per byte grow with the text. So short appends collect in `recent`, and
 * only whole multiples of SETTLE characters become nodes of `settled`. The split is a function
 * of the text alone (`settled.length` is a multiple of SETTLE, `recent` is shorter), so two
 * states that hold the same text hold the same strings, whatever chunks built them.
 * @module
 */

/**
 * `settled` grows in whole multiples of this many characters. Copying at most 255 characters an
 * append is cheaper than a long-lived node per append, and a node per 256 characters keeps the
 * rope's overhead near 1/8 of the text.
 */
export const SETTLE = 256;

/** `recent` is flattened each time its length crosses a multiple of 2^FLATTEN_BITS (16). */
const FLATTEN_BITS = 4;

/** Grown text: `settled + recent`, split as the module says. */
export interface GrowingText {
  /** The first part, a whole multiple of SETTLE characters. */
  readonly settled: string;
  /** The rest, shorter than SETTLE. */
  readonly recent: string;
}

/**
 * The text `settled + recent + added`, split again. `added` is kept whole (a slice of a chunk's
 * text, say), so the rope gains a node or two per append of at least SETTLE characters and none
 * for a smaller one, and no chunk-sized text is copied.
 */
export function grow(settled: string, recent: string, added: string): GrowingText {
  const joined = recent + added;
  if (joined.length < SETTLE) {
    // Reading a character flattens a rope (V8, JSC and SpiderMonkey alike). Flattening each time
    // the length crosses a multiple of 16 keeps the rope a few nodes deep, and they die young,
    // while text in 1-byte chunks copies `recent` once per 16 bytes, not once per byte (~128
    // characters each).
    if (joined.length >> FLATTEN_BITS !== recent.length >> FLATTEN_BITS) joined.charCodeAt(0);
    return { settled, recent: joined };
  }
  const keep = joined.length % SETTLE;
  if (keep <= added.length) {
    return { settled: settled + recent + added.slice(0, added.length - keep), recent: added.slice(added.length - keep) };
  }
  // `added` is shorter than the remainder, so `joined` is short and cheap to split.
  return { settled: settled + joined.slice(0, joined.length - keep), recent: joined.slice(joined.length - keep) };
}
