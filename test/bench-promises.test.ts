// The release gate's rule (bench/promises.mjs): which figures it judges, and how a figure is
// decided from its samples, one a fresh process. The measuring is bench/gate.mjs's, run by
// `npm run bench:check`; no timing is judged here.
import { expect, test } from 'vitest';
// @ts-expect-error: the bench is plain JavaScript, read from its own files.
import * as promises from '../bench/promises.mjs';
// @ts-expect-error: as above.
import * as nodeSuite from '../bench/node-suite.mjs';
// @ts-expect-error: as above.
import * as clientsBench from '../bench/clients.bench.mjs';

type Bound = { atLeast: number } | { atMost: number };
type Figure = { id: string; runtime: string; figure: string; source: string; bound: Bound; judged: boolean };
type Verdict = { value: number | null; met: boolean | undefined; decided: boolean; how: string };
const p = promises as {
  JUDGED: string[];
  SHOWN: string[];
  MIN_PROCESSES: number;
  MAX_PROCESSES: number;
  promisedFigures: (options?: { shown?: boolean }) => Figure[];
  decide: (samples: number[], bound: Bound, options?: { last?: boolean }) => Verdict;
  chanceOfMisses: (misses: number, n: number) => number;
  MISS_EVIDENCE: number;
  decidedMissed: (figures: Figure[], samplesOf: (figure: Figure) => number[]) => boolean;
};

test('the gate judges Node 24 and 26 and every other runtime the package claims; Node 20 and 22 are shown', () => {
  expect(p.JUDGED).toEqual(['node24', 'node26', 'chromium', 'workerd', 'deno', 'bun']);
  expect(p.SHOWN).toEqual(['node20', 'node22']);
  expect(p.MIN_PROCESSES).toBe(3);
  expect(p.MAX_PROCESSES).toBeGreaterThan(p.MIN_PROCESSES);
});

test('the stream promise is judged in every judged runtime, the Node promises in the Node lines', () => {
  const figures = p.promisedFigures();
  const tokens = figures.filter((f) => f.figure === 'tokens.scanner/eventsource-parser');
  expect(tokens.map((f) => f.runtime)).toEqual(p.JUDGED);
  expect(tokens.every((f) => f.source === 'portable' && 'atLeast' in f.bound && f.bound.atLeast === 0.95 && f.judged)).toBe(true);
  const answers = figures.filter((f) => f.figure === 'answers.readAnswer/sdk');
  expect(answers.map((f) => [f.id, f.source, f.bound])).toEqual([
    ['node24:answers.readAnswer/sdk', 'node-suite', { atLeast: 5 }],
    ['node26:answers.readAnswer/sdk', 'node-suite', { atLeast: 5 }],
  ]);
  expect(figures.find((f) => f.figure === 'memory.readAnswer')?.bound).toEqual({ atMost: 2.5 });
  expect(figures.filter((f) => f.runtime === 'node20')).toEqual([]);
});

test('with the shown lines, they carry every Node figure, not judged', () => {
  const shown = p.promisedFigures({ shown: true }).filter((f) => f.runtime === 'node20');
  expect(shown.length).toBe(p.promisedFigures().filter((f) => f.runtime === 'node26').length);
  expect(shown.every((f) => !f.judged)).toBe(true);
});

const atLeast = { atLeast: 1 };

test('fewer than three processes decide nothing; at the last word, they cannot judge, which is a miss', () => {
  expect(p.decide([1.2, 1.3], atLeast)).toMatchObject({ decided: false, met: undefined });
  expect(p.decide([1.2, 1.3], atLeast, { last: true })).toMatchObject({ decided: true, met: false, value: 1.25 });
  expect(p.decide([], atLeast, { last: true })).toMatchObject({ decided: false, met: undefined, value: null });
});

test('three processes on one side of the bound decide it, either way', () => {
  expect(p.decide([1.1, 1.0, 1.3], atLeast)).toMatchObject({ decided: true, met: true, value: 1.1 });
  expect(p.decide([0.9, 0.99, 0.5], atLeast)).toMatchObject({ decided: true, met: false, value: 0.9 });
  expect(p.decide([2.4, 2.5, 1], { atMost: 2.5 })).toMatchObject({ decided: true, met: true });
  expect(p.decide([2.6, 2.51, 3], { atMost: 2.5 })).toMatchObject({ decided: true, met: false });
});

test('the chance of so many misses is the sign test: three of three is one in eight', () => {
  expect(p.chanceOfMisses(3, 3)).toBe(1 / 8);
  expect(p.chanceOfMisses(0, 5)).toBe(1);
  expect(p.chanceOfMisses(7, 8)).toBe(9 / 256);
  expect(p.chanceOfMisses(6, 8)).toBe(37 / 256);
  expect(p.MISS_EVIDENCE).toBe(p.chanceOfMisses(p.MIN_PROCESSES, p.MIN_PROCESSES));
});

test('a spread that spans the bound is measured again; at the last word, a miss needs evidence', () => {
  const spread = [0.9, 1.2, 1.1, 0.95];
  expect(p.decide(spread, atLeast)).toMatchObject({ decided: false, met: undefined });
  expect(p.decide(spread, atLeast, { last: true })).toMatchObject({ decided: true, met: true, value: 1.025 });
  // Samples of one engine's processes around the bound, the median below it: no evidence of a miss.
  const noisy = [0.944, 1.007, 0.992, 0.975, 0.942, 0.937, 0.941];
  expect(p.decide(noisy, { atLeast: 0.95 }, { last: true })).toMatchObject({ decided: true, met: true });
  // Seven of eight processes missed: one in 28 for a figure that keeps its bound.
  expect(p.decide([0.93, 0.94, 0.92, 0.96, 0.94, 0.93, 0.91, 0.94], { atLeast: 0.95 }, { last: true })).toMatchObject({ decided: true, met: false });
  // Six of eight: one in seven, not evidence enough.
  expect(p.decide([0.93, 0.94, 0.92, 0.96, 0.97, 0.93, 0.91, 0.94], { atLeast: 0.95 }, { last: true })).toMatchObject({ decided: true, met: true });
  // A median more than 5% past the bound is missed, whatever one process read.
  expect(p.decide([0.5, 0.6, 0.96], { atLeast: 0.95 }, { last: true })).toMatchObject({ decided: true, met: false, value: 0.6 });
  expect(p.decide([2.4, 2.7, 2.7], { atMost: 2.5 }, { last: true })).toMatchObject({ decided: true, met: false });
  expect(p.decide([2.4, 2.6, 2.6], { atMost: 2.5 }, { last: true })).toMatchObject({ decided: true, met: true });
});

test('a gate fails fast only on a judged figure decided missed: not on one still open, nor on a shown one', () => {
  const figure = (id: string, judged: boolean): Figure => ({ id, runtime: 'node26', figure: id, source: 'portable', bound: { atLeast: 0.95 }, judged });
  const judged = figure('a', true);
  const shown = figure('b', false);
  const samples = new Map<string, number[]>();
  const missed = () => p.decidedMissed([judged, shown], (f) => samples.get(f.id) ?? []);
  samples.set('a', [0.9, 0.91]);
  expect(missed()).toBe(false); // two processes decide nothing yet
  samples.set('a', [0.9, 0.91, 0.96]);
  expect(missed()).toBe(false); // the spread spans the bound
  samples.set('b', [0.5, 0.5, 0.5]);
  expect(missed()).toBe(false); // shown, never judged
  samples.set('a', [0.9, 0.91, 0.92]);
  expect(missed()).toBe(true);
  samples.set('a', [1.1, 1.2, 1.0]);
  expect(missed()).toBe(false);
});

// Every figure a promise names is one a case of the Node suite makes (the client benchmark's,
// bench/clients.bench.mjs, included), so that no gate waits on a figure nothing measures.

type Plan = { server: string; era: string; measures: Record<string, string[]> }[];
const suite = nodeSuite as { CASES: { id: string }[]; caseOf: (figure: string) => string };
const clients = clientsBench as { FIGURES: string[]; wanted: (figures?: string[]) => Plan };

test('every figure a Node-suite promise names comes from a case of the Node suite; a client figure, from one the client benchmark makes', () => {
  const figures = p.promisedFigures().filter((f) => f.source === 'node-suite');
  for (const f of figures) expect(suite.CASES.map((c) => c.id)).toContain(suite.caseOf(f.figure));
  const promisedClients = [...new Set(figures.filter((f) => suite.caseOf(f.figure) === 'clients').map((f) => f.figure))];
  for (const figure of promisedClients) expect(clients.FIGURES).toContain(figure);
  expect(() => clients.wanted(promisedClients)).not.toThrow();
});

test('the client promises: AnswerClient over the v2 SDK Client against the server that answers at once, in each era, judged in Node 24 and 26', () => {
  const figures = p.promisedFigures().filter((f) => suite.caseOf(f.figure) === 'clients');
  expect(figures.map((f) => [f.id, f.source, f.bound, f.judged])).toEqual([
    ['node24:clients-calls-instant-2026.answerClient/sdk', 'node-suite', { atLeast: 1.2 }, true],
    ['node26:clients-calls-instant-2026.answerClient/sdk', 'node-suite', { atLeast: 1.2 }, true],
    ['node24:clients-calls-instant-2025.answerClient/sdk', 'node-suite', { atLeast: 1.25 }, true],
    ['node26:clients-calls-instant-2025.answerClient/sdk', 'node-suite', { atLeast: 1.25 }, true],
  ]);
});

test('the client benchmark measures only what the figures asked for need, each side in one order', () => {
  expect(suite.caseOf('clients-calls-instant-2026.answerClient/sdk')).toBe('clients');
  expect(clients.wanted(['clients-calls-instant-2026.answerClient/sdk', 'clients-connect-instant-2026.sdkAnswer/sdk', 'clients-memory-official-2025.aiSdkAnswer/aiSdk'])).toEqual([
    { server: 'instant', era: '2026', measures: { calls: ['answerClient', 'sdk'], connect: ['sdk', 'sdkAnswer'] } },
    { server: 'official', era: '2025', measures: { memory: ['aiSdk', 'aiSdkAnswer'] } },
  ]);
  // Unasked, every figure: three measures, two servers, two eras, six ratios.
  expect(clients.FIGURES).toHaveLength(3 * 2 * 2 * 6);
  expect(clients.wanted().every((w) => Object.values(w.measures).every((sides) => sides.length === 5))).toBe(true);
  expect(() => clients.wanted(['clients-calls-instant-2027.answerClient/sdk'])).toThrow('the client benchmark makes no figure clients-calls-instant-2027.answerClient/sdk');
});
