// Reducers check their chunk (#49): `scan`, `scanEach`, `answer` and `budget` refuse a chunk that
// is not a Uint8Array with a TypeError naming it ("chunk must be a Uint8Array, got …"), before
// anything else reads it, and leave the state as it was. Before the check, a number, a boolean, a
// DataView or a Uint16Array was read silently, `budget` counted a string, and null or a string met
// an engine's TypeError. `select` takes events and parsed values, not bytes: it has no chunk.
// The fuzzed form of this is property/chunk-check.property.test.ts.
import vm from 'node:vm';
import { describe, expect, test } from 'vitest';
import { answer, answerStart, budget, budgetStart, scan, scanEach, scanStart, type ScanState } from '../src/index.js';
import { checkChunk, isUint8Array } from '../src/reducers/uint8-array.js';

const encoder = new TextEncoder();

/** A Proxy whose every trap throws: nothing of it may be read. */
function hostile(): object {
  return new Proxy({}, new Proxy({}, { get: (_target, trap) => () => {
    throw new Error(`trap ${String(trap)}`);
  } }));
}

/** Each value that is not a Uint8Array, and how the refusal names it. */
const NOT_BYTES: readonly [string, () => unknown, string][] = [
  ['a number', () => 5, '5'],
  ['a boolean', () => true, 'true'],
  ['null', () => null, 'null'],
  ['undefined', () => undefined, 'undefined'],
  ['a string', () => 'data: x\n\n', 'a string'],
  ['a one-character string', () => 'x', 'a string'],
  ['a bigint', () => 10n, '10'],
  ['a symbol', () => Symbol('s'), 'a symbol'],
  ['a function', () => () => 1, 'a function'],
  ['an array of bytes', () => [100, 97, 116, 97], 'an object'],
  ['a one-byte array-like', () => ({ length: 1, 0: 0x41 }), 'an object'],
  ['a DataView', () => new DataView(new ArrayBuffer(4)), '[object DataView]'],
  ['a Uint16Array', () => new Uint16Array([0x41]), '[object Uint16Array]'],
  ['an Int8Array', () => new Int8Array([0x41]), '[object Int8Array]'],
  ['a Uint8ClampedArray', () => new Uint8ClampedArray([0x41]), '[object Uint8ClampedArray]'],
  ['a Float64Array', () => new Float64Array([0x41]), '[object Float64Array]'],
  ['an ArrayBuffer', () => new ArrayBuffer(1), 'an object'],
  ['an object with the prototype of one', () => Object.create(Uint8Array.prototype) as unknown, 'an object'],
  ['an object that claims the tag', () => ({ [Symbol.toStringTag]: 'Uint8Array', length: 1, 0: 0x41 }), 'an object'],
  ['a Uint16Array that claims the tag', () => Object.defineProperty(new Uint16Array([0x41]), Symbol.toStringTag, { value: 'Uint8Array' }), '[object Uint16Array]'],
  ['a Proxy whose every trap throws', hostile, 'an object'],
];

/** Each reducer that takes a chunk, from a state that has read something, with the state's snapshot to compare. */
const REDUCERS: readonly [string, (chunk: unknown) => { run: () => unknown; state: unknown }][] = [
  ['scan', (chunk) => {
    const state = scan(scanStart(), encoder.encode('id: 7\ndata: pending')).state;
    return { state, run: () => scan(state, chunk as Uint8Array) };
  }],
  ['scanEach', (chunk) => {
    const state = scan(scanStart(), encoder.encode('data: pending')).state;
    return { state, run: () => scanEach(state, chunk as Uint8Array, () => undefined) };
  }],
  ['answer (event-stream)', (chunk) => {
    const state = answer(answerStart({ format: 'event-stream' }), encoder.encode('data: {"jsonrpc"')).state;
    return { state, run: () => answer(state, chunk as Uint8Array) };
  }],
  ['answer (json)', (chunk) => {
    const state = answer(answerStart({ format: 'json' }), encoder.encode('{"jsonrpc"')).state;
    return { state, run: () => answer(state, chunk as Uint8Array) };
  }],
  ['answer after its outcome', (chunk) => {
    const state = answer(answerStart({ format: 'event-stream', maxBytes: 1 }), encoder.encode('data: x')).state;
    return { state, run: () => answer(state, chunk as Uint8Array) };
  }],
  ['budget', (chunk) => {
    const state = budget(budgetStart(10), encoder.encode('abc')).state;
    return { state, run: () => budget(state, chunk as Uint8Array) };
  }],
];

describe.each(REDUCERS)('%s refuses a chunk that is not a Uint8Array', (_name, reducer) => {
  test.each(NOT_BYTES)('%s: a TypeError naming it, and the state as it was', (_what, make, described) => {
    const { state, run } = reducer(make());
    const snapshot = structuredClone(state);
    expect(run).toThrow(new TypeError(`chunk must be a Uint8Array, got ${described}`));
    expect(state).toStrictEqual(snapshot);
  });
});

describe('what passes: any Uint8Array', () => {
  test('a Node Buffer, a subclass, and a Uint8Array of another realm are read as bytes', () => {
    class Bytes extends Uint8Array {}
    const chunks = [Buffer.from('data: a\n\n'), new Bytes(encoder.encode('data: a\n\n')), vm.runInNewContext('new Uint8Array([100, 97, 116, 97, 58, 32, 97, 10, 10])') as Uint8Array];
    for (const chunk of chunks) {
      expect(isUint8Array(chunk)).toBe(true);
      expect(scan(scanStart(), chunk).events).toStrictEqual([{ type: 'message', data: 'a', lastEventId: '' }]);
      expect(budget(budgetStart(), chunk).state.bytes).toBe(9);
      expect(answer(answerStart({ format: 'event-stream' }), chunk).messages).toStrictEqual([]);
    }
  });

  test('checkChunk passes a Uint8Array through and names anything else', () => {
    expect(() => checkChunk(new Uint8Array(0))).not.toThrow();
    expect(() => checkChunk(new DataView(new ArrayBuffer(0)))).toThrow(new TypeError('chunk must be a Uint8Array, got [object DataView]'));
  });
});

test("scanEach names the chunk before the sink when both are wrong, and the sink when only it is", () => {
  const state: ScanState = scanStart();
  expect(() => scanEach(state, 'x' as never, 'push' as never)).toThrow(new TypeError('chunk must be a Uint8Array, got a string'));
  expect(() => scanEach(state, encoder.encode('x'), 'push' as never)).toThrow(new TypeError('onEvent must be a function, got "push"'));
});
