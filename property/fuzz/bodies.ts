/**
 * Whole bodies for the answer path, in both formats: the property tests' generated bodies and
 * noise, and bodies of corner payloads (ids of every JSON type, mixed batches, deep and huge
 * JSON, invalid UTF-8, NUL, BOMs), with a cap at, just under or just over the body's length.
 */
import fc from 'fast-check';
import { anyBodyArb, bodyArb } from '../answer-arbitraries.js';
import { badUtf8Arb, cornerCutsArb, cornerStreamArb, payloadArb, requestIdArb } from './corners.js';
import type { ModelId } from './selection-model.js';

/** A body to read, and how. */
export interface BodyInput {
  readonly format: 'event-stream' | 'json';
  readonly bytes: Uint8Array;
  readonly requestId: ModelId;
  /** Sorted cut offsets; a repeat is an empty chunk. */
  readonly cuts: number[];
  /** `undefined` for the default cap. */
  readonly maxBytes: number | undefined;
}

const encoder = new TextEncoder();

/** A request id as a message would write it, so that some messages carry it. */
const idText = (id: ModelId): string => (id === undefined ? '1' : Object.is(id, -0) ? '-0' : JSON.stringify(id));

/** An event carrying `payload` (split into data lines at its line ends), with other fields around it. */
const eventArb = (payload: string): fc.Arbitrary<string> =>
  fc
    .record({
      eol: fc.constantFrom('\n', '\r\n', '\r'),
      sep: fc.constantFrom('data:', 'data: '),
      before: fc.constantFrom('', 'event: message', 'id: 7', ': c', 'retry: 10', 'id: \u0000'),
      blank: fc.constantFrom(true, true, true, false),
    })
    .map(({ eol, sep, before, blank }) => {
      const lines = payload.split(/\r\n|\r|\n/).map((l) => sep + l);
      return [...(before === '' ? [] : [before]), ...lines].join(eol) + eol + (blank ? eol : '');
    });

/** An event-stream body of corner payloads, maybe with corner lines and bytes between events. */
function cornerSseArb(requestId: ModelId): fc.Arbitrary<Uint8Array> {
  const event = payloadArb(fc.constant(idText(requestId))).chain(eventArb).map((t) => encoder.encode(t));
  const noise = fc.oneof(cornerStreamArb, badUtf8Arb.map((b) => Uint8Array.from(b)));
  return fc
    .array(fc.oneof({ weight: 5, arbitrary: event }, { weight: 1, arbitrary: noise }), { maxLength: 6 })
    .map((parts) => Uint8Array.from(parts.flatMap((p) => Array.from(p))));
}

/** A JSON body of a corner payload, maybe after a BOM, maybe with invalid UTF-8 somewhere. */
function cornerJsonArb(requestId: ModelId): fc.Arbitrary<Uint8Array> {
  return fc
    .tuple(
      fc.constantFrom<number[]>([], [], [0xef, 0xbb, 0xbf], [0xef, 0xbb]),
      payloadArb(fc.constant(idText(requestId))),
      fc.option(fc.tuple(fc.nat(), badUtf8Arb), { nil: undefined }),
    )
    .map(([bom, text, bad]) => {
      const body = Array.from(encoder.encode(text));
      if (bad !== undefined) body.splice(bad[0] % (body.length + 1), 0, ...bad[1]);
      return Uint8Array.from([...bom, ...body]);
    });
}

/** A body with its format and request id, from every source. */
const formattedBodyArb: fc.Arbitrary<{ format: 'event-stream' | 'json'; bytes: Uint8Array; requestId: ModelId }> = fc.oneof(
  { weight: 2, arbitrary: bodyArb().map((b) => ({ format: b.format, bytes: b.bytes, requestId: b.requestId as ModelId })) },
  { weight: 1, arbitrary: anyBodyArb.map((b) => ({ format: b.format, bytes: b.bytes, requestId: b.requestId as ModelId })) },
  { weight: 3, arbitrary: requestIdArb.chain((requestId) => cornerSseArb(requestId).map((bytes) => ({ format: 'event-stream' as const, bytes, requestId }))) },
  { weight: 2, arbitrary: requestIdArb.chain((requestId) => cornerJsonArb(requestId).map((bytes) => ({ format: 'json' as const, bytes, requestId }))) },
);

/** A cap: none given, none, anywhere, or the body's length ±1 (where the budget's boundary is). */
export function capArb(length: number): fc.Arbitrary<number | undefined> {
  return fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom<number | undefined>(undefined, Infinity) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: length + 2 }) },
    { weight: 3, arbitrary: fc.constantFrom(Math.max(0, length - 1), length, length + 1) },
  );
}

/** A body, a chunking of it, and a cap. */
export const bodyInputArb: fc.Arbitrary<BodyInput> = formattedBodyArb.chain((b) =>
  fc.record({
    format: fc.constant(b.format),
    bytes: fc.constant(b.bytes),
    requestId: fc.constant(b.requestId),
    cuts: cornerCutsArb(b.bytes),
    maxBytes: capArb(b.bytes.length),
  }),
);

/**
 * Fresh copies of the chunks of `bytes` cut at `cuts`, each a view one byte into a larger buffer
 * padded with LF, so that a reader that looked outside its view would read line ends.
 */
export function chunksOf(bytes: Uint8Array, cuts: readonly number[]): Uint8Array<ArrayBuffer>[] {
  const bounds = [0, ...cuts.map((c) => Math.min(Math.max(c, 0), bytes.length)), bytes.length];
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  for (let i = 0; i + 1 < bounds.length; i++) {
    const from = bounds[i]!;
    const to = Math.max(from, bounds[i + 1]!);
    const buffer = new Uint8Array(to - from + 2).fill(0x0a);
    buffer.set(bytes.subarray(from, to), 1);
    chunks.push(buffer.subarray(1, 1 + to - from));
  }
  return chunks;
}
