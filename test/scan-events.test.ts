import { request as httpRequest, type IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { Agent, request as undiciRequest } from 'undici';
import { describe, expect, test } from 'vitest';
import { AnswerError, DEFAULT_MAX_BYTES, isAnswerError, readAnswerBody, scan, scanEnd, scanEvents, scanStart, type SseEvent } from '../src/index.js';
import { bytes, chunksOf, rejection, sourceBody } from './helpers/bodies.js';
import { endlessServer } from './helpers/servers.js';

const STREAM = ': hi\nid: 7\nretry: 300\ndata:\n\nevent: note\ndata: {"a":1}\n\ndata: h\u00e9llo\r\ndata: \ud83d\ude80\r\n\r\ndata: tail';

/** What the scanner alone gives for the whole stream. */
function scanned(body: string, dispatchIncomplete = false): SseEvent[] {
  const read = scan(scanStart(), bytes(body));
  return [...read.events, ...scanEnd(read.state, { dispatchIncomplete }).events];
}

async function collect(events: AsyncIterable<SseEvent>): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

async function* generate(chunks: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  yield* chunks;
}

describe('scanEvents gives the scanner\'s events, from any source', () => {
  const sources: [string, (chunks: Uint8Array[]) => ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>][] = [
    ['a web ReadableStream', (chunks) => sourceBody(chunks).body],
    ['an async generator', (chunks) => generate(chunks)],
    ['a Node Readable', (chunks) => Readable.from(chunks.map((c) => Buffer.from(c)))],
  ];

  test.each(sources)('%s, in any chunking', async (_name, make) => {
    for (const size of [1, 3, 1000]) {
      expect(await collect(scanEvents(make(chunksOf(STREAM, size))))).toStrictEqual(scanned(STREAM));
      expect(await collect(scanEvents(make(chunksOf(STREAM, size)), { dispatchIncomplete: true }))).toStrictEqual(scanned(STREAM, true));
    }
  });

  test('the final event without its blank line is dispatched only with dispatchIncomplete', async () => {
    const last = await collect(scanEvents(sourceBody(['data: tail']).body, { dispatchIncomplete: true }));
    expect(last).toStrictEqual([{ type: 'message', data: 'tail', lastEventId: '' }]);
    expect(await collect(scanEvents(sourceBody(['data: tail']).body))).toStrictEqual([]);
  });
});

describe('scanEvents releases the source on every early exit', () => {
  test('break: a web stream is cancelled and unlocked', async () => {
    const source = sourceBody(['data: 1\n\n', 'data: 2\n\n'], { endless: true });
    for await (const event of scanEvents(source.body)) {
      expect(event.data).toBe('1');
      break;
    }
    expect(source.pulls).toBe(1);
    expect(source.cancelled).toBe(true);
    expect(source.body.locked).toBe(false);
  });

  test('break: an async generator is returned (its finally runs); a Node stream is destroyed', async () => {
    let finallyRan = false;
    async function* endless(): AsyncGenerator<Uint8Array> {
      try {
        for (;;) yield bytes('data: x\n\n');
      } finally {
        finallyRan = true;
      }
    }
    for await (const _ of scanEvents(endless())) break;
    expect(finallyRan).toBe(true);

    const node = Readable.from((function* () {
      for (;;) yield Buffer.from('data: x\n\n');
    })());
    for await (const _ of scanEvents(node)) break;
    expect(node.destroyed).toBe(true);
  });

  test('a throw in the loop: the source is cancelled and the error is the loop\'s', async () => {
    const source = sourceBody(['data: 1\n\n'], { endless: true });
    const thrown = new Error('consumer failed');
    const error = await rejection(
      (async () => {
        for await (const _ of scanEvents(source.body)) throw thrown;
      })(),
    );
    expect(error).toBe(thrown);
    expect(source.cancelled).toBe(true);
  });

  test('an abort during a pending read: the loop throws the reason, the source is cancelled with it', async () => {
    const source = sourceBody(['data: 1\n\n'], { endless: true });
    const controller = new AbortController();
    const reason = new Error('enough');
    const seen: string[] = [];
    const error = await rejection(
      (async () => {
        for await (const event of scanEvents(source.body, { signal: controller.signal })) {
          seen.push(event.data);
          setTimeout(() => controller.abort(reason), 5);
        }
      })(),
    );
    expect(error).toBe(reason);
    expect(seen).toStrictEqual(['1']);
    expect(source.cancelReason).toBe(reason);
    expect(source.body.locked).toBe(false);
  });

  test('an abort while the loop body runs: no further event, the source released at once', async () => {
    const source = sourceBody(['data: 1\n\ndata: 2\n\n', 'data: 3\n\n']);
    const controller = new AbortController();
    const seen: string[] = [];
    const error = await rejection(
      (async () => {
        for await (const event of scanEvents(source.body, { signal: controller.signal })) {
          seen.push(event.data);
          controller.abort('stop');
          expect(source.cancelled).toBe(true);
        }
      })(),
    );
    expect(error).toBe('stop');
    expect(seen).toStrictEqual(['1']);
  });

  test('an abort while an iterator hangs: the loop throws at once, the iterator is returned', async () => {
    let returned = false;
    const hanging: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => ({
        next: () => new Promise<never>(() => {}),
        return: async () => {
          returned = true;
          return { done: true, value: undefined };
        },
      }),
    };
    const error = await rejection(collect(scanEvents(hanging, { signal: AbortSignal.timeout(10) })));
    expect((error as Error).name).toBe('TimeoutError');
    expect(returned).toBe(true);
  });

  test('a deadline holds against a source that always has a chunk ready', async () => {
    const source = sourceBody([], { endless: 'heartbeat' });
    const error = await rejection(collect(scanEvents(source.body, { signal: AbortSignal.timeout(30) })));
    expect((error as Error).name).toBe('TimeoutError');
    expect(source.cancelled).toBe(true);
  });

  test('an already-aborted signal: nothing is read, the source is cancelled', async () => {
    const source = sourceBody(['data: 1\n\n']);
    expect(await rejection(collect(scanEvents(source.body, { signal: AbortSignal.abort('no') })))).toBe('no');
    expect(source.pulls).toBe(0);
    expect(source.cancelled).toBe(true);
  });

  test('an already-aborted signal and a loop never run: the source is cancelled all the same, with the reason', async () => {
    const source = sourceBody(['data: 1\n\n']);
    scanEvents(source.body, { signal: AbortSignal.abort('no') });
    expect(await source.released).toBe('cancelled');
    expect([source.pulls, source.cancelReason]).toEqual([0, 'no']);
  });
});

describe('scanEvents: faults reach the loop', () => {
  test('a source error reaches the loop as it is, after the events before it', async () => {
    const failure = new Error('reset');
    const source = sourceBody(['data: 1\n\n'], { errorAfter: 1, error: failure });
    const seen: string[] = [];
    const error = await rejection(
      (async () => {
        for await (const event of scanEvents(source.body)) seen.push(event.data);
      })(),
    );
    expect(error).toBe(failure);
    expect(seen).toStrictEqual(['1']);
  });

  test('a chunk that is not a Uint8Array is a TypeError, and the source is cancelled', async () => {
    let cancelled = false;
    const body = new ReadableStream<unknown>({
      pull: (c) => c.enqueue(new DataView(new ArrayBuffer(4))),
      cancel: () => {
        cancelled = true;
      },
    });
    const error = await rejection(collect(scanEvents(body as ReadableStream<Uint8Array>)));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toContain('DataView');
    expect(cancelled).toBe(true);
  });

  test.each([
    ['a source that is a string', () => scanEvents('data: x' as never)],
    ['a source that is null', () => scanEvents(null as never)],
    ['a signal that is not an AbortSignal', () => scanEvents(sourceBody([]).body, { signal: { aborted: false, addEventListener() {} } as never })],
    ['dispatchIncomplete that is not a boolean', () => scanEvents(sourceBody([]).body, { dispatchIncomplete: 'yes' as never })],
  ])('%s is a TypeError at the call', (_name, call) => {
    expect(call).toThrow(TypeError);
  });
});

describe('scanEvents within maxBytes', () => {
  const TWO = 'id: 7\nretry: 300\ndata: a\n\ndata: b\n\n';

  test('a stream of exactly the cap gives every event, in any chunking', async () => {
    for (const size of [1, 3, 1000]) {
      expect(await collect(scanEvents(sourceBody(chunksOf(TWO, size)).body, { maxBytes: TWO.length }))).toStrictEqual(scanned(TWO));
    }
  });

  test('one byte over: the events within the cap, then budget_exceeded with what was read; the cut event is not dispatched', async () => {
    for (const size of [1, 3, 1000]) {
      const source = sourceBody(chunksOf(TWO, size));
      const seen: string[] = [];
      const error = await rejection(
        (async () => {
          for await (const event of scanEvents(source.body, { maxBytes: TWO.length - 1, dispatchIncomplete: true })) seen.push(event.data);
        })(),
      );
      expect(seen).toStrictEqual(['a']);
      expect(error).toBeInstanceOf(AnswerError);
      expect(isAnswerError(error) && error.code).toBe('budget_exceeded');
      expect((error as AnswerError).message).toBe(`the event stream went past maxBytes (${TWO.length - 1} bytes)`);
      expect((error as AnswerError).detail).toStrictEqual({
        contentType: null,
        bytesRead: TWO.length, // the chunk that crossed the cap counts whole, as readAnswer counts it
        maxBytes: TWO.length - 1,
        events: 1,
        messages: 0,
        ignored: 0,
        lastEventId: '7',
        retry: 300,
      });
      expect(source.cancelled).toBe(true);
      expect(source.body.locked).toBe(false);
    }
  });

  test("the same error readAnswer gives past the same cap: its code, and the bytes, events, last event id and retry it counted", async () => {
    const fromScan = await rejection(collect(scanEvents(sourceBody([TWO]).body, { maxBytes: 20 })));
    const fromRead = await rejection(readAnswerBody(sourceBody([TWO]).body, 'text/event-stream', { maxBytes: 20 }));
    expect(isAnswerError(fromScan) && isAnswerError(fromRead)).toBe(true);
    const pick = (error: AnswerError): unknown => [error.code, error.detail.bytesRead, error.detail.maxBytes, error.detail.events, error.detail.lastEventId, error.detail.retry];
    expect(pick(fromScan as AnswerError)).toStrictEqual(pick(fromRead as AnswerError));
    expect(Object.keys((fromScan as AnswerError).detail).sort()).toStrictEqual(Object.keys((fromRead as AnswerError).detail).sort());
  });

  test('one endless event: stopped at the cap, the source cancelled after the chunk that crossed it', async () => {
    let pulls = 0;
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>(
      {
        pull: (controller) => {
          pulls += 1;
          controller.enqueue(bytes(pulls === 1 ? 'data: ' : 'x'.repeat(1024)));
        },
        cancel: () => {
          cancelled = true;
        },
      },
      { highWaterMark: 0 },
    );
    const error = await rejection(collect(scanEvents(endless, { maxBytes: 10_000 })));
    expect(isAnswerError(error) && [error.code, error.detail.events, error.detail.bytesRead]).toStrictEqual(['budget_exceeded', 0, 6 + 10 * 1024]);
    expect(pulls).toBe(11);
    expect(cancelled).toBe(true);
  });

  test('maxBytes 0: an empty source ends, any byte is over', async () => {
    expect(await collect(scanEvents(sourceBody([]).body, { maxBytes: 0 }))).toStrictEqual([]);
    const error = await rejection(collect(scanEvents(sourceBody(['\n']).body, { maxBytes: 0 })));
    expect(isAnswerError(error) && [error.code, error.detail.bytesRead]).toStrictEqual(['budget_exceeded', 1]);
  });

  test('no cap by default, nor with Infinity: a stream past 16 MiB is read to its end', async () => {
    const event = `data: ${'x'.repeat(1024 * 1024)}\n\n`;
    const chunks = Array.from({ length: 17 }, () => bytes(event));
    expect(chunks.length * event.length).toBeGreaterThan(DEFAULT_MAX_BYTES);
    for (const options of [undefined, { maxBytes: Infinity }]) {
      let count = 0;
      for await (const _ of scanEvents(generate(chunks), options)) count += 1;
      expect(count).toBe(17);
    }
  });

  test.each([
    ['a string', '100', TypeError],
    ['null', null, TypeError],
    ['a negative number', -1, RangeError],
    ['a fraction', 1.5, RangeError],
    ['NaN', Number.NaN, RangeError],
  ])('maxBytes that is %s: refused at the call, as readAnswer refuses it, nothing read', (_name, maxBytes, type) => {
    const source = sourceBody(['data: x\n\n']);
    expect(() => scanEvents(source.body, { maxBytes: maxBytes as never })).toThrow(type);
    expect(() => scanEvents(source.body, { maxBytes: maxBytes as never })).toThrow(/^maxBytes must be/);
    expect(source.pulls).toBe(0);
  });
});

/** A POST through node:http; resolves with the response once its head came. */
function nodePost(url: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST' }, resolve);
    req.on('error', reject);
    req.end('{}');
  });
}

describe('scanEvents over real HTTP: breaking out closes the connection', () => {
  test("node:http's IncomingMessage", async () => {
    const server = await endlessServer('text/event-stream', 'data: first\n\n');
    try {
      for await (const event of scanEvents(await nodePost(server.url))) {
        expect(event.data).toBe('first');
        break;
      }
      await server.closed;
    } finally {
      await server.stop();
    }
  });

  test("undici's request() body", async () => {
    const server = await endlessServer('text/event-stream', 'data: first\n\n');
    const dispatcher = new Agent();
    try {
      const { body } = await undiciRequest(server.url, { method: 'POST', body: '{}', dispatcher });
      for await (const event of scanEvents(body)) {
        expect(event.data).toBe('first');
        break;
      }
      await server.closed;
    } finally {
      await dispatcher.close();
      await server.stop();
    }
  });

  test('a silent server and a deadline: the loop throws the TimeoutError, the connection closes', async () => {
    const server = await endlessServer('text/event-stream', ': open\n\n', 'silent');
    try {
      const error = await rejection(collect(scanEvents(await nodePost(server.url), { signal: AbortSignal.timeout(30) })));
      expect((error as Error).name).toBe('TimeoutError');
      await server.closed;
    } finally {
      await server.stop();
    }
  });
});

describe('scanEvents releases its source on every exit, the loop started or not', () => {
  test('return() before the first next(): the stream is cancelled and unlocked', async () => {
    const source = sourceBody(['data: x\n\n'], { endless: true });
    const events = scanEvents(source.body);
    expect(await events.return(undefined)).toEqual({ done: true, value: undefined });
    expect(await source.released).toBe('cancelled');
    expect(source.body.locked).toBe(false);
    expect(source.pulls).toBe(0);
  });

  test('throw() before the first next(): released with that error as the reason, which is thrown', async () => {
    const source = sourceBody(['data: x\n\n'], { endless: true });
    const reason = new Error('stop');
    const error = await rejection(scanEvents(source.body).throw(reason));
    expect(error).toBe(reason);
    expect(await source.released).toBe('cancelled');
    expect(source.cancelReason).toBe(reason);
  });

  test('an abort before the first next(), with no next() ever: released at the abort', async () => {
    const source = sourceBody(['data: x\n\n'], { endless: true });
    const controller = new AbortController();
    scanEvents(source.body, { signal: controller.signal });
    controller.abort(new Error('gone'));
    expect(await source.released).toBe('cancelled');
    expect((source.cancelReason as Error).message).toBe('gone');
  });

  test('return() before the first next() on an async iterable: its return() is called', async () => {
    let returned = false;
    const iterable: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => ({
        next: () => new Promise<IteratorResult<Uint8Array>>(() => {}),
        return: () => {
          returned = true;
          return Promise.resolve({ done: true, value: undefined });
        },
      }),
    };
    await scanEvents(iterable).return(undefined);
    expect(returned).toBe(true);
  });

  test('after the loop ran, return() is the generator\'s own: released once', async () => {
    const source = sourceBody(['data: a\n\n', 'data: b\n\n'], { endless: true });
    const events = scanEvents(source.body);
    expect((await events.next()).value).toMatchObject({ data: 'a' });
    await events.return(undefined);
    expect(await source.released).toBe('cancelled');
    expect(await events.next()).toEqual({ done: true, value: undefined });
  });
});
