/**
 * vocabulary/json-rpc.ts: the small readers of JSON values every layer shares — `isRecord`, the
 * one rule for an object whose fields can be read; `objectOf`; `ownValue`, which never reads an
 * inherited property. (`messageKind` and `answers` are pinned through the selector, in
 * selector.test.ts.)
 */

import { describe, expect, test } from 'vitest';
import { isRecord, objectOf, ownValue } from '../src/vocabulary/json-rpc.js';

describe('JSON value readers', () => {
  test('isRecord: a non-null object that is not an array', () => {
    expect([{}, Object.create(null), new Date()].map(isRecord)).toEqual([true, true, true]);
    expect([null, [], 'x', 1, undefined, () => {}].map(isRecord)).toEqual([false, false, false, false, false, false]);
  });

  test('objectOf: a plain object, else undefined', () => {
    const value = { a: 1 };
    expect(objectOf(value)).toBe(value);
    expect([objectOf(null), objectOf([1]), objectOf('x'), objectOf(undefined), objectOf(3)]).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });

  test('ownValue: an own value, never an inherited one', () => {
    const value = Object.assign(Object.create({ inherited: 1 }) as Record<string, unknown>, { mine: 2 });
    expect([ownValue(value, 'mine'), ownValue(value, 'inherited'), ownValue(value, 'toString'), ownValue({ __proto__: null, a: 3 }, 'a')]).toEqual([2, undefined, undefined, 3]);
  });
});
