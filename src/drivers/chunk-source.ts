/**
 * A body's chunks pulled, checked to be bytes, and the body released on every exit: a stream
 * cancelled; an iterator returned and a `destroy()` called (a Node stream's iterator cannot be
 * returned while a read is pending, nor before its first).
 * @module
 */

import { abortReason, isAborted, watchAbort } from './abort-watch.js';
import { invalid } from '../vocabulary/check-argument.js';
import { isUint8Array } from '../reducers/uint8-array.js';

/** A body the adapters read: a web `ReadableStream` of bytes or any async iterable of them. */
export type ByteSource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/** The pulling side of a {@link ByteSource}, opened by a {@link BodyShape}. */
export interface Chunks {
  /**
   * The next chunk, or `undefined` at the end (or at once after an abort: the caller checks the
   * signal). Rejects with the source's error, or a `TypeError` for a chunk that is no `Uint8Array`.
   */
  next(): Promise<Uint8Array | undefined>;
  /** Ends the pulling: releases the source (with `reason`) unless it ended by itself. Never throws. */
  close(reason?: unknown): void;
}

/** One family of bodies, told and opened: {@link STREAM_BODY} keeps the iterable puller out of a bundle. */
export interface BodyShape<B extends ByteSource = ByteSource> {
  /** What a body of this shape is, for an error message. */
  readonly what: string;
  /** Whether `value` is a body of this shape. */
  readonly accepts: (value: unknown) => value is B;
  /**
   * Opens `source` for pulling; with a `signal`, an abort releases it at once, and reads are paced.
   * @throws TypeError when the source cannot be read (a locked stream).
   */
  readonly open: (source: B, signal: AbortSignal | undefined) => Chunks;
}

/** A web `ReadableStream` of bytes, and nothing else. */
export const STREAM_BODY: BodyShape<ReadableStream<Uint8Array>> = {
  what: 'a ReadableStream',
  accepts: isStream,
  open: (source, signal) => new PulledChunks(new StreamPuller(source), signal),
};

/** Any {@link ByteSource}: a web stream or an async iterable. */
export const ANY_BODY: BodyShape = {
  what: 'a ReadableStream or an async iterable of Uint8Array',
  accepts: (value): value is ByteSource =>
    isStream(value) || (isObject(value) && typeof (value as Partial<AsyncIterable<unknown>>)[Symbol.asyncIterator] === 'function'),
  open: (source, signal) =>
    new PulledChunks(isStream(source) ? new StreamPuller(source) : new IterablePuller(source, signal !== undefined), signal),
};

/** {@link Chunks} over a {@link Puller}: a class, not closures, allocating less a read, with `#` names a minifier shortens. */
class PulledChunks implements Chunks {
  readonly #puller: Puller;
  /** The source ended or failed by itself: nothing to release. */
  #finished = false;
  #released = false;
  readonly #unwatch: (() => void) | undefined;
  readonly #pace: (() => Promise<void> | undefined) | undefined;

  constructor(puller: Puller, signal: AbortSignal | undefined) {
    this.#puller = puller;
    // A watch hears only an abort to come: a source opened under one already done is released now.
    const aborted = signal !== undefined && isAborted(signal);
    this.#unwatch = signal === undefined || aborted ? undefined : watchAbort(signal, () => this.#release(abortReason(signal)));
    this.#pace = signal === undefined ? undefined : pacer();
    if (aborted) this.#release(abortReason(signal));
  }

  // A plain method, not an async one: one promise a chunk, not two.
  next(): Promise<Uint8Array | undefined> {
    const paced = this.#pace?.();
    return paced === undefined ? this.#read() : paced.then(() => this.#read());
  }

  close(reason?: unknown): void {
    this.#unwatch?.();
    this.#release(reason);
    this.#puller.unlock();
  }

  #read(): Promise<Uint8Array | undefined> {
    let pending: Promise<IteratorResult<unknown>>;
    try {
      pending = this.#puller.next();
    } catch (error) {
      pending = Promise.reject(error); // an iterator that throws instead of rejecting
    }
    return pending.then(this.#settle, this.#fail);
  }

  // Made once an open, not once a read: every read hands them to `then`.
  readonly #settle = (result: IteratorResult<unknown>): Uint8Array | undefined => {
    if (result.done !== true) return checkBodyChunk(result.value);
    if (!this.#released) this.#finished = true; // not the end an abort's release forced
    return undefined;
  };

  readonly #fail = (error: unknown): never => {
    this.#finished = true;
    throw error;
  };

  #release(reason: unknown): void {
    if (this.#finished || this.#released) return;
    this.#released = true;
    this.#puller.release(reason);
  }
}

/** Releases a source that was never read, so that the connection under it closes. Never throws. */
export function discard<B extends ByteSource>(shape: BodyShape<B>, source: B, reason?: unknown): void {
  try {
    shape.open(source, undefined).close(reason);
  } catch {
    // A locked stream belongs to its reader: there is nothing of it to release.
  }
}

/** `value`, a chunk a body gave, as bytes; a `TypeError` naming what it is when it is not a `Uint8Array`. */
export function checkBodyChunk(value: unknown): Uint8Array {
  if (isUint8Array(value)) return value;
  throw invalid('a body chunk', 'a Uint8Array', value);
}

/** How one shape of source is pulled and released. */
interface Puller {
  next(): Promise<IteratorResult<unknown>>;
  /** Cancels or returns the source; settles a pending `next` (as done where the shape allows). */
  release(reason: unknown): void;
  /** Gives the source back to its owner (a stream's reader lock). */
  unlock(): void;
}

function isStream(value: unknown): value is ReadableStream<Uint8Array> {
  return isObject(value) && typeof (value as Partial<ReadableStream>).getReader === 'function';
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

class StreamPuller implements Puller {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;

  constructor(stream: ReadableStream<Uint8Array>) {
    this.#reader = stream.getReader();
  }

  next(): Promise<IteratorResult<unknown>> {
    return this.#reader.read();
  }

  // Not awaited: a cancel settles a pending read at once, and one that hangs holds nothing.
  release(reason: unknown): void {
    observe(() => this.#reader.cancel(reason));
  }

  unlock(): void {
    try {
      this.#reader.releaseLock();
    } catch {
      // Already released.
    }
  }
}

/** An iterator's pending `next` cannot be cancelled: when an abort may come, a read is a promise the release settles. */
class IterablePuller implements Puller {
  #iterator: AsyncIterator<unknown> | undefined;
  #wake: ((result: IteratorResult<unknown>) => void) | undefined;
  #released = false;
  readonly #iterable: AsyncIterable<Uint8Array>;
  readonly #interruptible: boolean;

  constructor(iterable: AsyncIterable<Uint8Array>, interruptible: boolean) {
    this.#iterable = iterable;
    this.#interruptible = interruptible;
  }

  next(): Promise<IteratorResult<unknown>> {
    if (this.#released) return Promise.resolve({ done: true, value: undefined });
    this.#iterator ??= this.#iterable[Symbol.asyncIterator]();
    // A result given as it is, not in a promise, is one `for await` takes too.
    const pending = Promise.resolve(this.#iterator.next());
    if (!this.#interruptible) return pending;
    return new Promise((resolve, reject) => {
      this.#wake = resolve;
      pending.then(resolve, reject);
    });
  }

  release(): void {
    this.#released = true;
    this.#wake?.({ done: true, value: undefined });
    const iterable = this.#iterable;
    // Even an iterator never read is returned: an async generator then never starts.
    observe(() => (this.#iterator ??= iterable[Symbol.asyncIterator]()).return?.());
    // `destroy` read inside the step: a getter that throws is a release that failed.
    observe(() => {
      const destroy = (iterable as { destroy?: unknown }).destroy;
      return typeof destroy === 'function' ? destroy.call(iterable) : undefined;
    });
  }

  unlock(): void {}
}

/** Runs a release step, observing its result so that neither a throw nor a rejection escapes. */
function observe(step: () => unknown): void {
  try {
    Promise.resolve(step()).catch(ignore);
  } catch {
    // The source is released either way; one whose release fails has nothing more to give.
  }
}

function ignore(): void {}

/**
 * A read that always finds a chunk ready runs on microtasks only, and no timer (a deadline) fires:
 * every PACE_MS at most, checked every PACE_CHUNKS chunks, it gives the event loop a macrotask.
 */
function pacer(): () => Promise<void> | undefined {
  let reads = 0;
  let since = Date.now();
  return () => {
    if (++reads < PACE_CHUNKS) return undefined;
    reads = 0;
    if (Date.now() - since < PACE_MS) return undefined;
    return new Promise<void>((resolve) => {
      setTimeout(() => {
        since = Date.now();
        resolve();
      }, 0);
    });
  };
}

/** Chunks read between two looks at the clock. */
const PACE_CHUNKS = 32;
/** The longest a read runs without giving the event loop a macrotask, in milliseconds. */
const PACE_MS = 16;
