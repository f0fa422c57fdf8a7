/**
 * What is left on a caller's signal, as Node keeps it: its abort listeners, and the signals that
 * follow it (`AbortSignal.any`'s dependants, which Node holds in a set under an internal symbol).
 */
import { getEventListeners } from 'node:events';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';

/** The abort listeners on `signal`. */
export function listenersOn(signal: AbortSignal): number {
  return getEventListeners(signal, 'abort').length;
}

/** How many signals follow `signal` (made by `AbortSignal.any` over it), as Node records them. */
export function followersOf(signal: AbortSignal): number {
  const key = Object.getOwnPropertySymbols(signal).find((symbol) => symbol.description === 'kDependantSignals');
  if (key === undefined) throw new Error('this Node keeps no kDependantSignals on a signal');
  const dependants = (signal as unknown as Record<symbol, Set<unknown> | undefined>)[key];
  return dependants?.size ?? 0;
}

/**
 * The abort listeners on the signals that follow `signal` (the package watches a caller's signal
 * through such a follower): 0 once every watch of it has ended.
 */
export function listenersOnFollowers(signal: AbortSignal): number {
  const key = Object.getOwnPropertySymbols(signal).find((symbol) => symbol.description === 'kDependantSignals');
  const dependants = key === undefined ? undefined : (signal as unknown as Record<symbol, Set<WeakRef<AbortSignal>> | undefined>)[key];
  let count = 0;
  for (const follower of dependants ?? []) {
    const alive = follower.deref();
    if (alive !== undefined) count += listenersOn(alive);
  }
  return count;
}

/**
 * For the tests of this file (`each`: around each test, else around the whole file), errors
 * with `message` thrown by a caller's own abort listener are expected: Node reports them as
 * uncaught, and vitest would fail the run for them. They are swallowed; any other uncaught error
 * fails the test it happened in.
 */
export function expectListenerFailures(message: string, each = true): void {
  let saved: NodeJS.UncaughtExceptionListener[] = [];
  const unexpected: unknown[] = [];
  (each ? beforeEach : beforeAll)(() => {
    saved = process.listeners('uncaughtException');
    process.removeAllListeners('uncaughtException');
    process.on('uncaughtException', (error) => {
      if (!(error instanceof Error && error.message === message)) unexpected.push(error);
    });
  });
  (each ? afterEach : afterAll)(() => {
    process.removeAllListeners('uncaughtException');
    for (const handler of saved) process.on('uncaughtException', handler);
    expect(unexpected.splice(0)).toStrictEqual([]);
  });
}
