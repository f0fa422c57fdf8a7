/**
 * Watching a caller's `AbortSignal` without leaving anything on it: every read that watches one
 * signal shares a single listener, added with the first watcher and removed with the last. So one
 * client-wide signal given to many concurrent reads holds one listener, never one a read.
 *
 * The signal is used through the platform's own `AbortSignal` and `EventTarget` members, not the
 * object's: an object that only looks like a signal is refused, and one whose methods were
 * replaced cannot break a read.
 * @module
 */

/** The watchers of each signal that has any; a signal with none is not in the map. */
const watchers = new WeakMap<AbortSignal, Set<() => void>>();

/** The platform's `AbortSignal` getters, looked up on first use (not at import). */
let abortedGetter: ((this: AbortSignal) => unknown) | undefined;
let reasonGetter: ((this: AbortSignal) => unknown) | undefined;

function platformGetter(name: 'aborted' | 'reason'): (this: AbortSignal) => unknown {
  return Object.getOwnPropertyDescriptor(AbortSignal.prototype, name)?.get as (this: AbortSignal) => unknown;
}

/**
 * Whether `value` is a real `AbortSignal`: the platform's `aborted` getter checks its receiver's
 * brand (across realms too), and throws for anything else. Every supported runtime has it.
 */
export function isAbortSignal(value: unknown): value is AbortSignal {
  if (typeof value !== 'object' || value === null) return false;
  try {
    isAborted(value as AbortSignal);
    return true;
  } catch {
    return false;
  }
}

/** Whether the signal has aborted, read through the platform's getter. */
export function isAborted(signal: AbortSignal): boolean {
  return (abortedGetter ??= platformGetter('aborted')).call(signal) === true;
}

/** The signal's abort reason, read through the platform's getter. */
export function abortReason(signal: AbortSignal): unknown {
  return (reasonGetter ??= platformGetter('reason')).call(signal);
}

/**
 * Calls `onAbort` once when `signal` aborts, unless the returned function was called first. The
 * returned function must be called when the read ends: it removes all trace of the watcher.
 */
export function watchAbort(signal: AbortSignal, onAbort: () => void): () => void {
  let set = watchers.get(signal);
  if (set === undefined) {
    set = new Set();
    watchers.set(signal, set);
    EventTarget.prototype.addEventListener.call(signal, 'abort', notify, { once: true });
  }
  set.add(onAbort);
  return () => {
    const current = watchers.get(signal);
    if (current === undefined || !current.delete(onAbort) || current.size > 0) return;
    watchers.delete(signal);
    EventTarget.prototype.removeEventListener.call(signal, 'abort', notify);
  };
}

/** The one listener on a watched signal: it hands the abort to every watcher, in order. */
function notify(event: Event): void {
  const signal = event.currentTarget as AbortSignal;
  const set = watchers.get(signal);
  watchers.delete(signal);
  if (set === undefined) return;
  for (const onAbort of set) onAbort();
}

/**
 * Aborts `controller` with the reason of the first of `signals` to abort — at once when one
 * already has. The returned function removes every watch; call it when the work ends. So an
 * exchange follows its caller's signals with the one shared listener each, as a read does.
 */
export function followAborts(controller: AbortController, signals: readonly (AbortSignal | undefined)[]): () => void {
  const stops: (() => void)[] = [];
  const stopAll = (): void => {
    for (const stop of stops.splice(0)) stop();
  };
  for (const signal of signals) {
    if (signal === undefined) continue;
    if (isAborted(signal)) {
      stopAll();
      controller.abort(abortReason(signal));
      return stopAll;
    }
    stops.push(
      watchAbort(signal, () => {
        stopAll();
        controller.abort(abortReason(signal));
      }),
    );
  }
  return stopAll;
}
