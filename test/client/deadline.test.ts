/**
 * deadline.ts: the `timeoutMs` option's check, one deadline for an exchange (a timer and the
 * caller's signals folded into one signal of its own, disposed on every exit), and `wait`. Timers
 * are vitest's fake ones: every assertion is about which instant the deadline fires at, never
 * about how fast anything ran. How the exchanges use it is in post-json-rpc.test.ts,
 * exchange-network.test.ts and abort-signals.test.ts.
 */

import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { checkTimeoutMs, DEFAULT_TIMEOUT_MS, startDeadline, wait } from '../../src/client/deadline.js';
import { listenersOn } from '../helpers/signals.js';

const MAX_TIMER_MS = 2 ** 31 - 1;

describe('checkTimeoutMs', () => {
  test('undefined is the default, 30 s; any number of zero or more, and Infinity, is kept', () => {
    expect(DEFAULT_TIMEOUT_MS).toBe(30_000);
    expect(checkTimeoutMs(undefined)).toBe(30_000);
    for (const ms of [0, 1, 2.5, 30_000, MAX_TIMER_MS + 1, Infinity]) expect(checkTimeoutMs(ms)).toBe(ms);
  });

  test.each([['1000'], [null], [{}], [10n]])('%s is a TypeError naming the option', (value) => {
    expect(() => checkTimeoutMs(value)).toThrow(TypeError);
    expect(() => checkTimeoutMs(value)).toThrow(/^timeoutMs must be a number of milliseconds, got /);
  });

  test.each([[-1], [-Infinity], [NaN]])('%s is a RangeError', (value) => {
    expect(() => checkTimeoutMs(value)).toThrow(RangeError);
    expect(() => checkTimeoutMs(value)).toThrow(`timeoutMs must be a number of milliseconds (0 or more) or Infinity, got ${String(value)}`);
  });
});

describe('startDeadline', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  test('aborts at timeoutMs, not before, with a TimeoutError that says the time', () => {
    const deadline = startDeadline(100);
    vi.advanceTimersByTime(99);
    expect(deadline.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(deadline.signal.aborted).toBe(true);
    const reason = deadline.signal.reason as DOMException;
    expect([reason.name, reason.message]).toEqual(['TimeoutError', 'the exchange did not finish within 100 ms']);
    deadline.dispose();
  });

  test('a deadline past the timer range fires at its time, not at once', () => {
    const deadline = startDeadline(MAX_TIMER_MS + 1000);
    vi.advanceTimersByTime(1);
    expect(deadline.signal.aborted).toBe(false);
    vi.advanceTimersByTime(MAX_TIMER_MS);
    expect(deadline.signal.aborted).toBe(false);
    vi.advanceTimersByTime(998);
    expect(deadline.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(deadline.signal.aborted).toBe(true);
    deadline.dispose();
  });

  test('Infinity sets no timer at all', () => {
    const deadline = startDeadline(Infinity);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(10 * MAX_TIMER_MS);
    expect(deadline.signal.aborted).toBe(false);
    deadline.dispose();
  });

  test("a caller's signal aborts it with the caller's reason; undefined signals are skipped", () => {
    const first = new AbortController();
    const second = new AbortController();
    const deadline = startDeadline(1000, undefined, first.signal, undefined, second.signal);
    const reason = new Error('user stop');
    second.abort(reason);
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.signal.reason).toBe(reason);
    first.abort(new Error('later'));
    expect(deadline.signal.reason).toBe(reason);
    deadline.dispose();
  });

  test('a signal already aborted aborts it at once, and no timer is set', () => {
    const reason = new Error('already');
    const deadline = startDeadline(1000, AbortSignal.abort(reason));
    expect(deadline.signal.reason).toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
    deadline.dispose();
  });

  test('the signal is its own: aborting the deadline does not abort the caller', () => {
    const caller = new AbortController();
    const deadline = startDeadline(10, caller.signal);
    vi.advanceTimersByTime(10);
    expect(deadline.signal.aborted).toBe(true);
    expect(caller.signal.aborted).toBe(false);
    deadline.dispose();
  });

  test('dispose stops the timer and the following of the caller, and may be called again', () => {
    const caller = new AbortController();
    const deadline = startDeadline(100, caller.signal);
    deadline.dispose();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(1000);
    caller.abort(new Error('after the exchange'));
    expect(deadline.signal.aborted).toBe(false);
    expect(listenersOn(caller.signal)).toBe(0);
    expect(() => deadline.dispose()).not.toThrow();
  });
});

describe('wait', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  test('resolves after ms, not before, and leaves no listener on the signal', async () => {
    const controller = new AbortController();
    let done = false;
    const waited = wait(50, controller.signal).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(49);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await waited;
    expect(done).toBe(true);
    expect(listenersOn(controller.signal)).toBe(0);
  });

  test("rejects with the signal's reason when it aborts, and clears its timer and listener", async () => {
    const controller = new AbortController();
    const waited = wait(1000, controller.signal).then(
      () => 'resolved',
      (error: unknown) => error,
    );
    const reason = new Error('stop');
    controller.abort(reason);
    expect(await waited).toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
    expect(listenersOn(controller.signal)).toBe(0);
  });

  test('an aborted signal rejects at once, setting no timer', async () => {
    const reason = new Error('before');
    await expect(wait(1000, AbortSignal.abort(reason))).rejects.toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
  });

  test('a wait longer than the timer range does not fire at once', async () => {
    let done = false;
    void wait(MAX_TIMER_MS + 5, new AbortController().signal).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(10);
    expect(done).toBe(false);
  });
});
