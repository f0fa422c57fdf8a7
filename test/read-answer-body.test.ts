import { request as httpRequest, type IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { Agent, request as undiciRequest } from 'undici';
import { describe, expect, test } from 'vitest';
import { AnswerError, readAnswer, readAnswerBody, type JsonRpcMessage } from '../src/index.js';
import { ANSWER, ANSWER_VALUE, answerError, bytes, chunksOf, expectReleased, NOTE, NOTE_VALUE, sourceBody } from './helpers/bodies.js';
import { endlessServer } from './helpers/servers.js';

/** An async iterable over chunks that records what was asked of it; `endless` never ends after them. */
function recordedIterable(chunks: readonly (string | Uint8Array)[], opts: { endless?: boolean; error?: unknown } = {}) {
  const record = { opened: 0, nexts: 0, returned: false, finallyRan: false };
  async function* generate(): AsyncGenerator<Uint8Array> {
    try {
      for (const chunk of chunks) yield bytes(chunk);
      if (opts.error !== undefined) throw opts.error;
      if (opts.endless === true) await new Promise<never>(() => {});
    } finally {
      record.finallyRan = true;
    }
  }
  const iterable: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]() {
      record.opened++;
      const inner = generate();
      return {
        next: () => {
          record.nexts++;
          return inner.next();
        },
        return: (value?: unknown) => {
          record.returned = true;
          return inner.return(value as never);
        },
      };
    },
  };
  return { iterable, record };
}

/** The body as each kind of source readAnswerBody takes. */
const sources: [string, (chunks: string[]) => ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>][] = [
  ['a web ReadableStream', (chunks) => sourceBody(chunks).body],
  ['an async iterable', (chunks) => recordedIterable(chunks).iterable],
  ['a Node Readable', (chunks) => Readable.from(chunks.map((c) => Buffer.from(c)))],
];

describe('readAnswerBody: the same answers as readAnswer, from any body', () => {
  test.each(sources)('%s: an SSE answer after a notification, in 1- and 7-byte chunks', async (_name, make) => {
    for (const size of [1, 7, 1000]) {
      const seen: JsonRpcMessage[] = [];
      const got = await readAnswerBody(make(chunksOf(NOTE + ANSWER, size).map((c) => new TextDecoder().decode(c))), 'text/event-stream', {
        requestId: 1,
        onMessage: (m) => seen.push(m),
      });
      expect(got).toStrictEqual(ANSWER_VALUE);
      expect(seen).toStrictEqual([NOTE_VALUE]);
    }
  });

  test.each(sources)('%s: a JSON batch', async (_name, make) => {
    const got = await readAnswerBody(make(['[{"method":"a"},', '{"id":1,"result":2}]']), 'application/json; charset=utf-8');
    expect(got).toStrictEqual({ id: 1, result: 2 });
  });

  test.each(sources)('%s: the same errors (no_response, budget_exceeded)', async (_name, make) => {
    const none = await answerError(readAnswerBody(make([NOTE]), 'text/event-stream'));
    expect([none.code, none.reason]).toStrictEqual(['malformed_answer', 'no_response']);
    const over = await answerError(readAnswerBody(make([NOTE, ANSWER]), 'text/event-stream', { maxBytes: NOTE.length }));
    expect(over.code).toBe('budget_exceeded');
    expect(over.detail.bytesRead).toBe(NOTE.length + ANSWER.length);
  });

  test('a null body reads as an empty one; no content type is unsupported', async () => {
    const empty = await answerError(readAnswerBody(null, 'application/json'));
    expect([empty.code, empty.reason]).toStrictEqual(['malformed_answer', 'no_message']);
    for (const contentType of [null, undefined]) {
      const err = await answerError(readAnswerBody(null, contentType));
      expect(err.code).toBe('unsupported_content_type');
      expect(err.detail.contentType).toBeNull();
    }
  });

  test('readAnswer is readAnswerBody over the response body and its Content-Type header', async () => {
    const headers = { 'content-type': 'text/event-stream' };
    const viaResponse = await readAnswer(new Response(NOTE + ANSWER, { headers }));
    const viaBody = await readAnswerBody(new Response(NOTE + ANSWER).body, headers['content-type']);
    expect(viaBody).toStrictEqual(viaResponse);
  });
});

describe('readAnswerBody: every exit releases an iterable source', () => {
  test('answered early: the iterator is returned, its generator finished', async () => {
    const { iterable, record } = recordedIterable([NOTE, ANSWER, NOTE], { endless: true });
    expect(await readAnswerBody(iterable, 'text/event-stream')).toStrictEqual(ANSWER_VALUE);
    expect(record.nexts).toBe(2);
    expect(record.returned).toBe(true);
    expect(record.finallyRan).toBe(true);
  });

  test('read to its end: nothing is returned', async () => {
    const { iterable, record } = recordedIterable([NOTE, ANSWER.trimEnd()]);
    expect(await readAnswerBody(iterable, 'text/event-stream')).toStrictEqual(ANSWER_VALUE);
    expect(record.returned).toBe(false);
    expect(record.finallyRan).toBe(true);
  });

  test('an unsupported content type: not read, the iterator returned before its first read', async () => {
    const { iterable, record } = recordedIterable([ANSWER]);
    const err = await answerError(readAnswerBody(iterable, 'text/html'));
    expect(err.code).toBe('unsupported_content_type');
    expect(record.nexts).toBe(0);
    expect(record.returned).toBe(true);
  });

  test('a Node stream is destroyed on an early stop, and on a refused content type before any read', async () => {
    const answered = Readable.from([Buffer.from(ANSWER), Buffer.from(NOTE)]);
    expect(await readAnswerBody(answered, 'text/event-stream')).toStrictEqual(ANSWER_VALUE);
    expect(answered.destroyed).toBe(true);
    const refused = Readable.from([Buffer.from(ANSWER)]);
    await answerError(readAnswerBody(refused, 'text/plain'));
    expect(refused.destroyed).toBe(true);
  });

  test('an iterator whose next() returns its results as they are, not in promises, is read as for await reads it', async () => {
    const plain = (): AsyncIterable<Uint8Array> => ({
      [Symbol.asyncIterator]() {
        const chunks = [bytes(NOTE), bytes(ANSWER)];
        return { next: () => (chunks.length > 0 ? { done: false, value: chunks.shift()! } : { done: true, value: undefined }) } as unknown as AsyncIterator<Uint8Array>;
      },
    });
    const seen: JsonRpcMessage[] = [];
    expect(await readAnswerBody(plain(), 'text/event-stream', { onMessage: (message) => seen.push(message) })).toStrictEqual(ANSWER_VALUE);
    expect(await readAnswerBody(plain(), 'text/event-stream', { signal: new AbortController().signal })).toStrictEqual(ANSWER_VALUE);
    expect(seen).toStrictEqual([NOTE_VALUE]);
  });

  test("a source whose destroy getter throws: the answer read stands, an abort is aborted, and nothing throws later", async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown): void => void uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      const hostile = (chunks: readonly string[], endless: boolean): AsyncIterable<Uint8Array> => ({
        async *[Symbol.asyncIterator]() {
          for (const chunk of chunks) yield bytes(chunk);
          if (endless) await new Promise(() => {});
        },
        get destroy(): never {
          throw new Error('destroy getter');
        },
      } as AsyncIterable<Uint8Array>);
      expect(await readAnswerBody(hostile([ANSWER, NOTE], false), 'text/event-stream')).toStrictEqual(ANSWER_VALUE);
      const controller = new AbortController();
      const pending = answerError(readAnswerBody(hostile([NOTE], true), 'text/event-stream', { signal: controller.signal }));
      setTimeout(() => controller.abort(), 10);
      expect((await pending).code).toBe('aborted');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });

  test('an abort while the iterator hangs: aborted at once, the iterator returned', async () => {
    const { iterable, record } = recordedIterable([NOTE], { endless: true });
    const controller = new AbortController();
    const reading = readAnswerBody(iterable, 'text/event-stream', { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop')), 10);
    const err = await answerError(reading);
    expect(err.code).toBe('aborted');
    expect(err.detail.messages).toBe(1);
    expect(record.returned).toBe(true);
  });

  test('an already-aborted signal: the iterable is not read, and is returned', async () => {
    const { iterable, record } = recordedIterable([ANSWER]);
    const err = await answerError(readAnswerBody(iterable, 'text/event-stream', { signal: AbortSignal.abort() }));
    expect(err.code).toBe('aborted');
    expect(record.nexts).toBe(0);
    expect(record.returned).toBe(true);
  });

  test('an iterable that throws: stream_failed with its error as cause', async () => {
    const failure = new Error('socket hang up');
    const { iterable } = recordedIterable([NOTE], { error: failure });
    const err = await answerError(readAnswerBody(iterable, 'text/event-stream'));
    expect(err.code).toBe('stream_failed');
    expect(err.cause).toBe(failure);
    expect(err.message).toContain('socket hang up');
    expect(err.detail.messages).toBe(1);
  });

  test.each([
    ['whose next() throws instead of rejecting', { [Symbol.asyncIterator]: () => ({ next: () => { throw new Error('broken next'); } }) }],
    ['whose Symbol.asyncIterator throws', { [Symbol.asyncIterator]: () => { throw new Error('broken iterator'); } }],
  ])('an iterable %s: stream_failed with that error as cause', async (_name, iterable) => {
    const err = await answerError(readAnswerBody(iterable as AsyncIterable<Uint8Array>, 'text/event-stream'));
    expect(err.code).toBe('stream_failed');
    expect((err.cause as Error).message).toMatch(/^broken/);
  });

  test('a Node stream of strings (an encoding set): stream_failed with a TypeError, the stream destroyed', async () => {
    const strings = Readable.from([ANSWER]);
    const err = await answerError(readAnswerBody(strings, 'text/event-stream'));
    expect(err.code).toBe('stream_failed');
    expect(err.cause).toBeInstanceOf(TypeError);
    expect(strings.destroyed).toBe(true);
  });
});

describe('readAnswerBody: arguments are checked before the body is touched', () => {
  test.each([
    ['a string', 'data: x\n\n'],
    ['undefined', undefined],
    ['a plain object', {}],
    ['an array of chunks', [new Uint8Array(1)]],
  ])('a body that is %s is a TypeError', async (_name, body) => {
    await expect(readAnswerBody(body as never, 'text/event-stream')).rejects.toThrow(TypeError);
  });

  test('a locked stream is a TypeError, and stays with its reader', async () => {
    const { body } = sourceBody([ANSWER]);
    const reader = body.getReader();
    await expect(readAnswerBody(body, 'text/event-stream')).rejects.toThrow(TypeError);
    await expect(readAnswerBody(body, 'text/plain')).rejects.toThrow(AnswerError);
    expect((await reader.read()).value).toStrictEqual(bytes(ANSWER));
  });

  test('a content type that is not a string is a TypeError, and the body is not touched', async () => {
    const { body } = sourceBody([ANSWER]);
    await expect(readAnswerBody(body, 42 as never)).rejects.toThrow(/contentType must be a string/);
    expect(body.locked).toBe(false);
  });

  test('bad options: the iterable is not even opened', async () => {
    const { iterable, record } = recordedIterable([ANSWER]);
    await expect(readAnswerBody(iterable, 'text/event-stream', { maxBytes: '10' as never })).rejects.toThrow(TypeError);
    expect(record.opened).toBe(0);
  });
});

/** A POST through node:http; resolves with the response (an http.IncomingMessage) once its head came. */
function nodePost(url: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, resolve);
    req.on('error', reject);
    req.end('{}');
  });
}

describe('over real HTTP: the server sees the connection closed on every early stop', () => {
  const clients: [string, (url: string) => Promise<{ body: AsyncIterable<Uint8Array>; contentType: string | undefined; done: () => Promise<void> }>][] = [
    [
      "node:http's IncomingMessage",
      async (url) => {
        const res = await nodePost(url);
        return { body: res, contentType: res.headers['content-type'], done: async () => {} };
      },
    ],
    [
      "undici's request() body",
      async (url) => {
        const dispatcher = new Agent();
        const res = await undiciRequest(url, { method: 'POST', body: '{}', dispatcher });
        const type = res.headers['content-type'];
        return { body: res.body, contentType: Array.isArray(type) ? type.join(', ') : type, done: () => dispatcher.close() };
      },
    ],
  ];

  test.each(clients)('%s: a never-ending SSE answer resolves', async (_name, open) => {
    const server = await endlessServer('text/event-stream', NOTE + ANSWER);
    try {
      const { body, contentType, done } = await open(server.url);
      const seen: JsonRpcMessage[] = [];
      expect(await readAnswerBody(body, contentType, { onMessage: (m) => seen.push(m) })).toStrictEqual(ANSWER_VALUE);
      expect(seen).toStrictEqual([NOTE_VALUE]);
      await server.closed;
      await done();
    } finally {
      await server.stop();
    }
  });

  test.each(clients)('%s: a silent server times out', async (_name, open) => {
    const server = await endlessServer('text/event-stream', ': hello\n\n', 'silent');
    try {
      const { body, contentType, done } = await open(server.url);
      const err = await answerError(readAnswerBody(body, contentType, { signal: AbortSignal.timeout(50) }));
      expect(err.code).toBe('timeout');
      await server.closed;
      await done();
    } finally {
      await server.stop();
    }
  });

  test.each(clients)('%s: an unsupported content type is refused unread', async (_name, open) => {
    const server = await endlessServer('text/html', '<html>');
    try {
      const { body, contentType, done } = await open(server.url);
      const err = await answerError(readAnswerBody(body, contentType));
      expect(err.code).toBe('unsupported_content_type');
      expect(err.detail.bytesRead).toBe(0);
      await server.closed;
      await done();
    } finally {
      await server.stop();
    }
  });

  test('a web ReadableStream from fetch: released the same way', async () => {
    const server = await endlessServer('text/event-stream', ANSWER);
    try {
      const response = await fetch(server.url, { method: 'POST', body: '{}' });
      expect(await readAnswerBody(response.body, response.headers.get('content-type'))).toStrictEqual(ANSWER_VALUE);
      await server.closed;
    } finally {
      await server.stop();
    }
  });
});

test('a released web source: expectReleased holds for readAnswerBody as for readAnswer', async () => {
  const source = sourceBody([NOTE, ANSWER, NOTE], { endless: true });
  const response = new Response(source.body);
  expect(await readAnswerBody(response.body, 'text/event-stream')).toStrictEqual(ANSWER_VALUE);
  expect(await expectReleased(source, response)).toBe('cancelled');
});
