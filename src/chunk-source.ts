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

import { abortReason, watchAbort } from './abort-watch.js';
import { describeValue } from './describe-value.js';

/** A body the adapters read: a web `ReadableStream` of bytes or any async iterable of them. */
export type ByteSource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/** The pulling side of a {@link ByteSource}, opened by {@link openChunks}. */
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

/** Whether `value` is a body {@link openChunks} can read. */
export function isByteSource(value: unknown): value is ByteSource {
  if (typeof value !== 'object' || value === null) return false;
  return isStream(value) || typeof (value as Partial<AsyncIterable<unknown>>)[Symbol.asyncIterator] === 'function';
}

/**
 * Opens `source` for pulling. With a `signal`, an abort releases the source at once, and a source
 * that always has a chunk ready is paced so that the signal's timer can run (see `pace`).
 * @throws TypeError when the source cannot be read (a locked stream).
 */
export function openChunks(source: ByteSource, signal: AbortSignal | undefined): Chunks {
  const puller = isStream(source) ? streamPuller(source) : iterablePuller(source, signal !== undefined);
  let finished = false; // the source ended or failed by itself: nothing to release
  let released = false;
  const release = (reason: unknown): void => {
    if (finished || released) return;
    released = true;
    puller.release(reason);
  };
  const unwatch = signal === undefined ? undefined : watchAbort(signal, () => release(abortReason(signal)));
  const pace = signal === undefined ? undefined : pacer();

  const settle = (result: IteratorResult<unknown>): Uint8Array | undefined => {
    if (result.done !== true) return checkChunk(result.value);
    if (!released) finished = true; // not the end an abort's release forced
    return undefined;
  };
  const fail = (error: unknown): never => {
    finished = true;
    throw error;
  };
  const read = (): Promise<Uint8Array | undefined> => {
    try {
      return puller.next().then(settle, fail);
    } catch (error) {
      return Promise.reject(error).catch(fail); // an iterator that throws instead of rejecting
    }
  };

  return {
    // A plain function, not an async one: one promise a chunk, not two.
    next() {
      const paced = pace?.();
      return paced === undefined ? read() : paced.then(read);
    },
    close(reason) {
      unwatch?.();
      release(reason);
      puller.unlock();
    },
  };
}

/**
 * Releases a source that was never read (a refused content type, an aborted signal), so that the
 * connection under it closes. Never throws.
 */
export function discard(source: ByteSource, reason?: unknown): void {
  try {
    const chunks = openChunks(source, undefined);
    chunks.close(reason);
  } catch {
    // A locked stream belongs to its reader: there is nothing of it to release.
  }
}

/**
 * `value` as a chunk of bytes, or a `TypeError` naming what it is. The check is the platform's
 * own (a typed array's internal name), so a `DataView` or a `Float64Array` whose
 * `Symbol.toStringTag` claims `Uint8Array` is refused, while a Uint8Array from another realm, or
 * a subclass of it (as Node's buffers are) is accepted.
 */
export function checkChunk(value: unknown): Uint8Array {
  if (ArrayBuffer.isView(value) && typedArrayName(value) === 'Uint8Array') return value as Uint8Array;
  throw new TypeError(`a body chunk must be a Uint8Array, got ${describeValue(value)}`);
}

/** The platform's `%TypedArray%.prototype[Symbol.toStringTag]` getter, looked up on first use. */
let typedArrayTag: ((this: ArrayBufferView) => unknown) | undefined;

function typedArrayName(view: ArrayBufferView): unknown {
  typedArrayTag ??= Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype) as object, Symbol.toStringTag)
    ?.get as (this: ArrayBufferView) => unknown;
  return typedArrayTag.call(view);
}

/** How one shape of source is pulled and released. */
interface Puller {
  next(): Promise<IteratorResult<unknown>>;
  /** Cancels or returns the source; settles a pending `next` (as done where the shape allows). */
  release(reason: unknown): void;
  /** Gives the source back to its owner (a stream's reader lock). */
  unlock(): void;
}

function isStream(value: object): value is ReadableStream<Uint8Array> {
  return typeof (value as Partial<ReadableStream>).getReader === 'function';
}

function streamPuller(stream: ReadableStream<Uint8Array>): Puller {
  const reader = stream.getReader();
  return {
    next: () => reader.read(),
    // A cancel settles a pending read (as done) at once; it is not awaited, so a source whose
    // cancel hangs cannot hold the read.
    release: (reason) => observe(() => reader.cancel(reason)),
    unlock: () => {
      try {
        reader.releaseLock();
      } catch {
        // Already released.
      }
    },
  };
}

/**
 * An iterator's pending `next` cannot be cancelled, so when an abort may release the source
 * mid-read (`interruptible`), each read is a promise of our own that the release settles (as
 * done) while the iterator's read is still pending.
 */
function iterablePuller(iterable: AsyncIterable<Uint8Array>, interruptible: boolean): Puller {
  let iterator: AsyncIterator<unknown> | undefined;
  let wake: ((result: IteratorResult<unknown>) => void) | undefined;
  let released = false;
  return {
    next() {
      if (released) return Promise.resolve({ done: true, value: undefined });
      iterator ??= iterable[Symbol.asyncIterator]();
      const pending = iterator.next();
      if (!interruptible) return pending;
      return new Promise((resolve, reject) => {
        wake = resolve;
        pending.then(resolve, reject);
      });
    },
    release() {
      released = true;
      wake?.({ done: true, value: undefined });
      // Even an iterator never read is returned: an async generator then never starts.
      observe(() => (iterator ??= iterable[Symbol.asyncIterator]()).return?.());
      const destroy = (iterable as { destroy?: unknown }).destroy;
      if (typeof destroy === 'function') observe(() => destroy.call(iterable));
    },
    unlock() {},
  };
}

/** Runs a release step, observing its result so that neither a throw nor a rejection escapes. */
function observe(step: () => unknown): void {
  try {
    Promise.resolve(step()).catch(() => {});
  } catch {
    // The source is released either way; one whose release fails has nothing more to give.
  }
}

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
