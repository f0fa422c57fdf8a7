/**
 * fast-check generators for the answer path: JSON-RPC messages that must be passed over, the
 * response that must answer, and SSE / JSON bodies made of them — with, for every generated
 * body, what the spec says reading it gives (the answer, the messages reported, and the byte
 * offsets at which each is dispatched), so properties can check the implementation against it.
 */
import fc from 'fast-check';
import { cutAt } from '../test/helpers/chunks.js';

export type Id = string | number;
export type JsonMsg = { [key: string]: unknown };
export type LineEnd = '\n' | '\r\n' | '\r';

const encoder = new TextEncoder();
export const utf8 = (s: string): Uint8Array<ArrayBuffer> => encoder.encode(s);
export const byteLength = (s: string): number => encoder.encode(s).length;

/** What `JSON.parse(JSON.stringify(v))` makes of `v`: the value as a reader will see it. */
const normal = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

const isNotJson = (s: string): boolean => {
  try {
    JSON.parse(s);
    return false;
  } catch {
    return true;
  }
};

// ---------------------------------------------------------------------------------------------
// Ids and values

/** A request id: numbers and strings, with the confusable ones (1 and "1", 0 and "") likely. */
export const requestIdArb: fc.Arbitrary<Id> = fc.oneof(
  fc.constantFrom<Id>(1, '1', 0, '', 'req-1'),
  fc.integer({ min: -1000, max: 1_000_000 }),
  fc.string({ maxLength: 8 }),
);

/** An id that is not `requestId` (strictly), often its look-alike of the other type. */
export function otherIdArb(requestId: Id): fc.Arbitrary<Id> {
  const lookAlike: Id[] = typeof requestId === 'number' ? [String(requestId)] : /^-?\d+$/.test(requestId) ? [Number(requestId)] : [];
  return fc
    .oneof(fc.constantFrom<Id>(...lookAlike, 2, 'x', ''), fc.integer({ min: -5, max: 5 }), fc.string({ maxLength: 4 }))
    .filter((id) => id !== requestId);
}

const jsonArb = fc.jsonValue({ maxDepth: 2, stringUnit: 'binary' });
const methodArb = fc.oneof(fc.constantFrom('notifications/message', 'notifications/progress', 'sampling/createMessage', 'ping'), fc.string({ maxLength: 10 }));
const errorObjectArb = fc.record(
  { code: fc.integer({ min: -32768, max: 32767 }), message: fc.string({ maxLength: 10 }), data: jsonArb },
  { requiredKeys: ['code', 'message'] },
);

/** `{jsonrpc: "2.0"}` first, last, or not at all (it is not required). */
function withJsonrpc(arb: fc.Arbitrary<JsonMsg>): fc.Arbitrary<JsonMsg> {
  return fc.tuple(arb, fc.constantFrom('first', 'last', 'none')).map(([m, where]) => {
    if (where === 'first') return { jsonrpc: '2.0', ...m };
    if (where === 'last') return { ...m, jsonrpc: '2.0' };
    return m;
  });
}

/** Messages that must be passed over and reported when reading the answer to `requestId`. */
export function passedOverArb(requestId: Id): fc.Arbitrary<JsonMsg> {
  const other = otherIdArb(requestId);
  return withJsonrpc(
    fc.oneof(
      // notification
      fc.record({ method: methodArb, params: jsonArb }, { requiredKeys: ['method'] }),
      // server request
      fc.record({ id: fc.oneof(other, fc.constant(requestId)), method: methodArb, params: jsonArb }, { requiredKeys: ['id', 'method'] }),
      // responses to other requests
      fc.record({ id: other, result: jsonArb }),
      fc.record({ id: other, error: errorObjectArb }),
      fc.record({ id: fc.constant(null), result: jsonArb }),
      fc.record({ result: jsonArb }),
      // carries method: never the answer, even with the request's id and a result
      fc.record({ id: fc.constant(requestId), method: methodArb, result: jsonArb }),
      fc.record({ method: methodArb, error: errorObjectArb, id: fc.constant(null) }),
    ),
  ).map(normal);
}

/** The response that answers `requestId`. */
export function responseArb(requestId: Id): fc.Arbitrary<JsonMsg> {
  return withJsonrpc(
    fc.oneof(
      { weight: 4, arbitrary: fc.record({ id: fc.constant(requestId), result: jsonArb }) },
      { weight: 2, arbitrary: fc.record({ result: jsonArb, id: fc.constant(requestId) }) },
      { weight: 1, arbitrary: fc.record({ id: fc.constant(requestId), error: errorObjectArb }) },
      { weight: 1, arbitrary: fc.record({ id: fc.constant(null), error: errorObjectArb }) },
    ),
  ).map(normal);
}

/** JSON that is not a message: primitives, objects without method/result/error, arrays of primitives. */
export const nonMessageArb: fc.Arbitrary<unknown> = fc
  .oneof(
    fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.string({ maxLength: 6 })),
    fc.dictionary(
      fc.string({ maxLength: 6 }).filter((k) => k !== 'method' && k !== 'result' && k !== 'error'),
      jsonArb,
      { maxKeys: 3 },
    ),
    fc.constantFrom<unknown>({}, [], { id: 1 }, { jsonrpc: '2.0', id: 1 }, { Result: 1 }, { params: { result: 1 } }),
    fc.array(fc.oneof(fc.constant(null), fc.integer(), fc.string({ maxLength: 4 })), { maxLength: 3 }),
  )
  .map(normal);

/** Event data that is not JSON and has no line end. */
export const nonJsonArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('hello', '{', '{"id":1,"result":', 'undefined', 'NaN', "{'id':1}", '[1,]', '{"id":1,"result":1}}'),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 16 }).filter((s) => !/[\r\n]/.test(s) && s.trim() !== '' && isNotJson(s)),
);

/** A field value: text without line ends (and without NUL, which an id may not hold). */
const fieldTextArb = fc.string({ unit: 'grapheme', maxLength: 8 }).map((s) => s.replace(/[\r\n\0]/g, '_'));

// ---------------------------------------------------------------------------------------------
// SSE items

/** One SSE block, its lines without line ends, and what reading it reports. */
export interface Item {
  readonly lines: readonly string[];
  readonly eol: LineEnd;
  /** The messages reading this item reports, in order. */
  readonly reported: readonly JsonMsg[];
  /** The item's JSON values as elements of a JSON batch (none for priming, comments, non-JSON). */
  readonly elements: readonly unknown[];
}

const eolArb: fc.Arbitrary<LineEnd> = fc.constantFrom<LineEnd>('\n', '\r\n', '\r');

/** The field lines of one event carrying `text` as data, with other fields around it. */
function eventLinesArb(text: string): fc.Arbitrary<string[]> {
  return fc
    .record({
      type: fc.option(fc.oneof(fc.constantFrom('message', 'weird', 'endpoint', 'error'), fieldTextArb), { nil: undefined }),
      id: fc.option(fieldTextArb, { nil: undefined }),
      retry: fc.option(fc.nat({ max: 100000 }), { nil: undefined }),
      comment: fc.option(fieldTextArb, { nil: undefined }),
      unknownField: fc.boolean(),
      pretty: fc.boolean(),
      noSpace: fc.boolean(),
      fieldsFirst: fc.boolean(),
    })
    .map((f) => {
      let dataText = text;
      if (f.pretty) {
        try {
          dataText = JSON.stringify(JSON.parse(text), null, 2);
        } catch {
          // not JSON: kept on one line
        }
      }
      // Without the space, a data line whose value starts with a space would lose it: only JSON
      // (where leading spaces do not matter) goes without.
      const sep = f.noSpace && !isNotJson(text) ? 'data:' : 'data: ';
      const data = dataText.split('\n').map((line) => sep + line);
      const fields: string[] = [];
      if (f.type !== undefined) fields.push(`event: ${f.type}`);
      if (f.id !== undefined) fields.push(`id: ${f.id}`);
      if (f.retry !== undefined) fields.push(`retry: ${f.retry}`);
      if (f.comment !== undefined) fields.push(`:${f.comment}`);
      if (f.unknownField) fields.push('foo: bar');
      return f.fieldsFirst ? [...fields, ...data] : [...data, ...fields];
    });
}

function jsonItemArb(value: unknown, reported: readonly JsonMsg[], elements: readonly unknown[]): fc.Arbitrary<Item> {
  return fc.tuple(eventLinesArb(JSON.stringify(value)), eolArb).map(([lines, eol]) => ({ lines, eol, reported, elements }));
}

/** Anything that may come before the answer: every kind the spec says is passed over. */
export function itemBeforeArb(requestId: Id): fc.Arbitrary<Item> {
  const message = passedOverArb(requestId);
  const batchElement = fc.oneof({ weight: 3, arbitrary: message.map((m) => ({ m, isMessage: true })) }, { weight: 1, arbitrary: nonMessageArb.map((m) => ({ m, isMessage: false })) });
  return fc.oneof(
    { weight: 5, arbitrary: message.chain((m) => jsonItemArb(m, [m], [m])) },
    {
      weight: 2,
      arbitrary: fc.array(batchElement, { minLength: 1, maxLength: 4 }).chain((els) =>
        jsonItemArb(
          els.map((e) => e.m),
          els.filter((e) => e.isMessage).map((e) => e.m as JsonMsg),
          els.map((e) => e.m),
        ),
      ),
    },
    { weight: 1, arbitrary: nonMessageArb.chain((v) => jsonItemArb(v, [], [v])) },
    { weight: 1, arbitrary: nonJsonArb.chain((t) => fc.tuple(eventLinesArb(t), eolArb).map(([lines, eol]): Item => ({ lines, eol, reported: [], elements: [] }))) },
    {
      weight: 1,
      // priming: an id, maybe a retry, empty data
      arbitrary: fc
        .record({ id: fieldTextArb, retry: fc.option(fc.nat({ max: 100000 }), { nil: undefined }), data: fc.constantFrom('data:', 'data: ', 'data'), eol: eolArb })
        .map(({ id, retry, data, eol }): Item => ({
          lines: [`id: ${id}`, ...(retry === undefined ? [] : [`retry: ${retry}`]), data],
          eol,
          reported: [],
          elements: [],
        })),
    },
    {
      weight: 1,
      // comments and fields with no data: nothing is dispatched
      arbitrary: fc
        .tuple(fc.array(fc.oneof(fieldTextArb.map((t) => `:${t}`), fc.constantFrom(': keep-alive', 'event: ping', 'retry: 5', 'id: 3')), { minLength: 1, maxLength: 3 }), eolArb)
        .map(([lines, eol]): Item => ({ lines, eol, reported: [], elements: [] })),
    },
  );
}

/** The answer's event: the response alone, or inside a batch with elements before and after it. */
export interface AnswerItem extends Item {
  readonly answer: JsonMsg;
  /** Elements after the answer in its batch: never reported. */
  readonly after: readonly unknown[];
}

export function answerItemArb(requestId: Id): fc.Arbitrary<AnswerItem> {
  const element = fc.oneof(passedOverArb(requestId).map((m) => ({ m, isMessage: true })), nonMessageArb.map((m) => ({ m, isMessage: false })));
  return fc
    .record({
      answer: responseArb(requestId),
      batch: fc.boolean(),
      before: fc.array(element, { maxLength: 3 }),
      after: fc.array(fc.oneof(element.map((e) => e.m), responseArb(requestId)), { maxLength: 2 }),
    })
    .chain(({ answer, batch, before, after }) => {
      const reported = batch ? before.filter((e) => e.isMessage).map((e) => e.m as JsonMsg) : [];
      const value = batch ? [...before.map((e) => e.m), answer, ...after] : answer;
      return jsonItemArb(value, reported, batch ? before.map((e) => e.m) : []).map(
        (item): AnswerItem => ({ ...item, answer, after: batch ? after : [] }),
      );
    });
}

// ---------------------------------------------------------------------------------------------
// Whole bodies, with what reading them must give

/** A generated body and the spec's reading of it. */
export interface Body {
  readonly format: 'event-stream' | 'json';
  readonly requestId: Id;
  readonly bytes: Uint8Array<ArrayBuffer>;
  /** The answer, if the body has one. */
  readonly answer: JsonMsg | undefined;
  /** Every message reported before the answer (or to the end), in order. */
  readonly reported: readonly JsonMsg[];
  /**
   * For each reported message, the byte offset at which its event is dispatched: a cap at or
   * past it lets it through. For a JSON body, the body's length (nothing before the end).
   */
  readonly reportedAt: readonly number[];
  /** The offset at which the answer is dispatched; `bytes.length` when only the end of the body dispatches it. */
  readonly answerAt: number | undefined;
}

/** The byte offset at which a block ending with two `eol`s is dispatched, given its end. */
const dispatchOffset = (end: number, eol: LineEnd): number => (eol === '\r\n' ? end - 1 : end);

/**
 * An `event-stream` body: things passed over, then (maybe) the answer, then (maybe) more.
 * The final block may lack its blank line (or its last line end).
 */
export function sseBodyArb(options: { withAnswer?: boolean } = {}): fc.Arbitrary<Body> {
  return requestIdArb.chain((requestId) =>
    fc
      .record({
        before: fc.array(itemBeforeArb(requestId), { maxLength: 6 }),
        answer: options.withAnswer === false ? fc.constant(undefined) : options.withAnswer === true ? answerItemArb(requestId) : fc.option(answerItemArb(requestId), { nil: undefined }),
        after: fc.array(fc.oneof(itemBeforeArb(requestId), answerItemArb(requestId)), { maxLength: 2 }),
        ending: fc.constantFrom('blank', 'blank', 'blank', 'eol', 'none'),
        bom: fc.boolean(),
      })
      .map(({ before, answer, after, ending, bom }): Body => {
        const blocks: Item[] = [...before, ...(answer === undefined ? [] : [answer, ...after])];
        let text = bom ? '\uFEFF' : '';
        let offset = byteLength(text);
        const reported: JsonMsg[] = [];
        const reportedAt: number[] = [];
        let answerAt: number | undefined;
        blocks.forEach((block, i) => {
          const last = i === blocks.length - 1;
          const body = block.lines.join(block.eol);
          const tail = !last || ending === 'blank' ? block.eol + block.eol : ending === 'eol' ? block.eol : '';
          text += body + tail;
          offset += byteLength(body + tail);
          // A final block without its blank line is dispatched only by the end of the body.
          // (A lone CR line end followed by nothing is not a blank line either.)
          const at = !last || ending === 'blank' ? dispatchOffset(offset, block.eol) : Number.POSITIVE_INFINITY;
          if (answer !== undefined && i === before.length) {
            answerAt = at;
            reported.push(...block.reported);
            for (let k = 0; k < block.reported.length; k++) reportedAt.push(at);
          } else if (answer === undefined || i < before.length) {
            reported.push(...block.reported);
            for (let k = 0; k < block.reported.length; k++) reportedAt.push(at);
          }
        });
        const bytes = utf8(text);
        const fix = (at: number) => (at === Number.POSITIVE_INFINITY ? bytes.length : at);
        return {
          format: 'event-stream',
          requestId,
          bytes,
          answer: answer?.answer,
          reported,
          reportedAt: reportedAt.map(fix),
          answerAt: answerAt === undefined ? undefined : fix(answerAt),
        };
      }),
  );
}

/** An `application/json` body: the answer alone, or a batch of what comes before it, it, and more. */
export function jsonBodyArb(options: { withAnswer?: boolean } = {}): fc.Arbitrary<Body> {
  return requestIdArb.chain((requestId) =>
    fc
      .record({
        before: fc.array(itemBeforeArb(requestId), { maxLength: 5 }),
        answer: options.withAnswer === false ? fc.constant(undefined) : options.withAnswer === true ? responseArb(requestId) : fc.option(responseArb(requestId), { nil: undefined }),
        after: fc.array(fc.oneof(passedOverArb(requestId), responseArb(requestId), nonMessageArb), { maxLength: 2 }),
        alone: fc.boolean(),
        pretty: fc.boolean(),
        bom: fc.boolean(),
        space: fc.constantFrom('', ' ', '\n', '\r\n\t'),
      })
      .map(({ before, answer, after, alone, pretty, bom, space }): Body => {
        const elements = before.flatMap((b) => b.elements);
        const reported = before.flatMap((b) => b.reported);
        let value: unknown;
        if (answer !== undefined && alone && elements.length === 0) value = answer;
        else value = [...elements, ...(answer === undefined ? [] : [answer, ...after])];
        const text = (bom ? '\uFEFF' : '') + space + JSON.stringify(value, null, pretty ? 2 : undefined) + space;
        const bytes = utf8(text);
        return {
          format: 'json',
          requestId,
          bytes,
          answer,
          reported,
          reportedAt: reported.map(() => bytes.length),
          answerAt: answer === undefined ? undefined : bytes.length,
        };
      }),
  );
}

/** Either kind of well-formed body. */
export function bodyArb(options: { withAnswer?: boolean } = {}): fc.Arbitrary<Body> {
  return fc.oneof({ weight: 3, arbitrary: sseBodyArb(options) }, { weight: 1, arbitrary: jsonBodyArb(options) });
}

// ---------------------------------------------------------------------------------------------
// Noise: bodies with no structure, for the properties that hold for any input

const noiseTokens = [
  'data: ', 'data:', 'data', 'id: 7', 'id', 'event: x', 'retry: 10', ':', ': c', '\n', '\n', '\r', '\r\n', ' ',
  '{"id":1,"result":1}', '{"method":"m"}', '{"id":"1","result":2}', '{"id":null,"error":{}}', '{"id":2,"result":[]}',
  '[', ']', ',', '{', '}', '"', 'é', '😀', '\uFEFF', '\u2028', 'null', '1',
];

/** Random text made of SSE and JSON fragments, as bytes. */
export const noiseTextArb: fc.Arbitrary<Uint8Array<ArrayBuffer>> = fc
  .array(fc.constantFrom(...noiseTokens), { maxLength: 40 })
  .map((parts) => utf8(parts.join('')));

/** Random bytes, with multi-byte UTF-8 lead and continuation bytes likely. */
export const noiseBytesArb: fc.Arbitrary<Uint8Array<ArrayBuffer>> = fc
  .array(fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0x0a, 0x0d, 0x3a, 0x7b, 0x7d, 0x22, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0xef, 0xbb, 0xbf)), { maxLength: 64 })
  .map((b) => Uint8Array.from(b));

/** Any body: well-formed, noisy text, or random bytes, in either format, with any request id or none. */
export const anyBodyArb: fc.Arbitrary<{ format: 'event-stream' | 'json'; bytes: Uint8Array<ArrayBuffer>; requestId: Id | undefined }> = fc.oneof(
  { weight: 3, arbitrary: bodyArb().map((b) => ({ format: b.format, bytes: b.bytes, requestId: b.requestId as Id | undefined })) },
  {
    weight: 2,
    arbitrary: fc.record({
      format: fc.constantFrom<'event-stream' | 'json'>('event-stream', 'json'),
      bytes: fc.oneof(noiseTextArb, noiseBytesArb),
      requestId: fc.constantFrom<Id | undefined>(undefined, 1, '1', 2),
    }),
  },
);

// ---------------------------------------------------------------------------------------------
// Chunkings

/** Cut points for a body of `length` bytes: none, random ones, or every byte. */
export function cutsArb(length: number): fc.Arbitrary<number[]> {
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant<number[]>([]) },
    { weight: 6, arbitrary: fc.uniqueArray(fc.integer({ min: 0, max: length }), { maxLength: 12 }).map((c) => c.sort((a, b) => a - b)) },
    { weight: 1, arbitrary: fc.constant(Array.from({ length: Math.max(0, length - 1) }, (_, i) => i + 1)) },
  );
}

/** The bytes cut at the given points; empty chunks (repeated or end cuts) are kept. */
export const cut = cutAt;
