/**
 * What is left on a caller's signal, as Node keeps it: its abort listeners, and the signals that
 * follow it (`AbortSignal.any`'s dependants, which Node holds in a set under an internal symbol).
 */
import { getEventListeners } from 'node:events';

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
