/**
 * `scanEvents`: the scanner as an async iterable over a body. It only moves chunks into `scan`
 * (through the byte budget, when a cap is set) and events out; every rule of the event stream is
 * the scanner's, and the cap's the budget's.
 * @module
 */

import { abortReason, checkSignal, isAborted } from './abort-watch.js';
import { ANY_BODY } from './chunk-source.js';
import { checkType, invalid, optionsObject } from '../vocabulary/check-argument.js';
import { answerError, nothingRead, said } from '../vocabulary/failure.js';
import { budgetStart, uncheckedBudget, type BudgetState } from '../reducers/budget.js';
import { scanEnd, scanStart, uncheckedScan, type ScanState, type SseEvent } from '../reducers/scanner.js';

/** Options for {@link scanEvents}. */
export interface ScanEventsOptions {
  /** Stops the loop when aborted: the source released at once, the loop throws the signal's reason. */
  readonly signal?: AbortSignal | undefined;
  /** At the source's end, dispatch an event not yet closed by a blank line (as `scanEnd`). */
  readonly dispatchIncomplete?: boolean | undefined;
  /**
   * The most bytes of the source to read, as `readAnswer`'s `maxBytes` counts them: a whole
   * number of bytes, or `Infinity`. Past it, the events within the cap are given, then the loop
   * throws an {@link AnswerError} `budget_exceeded` (`detail`: the bytes, the events, the last
   * event id) and the source is released; an event the cap cut is not dispatched. Default: no
   * cap — an event stream may run as long as its reader reads it (end it with `signal`).
   */
  readonly maxBytes?: number | undefined;
}

/**
 * The server-sent events of `source`, in order: `for await (const event of scanEvents(body))`.
 * Read only while the loop runs; leaving it in any way releases the source. A source's error
 * reaches the loop as it is; a chunk that is not a `Uint8Array` is a `TypeError` there.
 *
 * @param source A web `ReadableStream` of bytes, or any async iterable of `Uint8Array` (Node's
 *   `http.IncomingMessage`, undici's `request()` body).
 * @throws TypeError at once for a source or an option of the wrong type; RangeError for a
 *   `maxBytes` that is not a whole number of bytes or `Infinity`. In the loop, an
 *   {@link AnswerError} `budget_exceeded` past `maxBytes`.
 */
export function scanEvents(
  source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  options?: ScanEventsOptions,
): AsyncGenerator<SseEvent, void, undefined> {
  if (!ANY_BODY.accepts(source)) throw invalid('source', ANY_BODY.what, source);
  const { signal, dispatchIncomplete, maxBytes } = optionsObject(options) as ScanEventsOptions;
  checkSignal('signal', signal);
  if (dispatchIncomplete !== undefined) checkType('dispatchIncomplete', dispatchIncomplete, 'boolean');
  const cap = budgetStart(maxBytes === undefined ? Infinity : maxBytes);
  const chunks = ANY_BODY.open(source, signal);
  return releasingUnstarted(events(chunks, signal, dispatchIncomplete === true, cap), chunks);
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
  cap: BudgetState,
): AsyncGenerator<SseEvent, void, undefined> {
  let reason: unknown; // the source is released with the abort's reason
  let state = scanStart();
  let counted = cap;
  let dispatched = 0;
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
      // The chunk source has checked the chunk.
      const within = chunk === undefined ? undefined : uncheckedBudget(counted, chunk);
      if (within !== undefined) counted = within.state;
      const scanned = within === undefined ? scanEnd(state, { dispatchIncomplete }) : uncheckedScan(state, within.chunk);
      state = scanned.state;
      dispatched += scanned.events.length;
      // Checked before every event, not only every read: the loop body may abort the signal.
      for (const event of scanned.events) {
        throwIfAborted();
        yield event;
      }
      if (within?.exceeded === true) throw overBudget(counted, state, dispatched);
      if (chunk === undefined) return;
    }
  } finally {
    chunks.close(reason);
  }
}

/** The `budget_exceeded` error of a stream that went past its cap, with what had been read. */
function overBudget(counted: BudgetState, state: ScanState, events: number): Error {
  const { bytes, maxBytes } = counted;
  const detail = { ...nothingRead(maxBytes), bytesRead: bytes, events, lastEventId: state.lastEventId, retry: state.retry };
  return answerError({ code: 'budget_exceeded', message: said`the event stream went past maxBytes (${maxBytes} bytes)`, detail });
}
