// The runtime suite checks itself: its comparison sees every kind of difference, and run against a
// package broken in known ways it fails exactly the tests that should catch each break. (That it
// passes against the real package is `npm run test:runtimes`, in every runtime.)
import { describe, expect, test } from 'vitest';
import * as real from '../../src/index.js';
import { difference } from './check.mjs';
import { runSuite } from './suite.mjs';

describe('difference', () => {
  test.each([
    ['a primitive', 1, 2],
    ['-0 and 0', -0, 0],
    ['a missing key', { a: 1 }, { a: 1, b: undefined }],
    ['an extra key', { a: 1, b: 2 }, { a: 1 }],
    ['an array length', [1, 2], [1, 2, 3]],
    ['a nested item', { list: [{ data: 'x' }] }, { list: [{ data: 'y' }] }],
    ['an array against an object', [], {}],
    ['a string against a number', '1', 1],
    ['an object of another class against a plain one', new Date(0), {}],
  ])('finds %s', (_, actual, expected) => {
    expect(difference(actual, expected)).toEqual(expect.any(String));
  });

  test('finds no difference between equal values, NaN included', () => {
    expect(difference({ a: [1, 'x', null, undefined, NaN], b: { c: true } }, { b: { c: true }, a: [1, 'x', null, undefined, NaN] })).toBeUndefined();
  });

  test('names the path of the difference', () => {
    expect(difference({ events: [{ data: 'a' }, { data: 'b' }] }, { events: [{ data: 'a' }, { data: 'c' }] })).toBe(
      '$.events[1].data: got "b", expected "c"',
    );
  });
});

test('against a package broken in known ways, the suite fails the tests that catch each break', async () => {
  type Pkg = typeof real;
  const broken: Pkg = {
    ...real,
    // Drops the priming event (empty data).
    scan: (state, chunk) => {
      const result = real.scan(state, chunk);
      return { ...result, events: result.events.filter((event) => event.data !== '') };
    },
    // Ignores requestId.
    readAnswer: (response, options) => real.readAnswer(response, { ...options, requestId: undefined }),
    // Never releases an async iterable it stopped reading.
    readAnswerBody: (body, contentType, options) =>
      real.readAnswerBody(body === null || body instanceof ReadableStream ? body : unreturnable(body), contentType, options),
  };
  const result = await runSuite(broken);
  const failed = result.failures.map((failure) => failure.name);
  expect(failed).toContain('scanner: a priming event (empty data) fires with empty data and its id');
  expect(failed).toContain('readAnswer: event stream: with requestId, responses to other ids pass over (ids compare strictly)');
  expect(failed).toContain('readAnswerBody (async iterable): an answer on an endless body resolves and cancels the rest');
  expect(failed.some((name) => name.startsWith('readAnswerBody (ReadableStream)'))).toBe(false);
  expect(result.passed + result.failed).toBeGreaterThan(250);
}, 60_000);

/** `body` without `return()` on its iterator, so a reader cannot release it. */
function unreturnable(body: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]: () => {
      const iterator = body[Symbol.asyncIterator]();
      return { next: () => iterator.next() };
    },
  };
}
