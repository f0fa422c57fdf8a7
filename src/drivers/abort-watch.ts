/**
 * Watching an `AbortSignal` so that nothing else done with it can hide its abort, leaving nothing
 * on it: a caller's through one follower and one shared listener (and workerd's `scheduler.wait`),
 * the package's own told by their `abort` (docs/guides/reliability.md, "Signals"). Signals are read
 * through the platform's members, never the object's.
 * @module
 */

import { invalid } from '../vocabulary/check-argument.js';

/** The watch on one signal: the watchers waiting for its abort, and the one listener that tells them. */
interface Watch {
  readonly watchers: Set<() => void>;
  /** A caller's signal's follower (the signal itself without `AbortSignal.any`); none for our own. */
  readonly target: AbortSignal | undefined;
  readonly listener: () => void;
}

/** The watch of each signal that has watchers; a signal with none is not in the map. */
const watches = new WeakMap<AbortSignal, Watch>();

/** The follower of each caller's signal ever watched: made once, kept as long as the signal lives. */
const followers = new WeakMap<AbortSignal, AbortSignal>();

/** The signals of this package's own controllers, which nothing but their `abort` aborts. */
const ownSignals = new WeakSet<AbortSignal>();

/** A controller of this package's own: only its `abort` aborts its signal, and tells the signal's watchers. */
export interface OwnController {
  readonly signal: AbortSignal;
  /** Aborts the signal (`reason` as `AbortController.abort` takes it), then tells its watchers, whatever its listeners did. */
  abort(reason?: unknown): void;
}

/**
 * A controller whose signal this package hands on (to a `fetch`, a handler) whose listeners could
 * stop its event: its `abort` tells its watchers itself (and it costs no follower, 8-20 µs).
 */
export function ownController(): OwnController {
  const controller = new AbortController();
  const { signal } = controller;
  ownSignals.add(signal);
  return {
    signal,
    abort(reason) {
      try {
        controller.abort(reason);
      } finally {
        // Told even when a listener's error comes out of abort() (workerd rethrows it there).
        const watch = watches.get(signal);
        if (watch !== undefined) notify(signal, watch);
      }
    },
  };
}

/** The platform's getter of `AbortSignal.prototype[name]`, taken at load: no own property or later change stands in. */
function platformGetter(name: 'aborted' | 'reason'): ((this: AbortSignal) => unknown) | undefined {
  const descriptor = typeof AbortSignal === 'function' ? Object.getOwnPropertyDescriptor(AbortSignal.prototype, name) : undefined;
  return typeof descriptor?.get === 'function' ? (descriptor.get as (this: AbortSignal) => unknown) : undefined;
}

const abortedGetter = /* @__PURE__ */ platformGetter('aborted');
const reasonGetter = /* @__PURE__ */ platformGetter('reason');

/** Whether `value` is a real `AbortSignal` of any realm: the platform's getter throws for anything else. */
export function isAbortSignal(value: unknown): value is AbortSignal {
  // A runtime without the getter cannot tell a signal: it takes none.
  if (typeof value !== 'object' || value === null || abortedGetter === undefined) return false;
  try {
    abortedGetter.call(value as AbortSignal);
    return true;
  } catch {
    return false;
  }
}

/**
 * `signal`, checked: `undefined` or a real `AbortSignal`, the one rule of every option that takes one.
 * @throws TypeError naming the option `name` for anything else.
 */
export function checkSignal(name: string, signal: unknown): AbortSignal | undefined {
  if (signal !== undefined && !isAbortSignal(signal)) throw invalid(name, 'an AbortSignal', signal);
  return signal;
}

/** Whether the signal has aborted, read through the platform's getter. */
export function isAborted(signal: AbortSignal): boolean {
  return (abortedGetter === undefined ? signal.aborted : abortedGetter.call(signal)) === true;
}

/** The signal's abort reason, read through the platform's getter. */
export function abortReason(signal: AbortSignal): unknown {
  return reasonGetter === undefined ? signal.reason : reasonGetter.call(signal);
}

/**
 * Calls `onAbort` once when `signal` aborts, unless the returned function, which the caller calls
 * when it is done, came first. The caller checks {@link isAborted} first.
 */
export function watchAbort(signal: AbortSignal, onAbort: () => void): () => void {
  const watch = watches.get(signal) ?? startWatch(signal);
  watch.watchers.add(onAbort);
  return () => {
    if (!watch.watchers.delete(onAbort) || watch.watchers.size > 0 || watches.get(signal) !== watch) return;
    watches.delete(signal);
    if (watch.target !== undefined) EventTarget.prototype.removeEventListener.call(watch.target, 'abort', watch.listener);
  };
}

/** The first watch of `signal` since it was last watched: its one listener, on its follower, unless it is our own. */
function startWatch(signal: AbortSignal): Watch {
  const watch: Watch = { watchers: new Set(), target: ownSignals.has(signal) ? undefined : followerOf(signal), listener: () => notify(signal, watch) };
  watches.set(signal, watch);
  if (watch.target === undefined) return watch;
  EventTarget.prototype.addEventListener.call(watch.target, 'abort', watch.listener, { once: true });
  if (watch.target !== signal) waitNatively(signal, watch);
  return watch;
}

/** How long one native wait lasts; it is renewed while its watch lasts. */
const NATIVE_WAIT_MS = 10_000;

/** workerd's `scheduler.wait`, where there is one. */
type NativeScheduler = { wait?: (ms: number, options: { signal: AbortSignal }) => Promise<unknown> };

/**
 * In workerd, whose dispatch ends at a listener that throws (the follower's after it too), also
 * waits on the signal natively: `scheduler.wait` is cancelled before the event. One timer a watch,
 * renewed while it lasts; a wait that fails unaborted is not renewed.
 */
function waitNatively(signal: AbortSignal, watch: Watch): void {
  const scheduler = (globalThis as { scheduler?: NativeScheduler }).scheduler;
  if (typeof scheduler?.wait !== 'function') return;
  Promise.resolve()
    .then(() => scheduler.wait!(NATIVE_WAIT_MS, { signal }))
    .then(
      () => {
        if (watches.get(signal) === watch) waitNatively(signal, watch);
      },
      () => {
        if (watches.get(signal) === watch && isAborted(signal)) notify(signal, watch);
      },
    );
}

/** The platform's `AbortSignal.any`, looked up on first use; `null` where there is none. */
let anyOf: ((signals: AbortSignal[]) => AbortSignal) | null | undefined;

/** What to listen on for a caller's signal: its follower, made once (the signal itself without `AbortSignal.any`). */
function followerOf(signal: AbortSignal): AbortSignal {
  let follower = followers.get(signal);
  if (follower === undefined) {
    anyOf ??= typeof AbortSignal.any === 'function' ? AbortSignal.any.bind(AbortSignal) : null;
    follower = anyOf === null ? signal : anyOf([signal]);
    followers.set(signal, follower);
  }
  return follower;
}

/** Hands the abort to every watcher still watching, whatever an earlier one threw (rethrown on a microtask). */
function notify(signal: AbortSignal, watch: Watch): void {
  if (watches.get(signal) === watch) watches.delete(signal);
  for (const onAbort of watch.watchers) {
    watch.watchers.delete(onAbort);
    try {
      onAbort();
    } catch (error) {
      queueMicrotask(() => {
        throw error;
      });
    }
  }
}

/** Aborts `controller` with the reason of the first of `signals` to abort; the returned function ends the watches. */
export function followAborts(controller: OwnController, signals: readonly (AbortSignal | undefined)[]): () => void {
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

/**
 * `pending`, or the signal's reason as soon as it aborts: what ignores the signal cannot hold the
 * caller past it. A value that comes after the abort is given to `late` (to release it).
 */
export function untilAborted<T>(pending: Promise<T>, signal: AbortSignal, late: (value: T) => void = () => undefined): Promise<T> {
  return new Promise((resolvePromise, reject) => {
    let told = false;
    const onAbort = (): void => {
      told = true;
      reject(abortReason(signal));
      pending.then(late, () => undefined);
    };
    if (isAborted(signal)) {
      onAbort();
      return;
    }
    const unwatch = watchAbort(signal, onAbort);
    pending.then(
      (value) => {
        unwatch();
        // Aborted first: the value goes to `late` (told here if the watch was not yet: workerd is a turn late).
        if (!isAborted(signal)) resolvePromise(value);
        else if (!told) onAbort();
      },
      (error: unknown) => {
        unwatch();
        reject(error);
      },
    );
  });
}
