// chunk-source.ts's contract, directly: which bodies each shape takes; chunks pulled in order,
// each checked to be a Uint8Array; the source released by `close` on every exit the reader takes
// (its end of reading early, a throw, an abort), once, and not when it ended by itself; a pending
// read settled at once by an abort; a never-read source released by `discard`; a read that always
// finds a chunk ready still letting the event loop run a timer.
import { describe, expect, test } from 'vitest';
import { ANY_BODY, checkBodyChunk, discard, STREAM_BODY, type Chunks } from '../src/drivers/chunk-source.js';
import { bytes, nextTurn, sourceBody } from './helpers/bodies.js';

const text = (chunk: Uint8Array | undefined): string | undefined => (chunk === undefined ? undefined : new TextDecoder().decode(chunk));

/** Every chunk `chunks` gives, as text, until its end. */
async function drain(chunks: Chunks): Promise<string[]> {
  const read: string[] = [];
  for (let chunk = await chunks.next(); chunk !== undefined; chunk = await chunks.next()) read.push(text(chunk)!);
  return read;
}

/** An async iterable over `values` that records how it was released. */
function iterableOf(values: readonly unknown[], extra: { destroy?: () => void } = {}) {
  const record = { nexts: 0, returned: 0, destroyed: 0, started: false };
  const iterable = {
    [Symbol.asyncIterator]() {
      let i = 0;
      return {
        next: () => {
          record.nexts++;
          record.started = true;
          return Promise.resolve(i < values.length ? { done: false, value: values[i++] } : { done: true, value: undefined });
        },
        return: () => {
          record.returned++;
          return Promise.resolve({ done: true, value: undefined });
        },
      };
    },
    destroy() {
      record.destroyed++;
      extra.destroy?.();
    },
  };
  return { iterable: iterable as AsyncIterable<Uint8Array>, record };
}

describe('which bodies each shape takes', () => {
  test('STREAM_BODY a ReadableStream only; ANY_BODY a stream or an async iterable', () => {
    const stream = sourceBody([]).body;
    const { iterable } = iterableOf([]);
    expect([STREAM_BODY.accepts(stream), STREAM_BODY.accepts(iterable)]).toEqual([true, false]);
    expect([ANY_BODY.accepts(stream), ANY_BODY.accepts(iterable)]).toEqual([true, true]);
    for (const other of [null, undefined, 'data', new Uint8Array(1), [bytes('a')], {}]) {
      expect([STREAM_BODY.accepts(other), ANY_BODY.accepts(other)]).toEqual([false, false]);
    }
  });

  test('a locked stream cannot be opened: a TypeError', () => {
    const stream = sourceBody([]).body;
    stream.getReader();
    expect(() => STREAM_BODY.open(stream, undefined)).toThrow(TypeError);
  });
});

describe('pulling', () => {
  test('a stream: its chunks in order, then undefined; it ended by itself, so close releases nothing', async () => {
    const source = sourceBody(['a', 'b', 'c']);
    const chunks = STREAM_BODY.open(source.body, undefined);
    expect(await drain(chunks)).toEqual(['a', 'b', 'c']);
    chunks.close(new Error('unused'));
    await nextTurn();
    expect([source.closed, source.cancelled, source.body.locked]).toEqual([true, false, false]);
  });

  test('an async iterable: its chunks in order, a result given as it is (not in a promise) too', async () => {
    const { iterable, record } = iterableOf([bytes('x'), bytes('y')]);
    expect(await drain(ANY_BODY.open(iterable, undefined))).toEqual(['x', 'y']);
    expect(record.nexts).toBe(3);
    let i = 0;
    const plain = { [Symbol.asyncIterator]: () => ({ next: () => (i++ < 1 ? { done: false, value: bytes('z') } : { done: true, value: undefined }) }) };
    expect(await drain(ANY_BODY.open(plain as unknown as AsyncIterable<Uint8Array>, undefined))).toEqual(['z']);
  });
});

describe('the bytes check', () => {
  test.each([
    ['a string', 'data', 'a body chunk must be a Uint8Array, got "data"'],
    ['a DataView', new DataView(new ArrayBuffer(2)), 'a body chunk must be a Uint8Array, got [object DataView]'],
    ['a Uint16Array', new Uint16Array(1), 'a body chunk must be a Uint8Array, got [object Uint16Array]'],
    ['null', null, 'a body chunk must be a Uint8Array, got null'],
  ])('%s from a stream or an iterable rejects the read with a TypeError naming it', async (_what, value, message) => {
    const stream = new ReadableStream({ start: (controller) => controller.enqueue(value) });
    await expect(STREAM_BODY.open(stream as ReadableStream<Uint8Array>, undefined).next()).rejects.toThrow(new TypeError(message));
    await expect(ANY_BODY.open(iterableOf([value]).iterable, undefined).next()).rejects.toThrow(new TypeError(message));
    expect(() => checkBodyChunk(value)).toThrow(new TypeError(message));
  });

  test('a Node Buffer and a subclass pass as they are', () => {
    const buffer = Buffer.from('a');
    expect(checkBodyChunk(buffer)).toBe(buffer);
  });
});

describe('release on every exit', () => {
  test('read early: close cancels the stream with the reason, once, and gives back its lock', async () => {
    const source = sourceBody(['a', 'b'], { endless: true });
    const chunks = STREAM_BODY.open(source.body, undefined);
    await chunks.next();
    const reason = new Error('done early');
    chunks.close(reason);
    chunks.close(new Error('again'));
    expect([source.cancelled, source.cancelReason, source.body.locked]).toEqual([true, reason, false]);
  });

  test('a throw in the reader: close(error) releases an iterable, returned and destroyed', async () => {
    const { iterable, record } = iterableOf([bytes('a'), bytes('b')]);
    const chunks = ANY_BODY.open(iterable, undefined);
    try {
      await chunks.next();
      throw new Error('the reader failed');
    } catch (error) {
      chunks.close(error);
    }
    await nextTurn();
    expect([record.returned, record.destroyed]).toEqual([1, 1]);
  });

  test('an iterable never read is returned all the same, so an async generator never starts', async () => {
    let started = false;
    async function* generator(): AsyncGenerator<Uint8Array> {
      started = true;
      yield bytes('a');
    }
    ANY_BODY.open(generator(), undefined).close();
    await nextTurn();
    expect(started).toBe(false);
  });

  test('a source whose release throws or rejects is released all the same, and close does not throw', async () => {
    const source = sourceBody(['a'], { endless: true, cancel: 'reject' });
    expect(() => STREAM_BODY.open(source.body, undefined).close()).not.toThrow();
    const { iterable, record } = iterableOf([bytes('a')], {
      destroy: () => {
        throw new Error('destroy failed');
      },
    });
    expect(() => ANY_BODY.open(iterable, undefined).close()).not.toThrow();
    const hostile = Object.defineProperty(iterableOf([]).iterable, 'destroy', {
      get() {
        throw new Error('getter failed');
      },
    });
    expect(() => ANY_BODY.open(hostile, undefined).close()).not.toThrow();
    await nextTurn();
    expect([source.cancelled, record.returned, record.destroyed]).toEqual([true, 1, 1]);
  });

  test("an abort mid-read settles a stream's pending read at once, as an end, and cancels it with the reason", async () => {
    const controller = new AbortController();
    const source = sourceBody([], { endless: true });
    const chunks = STREAM_BODY.open(source.body, controller.signal);
    const pending = chunks.next();
    const reason = new Error('stop');
    controller.abort(reason);
    expect(await pending).toBeUndefined();
    expect([source.cancelled, source.cancelReason]).toEqual([true, reason]);
    chunks.close(reason);
  });

  test("an abort mid-read settles an iterable's pending read at once, though its own next never settles, and returns it", async () => {
    const controller = new AbortController();
    let returned = 0;
    const never = { [Symbol.asyncIterator]: () => ({ next: () => new Promise(() => undefined), return: () => ((returned += 1), Promise.resolve({ done: true })) }) };
    const chunks = ANY_BODY.open(never as unknown as AsyncIterable<Uint8Array>, controller.signal);
    const pending = chunks.next();
    controller.abort(new Error('stop'));
    expect(await pending).toBeUndefined();
    expect(returned).toBe(1);
    chunks.close();
    expect(returned).toBe(1);
  });

  test('a source opened under a signal already aborted is released at once, and its read ends', async () => {
    const reason = new Error('already');
    const source = sourceBody(['a']);
    const chunks = STREAM_BODY.open(source.body, AbortSignal.abort(reason));
    expect([source.cancelled, source.cancelReason]).toEqual([true, reason]);
    expect(await chunks.next()).toBeUndefined();
    chunks.close(reason);
  });

  test('discard releases a source never read, and never throws (a locked stream is left to its reader)', async () => {
    const source = sourceBody(['a']);
    discard(STREAM_BODY, source.body, 'refused');
    expect([source.cancelled, source.cancelReason]).toEqual([true, 'refused']);
    const locked = sourceBody(['a']);
    locked.body.getReader();
    expect(() => discard(STREAM_BODY, locked.body)).not.toThrow();
    expect(locked.cancelled).toBe(false);
    const { iterable, record } = iterableOf([bytes('a')]);
    discard(ANY_BODY, iterable);
    await nextTurn();
    expect([record.started, record.returned, record.destroyed]).toEqual([false, 1, 1]);
  });
});

describe('pacing', () => {
  test('with a signal, a source that always has a chunk ready still lets a timer run', async () => {
    const endless = { [Symbol.asyncIterator]: () => ({ next: () => Promise.resolve({ done: false, value: bytes('x') }) }) };
    const chunks = ANY_BODY.open(endless as unknown as AsyncIterable<Uint8Array>, new AbortController().signal);
    let fired = false;
    setTimeout(() => (fired = true), 0);
    let reads = 0;
    while (!fired && reads < 300_000) {
      await chunks.next();
      reads++;
    }
    chunks.close();
    expect(fired).toBe(true);
  });
});
