/**
 * parseJson against JSON.parse: over generated texts — valid ones with long strings in small
 * envelopes, and the same texts mutated into near-misses — at small limits, so that every path
 * (slices, markers, fallbacks) is taken, the result or the error is JSON.parse's own.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { longStrings, parseJsonWith } from '../src/reducers/parse-json.js';
import { withoutSetFromBase64, withSetFromBase64 } from '../test/helpers/base64-reference.js';
import { parseOutcome } from '../test/helpers/canonical.js';
import { fcParams } from './settings.js';

/** Characters that matter to a JSON string's extent and validity, and some that do not. */
const charArb = fc.oneof(
  // 小 (U+5C0F) and 丢 (U+4E22) hold a backslash's and a quote's byte: false hits for a two-byte search.
  { arbitrary: fc.constantFrom('x', 'y', ' ', '/', '\u007f', 'é', '日', '小', '丢', '\ud83d\ude00', '\ud800', '\udfff'), weight: 8 },
  { arbitrary: fc.constantFrom('"', '\\', '\n', '\t', '\u0000', '\u001f'), weight: 1 }, // escaped when written
);
/** Base64, plain or ending in a near miss: what `setFromBase64` proves a long string free of control characters by. */
const base64Arb = fc
  .tuple(fc.integer({ min: 1, max: 4 }), fc.constantFrom('', 'QQ==', 'QUI=', 'QU', 'Q===', 'QQ=A', ' QUI', 'QU  ', '-_AA'))
  .map(([chunks, ending]) => 'QUJD'.repeat(chunks) + ending);
const stringArb = fc.oneof(
  { arbitrary: fc.array(charArb, { maxLength: 12 }).map((cs) => cs.join('')), weight: 3 },
  { arbitrary: base64Arb, weight: 3 },
  { arbitrary: fc.integer({ min: 4, max: 20 }).map((n) => 'z'.repeat(n)), weight: 6 }, // long and clean: a slice
  { arbitrary: fc.constantFrom('\u00000', '\u00001', '\u00002'), weight: 1 }, // what the markers are
);
const keyArb = fc.oneof(stringArb, fc.constantFrom('__proto__', '0', '1', '10', 'a', 'b'));

const { value: valueArb } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    stringArb,
    fc.constantFrom(0, -0, 1, -1.5, 1e21, 5e-324, true, false, null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.array(fc.tuple(keyArb, tie('value')), { maxLength: 4 }).map((entries) => {
      // Built as JSON.parse would build it, so that `__proto__` is an own key.
      const object: Record<string, unknown> = {};
      for (const [key, value] of entries) Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
      return object;
    }),
  ),
}));

/** A mutation that turns a valid text into a near-miss (or, sometimes, another valid one). */
const mutationArb = fc.record({
  at: fc.nat(),
  // Raw TAB, LF, FF and CR are the control characters base64's decoder skips as whitespace.
  insert: fc.constantFrom('', '"', '\\', '\n', '\t', '\f', '\r', '\u0001', '\u0000', '\\u0000', '\\"', ':', ',', ' ', 'zzzz', 'QUJD'),
  remove: fc.nat({ max: 2 }),
});

/** A valid text (JSON.stringify with some indentation), maybe mutated. */
const textArb = fc
  .tuple(fc.oneof(valueArb, fc.array(valueArb, { minLength: 1, maxLength: 6 })), fc.constantFrom(undefined, 0, 1, '\t'), fc.option(mutationArb, { nil: undefined }))
  .map(([value, indent, mutation]) => {
    const text = JSON.stringify(value, null, indent) ?? 'null';
    if (mutation === undefined) return text;
    const at = mutation.at % (text.length + 1);
    return text.slice(0, at) + mutation.insert + text.slice(at + mutation.remove);
  });

/** The property: parseJsonWith at small limits against JSON.parse. Returns how many texts took the slice path. */
function assertParsesAsJsonParse(): number {
  let slicePath = 0;
  fc.assert(
    fc.property(textArb, fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 400 }), (text, longString, maxEnvelope) => {
      if (longStrings(text, longString, maxEnvelope) !== undefined) slicePath++;
      expect(parseOutcome(() => parseJsonWith(text, longString, maxEnvelope))).toEqual(parseOutcome(() => JSON.parse(text)));
    }),
    fcParams,
  );
  return slicePath;
}

test('parseJson gives what JSON.parse gives, value (key order, -0, own __proto__) or error', () => {
  const slicePath = withoutSetFromBase64(assertParsesAsJsonParse);
  // The generator must reach the path under test, not only the fallbacks.
  expect(slicePath).toBeGreaterThan(fcParams.numRuns / 10);
});

test('the same where the engine has setFromBase64, which proves plain base64 free of control characters', () => {
  let decodes = 0;
  const slicePath = withSetFromBase64(assertParsesAsJsonParse, () => decodes++);
  expect(slicePath).toBeGreaterThan(fcParams.numRuns / 10);
  expect(decodes).toBeGreaterThan(fcParams.numRuns / 10);
});
