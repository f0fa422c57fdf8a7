/**
 * Moving a body's chunks to a reducer, whatever shape the body has: a `ReadableStream` (fetch,
 * web streams) or any `AsyncIterable` (Node's `http.IncomingMessage`, undici's `request()` body,
 * an async generator). Nothing here reads the bytes; it pulls them, checks they are bytes, and
 * releases the source on every exit.
 *
 * Releasing: a stream is cancelled; an iterator is returned, and a source with a `destroy()`
 * method (a Node stream) is destroyed too, since a Node stream's iterator cannot be returned
 * while a read is pending, nor before its first read.
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
   * The next chunk, or `undefined` at the end of the source. Rejects with the source's own
   * error, or a `TypeError` for a chunk that is not a `Uint8Array`. After the signal aborts, the
   * pending read settles at once (as an end); the caller checks the signal after every read.
   */
  next(): Promise<Uint8Array | undefined>;
  /** Ends the pulling: releases the source (with `reason`) unless it ended by itself. Never throws. */
  close(reason?: unknown): void;
}

/**
 * One family of bodies: how to tell one and how to open it. An entry point that takes only
 * streams (`readAnswer`: a fetch body is one) uses {@link STREAM_BODY}, so that a bundle of it
 * leaves the async-iterable puller out.
 */
export interface BodyShape<B extends ByteSource = ByteSource> {
  /** What a body of this shape is, for an error message. */
  readonly what: string;
  /** Whether `value` is a body of this shape. */
  readonly accepts: (value: unknown) => value is B;
  /**
   * Opens `source` for pulling. With a `signal`, an abort releases the source at once, and a
   * source that always has a chunk ready is paced so that the signal's timer can run (see
   * {@link pacer}).
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

/**
 * {@link Chunks} over a {@link Puller}. A class, not a set of closures: a read of a small answer
 * opens one, so what it allocates is paid on every call. Its members, and the pullers', are `#`
 * names, which a minifier shortens.
 */
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

/**
 * Releases a source that was never read (a refused content type, an aborted signal), so that the
 * connection under it closes. Never throws.
 */
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

  // A cancel settles a pending read (as done) at once; it is not awaited, so a source whose
  // cancel hangs cannot hold the read.
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

/**
 * An iterator's pending `next` cannot be cancelled, so when an abort may release the source
 * mid-read (`interruptible`), each read is a promise of our own that the release settles (as
 * done) while the iterator's read is still pending.
 */
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
    // Its `destroy` read inside the step too: a getter that throws is one more release that failed.
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
 * A read that always finds a chunk ready runs on microtasks only, and no timer — the signal's
 * deadline among them — fires until it ends. So now and then (checked every few dozen chunks,
 * never per chunk) the read gives the event loop one macrotask.
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
