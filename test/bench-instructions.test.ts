// The instruction-count check's verdict (bench/instruction-check.mjs): a figure is ours over the
// peer's instructions, and the check fails on one that grew more than 2% over its baseline, or
// that has none. Counting itself needs valgrind; CI runs it (`npm run bench:instructions`).
import { expect, test } from 'vitest';
// @ts-expect-error: the bench is plain JavaScript, read from its own files.
import * as check from '../bench/instruction-check.mjs';

type Row = { id: string; ratio: number; base: number | undefined; change: number | undefined; verdict: 'grew' | 'less' | 'same' };
const { compare, TOLERANCE } = check as {
  compare: (figures: Record<string, { ratio: number }>, baseline: { figures: Record<string, { ratio: number }> }) => { rows: Row[]; grown: string[] };
  TOLERANCE: number;
};

const baseline = { figures: { 'tokens.scanner/eventsource-parser': { ratio: 0.8 }, 'crlf.scanner/eventsource-parser': { ratio: 0.5 } } };

test('the tolerance is 2%', () => {
  expect(TOLERANCE).toBe(0.02);
});

test('a figure more than 2% over its baseline fails, named; one at 2% or under does not', () => {
  const { rows, grown } = compare({ 'tokens.scanner/eventsource-parser': { ratio: 0.8 * 1.021 }, 'crlf.scanner/eventsource-parser': { ratio: 0.5 * 1.019 } }, baseline);
  expect(grown).toEqual(['tokens.scanner/eventsource-parser']);
  expect(rows.map((row) => row.verdict)).toEqual(['grew', 'same']);
  expect(rows[0]?.change).toBeCloseTo(0.021, 10);
});

test('a figure more than 2% under its baseline passes, and is reported as less', () => {
  const { rows, grown } = compare({ 'crlf.scanner/eventsource-parser': { ratio: 0.5 * 0.97 } }, baseline);
  expect(grown).toEqual([]);
  expect(rows[0]).toMatchObject({ id: 'crlf.scanner/eventsource-parser', base: 0.5, verdict: 'less' });
});

test('a figure without a baseline fails: a new workload is counted on purpose, with --update', () => {
  const { rows, grown } = compare({ 'drip.scanner/eventsource-parser': { ratio: 0.2 } }, baseline);
  expect(grown).toEqual(['drip.scanner/eventsource-parser']);
  expect(rows[0]).toMatchObject({ base: undefined, change: undefined, verdict: 'grew' });
});
