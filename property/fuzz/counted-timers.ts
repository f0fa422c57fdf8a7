/**
 * Counting the timers code under test leaves behind: while installed, the global `setTimeout`
 * and `clearTimeout` are wrapped, and every timer armed and neither fired nor cleared is live.
 * The exchange takes no timer functions as options, so the globals it calls are the only way in.
 * Timers the test runner or fast-check arm meanwhile (the frame that armed them shows it) are not counted.
 */

/** Frames that mark a timer as the runner's, not the code under test's. */
const FOREIGN = /node_modules[\\/](?:vitest|@vitest|fast-check|tinypool|tinyspy|birpc)[\\/]/;

/** The timers armed while installed, with where each was armed. */
export interface CountedTimers {
  /** Timers armed and neither fired nor cleared, with the stack that armed each. */
  readonly live: Map<unknown, string>;
  /** Puts the real functions back. */
  restore(): void;
}

/** Installs the counting wrappers (see the module). */
export function countTimers(): CountedTimers {
  const realSet = globalThis.setTimeout;
  const realClear = globalThis.clearTimeout;
  const live = new Map<unknown, string>();
  const counting = ((handler: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const stack = new Error('armed here').stack ?? '';
    // Whose timer it is, by the frame that called setTimeout (the runner's frames lie deeper in every stack).
    const caller = stack.split('\n')[2] ?? '';
    let handle: ReturnType<typeof setTimeout> | undefined = undefined;
    handle = realSet(() => {
      live.delete(handle);
      handler(...args);
    }, ms);
    if (!FOREIGN.test(caller)) live.set(handle, stack.split('\n').slice(2, 5).map((line) => line.trim()).join(' < '));
    return handle;
  }) as unknown as typeof setTimeout;
  const clearing = ((handle: unknown) => {
    live.delete(handle);
    realClear(handle as ReturnType<typeof setTimeout>);
  }) as typeof clearTimeout;
  globalThis.setTimeout = counting;
  globalThis.clearTimeout = clearing;
  return {
    live,
    restore() {
      if (globalThis.setTimeout === counting) globalThis.setTimeout = realSet;
      if (globalThis.clearTimeout === clearing) globalThis.clearTimeout = realClear;
    },
  };
}
