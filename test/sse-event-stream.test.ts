import { describe, expect, test } from 'vitest';
import { scan, scanEnd, scanStart, SseEventStream, type SseEvent } from '../src/index.js';
import { bytes, chunksOf, rejection, sourceBody } from './helpers/bodies.js';
import { listenersOn, listenersOnFollowers } from './helpers/signals.js';

const STREAM = ': hi\nid: 7\nretry: 300\ndata:\n\nevent: note\ndata: {"a":1}\n\nid: 8\ndata: h\u00e9llo\r\ndata: \ud83d\ude80\r\n\r\nid: 9\nretry: 1200\ndata: tail';

function scanned(body: string, dispatchIncomplete = false): SseEvent[] {
  const read = scan(scanStart(), bytes(body));
  return [...read.events, ...scanEnd(read.state, { dispatchIncomplete }).events];
}

async function collect(readable: ReadableStream<SseEvent>): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  const reader = readable.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) out.push(r.value);
  return out;
}

describe('SseEventStream', () => {
  test('response.body.pipeThrough(new SseEventStream()) gives the scanner\'s events, in any chunking', async () => {
    for (const size of [1, 2, 5, 1000]) {
      const events = await collect(sourceBody(chunksOf(STREAM, size)).body.pipeThrough(new SseEventStream()));
      expect(events).toStrictEqual(scanned(STREAM));
    }
    const fromFetch = await collect(new Response(STREAM).body!.pipeThrough(new SseEventStream()));
    expect(fromFetch).toStrictEqual(scanned(STREAM));
  });

  test('dispatchIncomplete: the final event without its blank line is dispatched at the end', async () => {
    const events = await collect(sourceBody([STREAM]).body.pipeThrough(new SseEventStream({ dispatchIncomplete: true })));
    expect(events).toStrictEqual(scanned(STREAM, true));
    expect(events.at(-1)).toStrictEqual({ type: 'message', data: 'tail', lastEventId: '9' });
  });

  test('lastEventId and retry read the state so far, and the final state after the end', async () => {
    const stream = new SseEventStream();
    expect([stream.lastEventId, stream.retry]).toStrictEqual(['', undefined]);
    await collect(sourceBody([STREAM]).body.pipeThrough(stream));
    // The final block is discarded at the end, but its id and retry fields were seen.
    const read = scanEnd(scan(scanStart(), bytes(STREAM)).state);
    expect([stream.lastEventId, stream.retry]).toStrictEqual([read.state.lastEventId, read.state.retry]);
    expect([stream.lastEventId, stream.retry]).toStrictEqual(['8', 1200]);

    const complete = new SseEventStream({ dispatchIncomplete: true });
    await collect(sourceBody([STREAM]).body.pipeThrough(complete));
    expect([complete.lastEventId, complete.retry]).toStrictEqual(['9', 1200]);
  });

  test('a chunk that is not a Uint8Array errors the stream with a TypeError', async () => {
    const stream = new SseEventStream();
    const writer = stream.writable.getWriter();
    void writer.write('data: x\n\n' as never).catch(() => {});
    const error = await rejection(collect(stream.readable));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toContain('"data: x\\n\\n"');
  });

  test('cancelling the events cancels the source', async () => {
    const source = sourceBody(['data: 1\n\n'], { endless: true });
    const reader = source.body.pipeThrough(new SseEventStream()).getReader();
    expect((await reader.read()).value).toStrictEqual({ type: 'message', data: '1', lastEventId: '' });
    await reader.cancel('done');
    await source.released;
    expect(source.cancelReason).toBe('done');
  });

  test('it is a TransformStream<Uint8Array, SseEvent> to the type system, a readable/writable pair at run time', () => {
    const stream: TransformStream<Uint8Array, SseEvent> = new SseEventStream();
    expect(stream.readable).toBeInstanceOf(ReadableStream);
    expect(stream.writable).toBeInstanceOf(WritableStream);
    expect(stream).toBeInstanceOf(SseEventStream);
  });

  test.each([[null], ['x'], [{ dispatchIncomplete: 1 }], [{ signal: {} }], [{ signal: { aborted: true } }]])('options %j are a TypeError', (options) => {
    expect(() => new SseEventStream(options as never)).toThrow(TypeError);
  });
});

describe('SseEventStream releases what feeds it', () => {
  test('its readable side cancelled before any chunk: the piped source is cancelled', async () => {
    const source = sourceBody(['data: x\n\n'], { endless: true });
    const readable = source.body.pipeThrough(new SseEventStream());
    await readable.cancel(new Error('not wanted'));
    expect(await source.released).toBe('cancelled');
    expect(source.delivered).toBeLessThanOrEqual(1);
  });

  test('its readable side cancelled before any chunk: a writer of its own sees its writes refused', async () => {
    const stream = new SseEventStream();
    const writer = stream.writable.getWriter();
    const reason = new Error('not wanted');
    await stream.readable.cancel(reason);
    expect(await rejection(writer.write(bytes('data: x\n\n')))).toBe(reason);
  });
});

describe('SseEventStream with a signal', () => {
  test('an abort errors the events with its reason and cancels the piped source, while the source sends nothing', async () => {
    const controller = new AbortController();
    const source = sourceBody(['data: 1\n\n'], { endless: true });
    const reader = source.body.pipeThrough(new SseEventStream({ signal: controller.signal })).getReader();
    expect((await reader.read()).value).toStrictEqual({ type: 'message', data: '1', lastEventId: '' });
    const next = reader.read();
    const reason = new Error('stop');
    controller.abort(reason);
    expect(await rejection(next)).toBe(reason);
    expect(await source.released).toBe('cancelled');
  });

  test('a signal already aborted errors the stream before any chunk', async () => {
    const reason = new Error('already');
    const source = sourceBody(['data: 1\n\n'], { endless: true });
    const readable = source.body.pipeThrough(new SseEventStream({ signal: AbortSignal.abort(reason) }));
    expect(await rejection(collect(readable))).toBe(reason);
    expect(await source.released).toBe('cancelled');
  });

  test('the events are the same with a signal that never aborts', async () => {
    const controller = new AbortController();
    const events = await collect(sourceBody(chunksOf(STREAM, 3)).body.pipeThrough(new SseEventStream({ signal: controller.signal })));
    expect(events).toStrictEqual(scanned(STREAM));
  });

  // The watch is the package's shared one (a follower of the signal): it must end with the
  // stream, however the stream ends, or a long-lived signal would gather one per stream.
  test.each([
    ['its end', async (stream: SseEventStream) => collect(sourceBody(['data: 1\n\n']).body.pipeThrough(stream))],
    ['a cancel of its events', async (stream: SseEventStream) => stream.readable.cancel('done')],
    ['an abort of its writable', async (stream: SseEventStream) => stream.writable.abort('gone')],
    [
      'a chunk that is not bytes',
      async (stream: SseEventStream) => {
        void stream.writable.getWriter().write('x' as never).catch(() => {});
        await rejection(collect(stream.readable));
      },
    ],
  ])('the watch of the signal ends at %s, and the caller\'s signal keeps only its own listeners', async (_name, end) => {
    const controller = new AbortController();
    controller.signal.addEventListener('abort', () => {});
    const stream = new SseEventStream({ signal: controller.signal });
    expect(listenersOnFollowers(controller.signal)).toBe(1);
    await end(stream);
    expect(listenersOnFollowers(controller.signal)).toBe(0);
    expect(listenersOn(controller.signal)).toBe(1);
  });
});
