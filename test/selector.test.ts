import { describe, expect, test } from 'vitest';
import { select, selectEnd, selectStart, selectValue, type SelectState, type SseEvent } from '../src/index.js';

const ev = (data: string, type = 'message', lastEventId = ''): SseEvent => ({ type, data, lastEventId });
const evJson = (value: unknown, type = 'message'): SseEvent => ev(JSON.stringify(value), type);

/** Runs events through select one call at a time, then ends: what a stream of events gives. */
function run(events: SseEvent[], requestId?: string | number) {
  let state = selectStart(requestId === undefined ? {} : { requestId });
  const messages: unknown[] = [];
  for (const e of events) {
    const r = select(state, [e]);
    state = r.state;
    messages.push(...r.messages);
  }
  return { end: selectEnd(state), messages, state };
}

describe('selectStart', () => {
  test('begins with no counts and no answer', () => {
    expect(selectStart()).toStrictEqual({ requestId: undefined, events: 0, messages: 0, ignored: 0, answer: undefined });
    expect(selectStart({ requestId: 'abc' })).toStrictEqual({
      requestId: 'abc',
      events: 0,
      messages: 0,
      ignored: 0,
      answer: undefined,
    });
    expect(selectStart({ requestId: 0 }).requestId).toBe(0);
  });

  test('options are checked: an object, a request id by the one rule', () => {
    expect(() => selectStart(null as never)).toThrow(new TypeError('options must be an object, got null'));
    expect(() => selectStart({ requestId: {} as never })).toThrow(new TypeError('options.requestId must be a string or a number, got [object Object]'));
    expect(() => selectStart({ requestId: 1.5 })).toThrow(new RangeError('options.requestId must be an integer, got 1.5'));
  });
});

describe('select: what answers', () => {
  test.each(['message', 'weird', 'endpoint', '', 'error'])('the event type is not read: an event of type %j may carry the answer', (type) => {
    const r = select(selectStart(), [ev('{"jsonrpc":"2.0","id":1,"result":{"ok":true}}', type)]);
    expect(r.answer).toStrictEqual({ jsonrpc: '2.0', id: 1, result: { ok: true } });
    expect(r.state.answer).toBe(r.answer);
    expect(r.messages).toStrictEqual([]);
    expect(r.state.events).toBe(1);
  });

  test('the answer is exactly what JSON.parse produced: same keys, same order, nothing added', () => {
    const text = '{"result":{"z":1,"a":[1,"2",null,{"y":false}],"m":{}},"id":"r-1","jsonrpc":"2.0","extra":"kept"}';
    const r = select(selectStart({ requestId: 'r-1' }), [ev(text)]);
    expect(r.answer).toStrictEqual(JSON.parse(text));
    expect(JSON.stringify(r.answer)).toBe(text);
  });

  test.each([
    ['{"result":1}', { result: 1 }],
    ['{"error":{"code":-1,"message":"x"}}', { error: { code: -1, message: 'x' } }],
    ['{"jsonrpc":"1.0","id":1,"result":null}', { jsonrpc: '1.0', id: 1, result: null }],
  ])('jsonrpc "2.0" is not required: %s is a response', (data, answer) => {
    expect(select(selectStart(), [ev(data)]).answer).toStrictEqual(answer);
  });

  test('an error response with the request id answers', () => {
    const r = select(selectStart({ requestId: 5 }), [evJson({ jsonrpc: '2.0', id: 5, error: { code: -32601, message: 'nope' } })]);
    expect(r.answer).toStrictEqual({ jsonrpc: '2.0', id: 5, error: { code: -32601, message: 'nope' } });
  });

  test('the first response answers; the events after it in the same call are not examined', () => {
    const r = select(selectStart(), [
      evJson({ id: 1, result: 'first' }),
      evJson({ id: 2, result: 'second' }),
      ev('not json'),
      evJson({ method: 'late' }),
    ]);
    expect(r.answer).toStrictEqual({ id: 1, result: 'first' });
    expect(r.state).toStrictEqual({
      requestId: undefined,
      events: 1,
      messages: 0,
      ignored: 0,
      answer: { id: 1, result: 'first' },
    });
    expect(r.messages).toStrictEqual([]);
  });

  test.each([{ id: 99, result: 1 }, { result: 1 }, { id: null, result: 1 }, { id: 'x', error: {} }])(
    'without a requestId, any response answers, whatever its id (or none): %j',
    (msg) => {
      expect(select(selectStart(), [evJson(msg)]).answer).toStrictEqual(msg);
    },
  );
});

describe('select: what is passed over', () => {
  test('empty data is priming: counted as an event, neither ignored nor a message', () => {
    const r = select(selectStart(), [ev('', 'message', 'abc'), ev(''), ev('', 'weird')]);
    expect(r.state).toStrictEqual({ requestId: undefined, events: 3, messages: 0, ignored: 0, answer: undefined });
    expect(r.messages).toStrictEqual([]);
    expect(r.answer).toBeUndefined();
  });

  test('non-JSON data is passed over and counted as ignored', () => {
    const r = select(selectStart(), [ev('hello'), ev('{"id":1,"result":'), ev(' '), ev('undefined'), ev("{'id':1}")]);
    expect(r.state.ignored).toBe(5);
    expect(r.state.messages).toBe(0);
    expect(r.state.events).toBe(5);
    expect(r.answer).toBeUndefined();
  });

  test('JSON that is not a message is passed over and counted as ignored', () => {
    const values = ['42', '"result"', 'null', 'true', '{}', '{"id":1}', '{"jsonrpc":"2.0","id":1}', '{"params":{}}', '{"Result":1}'];
    const r = select(selectStart(), values.map((v) => ev(v)));
    expect(r.state).toStrictEqual({ requestId: undefined, events: values.length, messages: 0, ignored: values.length, answer: undefined });
    expect(r.messages).toStrictEqual([]);
  });

  test('result/error/method must be own keys (a key in a nested object does not count)', () => {
    const r = select(selectStart(), [ev('{"params":{"result":1}}'), ev('{"data":{"method":"x"}}')]);
    expect(r.state.ignored).toBe(2);
    expect(r.answer).toBeUndefined();
  });

  test('a notification is passed over and reported', () => {
    const note = { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } };
    const r = select(selectStart(), [evJson(note)]);
    expect(r.messages).toStrictEqual([note]);
    expect(r.state.messages).toBe(1);
    expect(r.answer).toBeUndefined();
  });

  test('a server request (method + id) is passed over even when its id is the request id', () => {
    const req = { jsonrpc: '2.0', id: 1, method: 'sampling/createMessage', params: {} };
    const r = select(selectStart({ requestId: 1 }), [evJson(req)]);
    expect(r.messages).toStrictEqual([req]);
    expect(r.answer).toBeUndefined();
  });

  test('a message carrying method is passed over even if it also carries result or error', () => {
    const a = { id: 1, method: 'x', result: { looks: 'like an answer' } };
    const b = { id: 1, method: null, error: { code: 1, message: 'm' } };
    const r = select(selectStart({ requestId: 1 }), [evJson(a), evJson(b)]);
    expect(r.messages).toStrictEqual([a, b]);
    expect(r.answer).toBeUndefined();
    const noId = select(selectStart(), [evJson(a)]);
    expect(noId.answer).toBeUndefined();
    expect(noId.messages).toStrictEqual([a]);
  });

  test('ids compare strictly: 1 is not "1", "1" is not 1', () => {
    const r1 = select(selectStart({ requestId: 1 }), [evJson({ id: '1', result: 'str' }), evJson({ id: 1, result: 'num' })]);
    expect(r1.messages).toStrictEqual([{ id: '1', result: 'str' }]);
    expect(r1.answer).toStrictEqual({ id: 1, result: 'num' });

    const r2 = select(selectStart({ requestId: '1' }), [evJson({ id: 1, result: 'num' }), evJson({ id: '1', result: 'str' })]);
    expect(r2.messages).toStrictEqual([{ id: 1, result: 'num' }]);
    expect(r2.answer).toStrictEqual({ id: '1', result: 'str' });
  });

  test('with a requestId, a response to another request (or with no id) is passed over and reported', () => {
    const others = [{ id: 2, result: 1 }, { id: 'a', error: { code: 1 } }, { result: 'no id' }, { id: null, result: 'null id, not an error' }, { id: 10, result: 1 }];
    const r = select(selectStart({ requestId: 1 }), others.map((o) => evJson(o)));
    expect(r.messages).toStrictEqual(others);
    expect(r.state.messages).toBe(others.length);
    expect(r.answer).toBeUndefined();
  });

  test('with a requestId, an error response with id null answers', () => {
    const err = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } };
    const r = select(selectStart({ requestId: 'abc' }), [evJson({ id: 'zzz', result: 1 }), evJson(err)]);
    expect(r.answer).toStrictEqual(err);
    expect(r.messages).toStrictEqual([{ id: 'zzz', result: 1 }]);
  });
});

describe('select: batches', () => {
  test('elements are examined in order as if each came alone', () => {
    const batch = [{ method: 'n1' }, 7, { id: 2, result: 'other' }, { nope: true }, { id: 1, result: 'mine' }, { method: 'after' }];
    const r = select(selectStart({ requestId: 1 }), [evJson(batch)]);
    expect(r.messages).toStrictEqual([{ method: 'n1' }, { id: 2, result: 'other' }]);
    expect(r.answer).toStrictEqual({ id: 1, result: 'mine' });
    // The element after the answer is not examined.
    expect(r.state).toStrictEqual({ requestId: 1, events: 1, messages: 2, ignored: 2, answer: { id: 1, result: 'mine' } });
  });

  test('a batch with no answer reports its messages and goes on to the next event', () => {
    const r = select(selectStart(), [evJson([{ method: 'a' }, { method: 'b', id: 3 }]), evJson({ result: 'x' })]);
    expect(r.messages).toStrictEqual([{ method: 'a' }, { method: 'b', id: 3 }]);
    expect(r.answer).toStrictEqual({ result: 'x' });
    expect(r.state.events).toBe(2);
  });

  test('an empty batch is not a message; a nested array is not a message', () => {
    const r = select(selectStart(), [ev('[]'), evJson([[{ id: 1, result: 1 }]])]);
    expect(r.answer).toBeUndefined();
    expect(r.state).toStrictEqual({ requestId: undefined, events: 2, messages: 0, ignored: 2, answer: undefined });
    expect(selectEnd(r.state).reason).toBe('no_message');
  });
});

describe('selectEnd', () => {
  test('no_message when no message came, however many priming, non-JSON or non-message events', () => {
    expect(selectEnd(selectStart())).toStrictEqual({ state: selectStart(), reason: 'no_message' });
    const { end } = run([ev(''), ev('garbage'), ev('{"a":1}'), ev('[]'), ev('', 'weird'), ev('3')], 1);
    expect(end.reason).toBe('no_message');
    expect(end.answer).toBeUndefined();
    expect(end.state).toStrictEqual({ requestId: 1, events: 6, messages: 0, ignored: 4, answer: undefined });
  });

  test('no_response when messages came but none answered', () => {
    expect(run([evJson({ method: 'notifications/message' })]).end.reason).toBe('no_response');
    // A response to another request counts as a message.
    const { end } = run([ev(''), evJson({ id: 2, result: 1 })], 1);
    expect(end.reason).toBe('no_response');
    expect(end.state.messages).toBe(1);
  });

  test('the answer when one came', () => {
    const { end, messages } = run([evJson({ method: 'a' }), evJson({ id: 1, result: 'ok' }), evJson({ method: 'b' })], 1);
    expect(end.answer).toStrictEqual({ id: 1, result: 'ok' });
    expect(end.reason).toBeUndefined();
    expect(messages).toStrictEqual([{ method: 'a' }]);
  });
});

describe('after the answer, further input is ignored', () => {
  test('select and selectValue return the same state, no messages, no answer', () => {
    const done = select(selectStart(), [evJson({ result: 1 })]).state;
    const later = select(done, [evJson({ method: 'x' }), ev('junk'), evJson({ result: 2 })]);
    expect(later.state).toBe(done);
    expect(later.messages).toStrictEqual([]);
    expect(later.answer).toBeUndefined();
    const value = selectValue(done, { result: 3 });
    expect(value.state).toBe(done);
    expect(value.answer).toBeUndefined();
    expect(selectEnd(done).answer).toStrictEqual({ result: 1 });
  });
});

describe('selectValue (an application/json body)', () => {
  test('one message: the answer is the very value passed in', () => {
    const msg = { jsonrpc: '2.0', id: 4, result: { x: [1] } };
    const r = selectValue(selectStart({ requestId: 4 }), msg);
    expect(r.answer).toBe(msg);
    expect(r.state.events).toBe(0);
  });

  test('a batch: same rules, messages reported in order, same objects', () => {
    const n = { method: 'n' };
    const other = { id: 9, result: 0 };
    const mine = { id: 'q', error: { code: 1, message: 'bad' } };
    const r = selectValue(selectStart({ requestId: 'q' }), [n, 'x', other, mine, { method: 'later' }]);
    expect(r.messages).toHaveLength(2);
    expect(r.messages[0]).toBe(n);
    expect(r.messages[1]).toBe(other);
    expect(r.answer).toBe(mine);
    expect(r.state.ignored).toBe(1);
  });

  test('a non-message value is ignored: no_message at the end', () => {
    for (const v of [null, 1, 'x', {}, [], [[]], { id: 1 }]) {
      const r = selectValue(selectStart(), v);
      expect(r.answer).toBeUndefined();
      expect(r.state.ignored).toBeGreaterThan(0);
      expect(selectEnd(r.state).reason).toBe('no_message');
    }
  });
});

describe('purity', () => {
  test('select changes neither the state nor the events it is given', () => {
    const state: SelectState = select(selectStart({ requestId: 1 }), [evJson({ method: 'before' })]).state;
    const events = [ev(''), evJson([{ method: 'a' }, { id: 2, result: 1 }]), ev('junk'), evJson({ id: 1, result: { deep: [1] } })];
    const stateBefore = structuredClone(state);
    const eventsBefore = structuredClone(events);
    const r = select(state, events);
    expect(state).toStrictEqual(stateBefore);
    expect(events).toStrictEqual(eventsBefore);
    expect(r.state).not.toBe(state);
    expect(r.state.messages).toBe(3);
    // The same input from the same state gives the same output.
    expect(select(state, events)).toStrictEqual(r);
  });

  test('selectValue does not change the value or the state', () => {
    const state = selectStart({ requestId: 1 });
    const value = [{ method: 'a' }, { id: 2, result: [1, 2] }, { id: 1, result: { k: 'v' } }];
    const valueBefore = structuredClone(value);
    const stateBefore = structuredClone(state);
    const r = selectValue(state, value);
    expect(value).toStrictEqual(valueBefore);
    expect(state).toStrictEqual(stateBefore);
    expect(r.answer).toStrictEqual({ id: 1, result: { k: 'v' } });
  });

  test('select works on a frozen state (it never writes to it)', () => {
    const state = Object.freeze(selectStart({ requestId: 1 }));
    expect(() => select(state, [evJson({ method: 'a' }), evJson({ id: 1, result: 1 })])).not.toThrow();
    expect(state.messages).toBe(0);
  });
});
