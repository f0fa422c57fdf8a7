/**
 * `SseEventStream`: the scanner as a readable/writable pair, as `TextDecoderStream` is. Not
 * `extends TransformStream`: that runs at import, and bundlers would keep it in every bundle.
 * @module
 */

import { abortReason, checkSignal, isAborted, watchAbort } from './abort-watch.js';
import { checkBodyChunk } from './chunk-source.js';
import { checkType, optionsObject } from '../vocabulary/check-argument.js';
import { scanEnd, scanStart, uncheckedScan, type ScanState, type SseEvent } from '../reducers/scanner.js';

/** Options for {@link SseEventStream}. */
export interface SseEventStreamOptions {
  /** At the end of the input, dispatch an event not yet closed by a blank line (as `scanEnd`). */
  readonly dispatchIncomplete?: boolean | undefined;
  /**
   * Ends the stream when aborted (its readable errors with the reason, a pipe into it cancels its
   * source), in every runtime: workerd's own pipe sees an abort only at the next chunk.
   */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Bytes in, server-sent events out: `response.body.pipeThrough(new SseEventStream({ signal }))`.
 * A chunk that is not a `Uint8Array` errors it with a `TypeError`, an abort with the reason.
 */
export class SseEventStream implements TransformStream<Uint8Array, SseEvent> {
  /** The events, in stream order. */
  readonly readable: ReadableStream<SseEvent>;
  /** The bytes of the event stream. */
  readonly writable: WritableStream<Uint8Array>;
  #state: ScanState = scanStart();

  /** @throws TypeError for an option of the wrong type. */
  constructor(options?: SseEventStreamOptions) {
    const { dispatchIncomplete, signal } = optionsObject(options) as SseEventStreamOptions;
    if (dispatchIncomplete !== undefined) checkType('dispatchIncomplete', dispatchIncomplete, 'boolean');
    checkSignal('signal', signal);
    let unwatch = (): void => {};
    // The watch ends with the stream; a stream that fails keeps only its id and retry (its error keeps this closure).
    const failed = (): void => {
      unwatch();
      this.#state = scanEnd(this.#state).state;
    };
    // `cancel` is in every runtime the package claims, not yet in TypeScript's lib.
    const transformer: Transformer<Uint8Array, SseEvent> & { cancel: () => void } = {
      start: (controller) => {
        if (signal === undefined) return;
        if (isAborted(signal)) controller.error(abortReason(signal));
        else {
          unwatch = watchAbort(signal, () => {
            failed();
            controller.error(abortReason(signal));
          });
        }
      },
      transform: (chunk, controller) => {
        let bytes: Uint8Array;
        try {
          bytes = checkBodyChunk(chunk);
        } catch (error) {
          failed(); // a bad chunk errors the stream, and no cancel follows
          throw error;
        }
        const scanned = uncheckedScan(this.#state, bytes);
        this.#state = scanned.state;
        for (const event of scanned.events) controller.enqueue(event);
      },
      cancel: failed,
      flush: (controller) => {
        unwatch();
        const scanned = scanEnd(this.#state, { dispatchIncomplete: dispatchIncomplete === true });
        this.#state = scanned.state;
        for (const event of scanned.events) controller.enqueue(event);
      },
    };
    const transform = new TransformStream<Uint8Array, SseEvent>(transformer);
    this.readable = transform.readable;
    this.writable = transform.writable;
  }

  /** The stream's last event ID string so far; after the end, the final one. */
  get lastEventId(): string {
    return this.#state.lastEventId;
  }

  /** The last valid `retry` the stream set, in milliseconds; after the end, the final one. */
  get retry(): number | undefined {
    return this.#state.retry;
  }
}
