/**
 * Text that grows by appends until it is read whole — the scanner's pending line and data
 * buffer, a JSON body — held as two immutable strings, `settled + recent`.
 *
 * Short appends collect in `recent`, which is copied flat as it grows; only whole multiples of
 * SETTLE characters become rope nodes of `settled`. So text in tiny chunks costs a node per
 * SETTLE characters, not one per append (why that matters: docs/guides/benchmarks.md).
 * @module
 */

import { decodeChunk, flushTail, NO_TAIL, withoutBom, type Utf8Tail } from './utf8.js';

/**
 * `settled` grows in whole multiples of this many characters: a node per 256 characters keeps
 * the rope's overhead near 1/8 of the text, and an append copies at most 255 characters. 512 and
 * 1024 read `drip` and `answer-drip` 1–6% faster in Node 24 and 26 by the clock, and count 2.2%
 * more instructions in Node 26; 2048 reads `drip` up to 8% slower, 4096 1.4x slower (`bench:ab`).
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

/**
 * The text `text + added`, split again. The split is a function of the text alone, so equal
 * texts have equal parts whatever appends built them. `added` is kept whole where it can be
 * (a slice of a chunk's text is not copied); only a short remainder is.
 */
export function grow(text: GrowingText, added: string): GrowingText {
  const { settled, recent } = text;
  const joined = recent + added;
  if (joined.length < SETTLE) {
    // Copied flat as the length crosses a multiple of 16: `recent` stays a few young nodes deep,
    // and is copied once per 16 characters, not per append. A copy, not a read that flattens the
    // rope in place: newer V8 walks a part flattened so up to 20 times slower when it flattens
    // the rope again. `drip` and `answer-drip` with the copy: 1.6x and 1.9x faster in Node 24,
    // 2.3x and 2.7x in Node 26, 1.3–2.9x in Chromium, workerd and Deno, 3–14% slower in Bun;
    // every 8 or 32 characters was 1–13% slower than 16 in Node 24 and 26, Chromium and Deno.
    // `recent + added` is a rope only where `recent` is not empty.
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

/**
 * A copy of `text` that shares nothing with it: a string of its own, made flat. A rope is joined
 * into it, and a slice copied out of its parent.
 */
export function copyOf(text: string): string {
  // A rope read by `slice` is flattened into a new string first: the copy keeps nothing else.
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

/**
 * The whole text once the bytes have ended, as WHATWG "UTF-8 decode" gives it: one leading BOM
 * dropped, an incomplete sequence at the end decoded to U+FFFD.
 */
export function decodedTextOf(decoded: DecodedText): string {
  return withoutBom(textOf(decoded.text) + flushTail(decoded.tail));
}
