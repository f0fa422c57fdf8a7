/** One deadline for a whole exchange: a timer and the caller's signals, followed through `abort-watch.ts`, not `AbortSignal.any` (docs/guides/reliability.md, "Signals"). @module */

import { abortReason, followAborts, isAborted, ownController, watchAbort } from '../drivers/abort-watch.js';
import { invalid } from '../vocabulary/check-argument.js';

/** The longest delay `setTimeout` takes; a longer one would fire at once. */
const MAX_TIMER_MS = 2_147_483_647; // 2 ** 31 - 1

/** A running deadline. Call {@link Deadline.dispose} on every exit. */
export interface Deadline {
  /** Aborts when the time is up (reason: a `TimeoutError`) or the caller's signal aborts (its reason). */
  readonly signal: AbortSignal;
  /** Stops the timer and removes the listener from the caller's signal. Idempotent. */
  dispose(): void;
}

/** The default deadline of an exchange: 30 seconds. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * The deadline a `timeoutMs` option sets: the default ({@link DEFAULT_TIMEOUT_MS}), milliseconds, or `Infinity` for none.
 * @throws TypeError for a value that is not a number, RangeError for a number out of range.
 */
export function checkTimeoutMs(timeoutMs: unknown): number {
  if (timeoutMs === undefined) return DEFAULT_TIMEOUT_MS;
  if (typeof timeoutMs !== 'number') throw invalid('timeoutMs', 'a number of milliseconds', timeoutMs);
  if (timeoutMs >= 0) return timeoutMs; // NaN is not
  throw invalid('timeoutMs', 'a number of milliseconds (0 or more) or Infinity', timeoutMs, RangeError);
}

/** Starts a deadline of `timeoutMs` (`Infinity` for none) that also follows each of `callerSignals`. */
export function startDeadline(timeoutMs: number, ...callerSignals: readonly (AbortSignal | undefined)[]): Deadline {
  const controller = ownController();
  let timer: ReturnType<typeof setTimeout> | undefined;

  const arm = (left: number): void => {
    // Delays past the timer's range are waited for in steps.
    timer = setTimeout(() => {
      if (left > MAX_TIMER_MS) arm(left - MAX_TIMER_MS);
      else controller.abort(new DOMException(`the exchange did not finish within ${timeoutMs} ms`, 'TimeoutError'));
    }, Math.min(left, MAX_TIMER_MS));
  };

  const unfollow = followAborts(controller, callerSignals);
  if (!isAborted(controller.signal) && timeoutMs !== Infinity) arm(timeoutMs);

  return {
    signal: controller.signal,
    dispose(): void {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      unfollow();
    },
  };
}

/** Waits `ms` milliseconds, or rejects with `signal`'s reason when it aborts; leaves nothing on it. */
export function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (isAborted(signal)) {
      reject(abortReason(signal));
      return;
    }
    const unwatch = watchAbort(signal, () => {
      clearTimeout(timer);
      reject(abortReason(signal));
    });
    const timer = setTimeout(() => {
      unwatch();
      resolve();
    }, Math.min(ms, MAX_TIMER_MS));
  });
}
