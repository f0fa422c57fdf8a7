import { describe, expect, test } from 'vitest';
import { budget, budgetStart, DEFAULT_MAX_BYTES, type BudgetState } from '../src/index.js';

const filled = (n: number, from = 0): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (from + i) % 256);

describe('budgetStart', () => {
  test('the default cap is 16 MiB', () => {
    expect(DEFAULT_MAX_BYTES).toBe(16777216);
    expect(budgetStart()).toStrictEqual({ maxBytes: 16777216, bytes: 0 });
  });

  test.each([[0], [10], [Infinity], [Number.MAX_SAFE_INTEGER], [2 ** 53], [2 ** 60]])('accepts %s bytes: 0, any whole number, Infinity', (maxBytes) => {
    expect(budgetStart(maxBytes)).toStrictEqual({ maxBytes, bytes: 0 });
  });

  test.each([[-1], [1.5], [NaN], [-Infinity], [-(2 ** 53)]])('rejects the number %s with a RangeError naming it', (bad) => {
    expect(() => budgetStart(bad)).toThrow(RangeError);
    expect(() => budgetStart(bad)).toThrow(String(bad));
  });

  test.each([['10', '"10"'], [null, 'null'], [10n, '10'], [{}, '[object Object]'], [true, 'true']])(
    'rejects %s, not a number, with a TypeError naming it',
    (bad, named) => {
      expect(() => budgetStart(bad as never)).toThrow(TypeError);
      expect(() => budgetStart(bad as never)).toThrow(named);
    },
  );

  test('the error quotes at most a short prefix of a long value', () => {
    let message = '';
    try {
      budgetStart('9'.repeat(1 << 20) as never);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^maxBytes must be a number of bytes, got "9{64}…"$/);
  });
});

describe('budget', () => {
  test('a chunk within the cap is returned whole and counted', () => {
    const chunk = filled(4);
    const r = budget(budgetStart(10), chunk);
    expect(r.exceeded).toBe(false);
    expect(r.chunk).toBe(chunk);
    expect(r.state).toStrictEqual({ maxBytes: 10, bytes: 4 });
  });

  test('a body of exactly maxBytes passes; one more byte exceeds with nothing passed', () => {
    const a = budget(budgetStart(10), filled(6));
    const b = budget(a.state, filled(4));
    expect(b.exceeded).toBe(false);
    expect(b.chunk.length).toBe(4);
    expect(b.state).toStrictEqual({ maxBytes: 10, bytes: 10 });
    const c = budget(b.state, filled(1));
    expect(c.exceeded).toBe(true);
    expect(c.chunk.length).toBe(0);
    expect(c.state).toStrictEqual({ maxBytes: 10, bytes: 11 });
  });

  test('the chunk that crosses the cap is cut at the cap: its first bytes, none past', () => {
    const start: BudgetState = { maxBytes: 10, bytes: 7 };
    const chunk = filled(5, 100);
    const r = budget(start, chunk);
    expect(r.exceeded).toBe(true);
    expect(r.chunk.length).toBe(3);
    expect([...r.chunk]).toStrictEqual([100, 101, 102]);
    expect(r.state).toStrictEqual({ maxBytes: 10, bytes: 12 });
  });

  test('one chunk far past the cap passes exactly maxBytes', () => {
    const r = budget(budgetStart(3), filled(1000));
    expect(r.exceeded).toBe(true);
    expect([...r.chunk]).toStrictEqual([0, 1, 2]);
    expect(r.state.bytes).toBe(1000);
  });

  test('once past the cap, nothing more passes', () => {
    const over = budget(budgetStart(2), filled(5)).state;
    const r = budget(over, filled(3));
    expect(r.exceeded).toBe(true);
    expect(r.chunk.length).toBe(0);
    expect(r.state.bytes).toBe(8);
    const empty = budget(over, new Uint8Array(0));
    expect(empty.exceeded).toBe(true);
    expect(empty.chunk.length).toBe(0);
  });

  test('maxBytes 0: an empty chunk passes, any byte exceeds', () => {
    const z = budget(budgetStart(0), new Uint8Array(0));
    expect(z.exceeded).toBe(false);
    expect(z.state.bytes).toBe(0);
    const one = budget(z.state, filled(1));
    expect(one.exceeded).toBe(true);
    expect(one.chunk.length).toBe(0);
  });

  test('an empty chunk at the cap does not exceed it', () => {
    const at = budget(budgetStart(4), filled(4)).state;
    const r = budget(at, new Uint8Array(0));
    expect(r.exceeded).toBe(false);
    expect(r.state).toStrictEqual({ maxBytes: 4, bytes: 4 });
  });

  test('Infinity: no cap', () => {
    const big = filled(1 << 20);
    const r = budget(budget(budgetStart(Infinity), big).state, big);
    expect(r.exceeded).toBe(false);
    expect(r.chunk).toBe(big);
    expect(r.state).toStrictEqual({ maxBytes: Infinity, bytes: 2 << 20 });
  });

  test('over any chunking, the bytes passed are exactly the body up to the cap', () => {
    const body = filled(50);
    const cuts: number[][] = [[], [1], [9, 10, 11], [0, 0, 25, 49], [5, 10, 15, 20, 25, 30, 35, 40, 45]];
    for (const maxBytes of [0, 1, 10, 11, 25, 49, 50, 51, Infinity]) {
      for (const at of cuts) {
        let state = budgetStart(maxBytes);
        const passed: number[] = [];
        let from = 0;
        let exceededAt: number | undefined;
        for (const to of [...at, body.length]) {
          const r = budget(state, body.slice(from, to));
          // Never a byte past the cap: what passes fits in the room left.
          expect(r.chunk.length).toBeLessThanOrEqual(Math.max(0, maxBytes - state.bytes));
          if (r.exceeded && exceededAt === undefined) exceededAt = to;
          passed.push(...r.chunk);
          state = r.state;
          from = to;
        }
        expect(passed).toStrictEqual([...body.slice(0, Math.min(maxBytes, body.length))]);
        expect(state.bytes).toBe(body.length);
        expect(exceededAt !== undefined).toBe(body.length > maxBytes);
      }
    }
  });
});

describe('purity', () => {
  test('neither the state nor the chunk is changed', () => {
    const state = Object.freeze({ maxBytes: 10, bytes: 8 });
    const chunk = filled(5);
    const stateBefore = structuredClone(state);
    const chunkBefore = chunk.slice();
    const r = budget(state, chunk);
    expect(state).toStrictEqual(stateBefore);
    expect(chunk).toStrictEqual(chunkBefore);
    expect(r.state).not.toBe(state);
    // The same input gives the same output.
    expect(budget(state, chunk)).toStrictEqual(r);
  });
});
