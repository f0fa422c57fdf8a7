/**
 * Generators for the corners the property tests' arbitraries reach rarely or not at all: huge
 * and empty lines, NUL, every kind of invalid UTF-8, chunk edges inside CRLF, a BOM or a
 * multi-byte character, empty chunks, deep and huge JSON, ids of every JSON type, batches that
 * mix everything. They build on the arbitraries in property/ rather than copying them.
 */
import fc from 'fast-check';
import { invalidUtf8Arb, lineEndArb } from '../scan-arbitraries.js';

type Bytes = readonly number[];

const encoder = new TextEncoder();
const utf8 = (s: string): Bytes => Array.from(encoder.encode(s));

/** Every kind of invalid UTF-8: the property tests' list, plus overlong and encoded surrogates of all widths, cut sequences. */
export const badUtf8Arb: fc.Arbitrary<Bytes> = fc.oneof(
  invalidUtf8Arb,
  fc.constantFrom<Bytes>(
    [0xc0, 0x80], // overlong NUL
    [0xe0, 0x80, 0xaf], // overlong '/'
    [0xf0, 0x80, 0x80, 0xaf], // overlong '/' in four bytes
    [0xed, 0xbf, 0xbf], // encoded low surrogate
    [0xed, 0xa0, 0x80, 0xed, 0xb0, 0x80], // an encoded surrogate pair (CESU-8)
    [0xf8, 0x88, 0x80, 0x80, 0x80], // five-byte form
    [0xfc, 0x84, 0x80, 0x80, 0x80, 0x80], // six-byte form
    [0xfe],
    [0xe2, 0x82, 0x0a], // a sequence cut by a line end
    [0xf0, 0x9f, 0x0d, 0x0a], // cut by a CRLF
    [0xe2, 0x0d], // cut by a CR
  ),
  // A valid character with its last bytes dropped.
  fc.tuple(fc.constantFrom('\u00e9', '\u20ac', '\ufeff', '\u{1f600}', '\u{10ffff}'), fc.nat()).map(([c, n]) => {
    const b = utf8(c);
    return b.slice(0, 1 + (n % (b.length - 1)));
  }),
);

/** A long run of one character, to cross the scanner's split points and chunk edges many times; sometimes very long. */
export const hugeRunArb: fc.Arbitrary<Bytes> = fc
  .tuple(
    fc.constantFrom('a', ':', ' ', '\u00e9', '\u20ac', '\u{1f600}', '\u0000', '{"a":1}'),
    fc.oneof({ weight: 20, arbitrary: fc.integer({ min: 200, max: 5000 }) }, { weight: 1, arbitrary: fc.integer({ min: 60_000, max: 300_000 }) }),
  )
  .map(([unit, bytes]) => utf8(unit.repeat(Math.max(1, Math.floor(bytes / utf8(unit).length)))));

/** Value text with the rare pieces: NUL, a BOM, CR/LF look-alikes, multi-byte characters, invalid UTF-8, huge runs. */
const cornerValueArb: fc.Arbitrary<Bytes> = fc
  .array(
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom('x', ' ', ':', '\u0000', '\ufeff', '\u00e9', '\u20ac', '\u{1f600}', '\u2028', '\u0085', '\u000b', '\u000c').map(utf8) },
      { weight: 2, arbitrary: badUtf8Arb },
      { weight: 2, arbitrary: fc.string({ maxLength: 6 }).map(utf8) },
      { weight: 1, arbitrary: hugeRunArb },
    ),
    { maxLength: 4 },
  )
  .map((parts) => parts.flat());

/** One line, without its line end: a field (maybe a huge one), a comment, an empty line, or raw corner bytes. */
const cornerLineArb: fc.Arbitrary<Bytes> = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.constantFrom('data', 'data', 'id', 'event', 'retry', ''), fc.constantFrom(':', ': ', ''), cornerValueArb).map(([f, s, v]) => [...utf8(f + s), ...v]) },
  { weight: 1, arbitrary: fc.tuple(fc.constant(utf8(':')), cornerValueArb).map(([c, v]) => [...c, ...v]) },
  { weight: 3, arbitrary: fc.constant<Bytes>([]) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom<Bytes>([0xef, 0xbb, 0xbf], utf8('\u0000'), []), cornerValueArb).map(([a, b]) => [...a, ...b]) },
  // Many short data lines, and many empty data lines: the shapes whose pending event grows by a line at a time.
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('data: x', 'data:', 'data', 'id: 1', 'event: e'), fc.integer({ min: 2, max: 400 }), fc.constantFrom('\n', '\r\n', '\r')).map(([l, n, eol]) => utf8(Array(n).fill(l).join(eol))) },
);

/** An event stream of corner lines, with any line ends, maybe a BOM (or two, or half of one) first. */
export const cornerStreamArb: fc.Arbitrary<Uint8Array> = fc
  .tuple(
    fc.constantFrom<Bytes>([], [], [0xef, 0xbb, 0xbf], [0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf], [0xef, 0xbb], [0xef]),
    fc.array(fc.tuple(cornerLineArb, lineEndArb), { maxLength: 12 }),
    fc.oneof(fc.constant<Bytes>([]), cornerLineArb),
  )
  .map(([bom, lines, end]) => Uint8Array.from([...bom, ...lines.flatMap(([l, e]) => [...l, ...e]), ...end]));

/**
 * The offsets in `bytes` where a cut is most likely to be wrong: between CR and LF, after a lone
 * CR, inside a multi-byte sequence or a BOM, right after the first bytes.
 */
export function edgesOf(bytes: Uint8Array): number[] {
  const edges: number[] = [0, 1, 2, 3];
  for (let i = 1; i < bytes.length; i++) {
    const b = bytes[i]!;
    const prev = bytes[i - 1]!;
    if (prev === 0x0d || b === 0x0d || (b & 0xc0) === 0x80 || prev >= 0xc0) edges.push(i);
  }
  return edges.filter((e) => e <= bytes.length);
}

/**
 * Cut points for `bytes` (sorted, repeats allowed: a repeat is an empty chunk): at its edges, at
 * random, one byte at a time over a window, in even sizes, or none.
 */
export function cornerCutsArb(bytes: Uint8Array): fc.Arbitrary<number[]> {
  const length = bytes.length;
  const edges = edgesOf(bytes);
  const offset = fc.integer({ min: 0, max: length });
  const edge = fc.nat({ max: edges.length - 1 }).map((i) => edges[i]!);
  const sorted = (xs: number[]): number[] => xs.sort((a, b) => a - b);
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant<number[]>([]) },
    { weight: 3, arbitrary: fc.array(fc.oneof(edge, offset), { maxLength: 24 }).map(sorted) },
    { weight: 2, arbitrary: fc.tuple(fc.array(edge, { maxLength: 64 }), fc.array(offset, { maxLength: 4 })).map(([a, b]) => sorted([...a, ...b])) },
    { weight: 1, arbitrary: fc.tuple(offset, fc.integer({ min: 1, max: 64 })).map(([from, n]) => Array.from({ length: Math.min(n, length - from) }, (_, i) => from + i)) },
    // Even sizes from 1 byte up: a huge line in small chunks. Capped in count, to bound a run's cost.
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 4096 }).map((size) => Array.from({ length: Math.min(2000, Math.floor(length / size)) }, (_, i) => (i + 1) * size)) },
  );
}

// ---------------------------------------------------------------------------------------------
// JSON

/** An id as it may be written in a message: every JSON type, and numbers that equal others once parsed. */
export const anyIdTextArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('null', 'true', 'false', '0', '-0', '0.0', '1', '1.0', '1e0', '10E-1', '2', '-1', '1e400', '-1e400', '9007199254740993', '"1"', '""', '"x"', '"\\u0031"', '[]', '[1]', '{}', '{"id":1}'),
  fc.integer({ min: -3, max: 3 }).map(String),
  fc.string({ maxLength: 3 }).map((s) => JSON.stringify(s)),
);

/** A request id a caller may pass: strings and integers, the confusable ones likely. */
export const requestIdArb: fc.Arbitrary<string | number | undefined> = fc.constantFrom(undefined, 0, -0, 1, 2, -1, 9007199254740991, 9007199254740992, '1', '', 'x', '\u0000');

/** A JSON text holding a value nested `depth` deep (arrays and objects alternating); deep enough to break a recursive reader. */
export function deepJson(depth: number, leaf: string): string {
  let open = '';
  let close = '';
  for (let i = 0; i < depth; i++) {
    open += i % 2 === 0 ? '[' : '{"a":';
    close = (i % 2 === 0 ? ']' : '}') + close;
  }
  return open + leaf + close;
}

const leafArb = fc.constantFrom('1', '[]', '"x"', '{}');
const stringUnitArb = fc.constantFrom('z', '\u00e9', '\u{1f600}', '\\n', '\\"', '\\u0000', 'a\\u00e9');

/** JSON value text: plain values mostly, odd numbers and keys, some nesting, some long strings. */
export const valueTextArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 40, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
  { weight: 8, arbitrary: fc.constantFrom('-0', '1e400', '0.1e1', '1E-7', '"\\ud800"', '"\\u0000"', '{"__proto__":1}', '{"a":1,"a":2}', '"\\/"', '[]', '{}', 'null') },
  { weight: 3, arbitrary: fc.tuple(fc.integer({ min: 1, max: 3000 }), leafArb).map(([d, leaf]) => deepJson(d, leaf)) },
  { weight: 3, arbitrary: fc.tuple(stringUnitArb, fc.integer({ min: 1, max: 2000 })).map(([unit, n]) => `"${unit.repeat(n)}"`) },
);

/** JSON value text too deep for a recursive reader (50 000 levels and more), or a string past the long-string limit. */
export const hugeValueTextArb: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(fc.integer({ min: 50_000, max: 120_000 }), leafArb).map(([d, leaf]) => deepJson(d, leaf)),
  fc.tuple(stringUnitArb, fc.integer({ min: 100_000, max: 200_000 })).map(([unit, n]) => `"${unit.repeat(n)}"`),
);

/**
 * A message written as JSON text: a response (result, error, or both), a request or notification
 * (sometimes also carrying a result), or an object with none of the three; with the request's
 * id, `null`, none, or an id of any other JSON type.
 */
export function messageTextArb(requestIds: fc.Arbitrary<string>, values: fc.Arbitrary<string> = valueTextArb): fc.Arbitrary<string> {
  const id = fc.oneof(
    { weight: 4, arbitrary: requestIds },
    { weight: 2, arbitrary: fc.constant('null') },
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 3, arbitrary: anyIdTextArb },
  );
  const error = fc.constantFrom('{"code":-32600,"message":"bad"}', 'null', '"e"', '{}');
  const method = fc.constantFrom('"notifications/message"', '"ping"', '1', 'null');
  const none = fc.constant(undefined);
  const member = (key: string, value: string | undefined): string => (value === undefined ? '' : `"${key}":${value},`);
  return fc
    .oneof(
      { weight: 4, arbitrary: fc.record({ method: none, result: values, error: none }) },
      { weight: 2, arbitrary: fc.record({ method: none, result: none, error }) },
      { weight: 1, arbitrary: fc.record({ method: none, result: values, error }) },
      { weight: 3, arbitrary: fc.record({ method, result: none, error: none }) },
      { weight: 1, arbitrary: fc.record({ method, result: values, error: fc.option(error, { nil: undefined }) }) },
      { weight: 1, arbitrary: fc.record({ method: none, result: none, error: none }) },
    )
    .chain((members) =>
      fc.record({
        members: fc.constant(members),
        id,
        extra: fc.option(fc.constantFrom('"jsonrpc":"2.0"', '"params":{}', '"__proto__":{"result":1}', '"Result":1'), { nil: undefined }),
        keysLast: fc.boolean(),
      }),
    )
    .map(({ members: { method, result, error }, id, extra, keysLast }) => {
      const keys = member('method', method) + member('result', result) + member('error', error);
      const others = member('id', id) + (extra === undefined ? '' : `${extra},`);
      const body = keysLast ? others + keys : keys + others;
      return `{${body.slice(0, -1)}}`;
    });
}

/**
 * Event data or a JSON body: messages, batches mixing messages with anything, non-messages,
 * non-JSON, empty; now and then (about one in fifty) a message with a huge result.
 */
export function payloadArb(requestIds: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const message = messageTextArb(requestIds);
  const element = fc.oneof({ weight: 4, arbitrary: message }, { weight: 1, arbitrary: valueTextArb });
  return fc.oneof(
    { weight: 24, arbitrary: message },
    { weight: 12, arbitrary: fc.array(element, { maxLength: 6 }).map((els) => `[${els.join(',')}]`) },
    { weight: 4, arbitrary: fc.array(fc.array(message, { maxLength: 2 }).map((els) => `[${els.join(',')}]`), { maxLength: 2 }).map((els) => `[${els.join(',')}]`) },
    { weight: 4, arbitrary: valueTextArb },
    { weight: 4, arbitrary: fc.constantFrom('', ' ', 'not json', '{', '{"id":1,"result":1', '\ufeff{"result":1}', '{"result":1}}', 'undefined') },
    { weight: 4, arbitrary: message.map((m) => ` \t${m}\r\n `) },
    { weight: 1, arbitrary: messageTextArb(requestIds, hugeValueTextArb) },
  );
}
