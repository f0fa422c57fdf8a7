import { describe, expect, test } from 'vitest';
import { answer, answerEnd, answerProgress, answerStart, DEFAULT_MAX_BYTES, type AnswerState } from '../src/index.js';
import { bytes, chunksOf, concat, feed, splitAt } from './helpers/bodies.js';

const ANSWER = 'data: {"id":1,"result":1}\n\n';
const NOTE = 'data: {"method":"notifications/message","params":{"n":1}}\n\n';

describe('answerStart', () => {
  test.each(['event-stream', 'json'] as const)('%s: begins with nothing read and no outcome', (format) => {
    const s = answerStart({ format, requestId: 7 });
    expect(s.format).toBe(format);
    expect(answerProgress(s)).toStrictEqual({ bytesRead: 0, events: 0, messages: 0, ignored: 0, lastEventId: '', retry: undefined });
    expect(answerEnd(s).outcome).toStrictEqual({ kind: 'malformed_answer', reason: 'no_message' });
  });

  test.each(['event-stream', 'json'] as const)('%s: the request id is kept; only its response answers', (format) => {
    const body = (id: number): string => (format === 'json' ? `{"id":${id},"result":1}` : `data: {"id":${id},"result":1}\n\n`);
    expect(feed(format, [body(7)], { requestId: 7 }).outcome).toStrictEqual({ kind: 'answer', answer: { id: 7, result: 1 } });
    expect(feed(format, [body(1)], { requestId: 7 }).outcome).toStrictEqual({ kind: 'malformed_answer', reason: 'no_response' });
  });

  test.each([
    [undefined, DEFAULT_MAX_BYTES],
    [Infinity, DEFAULT_MAX_BYTES * 2],
  ])('maxBytes %s lets exactly %i bytes through', (maxBytes, limit) => {
    const body = new Uint8Array(limit + 1).fill(0x20); // JSON whitespace
    const within = answer(answerStart({ format: 'json', maxBytes }), body.subarray(0, limit));
    expect(within.outcome).toBeUndefined();
    const over = answer(within.state, body.subarray(limit));
    expect(over.outcome).toStrictEqual(maxBytes === undefined ? { kind: 'budget_exceeded' } : undefined);
  });

  test.each([
    [-1, RangeError],
    [1.5, RangeError],
    [NaN, RangeError],
    ['10', TypeError],
  ])('a bad maxBytes %s is a %o', (bad, type) => {
    expect(() => answerStart({ format: 'json', maxBytes: bad as never })).toThrow(type);
    expect(() => answerStart({ format: 'event-stream', maxBytes: bad as never })).toThrow(type);
  });

  test('options are checked: an object, a format it reads, a request id by the one rule', () => {
    expect(() => answerStart(null as never)).toThrow(new TypeError('options must be an object, got null'));
    expect(() => answerStart({} as never)).toThrow(new TypeError('options.format must be "json" or "event-stream", got undefined'));
    expect(() => answerStart({ format: 'xml' as never })).toThrow(new TypeError('options.format must be "json" or "event-stream", got "xml"'));
    expect(() => answerStart({ format: 'json', requestId: {} as never })).toThrow(new TypeError('options.requestId must be a string or a number, got [object Object]'));
    expect(() => answerStart({ format: 'json', requestId: 1.5 })).toThrow(new RangeError('options.requestId must be an integer, got 1.5'));
  });
});

describe('event-stream', () => {
  test('the chunk that completes the answer event ends reading, before the body ends', () => {
    const s0 = answerStart({ format: 'event-stream' });
    const r1 = answer(s0, bytes('data: {"id":1,'));
    expect(r1.outcome).toBeUndefined();
    const r2 = answer(r1.state, bytes('"result":{"b":2,"a":1}}\n'));
    expect(r2.outcome).toBeUndefined();
    const r3 = answer(r2.state, bytes('\ndata: ignored'));
    expect(r3.outcome).toStrictEqual({ kind: 'answer', answer: { id: 1, result: { b: 2, a: 1 } } });
    expect(answerEnd(r3.state).outcome).toBe(r3.outcome);
    expect(JSON.stringify(r3.outcome?.kind === 'answer' && r3.outcome.answer)).toBe('{"id":1,"result":{"b":2,"a":1}}');
  });

  test('messages passed over are reported by the chunk that completes them, in order', () => {
    const r1 = answer(answerStart({ format: 'event-stream', requestId: 1 }), bytes(NOTE + 'data: [{"method":"a"},{"id":2,"result":0}]\n'));
    expect(r1.messages).toStrictEqual([{ method: 'notifications/message', params: { n: 1 } }]);
    const r2 = answer(r1.state, bytes('\n' + 'data: {"id":1,"method":"ping"}\n\n' + ANSWER));
    expect(r2.messages).toStrictEqual([{ method: 'a' }, { id: 2, result: 0 }, { id: 1, method: 'ping' }]);
    expect(r2.outcome).toStrictEqual({ kind: 'answer', answer: { id: 1, result: 1 } });
    expect(answerProgress(r2.state).messages).toBe(4);
  });

  test.each(['', '\n', '\r', '\r\n'])('a pending final event ending in %j is dispatched at the end', (lineEnd) => {
    const fed = feed('event-stream', ['data: {"id":1,"result":1}' + lineEnd]);
    expect(fed.outcome).toStrictEqual({ kind: 'answer', answer: { id: 1, result: 1 } });
    expect(fed.at).toBe(1); // by answerEnd, not by the chunk
  });

  test('no_message: only priming, comments, non-JSON and non-messages', () => {
    const fed = feed('event-stream', ['id: 1\ndata:\n\n', ': keep-alive\n\n', 'data: nope\n\n', 'data: {"x":1}\n\n', 'event: ping\n\n']);
    expect(fed.outcome).toStrictEqual({ kind: 'malformed_answer', reason: 'no_message' });
    expect(answerProgress(fed.state)).toMatchObject({ events: 3, messages: 0, ignored: 2, lastEventId: '1' });
  });

  test.each([
    ['a notification alone', [NOTE], undefined, 'no_response'],
    ['a response to another request', [ANSWER], 2, 'no_response'],
    ['data that is not JSON (never invalid_json)', ['data: {broken\n\n'], undefined, 'no_message'],
    ['an empty body', [], undefined, 'no_message'],
    ['an empty chunk', [''], undefined, 'no_message'],
  ])('%s is malformed: %s', (_, chunks, requestId, reason) => {
    expect(feed('event-stream', chunks, { requestId }).outcome).toStrictEqual({ kind: 'malformed_answer', reason });
  });
});

describe('json', () => {
  test('nothing is decided before the end; the whole body is one message', () => {
    const text = '{"jsonrpc":"2.0","id":"a","result":{"z":[1,2],"a":"é"}}';
    let s = answerStart({ format: 'json', requestId: 'a' });
    for (const c of chunksOf(text, 3)) {
      const r = answer(s, c);
      expect(r.outcome).toBeUndefined();
      expect(r.messages).toStrictEqual([]);
      s = r.state;
    }
    const end = answerEnd(s);
    expect(end.outcome).toStrictEqual({ kind: 'answer', answer: JSON.parse(text) });
    expect(JSON.stringify(end.outcome.kind === 'answer' && end.outcome.answer)).toBe(text);
    expect(answerProgress(end.state).events).toBe(0);
  });

  test('a batch: messages reported at the end, in order; elements after the answer are not', () => {
    const fed = feed('json', ['[{"method":"n"},{"id":2,"result":0},{"id":1,"result":"mine"},{"method":"later"}]'], { requestId: 1 });
    expect(fed.messages).toStrictEqual([{ method: 'n' }, { id: 2, result: 0 }]);
    expect(fed.outcome).toStrictEqual({ kind: 'answer', answer: { id: 1, result: 'mine' } });
  });

  test('one leading BOM is stripped; a second one is not', () => {
    const msg = '{"id":1,"result":true}';
    expect(feed('json', [concat([new Uint8Array([0xef, 0xbb, 0xbf]), msg])]).outcome).toStrictEqual({ kind: 'answer', answer: { id: 1, result: true } });
    // The BOM split across chunks.
    expect(feed('json', [new Uint8Array([0xef]), new Uint8Array([0xbb]), new Uint8Array([0xbf]), msg]).outcome).toStrictEqual({
      kind: 'answer',
      answer: { id: 1, result: true },
    });
    const two = feed('json', [concat([new Uint8Array([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]), msg])]);
    expect(two.outcome).toMatchObject({ kind: 'malformed_answer', reason: 'invalid_json' });
  });

  test('unparsable JSON is invalid_json, with JSON.parse\'s error as the cause', () => {
    const fed = feed('json', ['{"id":1,"result":']);
    expect(fed.outcome?.kind).toBe('malformed_answer');
    if (fed.outcome?.kind !== 'malformed_answer') return;
    expect(fed.outcome.reason).toBe('invalid_json');
    expect(fed.outcome.cause).toBeInstanceOf(SyntaxError);
  });

  test.each([
    ['an empty body', [], 'no_message'],
    ['empty chunks', ['', ''], 'no_message'],
    ['a non-message', ['{"id":1}'], 'no_message'],
    ['an empty batch', ['[]'], 'no_message'],
    ['a notification', ['{"method":"x"}'], 'no_response'],
  ])('%s is malformed: %s', (_, chunks, reason) => {
    expect(feed('json', chunks).outcome).toStrictEqual({ kind: 'malformed_answer', reason });
  });

  test('decodes as Response.json() does: multi-byte characters split anywhere, invalid bytes to U+FFFD', async () => {
    const body = concat(['{"id":1,"result":"', 'é€😀', new Uint8Array([0xff, 0xc3, 0x28, 0xe2, 0x82]), '"}']);
    const expected: unknown = await new Response(body).json();
    for (let size = 1; size <= 4; size++) {
      const fed = feed('json', chunksOf(body, size));
      expect(fed.outcome).toStrictEqual({ kind: 'answer', answer: expected });
    }
    // A multi-byte character cut off at the end of the body.
    const cut = concat(['{"id":1,"result":"', new Uint8Array([0xf0, 0x9f, 0x98])]);
    await expect(new Response(cut).json()).rejects.toThrow(SyntaxError);
    expect(feed('json', chunksOf(cut, 1)).outcome).toMatchObject({ kind: 'malformed_answer', reason: 'invalid_json' });
    const wholeButTail = concat(['{"id":1,"result":"x"}', new Uint8Array([0xe2])]);
    await expect(new Response(wholeButTail).json()).rejects.toThrow(SyntaxError);
    expect(feed('json', [wholeButTail]).outcome).toMatchObject({ kind: 'malformed_answer', reason: 'invalid_json' });
  });
});

describe('the byte budget', () => {
  test('cap between the two newlines of the answer event: budget_exceeded, not an answer', () => {
    const body = 'data: {"id":1,"result":1}\n\n';
    const atFirstNewline = body.length - 1;
    for (const chunks of [[body], chunksOf(body, 1), splitAt(body, [atFirstNewline])]) {
      const fed = feed('event-stream', chunks, { maxBytes: atFirstNewline });
      expect(fed.outcome).toStrictEqual({ kind: 'budget_exceeded' });
      expect(fed.messages).toStrictEqual([]);
      expect(answerProgress(fed.state).events).toBe(0);
    }
  });

  test('a chunk cut to one character at the cap ends reading at that chunk', () => {
    // The one-character path (a chunk that only extends the pending line) must not take the
    // part of a chunk that crosses the cap: that chunk ends reading, whatever is left of it.
    const body = new TextEncoder().encode('data: ' + 'x'.repeat(20) + '\n\n');
    const cap = 'data: xxx'.length; // odd: the 2-byte chunk at bytes 8–9 is cut to one 'x'
    let state = answerStart({ format: 'event-stream', requestId: 1, maxBytes: cap });
    let ended = -1;
    for (let at = 0; at < body.length && ended === -1; at += 2) {
      const read = answer(state, body.subarray(at, at + 2));
      state = read.state;
      if (read.outcome !== undefined) {
        expect(read.outcome).toStrictEqual({ kind: 'budget_exceeded' });
        ended = at;
      }
    }
    expect(ended).toBe(cap - 1);
    expect(answerProgress(state).bytesRead).toBe(cap + 1);
  });

  test('a body of exactly maxBytes passes', () => {
    expect(feed('event-stream', [ANSWER], { maxBytes: ANSWER.length }).outcome).toStrictEqual({ kind: 'answer', answer: { id: 1, result: 1 } });
    const json = '{"id":1,"result":1}';
    expect(feed('json', chunksOf(json, 2), { maxBytes: json.length }).outcome).toStrictEqual({ kind: 'answer', answer: { id: 1, result: 1 } });
    expect(feed('json', [json + ' '], { maxBytes: json.length }).outcome).toStrictEqual({ kind: 'budget_exceeded' });
  });

  test('an answer completed within the cap counts even if the body goes on past it', () => {
    const body = ANSWER + 'data: ' + 'x'.repeat(100) + '\n\n';
    const fed = feed('event-stream', [body], { maxBytes: ANSWER.length + 2 });
    expect(fed.outcome).toStrictEqual({ kind: 'answer', answer: { id: 1, result: 1 } });
    expect(answerProgress(fed.state).bytesRead).toBe(body.length);
    const lateCap = feed('event-stream', chunksOf(body, 5), { maxBytes: ANSWER.length });
    expect(lateCap.outcome).toStrictEqual({ kind: 'answer', answer: { id: 1, result: 1 } });
  });

  test('the answer one byte past the cap is budget_exceeded; messages within the cap are still reported', () => {
    const body = NOTE + ANSWER;
    const fed = feed('event-stream', [body], { maxBytes: body.length - 1 });
    expect(fed.outcome).toStrictEqual({ kind: 'budget_exceeded' });
    expect(fed.messages).toStrictEqual([{ method: 'notifications/message', params: { n: 1 } }]);
    expect(answerProgress(fed.state).messages).toBe(1);
  });

  test('no byte past the cap is scanned: a field line cut at the cap has no effect', () => {
    // The id line's value is cut at the cap: the id buffer must not see the bytes after it,
    // and the retry line after the cap must not set anything.
    const body = 'id: abcdef\n\nretry: 5000\n\n';
    const cap = 'id: abc'.length;
    const fed = feed('event-stream', [body], { maxBytes: cap });
    expect(fed.outcome).toStrictEqual({ kind: 'budget_exceeded' });
    expect(answerProgress(fed.state).lastEventId).toBe('');
    expect(answerProgress(fed.state).retry).toBeUndefined();
    const within = feed('event-stream', [body], { maxBytes: 'id: abcdef\n\n'.length });
    expect(answerProgress(within.state).lastEventId).toBe('abcdef');
    expect(answerProgress(within.state).retry).toBeUndefined();
  });

  test('a json body past the cap is budget_exceeded at the chunk that crosses it', () => {
    const fed = feed('json', ['{"id":1,', '"result":1}', '   '], { maxBytes: 12 });
    expect(fed.outcome).toStrictEqual({ kind: 'budget_exceeded' });
    expect(fed.at).toBe(1);
    expect(answerProgress(fed.state).bytesRead).toBe(8 + 11);
  });

  test('maxBytes 0 reads nothing', () => {
    expect(feed('event-stream', [ANSWER], { maxBytes: 0 }).outcome).toStrictEqual({ kind: 'budget_exceeded' });
    expect(feed('event-stream', [], { maxBytes: 0 }).outcome).toStrictEqual({ kind: 'malformed_answer', reason: 'no_message' });
  });
});

describe('after the outcome', () => {
  test('further chunks are ignored and answerEnd repeats the outcome', () => {
    const r = answer(answerStart({ format: 'event-stream' }), bytes(ANSWER));
    const later = answer(r.state, bytes(NOTE + 'data: {"result":2}\n\n'));
    expect(later.state).toBe(r.state);
    expect(later.outcome).toBeUndefined();
    expect(later.messages).toStrictEqual([]);
    const end = answerEnd(r.state);
    expect(end.outcome).toBe(r.outcome);
    expect(end.messages).toStrictEqual([]);

    const over = feed('json', ['{"id":1,"result":1}'], { maxBytes: 3, end: false });
    expect(over.outcome).toStrictEqual({ kind: 'budget_exceeded' });
    expect(answerEnd(over.state).outcome).toStrictEqual({ kind: 'budget_exceeded' });
  });
});

describe('purity', () => {
  test('answer changes neither the state nor the chunk', () => {
    for (const format of ['event-stream', 'json'] as const) {
      const mid = answer(answerStart({ format, requestId: 1 }), bytes(format === 'json' ? '{"id":1,"res' : NOTE + 'data: {"id":1,"res')).state;
      const chunk = bytes('ult":"é"}\n\n');
      const stateBefore = structuredClone(mid);
      const chunkBefore = chunk.slice();
      const r = answer(mid, chunk);
      expect(mid).toStrictEqual(stateBefore);
      expect(chunk).toStrictEqual(chunkBefore);
      expect(r.state).not.toBe(mid);
      // Same input, same output.
      expect(answer(mid, chunk)).toStrictEqual(r);
      expect(answerEnd(mid)).toStrictEqual(answerEnd(structuredClone(mid)));
    }
  });

  test('answerEnd does not change the state', () => {
    const mid: AnswerState = answer(answerStart({ format: 'event-stream' }), bytes('data: {"result":1}')).state;
    const before = structuredClone(mid);
    expect(answerEnd(mid).outcome).toStrictEqual({ kind: 'answer', answer: { result: 1 } });
    expect(mid).toStrictEqual(before);
  });

  test('the chunk is not kept: overwriting it after the call changes nothing', () => {
    for (const format of ['event-stream', 'json'] as const) {
      const text = format === 'json' ? '{"id":1,"result":"é😀"}' : 'data: {"id":1,"result":"é😀"}\n\n';
      const all = bytes(text);
      let s = answerStart({ format });
      // Cut inside the multi-byte characters so partial sequences must be carried over.
      const cuts = [all.indexOf(0xc3) + 1, all.indexOf(0xf0) + 2, all.length - 3];
      for (const piece of splitAt(all, cuts)) {
        const buffer = piece.slice();
        const r = answer(s, buffer);
        buffer.fill(0x21); // '!': reuse of the caller's memory
        s = r.state;
        if (r.outcome !== undefined) break;
      }
      const out = answerEnd(s).outcome; // the outcome reached, or the one the end gives
      expect(out).toStrictEqual({ kind: 'answer', answer: { id: 1, result: 'é😀' } });
    }
  });
});
