/**
 * fast-check generators of SSE byte streams built from the pieces the spec cares about, and of
 * ways to cut a stream into chunks.
 */
import fc from 'fast-check';

type Bytes = readonly number[];

const encoder = new TextEncoder();
const utf8 = (s: string): Bytes => Array.from(encoder.encode(s));
const concat = (parts: readonly Bytes[]): number[] => parts.flat();

const BOM: Bytes = [0xef, 0xbb, 0xbf];

/** Renders bytes readably: printable ASCII as is, the rest as escapes. */
export function showBytes(bytes: Uint8Array | Bytes): string {
  let out = '';
  for (const b of bytes) {
    if (b === 0x0a) out += '\\n';
    else if (b === 0x0d) out += '\\r';
    else if (b === 0x5c) out += '\\\\';
    else if (b === 0x22) out += '\\"';
    else if (b >= 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else out += '\\x' + b.toString(16).padStart(2, '0');
  }
  return `"${out}"`;
}

// ---------------------------------------------------------------------------------------------
// Pieces

/** CR, LF or CRLF. */
export const lineEndArb: fc.Arbitrary<Bytes> = fc.constantFrom('\r', '\n', '\r\n').map(utf8);

/** Field names: the four that mean something, near misses, and short random names. */
export const fieldNameArb: fc.Arbitrary<Bytes> = fc
  .oneof(
    { weight: 8, arbitrary: fc.constantFrom('data', 'event', 'id', 'retry') },
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        'Data', 'DATA', 'datum', 'dat', 'd', 'ev', 'even', 'events', 'Event', '', 'ids', 'i', 'ID',
        'retr', 'retryy', 'Retry', 'foo', 'x y', 'data ', ' data', 'id ', 'e\u0301vent', '\u00e9v',
      ),
    },
    { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom('a', 'd', 'e', 'i', 'r', 't', 'y', 'v', 'n', ' '), maxLength: 6 }) },
  )
  .map(utf8);

/** What follows a field name: no colon, or a colon and zero, one or two spaces (and odd extras). */
export const separatorArb: fc.Arbitrary<Bytes> = fc
  .oneof(
    { weight: 6, arbitrary: fc.constantFrom(':', ': ', ':  ') },
    { weight: 1, arbitrary: fc.constantFrom('', '::', ': :', ' :', '\t:') },
  )
  .map(utf8);

/** Invalid or truncated UTF-8 sequences. */
export const invalidUtf8Arb: fc.Arbitrary<Bytes> = fc.constantFrom<Bytes>(
  [0x80], // lone continuation
  [0xbf, 0xbf],
  [0xc0], // never valid
  [0xc0, 0xaf], // overlong
  [0xc1, 0xbf],
  [0xff],
  [0xf5],
  [0xc2], // truncated 2-byte
  [0xe2, 0x82], // truncated 3-byte (of U+20AC)
  [0xe0, 0x80], // overlong 3-byte start
  [0xe0, 0x80, 0x80],
  [0xed, 0xa0, 0x80], // UTF-16 surrogate
  [0xef, 0xbb], // truncated BOM
  [0xf0, 0x9f, 0x98], // truncated 4-byte (of U+1F600)
  [0xf0, 0x8f, 0xbf, 0xbf], // overlong 4-byte
  [0xf4, 0x90, 0x80, 0x80], // past U+10FFFF
  [0xf0], // lone 4-byte lead
);

/** Value text: ASCII (with colons and spaces), multi-byte characters, specials and invalid bytes. */
export const valuePieceArb: fc.Arbitrary<Bytes> = fc.oneof(
  { weight: 5, arbitrary: fc.string({ unit: fc.constantFrom('a', 'b', 'z', '0', '7', ' ', ':', '\t', 'x'), maxLength: 8 }).map(utf8) },
  {
    weight: 4,
    arbitrary: fc
      .constantFrom(
        '\u00e9', // 2 bytes
        '\u00df',
        '\u20ac', // 3 bytes
        '\u4e2d',
        '\ud83d\ude00', // 4 bytes (U+1F600)
        '\u{10ffff}',
        '\u2028', // LINE SEPARATOR: not a line end here
        '\u0085', // NEXT LINE: not a line end here
        '\u0000', // NUL
        '\ufeff', // BOM as data
        '\ufffd',
        ' ',
        ':',
        'data: x',
        'id: 1',
      )
      .map(utf8),
  },
  { weight: 3, arbitrary: invalidUtf8Arb },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }).map(utf8) },
  // Long runs, so lines cross the scanner's internal split points and many chunk boundaries.
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('a', '\u00e9', '\u20ac', '\ud83d\ude00', ': '), fc.integer({ min: 10, max: 60 }))
      .map(([s, n]) => utf8(s.repeat(n))),
  },
);

export const valueArb: fc.Arbitrary<Bytes> = fc.array(valuePieceArb, { maxLength: 5 }).map(concat);

/** Values for `retry`: digits (leading zeros, up to 25 of them) and near misses. */
export const retryValueArb: fc.Arbitrary<Bytes> = fc
  .oneof(
    { weight: 4, arbitrary: fc.string({ unit: fc.constantFrom('0', '1', '2', '5', '9'), minLength: 1, maxLength: 25 }) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '0', '007', '1000', '00000000000000000000000001', '9999999999999999999999999', '12345678901234567890',
        '12a', 'a12', '', ' 5', '5 ', '-1', '+1', '1.5', '1e3', '0x10', '\u0663', '\uff11', '1\u0000',
      ),
    },
  )
  .map(utf8);

const field = (name: string): fc.Arbitrary<Bytes> =>
  fc.tuple(fc.constant(utf8(name)), separatorArb, name === 'retry' ? retryValueArb : valueArb).map(concat);

/** The content of one line (without its line end). Only `raw` lines may hold CR or LF themselves. */
export const lineArb: fc.Arbitrary<Bytes> = fc.oneof(
  // The fields that mean something, with a separator (maybe no colon) and a value.
  { weight: 8, arbitrary: field('data') },
  { weight: 2, arbitrary: field('event') },
  { weight: 2, arbitrary: field('id') },
  { weight: 2, arbitrary: field('retry') },
  // Any name (near misses included), then a separator and a value, or nothing (no colon).
  { weight: 4, arbitrary: fc.tuple(fieldNameArb, separatorArb, valueArb).map(concat) },
  { weight: 2, arbitrary: fieldNameArb },
  // A comment.
  { weight: 1, arbitrary: fc.tuple(fc.constant(utf8(':')), valueArb).map(concat) },
  // A blank line (dispatch).
  { weight: 2, arbitrary: fc.constant<Bytes>([]) },
  // A BOM in the middle of the stream, before a field or alone.
  { weight: 1, arbitrary: fc.tuple(fc.constant(BOM), fc.oneof(fc.constant<Bytes>([]), fieldNameArb), separatorArb, valueArb).map(concat) },
  // Raw bytes from an alphabet rich in line ends, colons and partial sequences.
  { weight: 1, arbitrary: fc.array(fc.constantFrom(0x0a, 0x0d, 0x3a, 0x20, 0x64, 0x61, 0x74, 0x69, 0x00, 0xef, 0xbb, 0xbf, 0x80, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0xc3, 0xa9), { maxLength: 12 }) },
);

/** A line with its line end. */
export const terminatedLineArb: fc.Arbitrary<Bytes> = fc.tuple(lineArb, lineEndArb).map(concat);

/** An event block: a few lines, then (mostly) a blank line that dispatches it. */
export const blockArb: fc.Arbitrary<Bytes> = fc
  .tuple(
    fc.array(terminatedLineArb, { minLength: 1, maxLength: 5 }),
    fc.oneof({ weight: 4, arbitrary: lineEndArb }, { weight: 1, arbitrary: fc.constant<Bytes>([]) }),
  )
  .map(([lines, blank]) => concat([...lines, blank]));

/** What the stream starts with: nothing, one BOM, two BOMs, or a partial BOM. */
export const streamStartArb: fc.Arbitrary<Bytes> = fc.oneof(
  { weight: 5, arbitrary: fc.constant<Bytes>([]) },
  { weight: 3, arbitrary: fc.constant(BOM) },
  { weight: 1, arbitrary: fc.constant(concat([BOM, BOM])) },
  { weight: 1, arbitrary: fc.constantFrom<Bytes>([0xef], [0xef, 0xbb], [0xef, 0xbb, 0x0a], concat([BOM, [0xef, 0xbb]])) },
);

/** What follows the last line end: nothing, an incomplete line, or an incomplete UTF-8 sequence. */
export const streamEndArb: fc.Arbitrary<Bytes> = fc.oneof(
  { weight: 3, arbitrary: fc.constant<Bytes>([]) },
  { weight: 3, arbitrary: lineArb },
  { weight: 1, arbitrary: fc.tuple(lineArb, fc.constantFrom<Bytes>([0xe2], [0xe2, 0x82], [0xf0, 0x9f, 0x98], [0xc3], [0xef, 0xbb])).map(concat) },
);

// ---------------------------------------------------------------------------------------------
// Streams

/** A stream made of lines: start, blocks of lines each with a line end, and an end. */
export const structuredStreamArb: fc.Arbitrary<Bytes> = fc
  .tuple(streamStartArb, fc.array(blockArb, { maxLength: 8 }), streamEndArb)
  .map(([start, lines, end]) => concat([start, ...lines, end]));

/** Byte soup over an alphabet of the bytes that matter. */
export const soupStreamArb: fc.Arbitrary<Bytes> = fc.array(
  fc.constantFrom(
    0x0a, 0x0a, 0x0d, 0x0d, 0x3a, 0x3a, 0x20, 0x64, 0x61, 0x74, 0x61, 0x69, 0x64, 0x65, 0x76, 0x6e, 0x72, 0x79,
    0x31, 0x00, 0xef, 0xbb, 0xbf, 0x80, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0xc3, 0xa9, 0xed, 0xa0, 0xff,
  ),
  { maxLength: 96 },
);

/** Any stream, mostly structured. */
export const streamArb: fc.Arbitrary<Uint8Array> = fc
  .oneof(
    { weight: 8, arbitrary: structuredStreamArb },
    { weight: 2, arbitrary: soupStreamArb },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 48 }).map((u) => Array.from(u)) },
  )
  .map((bytes) => Uint8Array.from(bytes));

// ---------------------------------------------------------------------------------------------
// Chunking

/**
 * Cut points for a stream of `length` bytes: sorted offsets in [0, length], repeats allowed (a
 * repeat, or a cut at 0 or `length`, makes an empty chunk). Three shapes: a few random cuts, every
 * byte its own chunk (plus some empty chunks), or a run of 1-byte chunks over a window.
 */
export function cutsArb(length: number): fc.Arbitrary<number[]> {
  const offset = fc.integer({ min: 0, max: length });
  const sorted = (xs: number[]): number[] => xs.sort((a, b) => a - b);
  const range = (from: number, to: number): number[] => Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
  return fc.oneof(
    { weight: 3, arbitrary: fc.array(offset, { maxLength: 12 }).map(sorted) },
    { weight: 1, arbitrary: fc.array(offset, { maxLength: 4 }).map((extra) => sorted([...range(1, length), ...extra])) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(offset, offset, fc.array(offset, { maxLength: 4 }))
        .map(([a, b, extra]) => sorted([...range(Math.min(a, b), Math.max(a, b) + 1), ...extra])),
    },
  );
}

/** A stream and a way to cut it. Build the chunks with {@link chunksOf}, fresh for each use. */
export interface ChunkedStream {
  readonly bytes: Uint8Array;
  readonly cuts: readonly number[];
}

/** Byte offsets of the chunks' bounds: [0, ...cuts, length]. */
export function boundsOf(s: ChunkedStream): number[] {
  return [0, ...s.cuts, s.bytes.length];
}

/**
 * Fresh chunks for `s`. Each chunk is a copy held as a view into a larger buffer padded with LF and
 * ':' bytes on both sides (offset 0–2), so a scanner that read outside its view would be caught.
 */
export function chunksOf(s: ChunkedStream): Uint8Array[] {
  const bounds = boundsOf(s);
  const chunks: Uint8Array[] = [];
  for (let i = 0; i + 1 < bounds.length; i++) {
    const from = bounds[i]!;
    const to = bounds[i + 1]!;
    const pad = i % 3;
    const buffer = new Uint8Array(pad + (to - from) + pad).fill(i % 2 === 0 ? 0x0a : 0x3a);
    buffer.set(s.bytes.subarray(from, to), pad);
    chunks.push(buffer.subarray(pad, pad + (to - from)));
  }
  return chunks;
}

function withToString(s: ChunkedStream): ChunkedStream {
  return Object.assign(s, {
    [fc.toStringMethod]: (): string => `{ bytes: ${showBytes(s.bytes)}, cuts: [${s.cuts.join(', ')}] }`,
  });
}

/** A stream from `stream` with cuts from {@link cutsArb}. */
export function chunked(stream: fc.Arbitrary<Uint8Array>): fc.Arbitrary<ChunkedStream> {
  return stream.chain((bytes) => cutsArb(bytes.length).map((cuts) => withToString({ bytes, cuts })));
}

/** A stream from {@link streamArb} cut into chunks. */
export const chunkedStreamArb: fc.Arbitrary<ChunkedStream> = chunked(streamArb);
