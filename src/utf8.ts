/**
 * UTF-8 decoding of a byte stream that arrives in chunks, without a stateful decoder.
 *
 * The WHATWG "UTF-8 decode" of a whole stream maps invalid sequences to U+FFFD. A chunk may end
 * inside a multi-byte sequence, so a streaming reader must carry those bytes over. We keep them
 * as a tiny `tail` (at most three bytes) in plain data, and decode every span that ends at a
 * *clean point* — a byte offset at which a WHATWG decoder run over the whole stream holds no
 * partial sequence. Decoding span by span between clean points then gives exactly the text that
 * decoding the whole stream at once gives, which is what the spec requires.
 *
 * Why offsets are clean: a lead byte (C2–F4) or an ASCII byte is never a continuation byte, so a
 * decoder reaching one is back in its initial state (it has emitted U+FFFD for any sequence the
 * byte cut short). Continuation bytes that follow a sequence that is complete or already broken
 * are each a lone U+FFFD, which leaves the decoder in its initial state too.
 *
 * @see https://encoding.spec.whatwg.org/#utf-8-decoder
 * @module
 */

/** The tail of an incomplete UTF-8 sequence: zero to three bytes, copied from the caller's chunk. */
export type Utf8Tail = readonly number[];

/** No carried-over bytes. Shared, so it is frozen. */
export const NO_TAIL: Utf8Tail = Object.freeze([]);

// Node's TextDecoder has two paths: a fast one for whole (non-streamed) input, which is ~4x
// quicker on ASCII, and ICU's converter, which is ~2x quicker on text that is mostly multi-byte.
// A decoder that has ever been asked to stream takes ICU's path for good; one that never has
// takes the fast path. Neither carries state between our calls, because we never stream across
// a call: every span we decode ends at a clean point and is flushed. Other runtimes have one
// native path and treat both decoders alike, so the choice below only ever changes speed.
const asciiDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
const wideDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
wideDecoder.decode(new Uint8Array(0), { stream: true });

/** How many leading bytes of a span are sampled to choose a decoder; the choice affects speed only. */
const SAMPLE = 32;

/**
 * Decodes `bytes[start, end)`, which must begin and end at clean points.
 * The leading U+FEFF, if any, is kept: a byte order mark is the scanner's business.
 */
export function decodeSpan(bytes: Uint8Array, start: number, end: number): string {
  const length = end - start;
  if (length === 1 && bytes[start]! < 0x80) {
    // One ASCII byte: a chunk the size of a byte is the worst case for per-call overhead,
    // and this is ~10x cheaper than a TextDecoder call.
    return String.fromCharCode(bytes[start]!);
  }
  if (length <= 0) return '';
  const span = start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end);
  const sampleEnd = start + (length < SAMPLE ? length : SAMPLE);
  for (let i = start; i < sampleEnd; i++) {
    if (bytes[i]! >= 0x80) return wideDecoder.decode(span);
  }
  return asciiDecoder.decode(span);
}

/**
 * The length a UTF-8 sequence led by `byte` would have, or 1 for a byte that cannot start a
 * multi-byte sequence (ASCII, a continuation byte, or one of C0, C1, F5–FF, which are always
 * invalid and decode alone).
 */
function sequenceLength(byte: number): number {
  if (byte < 0xc2) return 1;
  if (byte < 0xe0) return 2;
  if (byte < 0xf0) return 3;
  if (byte < 0xf5) return 4;
  return 1;
}

function isContinuation(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

/**
 * The clean point nearest the end of `bytes[start, end)`: `end` itself, unless the span ends
 * with the lead byte of a sequence and fewer continuation bytes than that sequence needs; then
 * the offset of that lead byte. `start` must be a clean point.
 *
 * We may hold back a sequence that is already invalid (`E0 80` needs a third byte but is broken
 * at its second); that only delays its U+FFFDs to the next span, and decoding it there, from the
 * same clean point, yields the same characters.
 */
export function cleanEnd(bytes: Uint8Array, start: number, end: number): number {
  // A sequence is at most four bytes, so its lead is among the last four.
  const floor = end - 4 > start ? end - 4 : start;
  let i = end - 1;
  while (i >= floor && isContinuation(bytes[i]!)) i--;
  if (i < floor) return end; // only continuation bytes: each is a lone U+FFFD
  return end - i < sequenceLength(bytes[i]!) ? i : end;
}

/** The result of joining a carried-over tail with the head of the next chunk. */
export interface TailJoin {
  /** Text decoded from the tail and the bytes it took ('' while the sequence is still incomplete). */
  readonly text: string;
  /** The first offset in the chunk after the bytes the tail took: a clean point. */
  readonly next: number;
  /** The tail to carry on: non-empty only when the chunk ended before the sequence did. */
  readonly tail: Utf8Tail;
}

/**
 * Completes the sequence in `tail` with continuation bytes from the head of `chunk`, which must
 * not be empty. It takes only as many as the sequence needs; the offset after them is clean
 * whatever those bytes were (see the module comment).
 */
export function joinTail(tail: Utf8Tail, chunk: Uint8Array): TailJoin {
  const needed = sequenceLength(tail[0]!) - tail.length;
  let taken = 0;
  while (taken < needed && taken < chunk.length && isContinuation(chunk[taken]!)) taken++;
  if (taken < needed && taken === chunk.length) {
    // The chunk ended inside the sequence: carry the longer tail on.
    const longer = tail.slice();
    for (let i = 0; i < taken; i++) longer.push(chunk[i]!);
    return { text: '', next: taken, tail: longer };
  }
  const length = tail.length + taken;
  for (let i = 0; i < tail.length; i++) scratch[i] = tail[i]!;
  for (let i = 0; i < taken; i++) scratch[tail.length + i] = chunk[i]!;
  return { text: decodeSequence(length), next: taken, tail: NO_TAIL };
}

/** Scratch memory for one joined sequence; nothing keeps a view of it past `decodeSequence`. */
const scratch = new Uint8Array(4);

/**
 * Decodes the `length` bytes in `scratch`: one sequence, possibly cut short or broken. Most
 * chunk boundaries in non-ASCII text split a valid character, and a TextDecoder call for it would
 * cost as much as decoding the rest of a small chunk, so a complete, valid sequence is assembled
 * here; anything else goes to the decoder, which knows how many U+FFFDs a broken one makes.
 */
function decodeSequence(length: number): string {
  const lead = scratch[0]!;
  if (length === sequenceLength(lead) && secondByteFits(lead, scratch[1]!)) {
    let code = lead & (0xff >> (length + 1));
    for (let i = 1; i < length; i++) {
      const byte = scratch[i]!;
      if (!isContinuation(byte)) return wideDecoder.decode(scratch.subarray(0, length));
      code = (code << 6) | (byte & 0x3f);
    }
    return String.fromCodePoint(code);
  }
  return wideDecoder.decode(scratch.subarray(0, length));
}

/**
 * Whether `byte` may follow `lead` (a lead byte of a sequence of two or more): the bounds of the
 * UTF-8 decoder's step for a second byte, which exclude overlong forms, surrogates and code
 * points past U+10FFFF.
 */
function secondByteFits(lead: number, byte: number): boolean {
  if (lead === 0xe0) return byte >= 0xa0 && byte <= 0xbf;
  if (lead === 0xed) return byte >= 0x80 && byte <= 0x9f;
  if (lead === 0xf0) return byte >= 0x90 && byte <= 0xbf;
  if (lead === 0xf4) return byte >= 0x80 && byte <= 0x8f;
  return isContinuation(byte);
}

/** Copies `bytes[start, end)` into a tail, so no view of the caller's memory is kept. */
export function copyTail(bytes: Uint8Array, start: number, end: number): Utf8Tail {
  if (start === end) return NO_TAIL;
  const tail: number[] = [];
  for (let i = start; i < end; i++) tail.push(bytes[i]!);
  return tail;
}

/** Decodes a tail left at the end of the stream: an incomplete sequence is one U+FFFD per the decoder's rules. */
export function flushTail(tail: Utf8Tail): string {
  return tail.length === 0 ? '' : wideDecoder.decode(new Uint8Array(tail));
}

