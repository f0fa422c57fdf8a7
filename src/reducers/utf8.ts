/**
 * UTF-8 decoding of a byte stream that arrives in chunks, for reducers whose state is plain data.
 *
 * The WHATWG "UTF-8 decode" of a whole stream maps invalid sequences to U+FFFD. A chunk may end
 * inside a multi-byte sequence, so a streaming reader must carry those bytes over. We carry them
 * in the state as a `tail` of at most three bytes: exactly the bytes a WHATWG decoder run over the
 * whole stream would hold at that point (a valid but incomplete sequence), no more and no fewer.
 * The tail is therefore a function of the bytes alone, and so are the states that hold it.
 *
 * Decoding a chunk is then "the decoder holding `tail`, given the chunk", done so that no decoder
 * ever holds anything: the chunk's first bytes complete the carried sequence (or show it broken),
 * which is decoded here ({@link carriedText}); the rest, up to where the chunk's own tail starts,
 * is whole sequences, decoded by one call. Some engines leave their fast path for a decoder that
 * holds bytes between calls: held, JavaScriptCore (Bun) read multi-byte text 2.1–2.3x slower
 * (docs/guides/benchmarks.md).
 *
 * @see https://encoding.spec.whatwg.org/#utf-8-decoder
 * @module
 */

/** The bytes of an incomplete UTF-8 sequence, copied from the caller's chunk: zero to three. */
export type Utf8Tail = readonly number[];

/** No carried-over bytes. Shared, so it is frozen. */
export const NO_TAIL: Utf8Tail = /* @__PURE__ */ Object.freeze([]);

/** What {@link decodeChunk} returns: the text the chunk completes is `head + text`. */
export interface DecodedChunk {
  /**
   * The carried-over sequence's character, which the chunk's first bytes complete (U+FFFD when
   * they break it); '' when there was none. Apart, so that a reader that keeps text in pieces
   * need not copy the chunk's text to put one character before it.
   */
  readonly head: string;
  /** The text of the chunk's bytes after those. */
  readonly text: string;
  /** The bytes to carry over to the next chunk. */
  readonly tail: Utf8Tail;
}

/**
 * Decodes whole sequences, statelessly: it never holds bytes between calls. One call for any
 * text: a second decoder called with `stream: true` for text led by multi-byte characters costs
 * the judged engines time — one call reads `utf8` 1.02–1.06x as fast in Node 24 and 26, 1.01–1.04x
 * in Chromium, workerd and Bun, 1.6–1.9x in Deno (`bench:ab`, two processes each) — and pays only
 * in Node 20 and 22 (0.61–0.72x with one call), whose stateless call decodes such text slowly.
 */
const wholeDecoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Decodes `chunk`, which continues a stream whose carried-over bytes are `tail`. Pure as far as
 * any caller can observe: the result depends on `tail` and `chunk` alone, neither is changed, and
 * the returned tail is a copy.
 */
export function decodeChunk(tail: Utf8Tail, chunk: Uint8Array): DecodedChunk {
  const byte = asciiByte(tail, chunk);
  if (byte !== -1) return { head: '', text: String.fromCharCode(byte), tail: NO_TAIL };
  let start = 0;
  let head = '';
  if (tail.length !== 0) {
    start = carriedLength(tail, chunk);
    if (start === -1) return { head: '', text: '', tail: [...tail, ...chunk] }; // the chunk ends inside the sequence
    head = carriedText(tail, chunk, start);
  }
  const length = chunk.length;
  const end = pendingStart(chunk, start, length);
  let text = '';
  if (end > start) text = wholeDecoder.decode(start === 0 && end === length ? chunk : chunk.subarray(start, end));
  return { head, text, tail: end === length ? NO_TAIL : copy(chunk, end, length) };
}

/**
 * The character code of `chunk` when it is one ASCII byte that continues a stream at no tail,
 * else -1. Such a chunk decodes to that one character without a decoder call: byte-sized chunks
 * are the worst case for per-call overhead (`tokens` in 1-byte chunks, whose line ends come here,
 * 1.2–1.35x faster for it in Node 24 and 26).
 */
export function asciiByte(tail: Utf8Tail, chunk: Uint8Array): number {
  return chunk.length === 1 && tail.length === 0 && chunk[0]! < 0x80 ? chunk[0]! : -1;
}

/** `text`, the start of a decoded stream, without its one leading BOM, which "UTF-8 decode" drops. */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Decodes a tail left at the end of the stream: the WHATWG decoder's U+FFFD for an incomplete sequence. */
export function flushTail(tail: Utf8Tail): string {
  return tail.length === 0 ? '' : wholeDecoder.decode(new Uint8Array(tail));
}

/**
 * The length a UTF-8 sequence led by `byte` has, or 1 for a byte that cannot lead one (ASCII, a
 * continuation byte, or C0, C1, F5–FF, which are always invalid and decode alone).
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
 * Whether `byte` may follow `lead` as its second byte: the bounds the WHATWG decoder sets, which
 * exclude overlong forms (E0, F0), surrogates (ED) and code points past U+10FFFF (F4).
 */
function secondByteFits(lead: number, byte: number): boolean {
  if (lead === 0xe0) return byte >= 0xa0 && byte <= 0xbf;
  if (lead === 0xed) return byte >= 0x80 && byte <= 0x9f;
  if (lead === 0xf0) return byte >= 0x90 && byte <= 0xbf;
  if (lead === 0xf4) return byte >= 0x80 && byte <= 0x8f;
  return isContinuation(byte);
}

/**
 * Where the sequence a WHATWG decoder would still be holding after `bytes[start, end)` begins, or
 * `end` when it holds none: the last lead byte, if fewer bytes follow it than its sequence needs
 * and each of them is one the decoder accepts there. A sequence already broken (`E0 80`) is not
 * held: the decoder has emitted its U+FFFDs.
 */
function pendingStart(bytes: Uint8Array, start: number, end: number): number {
  // A sequence is at most four bytes, so a held one starts within the last three.
  const floor = end - start > 3 ? end - 3 : start;
  let i = end - 1;
  while (i >= floor && isContinuation(bytes[i]!)) i--;
  if (i < floor) return end;
  const lead = bytes[i]!;
  if (end - i >= sequenceLength(lead)) return end;
  if (i + 1 < end && !secondByteFits(lead, bytes[i + 1]!)) return end;
  return i;
}

/**
 * How many of `chunk`'s first bytes the carried sequence `tail` takes: each that the decoder
 * accepts there, up to the sequence's length, or up to a byte that breaks it (the decoder reads
 * that byte afresh). -1 when the chunk ends before the sequence does.
 */
function carriedLength(tail: Utf8Tail, chunk: Uint8Array): number {
  const lead = tail[0]!;
  const need = sequenceLength(lead) - tail.length;
  for (let i = 0; i < need; i++) {
    if (i === chunk.length) return -1;
    const byte = chunk[i]!;
    if (tail.length + i === 1 ? !secondByteFits(lead, byte) : !isContinuation(byte)) return i;
  }
  return need;
}

/**
 * The text of the carried sequence `tail` and the `taken` bytes of `chunk` that follow it: its
 * character when they complete it, else the one U+FFFD the decoder gives a broken sequence. A
 * completed sequence passed every check the decoder makes (see {@link secondByteFits}), so its
 * code point is a valid one.
 */
function carriedText(tail: Utf8Tail, chunk: Uint8Array, taken: number): string {
  const lead = tail[0]!;
  const length = sequenceLength(lead);
  if (tail.length + taken < length) return '\uFFFD';
  // The lead's payload bits (5 of a 2-byte lead, 4 of a 3-byte one, 3 of a 4-byte one), then 6
  // of each byte after it.
  let codePoint = lead & (0x7f >> length);
  for (let i = 1; i < length; i++) {
    const byte = i < tail.length ? tail[i]! : chunk[i - tail.length]!;
    codePoint = (codePoint << 6) | (byte & 0x3f);
  }
  return String.fromCodePoint(codePoint);
}

function copy(bytes: Uint8Array, start: number, end: number): Utf8Tail {
  const tail: number[] = [];
  for (let i = start; i < end; i++) tail.push(bytes[i]!);
  return tail;
}
