import { describe, expect, test } from 'vitest';
import { scan, scanEnd, scanStart, SseEventStream, type SseEvent } from '../src/index.js';
import { bytes, chunksOf, rejection, sourceBody } from './helpers/bodies.js';

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

  test.each([[null], ['x'], [{ dispatchIncomplete: 1 }]])('options %j are a TypeError', (options) => {
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
