/**
 * UTF-8 decoding of a byte stream that arrives in chunks, for reducers whose state is plain data.
 *
 * The WHATWG "UTF-8 decode" of a whole stream maps invalid sequences to U+FFFD. A chunk may end
 * inside a multi-byte sequence, so a streaming reader must carry those bytes over. We carry them
 * in the state as a `tail` of at most three bytes: exactly the bytes a WHATWG decoder run over the
 * whole stream would hold at that point (a valid but incomplete sequence), no more and no fewer.
 * The tail is therefore a function of the bytes alone, and so are the states that hold it.
 *
 * Decoding a chunk is then "the decoder holding `tail`, given the chunk". Two ways to do that,
 * which give the same text:
 * - with no tail, a stateless decode of the chunk up to where its own tail starts;
 * - with a tail, a streaming decoder that holds it: one decoder per module, resynchronised when
 *   it holds something else (see {@link StreamingDecoder}).
 *
 * @see https://encoding.spec.whatwg.org/#utf-8-decoder
 * @module
 */

/** The bytes of an incomplete UTF-8 sequence, copied from the caller's chunk: zero to three. */
export type Utf8Tail = readonly number[];

/** No carried-over bytes. Shared, so it is frozen. */
export const NO_TAIL: Utf8Tail = /* @__PURE__ */ Object.freeze([]);

/** What {@link decodeChunk} returns. */
export interface DecodedChunk {
  /** The text the chunk completes, the carried-over sequence included. */
  readonly text: string;
  /** The bytes to carry over to the next chunk. */
  readonly tail: Utf8Tail;
}

/** How many leading bytes of a chunk are sampled to choose a decoder; the choice affects speed only. */
const SAMPLE = 32;

// Whole-chunk and streaming decodes take different paths in some engines; which one runs changes
// speed only (docs/guides/benchmarks.md).
const wholeDecoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Decodes `chunk`, which continues a stream whose carried-over bytes are `tail`. Pure as far as
 * any caller can observe: the result depends on `tail` and `chunk` alone, neither is changed, and
 * the returned tail is a copy.
 */
export function decodeChunk(tail: Utf8Tail, chunk: Uint8Array): DecodedChunk {
  const length = chunk.length;
  if (tail.length === 0) {
    const byte = asciiByte(tail, chunk);
    if (byte !== -1) return { text: String.fromCharCode(byte), tail: NO_TAIL };
    if (!mostlyWide(chunk)) {
      const end = pendingStart(chunk);
      const text = wholeDecoder.decode(end === length ? chunk : chunk.subarray(0, end));
      return { text, tail: end === length ? NO_TAIL : copy(chunk, end, length) };
    }
  }
  return streaming.decode(tail, chunk);
}

/**
 * The character code of `chunk` when it is one ASCII byte that continues a stream at no tail,
 * else -1. Such a chunk decodes to that one character without a decoder call: byte-sized chunks
 * are the worst case for per-call overhead (docs/guides/benchmarks.md).
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

/** Whether a chunk's first bytes include a multi-byte sequence, which the streaming path decodes faster. */
function mostlyWide(chunk: Uint8Array): boolean {
  const end = chunk.length < SAMPLE ? chunk.length : SAMPLE;
  for (let i = 0; i < end; i++) if (chunk[i]! >= 0x80) return true;
  return false;
}

/**
 * One streaming decoder for the module, and the tail it holds. A reducer's state says which tail
 * the stream is at; when the decoder holds another (a state forked, replayed or cloned, or another
 * stream scanned in between), it is flushed and given that tail first. The identity check is
 * exact: every tail is a fresh array, made where the decoder was left holding it.
 */
class StreamingDecoder {
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  /** The tail the decoder holds, or `undefined` when unknown (a decode did not finish). */
  private holds: Utf8Tail | undefined = NO_TAIL;

  decode(tail: Utf8Tail, chunk: Uint8Array): DecodedChunk {
    const decoder = this.decoder;
    let head = '';
    if (this.holds !== tail) {
      decoder.decode(); // flush whatever it holds: that belongs to another stream
      // A tail is a valid incomplete sequence, so the decoder takes it and says nothing.
      if (tail.length !== 0) head = decoder.decode(new Uint8Array(tail), { stream: true });
    }
    this.holds = undefined;
    const text = decoder.decode(chunk, { stream: true });
    const next = nextTail(tail, chunk);
    this.holds = next;
    return { text: head === '' ? text : head + text, tail: next };
  }
}

const streaming = new StreamingDecoder();

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
 * Where the sequence a WHATWG decoder would still be holding at the end of `bytes` begins, or
 * `bytes.length` when it holds none: the last lead byte, if fewer bytes follow it than its
 * sequence needs and each of them is one the decoder accepts there. A sequence already broken
 * (`E0 80`) is not held: the decoder has emitted its U+FFFDs.
 */
function pendingStart(bytes: Uint8Array): number {
  const end = bytes.length;
  // A sequence is at most four bytes, so a held one starts within the last three.
  const floor = end > 3 ? end - 3 : 0;
  let i = end - 1;
  while (i >= floor && isContinuation(bytes[i]!)) i--;
  if (i < floor) return end;
  const lead = bytes[i]!;
  if (end - i >= sequenceLength(lead)) return end;
  if (i + 1 < end && !secondByteFits(lead, bytes[i + 1]!)) return end;
  return i;
}

/** The tail after `chunk`, which continues a stream holding `tail`: the held sequence, copied. */
function nextTail(tail: Utf8Tail, chunk: Uint8Array): Utf8Tail {
  // A held sequence starts within the stream's last three bytes. Three bytes of the chunk are
  // enough to see it — three continuation bytes complete or break any old tail — but a shorter
  // chunk may only extend the old tail, so look across the boundary then.
  let bytes = chunk;
  if (chunk.length < 3 && tail.length !== 0) {
    bytes = new Uint8Array(tail.length + chunk.length);
    bytes.set(tail);
    bytes.set(chunk, tail.length);
  }
  const start = pendingStart(bytes);
  return start === bytes.length ? NO_TAIL : copy(bytes, start, bytes.length);
}

function copy(bytes: Uint8Array, start: number, end: number): Utf8Tail {
  const tail: number[] = [];
  for (let i = start; i < end; i++) tail.push(bytes[i]!);
  return tail;
}
