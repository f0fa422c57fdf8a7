/**
 * Properties of the answer path: chunking does not matter, whatever is passed over is reported
 * and the response answers, and the byte budget lets exactly the first maxBytes bytes through.
 * Each is checked on the pure answer reducer and on readAnswer over a ReadableStream.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { answerProgress, isAnswerError, readAnswer, type AnswerOutcome, type JsonRpcMessage } from '../src/index.js';
import { expectReleased, feed, jsonResponse, sseResponse } from '../test/helpers/bodies.js';
import {
  anyBodyArb,
  bodyArb,
  cut,
  cutsArb,
  jsonBodyArb,
  noiseBytesArb,
  type Body,
  type Id,
} from './answer-arbitraries.js';
import { numRuns, seed } from './settings.js';

/** The part of an outcome both drivers must agree on: no cause objects (they are not comparable). */
type Seen = { kind: 'answer'; answer: unknown } | { kind: 'malformed_answer'; reason: string } | { kind: 'budget_exceeded' } | { kind: 'other'; code: string };

function seenOf(outcome: AnswerOutcome | undefined): Seen {
  if (outcome === undefined) throw new Error('no outcome');
  switch (outcome.kind) {
    case 'answer':
      return { kind: 'answer', answer: outcome.answer };
    case 'malformed_answer':
      return { kind: 'malformed_answer', reason: outcome.reason };
    case 'budget_exceeded':
      return { kind: 'budget_exceeded' };
  }
}

/** Reads chunks with readAnswer; checks the body was released; returns the outcome and the messages seen. */
async function viaReadAnswer(
  format: 'event-stream' | 'json',
  chunks: readonly Uint8Array[],
  requestId: Id | undefined,
  maxBytes: number | undefined,
): Promise<{ seen: Seen; messages: JsonRpcMessage[]; bytesRead: number | undefined }> {
  const messages: JsonRpcMessage[] = [];
  const { response, source } = format === 'json' ? jsonResponse(chunks) : sseResponse(chunks);
  let seen: Seen;
  let bytesRead: number | undefined;
  try {
    seen = { kind: 'answer', answer: await readAnswer(response, { requestId, maxBytes, onMessage: (m) => messages.push(m) }) };
  } catch (error) {
    if (!isAnswerError(error)) throw error;
    bytesRead = error.detail.bytesRead;
    if (error.code === 'malformed_answer') seen = { kind: 'malformed_answer', reason: error.reason ?? 'missing reason' };
    else if (error.code === 'budget_exceeded') seen = { kind: 'budget_exceeded' };
    else seen = { kind: 'other', code: error.code };
  }
  await expectReleased(source, response);
  return { seen, messages, bytesRead };
}

/** An answer compared as the spec asks: deep, strict, and key order. */
function expectSameSeen(actual: Seen, expected: Seen): void {
  expect(actual).toStrictEqual(expected);
  if (actual.kind === 'answer' && expected.kind === 'answer') expect(JSON.stringify(actual.answer)).toBe(JSON.stringify(expected.answer));
}

/** What the spec says selecting from JSON values (in order) gives: written from the rules, not the code. */
function oracle(values: readonly unknown[], requestId: Id | undefined): { seen: Seen; reported: unknown[] } {
  const reported: unknown[] = [];
  const own = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);
  for (const value of values) {
    for (const el of Array.isArray(value) ? value : [value]) {
      if (typeof el !== 'object' || el === null || Array.isArray(el)) continue;
      if (own(el, 'method')) {
        reported.push(el);
        continue;
      }
      if (!own(el, 'result') && !own(el, 'error')) continue;
      const id = (el as { id?: unknown }).id;
      if (requestId === undefined || id === requestId || (id === null && own(el, 'error'))) return { seen: { kind: 'answer', answer: el }, reported };
      reported.push(el);
    }
  }
  return { seen: { kind: 'malformed_answer', reason: reported.length === 0 ? 'no_message' : 'no_response' }, reported };
}

const runs = Math.min(numRuns, 300);

describe('(1) any chunking gives the same answer or the same error', () => {
  test('pure reducer and readAnswer, any body, any request id, with or without a cap', async () => {
    const arb = anyBodyArb.chain((body) =>
      fc.record({
        body: fc.constant(body),
        cuts: cutsArb(body.bytes.length),
        maxBytes: fc.oneof(fc.constant(undefined), fc.constant(Infinity), fc.integer({ min: 0, max: body.bytes.length + 2 })),
      }),
    );
    await fc.assert(
      fc.asyncProperty(arb, async ({ body, cuts, maxBytes }) => {
        const options = { requestId: body.requestId, maxBytes };
        const whole = feed(body.format, [body.bytes], options);
        const chunks = cut(body.bytes, cuts);
        const split = feed(body.format, chunks, options);
        const expected = seenOf(whole.outcome);
        expectSameSeen(seenOf(split.outcome), expected);
        expect(split.messages).toStrictEqual(whole.messages);
        if (whole.outcome?.kind === 'malformed_answer' && whole.outcome.reason === 'invalid_json') {
          expect(split.outcome).toMatchObject({ cause: expect.any(SyntaxError) });
        }

        const read = await viaReadAnswer(body.format, chunks, body.requestId, maxBytes);
        expectSameSeen(read.seen, expected);
        expect(read.messages).toStrictEqual(whole.messages);
      }),
      { seed, numRuns: runs },
    );
  });

  test('an application/json body reads as Response.json() decodes it, then by the selection rules', async () => {
    const bomArb = fc.constantFrom(new Uint8Array(0), Uint8Array.of(0xef, 0xbb, 0xbf), Uint8Array.of(0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf), Uint8Array.of(0xef, 0xbb));
    const bytesArb = fc.oneof(
      jsonBodyArb().map((b) => ({ bytes: b.bytes, requestId: b.requestId as Id | undefined })),
      fc.record({ bytes: noiseBytesArb, requestId: fc.constantFrom<Id | undefined>(undefined, 1) }),
    );
    const arb = fc.tuple(bomArb, bytesArb).chain(([bom, { bytes, requestId }]) => {
      const all = new Uint8Array(bom.length + bytes.length);
      all.set(bom);
      all.set(bytes, bom.length);
      return fc.record({ bytes: fc.constant(all), requestId: fc.constant(requestId), cuts: cutsArb(all.length) });
    });
    await fc.assert(
      fc.asyncProperty(arb, async ({ bytes, requestId, cuts }) => {
        // Fetch's "parse JSON from bytes": UTF-8 decode (one leading BOM dropped, invalid bytes
        // to U+FFFD), then JSON.parse.
        const decoded = new TextDecoder().decode(bytes);
        let parsed: unknown;
        let threw = false;
        try {
          parsed = JSON.parse(decoded);
        } catch {
          threw = true;
        }
        // Node's own Response.json() agrees, except that Node 20's undici drops a second BOM too.
        const twoBoms = bytes.length >= 6 && [0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf].every((b, i) => bytes[i] === b);
        if (!twoBoms) {
          const native = await new Response(bytes).json().then(
            (v: unknown) => ({ ok: true as const, v }),
            () => ({ ok: false as const }),
          );
          expect(native.ok).toBe(!threw);
          if (native.ok) expect(native.v).toStrictEqual(parsed);
        }
        const expected: Seen =
          decoded === ''
            ? { kind: 'malformed_answer', reason: 'no_message' }
            : threw
              ? { kind: 'malformed_answer', reason: 'invalid_json' }
              : oracle([parsed], requestId).seen;
        const fed = feed('json', cut(bytes, cuts), { requestId, maxBytes: Infinity });
        expectSameSeen(seenOf(fed.outcome), expected);
        if (!threw && decoded !== '') expect(fed.messages).toStrictEqual(oracle([parsed], requestId).reported);
      }),
      { seed, numRuns: runs },
    );
  });
});

describe('(2) whatever comes before the response is passed over; the response answers', () => {
  /**
   * Reads a generated body, cut anywhere, through the pure reducer and through readAnswer: both
   * must reach `expected` and report exactly the generated messages, in order.
   */
  async function checkBodies(withAnswer: boolean, expectedOf: (body: Body) => Seen): Promise<void> {
    const arb = bodyArb({ withAnswer }).chain((body) => fc.record({ body: fc.constant(body), cuts: cutsArb(body.bytes.length) }));
    await fc.assert(
      fc.asyncProperty(arb, async ({ body, cuts }) => {
        const chunks = cut(body.bytes, cuts);
        const expected = expectedOf(body);

        const fed = feed(body.format, chunks, { requestId: body.requestId });
        expectSameSeen(seenOf(fed.outcome), expected);
        expect(fed.messages).toStrictEqual(body.reported);

        const read = await viaReadAnswer(body.format, chunks, body.requestId, undefined);
        expectSameSeen(read.seen, expected);
        expect(read.messages).toStrictEqual(body.reported);
      }),
      { seed, numRuns: runs },
    );
  }

  test('notifications, server requests, responses to other ids, priming, comments, non-JSON, batches', async () => {
    await checkBodies(true, (body) => ({ kind: 'answer', answer: body.answer }));
  });

  test('without the response: no_response when a message came, no_message otherwise', async () => {
    await checkBodies(false, (body) => ({ kind: 'malformed_answer', reason: body.reported.length === 0 ? 'no_message' : 'no_response' }));
  });
});

describe('(3) the byte budget', () => {
  test('a body within maxBytes reads as if there were no cap', () => {
    const arb = anyBodyArb.chain((body) =>
      fc.record({ body: fc.constant(body), cuts: cutsArb(body.bytes.length), extra: fc.oneof(fc.constant(0), fc.nat({ max: 100 })) }),
    );
    fc.assert(
      fc.property(arb, ({ body, cuts, extra }) => {
        const chunks = cut(body.bytes, cuts);
        const capped = feed(body.format, chunks, { requestId: body.requestId, maxBytes: body.bytes.length + extra });
        const free = feed(body.format, chunks, { requestId: body.requestId, maxBytes: Infinity });
        expectSameSeen(seenOf(capped.outcome), seenOf(free.outcome));
        expect(capped.messages).toStrictEqual(free.messages);
        expect(capped.outcome?.kind).not.toBe('budget_exceeded');
      }),
      { seed, numRuns },
    );
  });

  /** A cap below the body's length, often right around where the answer or a message is dispatched. */
  function capArb(body: Body): fc.Arbitrary<number> {
    const length = body.bytes.length;
    const near = [body.answerAt, ...body.reportedAt].filter((at): at is number => at !== undefined);
    const clamp = (n: number) => Math.max(0, Math.min(length - 1, n));
    return fc.oneof(
      fc.integer({ min: 0, max: length - 1 }),
      ...(near.length === 0 ? [] : [fc.tuple(fc.constantFrom(...near), fc.integer({ min: -3, max: 1 })).map(([at, d]) => clamp(at + d))]),
    );
  }

  test('past maxBytes: only the first maxBytes bytes are read; the answer counts only if they complete it', async () => {
    const arb = bodyArb()
      .filter((body) => body.bytes.length > 0)
      .chain((body) => fc.record({ body: fc.constant(body), maxBytes: capArb(body), cuts: cutsArb(body.bytes.length) }));
    await fc.assert(
      fc.asyncProperty(arb, async ({ body, maxBytes, cuts }) => {
        const chunks = cut(body.bytes, cuts);
        const fed = feed(body.format, chunks, { requestId: body.requestId, maxBytes });

        // From the body's structure: the answer counts iff its event is dispatched within the cap;
        // the messages reported are exactly those whose events are dispatched within the cap.
        const answered = body.answerAt !== undefined && body.answerAt <= maxBytes;
        const expected: Seen = answered ? { kind: 'answer', answer: body.answer } : { kind: 'budget_exceeded' };
        const reported = answered ? body.reported : body.reported.filter((_, i) => body.reportedAt[i]! <= maxBytes);
        expectSameSeen(seenOf(fed.outcome), expected);
        expect(fed.messages).toStrictEqual(reported);

        // From the reducer fed only the first maxBytes bytes, uncapped and never ended.
        const prefix = feed(body.format, [body.bytes.slice(0, maxBytes)], { requestId: body.requestId, maxBytes: Infinity, end: false });
        expectSameSeen(seenOf(fed.outcome), prefix.outcome?.kind === 'answer' ? seenOf(prefix.outcome) : { kind: 'budget_exceeded' });
        expect(fed.messages).toStrictEqual(prefix.messages);
        if (!answered && body.format === 'event-stream') {
          // Nothing past the cap reached the scanner or the selector.
          const { bytesRead: _, ...read } = answerProgress(fed.state);
          const { bytesRead: __, ...readFromPrefix } = answerProgress(prefix.state);
          expect(read).toStrictEqual(readFromPrefix);
        }

        // The budget counted exactly the chunks delivered up to the one that ended reading.
        const delivered = chunks.slice(0, fed.at! + 1).reduce((n, c) => n + c.length, 0);
        expect(answerProgress(fed.state).bytesRead).toBe(delivered);

        const read = await viaReadAnswer(body.format, chunks, body.requestId, maxBytes);
        expectSameSeen(read.seen, expected);
        expect(read.messages).toStrictEqual(reported);
        if (!answered) expect(read.bytesRead).toBe(delivered);
      }),
      { seed, numRuns: runs },
    );
  });
});
