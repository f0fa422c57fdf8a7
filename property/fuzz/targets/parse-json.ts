/**
 * `parseJson` against `JSON.parse`: over valid texts (deep, huge, with long strings escaped or
 * not, odd numbers, `__proto__` and duplicate keys) and near-misses made from them, at limits that
 * send small texts down every path, and at the real limits: the same value (key order, -0, own
 * `__proto__`) or the same error.
 */
import fc from 'fast-check';
import { parseJson, parseJsonWith } from '../../../src/reducers/parse-json.js';
import { hugeValueTextArb, payloadArb, valueTextArb } from '../corners.js';
import { jsonDifference } from '../json-values.js';
import { defineTarget, ensure } from '../target.js';

interface ParseInput {
  readonly text: string;
  /** `undefined`: the real limits (`parseJson`). */
  readonly limits: { readonly longString: number; readonly maxEnvelope: number } | undefined;
}

/** A text: a value, a message or batch, several values in an array, or a long clean string among them. */
const validTextArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: valueTextArb },
  { weight: 1, arbitrary: hugeValueTextArb },
  { weight: 4, arbitrary: payloadArb(fc.constantFrom('1', '"1"', 'null')) },
  { weight: 4, arbitrary: fc.array(fc.oneof(valueTextArb, fc.integer({ min: 1, max: 40 }).map((n) => `"${'z'.repeat(n)}"`)), { minLength: 1, maxLength: 6 }).map((vs) => `[${vs.join(', ')}]`) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom('"a"', '"__proto__"', '"\\u0000"', '"z"'),
        // 小 (U+5C0F) and 丢 (U+4E22) hold a backslash's and a quote's byte: false hits for a two-byte search.
        fc.constantFrom('y', '\u5c0f', '\u4e22'),
        fc.integer({ min: 1, max: 300_000 }),
        fc.constantFrom('', '\\n', '\\u0000', '\u00e9', '\u{1f600}', '\u5c0f', '\u0001'),
      )
      .map(([key, filler, n, extra]) => `{${key}: "${filler.repeat(n)}${extra}", ${key}:"${'w'.repeat(n % 50)}"}`),
  },
);

/** A near-miss: text inserted or removed somewhere (often a quote, an escape or a control character). */
const textArb: fc.Arbitrary<string> = fc
  .tuple(
    validTextArb,
    fc.option(
      fc.record({ at: fc.nat(), insert: fc.constantFrom('', '"', '\\', '\n', '\u0000', '\\u0000', '\\"', ':', ',', ' ', '}', ']', 'zzzz', '\ud800'), remove: fc.nat({ max: 2 }) }),
      { nil: undefined },
    ),
  )
  .map(([text, m]) => {
    if (m === undefined) return text;
    const at = m.at % (text.length + 1);
    return text.slice(0, at) + m.insert + text.slice(at + m.remove);
  });

/** What a parse gives: its value, or the error it threw as text. */
function outcome(parse: () => unknown): { value: unknown } | { error: string } {
  try {
    return { value: parse() };
  } catch (error) {
    return { error: String(error) };
  }
}

export const parseJsonTarget = defineTarget<ParseInput>({
  name: 'parse-json',
  summary: 'parseJson/parseJsonWith against JSON.parse: the same value or the same error',
  async: false,
  arbitrary: fc.record({
    text: textArb,
    limits: fc.option(fc.record({ longString: fc.integer({ min: 1, max: 64 }), maxEnvelope: fc.integer({ min: 0, max: 500 }) }), { nil: undefined, freq: 4 }),
  }),
  check({ text, limits }) {
    const expected = outcome(() => JSON.parse(text));
    const actual = outcome(() => (limits === undefined ? parseJson(text) : parseJsonWith(text, limits.longString, limits.maxEnvelope)));
    if ('error' in expected) {
      ensure('error' in actual && actual.error === expected.error, () => `JSON.parse threw ${expected.error}; parseJson gave ${'error' in actual ? actual.error : 'a value'}`);
      return;
    }
    ensure('value' in actual, () => `JSON.parse gave a value; parseJson threw ${'error' in actual ? actual.error : ''}`);
    const d = jsonDifference(actual.value, expected.value);
    ensure(d === undefined, () => `the values differ: ${d}`);
  },
});
