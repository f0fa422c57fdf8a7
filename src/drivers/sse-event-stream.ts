/**
 * `SseEventStream`: the scanner as a transform stream, in the style of `TextDecoderStream` —
 * an object with a `readable` and a `writable` side, made in the constructor. It only moves
 * chunks into `scan` and events out; every rule of the event stream is the scanner's.
 *
 * Why not `extends TransformStream`: a class that extends a global at module level is code that
 * runs at import, so bundlers keep it in every bundle of the package; this class is dropped from
 * a bundle that does not use it, and importing the package needs no `TransformStream`.
 * @module
 */

import { abortReason, checkSignal, isAborted, watchAbort } from './abort-watch.js';
import { checkBodyChunk } from './chunk-source.js';
import { checkType, optionsObject } from '../vocabulary/check-argument.js';
import { scan, scanEnd, scanStart, type ScanState, type SseEvent } from '../reducers/scanner.js';

/** Options for {@link SseEventStream}. */
export interface SseEventStreamOptions {
  /** At the end of the input, dispatch an event not yet closed by a blank line (as `scanEnd`). */
  readonly dispatchIncomplete?: boolean | undefined;
  /**
   * Ends the stream when aborted: its readable errors with the signal's reason, and a pipe into
   * it cancels its source. Unlike `pipeThrough(stream, { signal })` this ends it at the abort in
   * every runtime, while its source sends nothing too (workerd's pipe sees an abort only at the
   * source's next chunk), and whatever else listens to the signal.
   */
  readonly signal?: AbortSignal | undefined;
}

/**
 * A `TransformStream<Uint8Array, SseEvent>`: bytes in, server-sent events out.
 *
 * ```ts
 * const events = response.body.pipeThrough(new SseEventStream({ signal }));
 * ```
 *
 * A chunk that is not a `Uint8Array` errors the stream with a `TypeError`; an abort of its
 * `signal` errors it with the signal's reason. Like
 * `TextDecoderStream`, it is a readable/writable pair, not a `TransformStream` instance.
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
    // The watch ends with the stream, whichever way it ends: its end, a bad chunk, a cancel.
    let unwatch = (): void => {};
    // A stream that fails keeps only its last event ID and retry: its error keeps this closure.
    const failed = (): void => {
      unwatch();
      this.#state = scanEnd(this.#state).state;
    };
    // `cancel` (a cancelled readable, an aborted writable) is in every runtime the package claims,
    // not yet in TypeScript's lib.
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
        const scanned = scan(this.#state, bytes);
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
