/**
 * The reducers fuzzed with chunks that are not Uint8Arrays (#49): whatever the value — a
 * primitive, an object, an array or array-like of bytes, a typed array of another kind, a
 * DataView, an ArrayBuffer — `scan`, `scanEach`, `answer` and `budget` throw the TypeError that
 * names the chunk, leave their state as it was (pure: nothing of it changed), and go on from that
 * state exactly as from a copy of it taken before.
 *
 * Budget and seed: ./settings.ts (set FC_SEED to replay a run).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { answer, answerStart, budget, budgetStart, scan, scanEach, scanStart, type SseEvent } from '../src/index.js';
import { streamArb } from './scan-arbitraries.js';
import { fcParams } from './settings.js';

/** Any value but a Uint8Array (of this realm: fast-check makes no other). */
const notBytesArb: fc.Arbitrary<unknown> = fc
  .oneof(
    fc.anything({ withBigInt: true, withBoxedValues: true, withDate: true, withMap: true, withSet: true, withNullPrototype: true, withSparseArray: true, withTypedArray: true }),
    fc.string(),
    fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 4 }),
    fc.uint8Array({ maxLength: 4 }).map((bytes) => ({ ...bytes, length: bytes.length })),
    fc.uint8Array({ maxLength: 4 }).map((bytes) => new DataView(bytes.buffer)),
    fc.uint8Array({ maxLength: 4 }).map((bytes) => bytes.buffer),
    fc.oneof(fc.int8Array(), fc.uint8ClampedArray(), fc.int16Array(), fc.uint16Array(), fc.int32Array(), fc.uint32Array(), fc.float32Array(), fc.float64Array(), fc.bigInt64Array(), fc.bigUint64Array()),
  )
  .filter((value) => !(value instanceof Uint8Array));

/** A chunk that is bytes, to go on with. */
const bytesArb = fc.uint8Array({ maxLength: 24 });

const REFUSAL = /^chunk must be a Uint8Array, got /;

/** `run` throws the chunk's TypeError. */
function expectRefused(run: () => unknown): void {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(TypeError);
  expect((thrown as TypeError).message).toMatch(REFUSAL);
}

describe('a chunk that is not a Uint8Array: the TypeError, and the state untouched and usable', () => {
  test('scan and scanEach', () => {
    fc.assert(
      fc.property(streamArb, notBytesArb, bytesArb, (before, bad, after) => {
        const state = scan(scanStart(), before).state;
        const copy = structuredClone(state);
        expectRefused(() => scan(state, bad as Uint8Array));
        const events: SseEvent[] = [];
        expectRefused(() => scanEach(state, bad as Uint8Array, (event) => events.push(event)));
        expect(events).toStrictEqual([]);
        expect(state).toStrictEqual(copy);
        expect(scan(state, after)).toStrictEqual(scan(copy, after));
      }),
      fcParams,
    );
  });

  test('answer, either format, before and after its outcome', () => {
    fc.assert(
      fc.property(fc.constantFrom('event-stream', 'json'), fc.integer({ min: 0, max: 64 }), streamArb, notBytesArb, bytesArb, (format, maxBytes, before, bad, after) => {
        const state = answer(answerStart({ format, maxBytes }), before).state;
        const copy = structuredClone(state);
        expectRefused(() => answer(state, bad as Uint8Array));
        expect(state).toStrictEqual(copy);
        expect(answer(state, after)).toStrictEqual(answer(copy, after));
      }),
      fcParams,
    );
  });

  test('budget', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 64 }), bytesArb, notBytesArb, bytesArb, (maxBytes, before, bad, after) => {
        const state = budget(budgetStart(maxBytes), before).state;
        const copy = structuredClone(state);
        expectRefused(() => budget(state, bad as Uint8Array));
        expect(state).toStrictEqual(copy);
        expect(budget(state, after).state).toStrictEqual(budget(copy, after).state);
      }),
      fcParams,
    );
  });
});
