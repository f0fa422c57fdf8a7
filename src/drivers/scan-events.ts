/**
 * `scanEvents`: the scanner as an async iterable over a body, moving chunks in and events out.
 * @module
 */

import { abortReason, checkSignal, isAborted } from './abort-watch.js';
import { ANY_BODY } from './chunk-source.js';
import { checkType, invalid, optionsObject } from '../vocabulary/check-argument.js';
import { scan, scanEnd, scanStart, type SseEvent } from '../reducers/scanner.js';

/** Options for {@link scanEvents}. */
export interface ScanEventsOptions {
  /** Stops the loop when aborted: the source released at once, the loop throws the signal's reason. */
  readonly signal?: AbortSignal | undefined;
  /** At the source's end, dispatch an event not yet closed by a blank line (as `scanEnd`). */
  readonly dispatchIncomplete?: boolean | undefined;
}

/**
 * The server-sent events of `source`, in order: `for await (const event of scanEvents(body))`.
 * Read only while the loop runs; leaving it in any way releases the source. A source's error
 * reaches the loop as it is; a chunk that is not a `Uint8Array` is a `TypeError` there.
 *
 * @param source A web `ReadableStream` of bytes, or any async iterable of `Uint8Array` (Node's
 *   `http.IncomingMessage`, undici's `request()` body).
 * @throws TypeError at once for a source or an option of the wrong type.
 */
export function scanEvents(
  source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  options?: ScanEventsOptions,
): AsyncGenerator<SseEvent, void, undefined> {
  if (!ANY_BODY.accepts(source)) throw invalid('source', ANY_BODY.what, source);
  const { signal, dispatchIncomplete } = optionsObject(options) as ScanEventsOptions;
  checkSignal('signal', signal);
  if (dispatchIncomplete !== undefined) checkType('dispatchIncomplete', dispatchIncomplete, 'boolean');
  const chunks = ANY_BODY.open(source, signal);
  return releasingUnstarted(events(chunks, signal, dispatchIncomplete === true), chunks);
}

/** Releases the source of a generator returned or thrown into before its first `next()`, whose `finally` never runs. */
function releasingUnstarted(
  generator: AsyncGenerator<SseEvent, void, undefined>,
  chunks: { close(reason?: unknown): void },
): AsyncGenerator<SseEvent, void, undefined> {
  let started = false;
  const releaseUnstarted = (reason: unknown): void => {
    if (!started) chunks.close(reason);
    started = true;
  };
  const iterator: AsyncGenerator<SseEvent, void, undefined> = {
    next: (...args: [] | [undefined]) => {
      started = true;
      return generator.next(...args);
    },
    return: (value) => {
      releaseUnstarted(undefined);
      return generator.return(value);
    },
    throw: (error: unknown) => {
      releaseUnstarted(error);
      return generator.throw(error);
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

async function* events(
  chunks: ReturnType<typeof ANY_BODY.open>,
  signal: AbortSignal | undefined,
  dispatchIncomplete: boolean,
): AsyncGenerator<SseEvent, void, undefined> {
  let reason: unknown; // the source is released with the abort's reason
  let state = scanStart();
  /** Throws the abort's reason if the signal has aborted; the source is released with it. */
  const throwIfAborted = (): void => {
    if (signal === undefined || !isAborted(signal)) return;
    reason = abortReason(signal);
    throw reason;
  };
  try {
    for (;;) {
      throwIfAborted();
      let chunk: Uint8Array | undefined;
      try {
        chunk = await chunks.next();
      } catch (error) {
        throwIfAborted(); // a body fetched with the same signal fails with its reason first
        throw error;
      }
      throwIfAborted(); // an end forced by the abort is not the source's end
      const scanned = chunk === undefined ? scanEnd(state, { dispatchIncomplete }) : scan(state, chunk);
      state = scanned.state;
      // Checked before every event, not only every read: the loop body may abort the signal.
      for (const event of scanned.events) {
        throwIfAborted();
        yield event;
      }
      if (chunk === undefined) return;
    }
  } finally {
    chunks.close(reason);
  }
}
