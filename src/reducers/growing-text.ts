/**
 * Text grown by appends until read whole (the pending line, the data buffer, a JSON body), as
 * `settled + recent`: tiny appends cost a rope node per SETTLE characters, not one each.
 * @module
 */

import { decodeChunk, flushTail, NO_TAIL, withoutBom, type Utf8Tail } from './utf8.js';

/**
 * `settled` grows in whole multiples of this: a rope node per 256 characters, at most 255 copied
 * an append (512 and more measured no better: docs/guides/benchmarks.md).
 */
export const SETTLE = 256;

/** `recent` is copied flat each time its length crosses a multiple of 2^FLATTEN_BITS (16). */
const FLATTEN_BITS = 4;

/** Grown text: `settled + recent`. */
export interface GrowingText {
  /** The first part, a whole multiple of SETTLE characters long. */
  readonly settled: string;
  /** The rest, shorter than SETTLE. */
  readonly recent: string;
}

/** No text. Shared, so it is frozen. */
export const NO_TEXT: GrowingText = /* @__PURE__ */ Object.freeze({ settled: '', recent: '' });

/** The text `text + added`, split again: the split depends on the text alone, not on the appends. */
export function grow(text: GrowingText, added: string): GrowingText {
  const { settled, recent } = text;
  const joined = recent + added;
  if (joined.length < SETTLE) {
    // Copied flat every 16 characters, not flattened in place, which newer V8 then walks up to 20
    // times slower (`drip` 1.3–2.9x faster; 3–14% slower in Bun).
    if (recent !== '' && joined.length >> FLATTEN_BITS !== recent.length >> FLATTEN_BITS) return { settled, recent: copyOf(joined) };
    return { settled, recent: joined };
  }
  const keep = joined.length % SETTLE;
  if (keep <= added.length) {
    return { settled: settled + recent + added.slice(0, added.length - keep), recent: added.slice(added.length - keep) };
  }
  // `added` is shorter than the remainder, so `joined` is short and cheap to split.
  return { settled: settled + joined.slice(0, joined.length - keep), recent: joined.slice(joined.length - keep) };
}

/** A flat copy of `text` that shares nothing with it: a rope joined, a slice copied out of its parent. */
export function copyOf(text: string): string {
  return (' ' + text).slice(1);
}

/** Whether the text is shorter than SETTLE characters: `settled` holds whole multiples of it. */
export function isShort(text: GrowingText): boolean {
  return text.settled === '';
}

/** The whole text. */
export function textOf(text: GrowingText): string {
  return text.settled + text.recent;
}

/** Text decoded from UTF-8 bytes as they arrive: the text so far, and the bytes of an incomplete sequence at its end. */
export interface DecodedText {
  /** The text the bytes so far complete. */
  readonly text: GrowingText;
  /** The bytes of an incomplete UTF-8 sequence at the end (see `utf8.ts`). */
  readonly tail: Utf8Tail;
}

/** No bytes yet. Shared, so it is frozen. */
export const NO_BYTES: DecodedText = /* @__PURE__ */ Object.freeze({ text: NO_TEXT, tail: NO_TAIL });

/** `decoded` with the bytes of `chunk` decoded onto it. The chunk is not kept. */
export function decodeOnto(decoded: DecodedText, chunk: Uint8Array): DecodedText {
  if (chunk.length === 0) return decoded;
  const next = decodeChunk(decoded.tail, chunk);
  return { text: grow(decoded.text, next.head + next.text), tail: next.tail };
}

/** The whole text once the bytes have ended, as "UTF-8 decode" gives it: a leading BOM dropped, a cut sequence U+FFFD. */
export function decodedTextOf(decoded: DecodedText): string {
  return withoutBom(textOf(decoded.text) + flushTail(decoded.tail));
}
