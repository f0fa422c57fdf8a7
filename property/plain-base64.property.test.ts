/**
 * isPlainBase64 against the definition it claims: the alphabet only, a multiple of four
 * characters, at most two "=" of padding at the end. Over strings of the characters the
 * decoder treats differently (the alphabet, "=", the whitespace it skips, controls, others),
 * with the spec's decoder (test/helpers/base64-reference.ts); the runtime fixtures run engines' own.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { isPlainBase64 } from '../src/reducers/plain-base64.js';
import { withSetFromBase64 } from '../test/helpers/base64-reference.js';
import { fcParams } from './settings.js';

const PLAIN = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const charArb = fc.oneof(
  { arbitrary: fc.constantFrom('Q', 'U', 'J', 'D', 'z', '0', '+', '/'), weight: 12 },
  { arbitrary: fc.constantFrom('=', ' ', '\t', '\n', '\f', '\r', '\u0000', '\u000b', '\u001f', '-', '_', '\\', '"', 'é'), weight: 1 },
);
const textArb = fc.array(charArb, { maxLength: 24 }).map((chars) => chars.join(''));

test('isPlainBase64 holds exactly for plain base64, which has no control character and no backslash', () => {
  let proved = 0;
  withSetFromBase64(() =>
    fc.assert(
      fc.property(textArb, fc.string({ maxLength: 3 }), fc.string({ maxLength: 3 }), (text, before, after) => {
        const result = isPlainBase64(before + text + after, before.length, before.length + text.length);
        expect(result).toBe(text !== '' && PLAIN.test(text));
        if (result) {
          proved++;
          expect(text).not.toMatch(/[\u0000-\u001f\\]/);
        }
      }),
      fcParams,
    ),
  );
  expect(proved).toBeGreaterThan(fcParams.numRuns / 20);
});
