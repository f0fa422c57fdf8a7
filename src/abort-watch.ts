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

/** The platform's `AbortSignal` getters, looked up once, on first use (not at import). */
let getters: SignalGetters | undefined;

interface SignalGetters {
  readonly aborted: (this: AbortSignal) => boolean;
  readonly reason: (this: AbortSignal) => unknown;
  /** Whether `aborted` is the platform's own getter, which checks its receiver's brand. */
  readonly branded: boolean;
}

function signalGetters(): SignalGetters {
  if (getters !== undefined) return getters;
  const own = (name: 'aborted' | 'reason') => Object.getOwnPropertyDescriptor(AbortSignal.prototype, name)?.get;
  const aborted = own('aborted');
  // Every known runtime has both getters; without them, the signal's own members are all there is.
  getters = {
    aborted: aborted ?? function (this: AbortSignal) { return this.aborted; },
    reason: own('reason') ?? function (this: AbortSignal): unknown { return this.reason; },
    branded: aborted !== undefined,
  };
  return getters;
}

/** Whether `value` is a real `AbortSignal` (the platform's own brand check, across realms too). */
export function isAbortSignal(value: unknown): value is AbortSignal {
  if (typeof value !== 'object' || value === null || typeof AbortSignal !== 'function') return false;
  const { aborted, branded } = signalGetters();
  if (!branded) return value instanceof AbortSignal;
  try {
    aborted.call(value as AbortSignal);
    return true;
  } catch {
    return false;
  }
}

/** Whether the signal has aborted, read through the platform's getter. */
export function isAborted(signal: AbortSignal): boolean {
  return signalGetters().aborted.call(signal) === true;
}

/** The signal's abort reason, read through the platform's getter. */
export function abortReason(signal: AbortSignal): unknown {
  return signalGetters().reason.call(signal);
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
