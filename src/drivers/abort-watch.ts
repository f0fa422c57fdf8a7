/**
 * Watching an `AbortSignal` so that nothing else done with it can keep its abort from us, and
 * without leaving anything on it.
 *
 * - A caller's signal is watched through a follower, `AbortSignal.any([signal])`, made the first
 *   time the signal is watched and kept as long as it lives. The platform aborts a follower
 *   itself, after the signal's own listeners, so none of them can hide the abort from us: not
 *   one that throws or stops the event's propagation, nor merely being first (Node hands every
 *   later listener a `null` `currentTarget`). The caller's signal gets no listener of ours.
 * - workerd alone ends the whole dispatch at a listener that throws or stops the propagation, and
 *   its follower is only a listener: behind such a listener it never aborts. So there a caller's
 *   signal is also watched by `scheduler.wait` on it (see {@link waitNatively}), which workerd
 *   ends before it dispatches the event at all.
 * - A signal this package made ({@link ownController}: an exchange's deadline) gets no listener
 *   and no follower (one costs 8-20 µs to make, Node 20-26): its own `abort` tells its watchers.
 *   The event could not be trusted with it, for the signal is handed on — to a `fetch`, to a
 *   handler — whose listeners could stop it as well as a caller's.
 * - Every read that watches one signal shares one listener, added with the first watcher and
 *   removed with the last: one client-wide signal given to many concurrent reads is followed
 *   once, never once a read, and a watch leaves nothing behind when it ends.
 *
 * The signal is used through the platform's own `AbortSignal` and `EventTarget` members, not the
 * object's: an object that only looks like a signal is refused, and one whose methods were
 * replaced cannot break a read.
 * @module
 */

import { invalid } from '../vocabulary/check-argument.js';

/** The watch on one signal: the watchers waiting for its abort, and the one listener that tells them. */
interface Watch {
  readonly watchers: Set<() => void>;
  /** What the listener is on: a caller's signal's follower (the signal, with no `AbortSignal.any`); none for a signal of our own. */
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

/** A controller whose signal is this package's: its watchers are told by its `abort`, not by the event. */
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

/**
 * The platform's getter of `AbortSignal.prototype[name]`, or `undefined` where there is none.
 * Taken at load: neither an own property on a signal nor a later change to the prototype stands in for it.
 */
function platformGetter(name: 'aborted' | 'reason'): ((this: AbortSignal) => unknown) | undefined {
  const descriptor = typeof AbortSignal === 'function' ? Object.getOwnPropertyDescriptor(AbortSignal.prototype, name) : undefined;
  return typeof descriptor?.get === 'function' ? (descriptor.get as (this: AbortSignal) => unknown) : undefined;
}

const abortedGetter = /* @__PURE__ */ platformGetter('aborted');
const reasonGetter = /* @__PURE__ */ platformGetter('reason');

/**
 * Whether `value` is a real `AbortSignal`: the platform's `aborted` getter checks its receiver's
 * brand (across realms too), and throws for anything else. Every supported runtime has it.
 */
export function isAbortSignal(value: unknown): value is AbortSignal {
  // A runtime without the getter cannot tell a signal: it is given none.
  if (typeof value !== 'object' || value === null || abortedGetter === undefined) return false;
  try {
    abortedGetter.call(value as AbortSignal);
    return true;
  } catch {
    return false;
  }
}

/**
 * `signal`, checked: `undefined`, or a real `AbortSignal` — an object that merely looks like one
 * could abort unseen. The one rule for every option that takes a signal.
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
 * Calls `onAbort` once when `signal` aborts, unless the returned function was called first. The
 * returned function must be called when the read ends: with the last watcher of a signal goes
 * its listener. The caller checks {@link isAborted} first: an aborted signal never fires again.
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

/** The first watcher of `signal` since it was last watched: its one listener (on its follower), unless the signal is our own. */
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
 * In workerd, also watches a caller's signal the one way its listeners cannot hide: workerd
 * aborts a signal by cancelling its native operations first, and only then dispatches the
 * event, which stops at the first listener that throws or stops the propagation (the
 * follower's listener after it included). `scheduler.wait(ms, { signal })` is such an
 * operation, and only workerd has it: it rejects on the next turn after the abort, whatever the
 * listeners did. It is no listener on the signal, and a timer, not a poll: one wait a watch,
 * renewed every {@link NATIVE_WAIT_MS} while the watch lasts, and left to run out (doing
 * nothing) once it has ended. A wait that cannot start, or fails with the signal not aborted, is
 * not renewed (the next watch tries again); one that ends after the follower told the watchers
 * finds its watch gone.
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

/**
 * What to listen on for a caller's `signal`'s abort: its follower, which only this package
 * listens to (the signal itself where the platform has no `AbortSignal.any`).
 */
function followerOf(signal: AbortSignal): AbortSignal {
  let follower = followers.get(signal);
  if (follower === undefined) {
    anyOf ??= typeof AbortSignal.any === 'function' ? AbortSignal.any.bind(AbortSignal) : null;
    follower = anyOf === null ? signal : anyOf([signal]);
    followers.set(signal, follower);
  }
  return follower;
}

/**
 * Hands the abort to every watcher, in order — not one whose watch ended meanwhile. Each is
 * called whatever an earlier one did: one that throws cannot leave a later read unreleased (its
 * error is rethrown on a microtask, for the platform to report).
 */
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

/**
 * Aborts `controller` with the reason of the first of `signals` to abort — at once when one
 * already has. The returned function removes every watch; call it when the work ends. So an
 * exchange follows its caller's signals with the one shared listener each, as a read does.
 */
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
 * `pending`, or the signal's reason as soon as it aborts: a `fetch` (or an `authProvider`) that
 * ignores the signal cannot hold the exchange past its deadline. A value that comes after the
 * abort is given to `late` (a response is released there). The signal is watched as a read
 * watches it, so nothing listening to it can hide the abort.
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
        // Aborted first: the abort's own `then` hands the value to `late` (told at once here, if
        // the signal's watch had yet to be: a caller's signal in workerd is told a turn late).
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
