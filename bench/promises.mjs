// The promises of bench/promises.json, as the figures they bound in each runtime, and the rule
// that decides a figure from its samples, each the figure one fresh process measured. Pure, so
// the rule is tested on its own (test/bench-promises.test.ts).
import { readFileSync } from 'node:fs';

const PROMISES = JSON.parse(readFileSync(new URL('./promises.json', import.meta.url), 'utf8'));

/** The runtimes whose figures are judged, and the Node lines measured and shown beside them. */
export const JUDGED = PROMISES.judged;
export const SHOWN = PROMISES.shown;

/** A figure is decided only once this many processes have measured it. */
export const MIN_PROCESSES = 3;
/** No figure is measured by more processes than this; theirs then decide it (see decide). */
export const MAX_PROCESSES = 8;

/** Whether `runtime` is a Node line (node20, node26, …). */
export const isNodeLine = (runtime) => /^node\d+$/.test(runtime);

/**
 * Each figure a promise bounds, in each runtime it is judged in (and, with `shown`, each shown
 * Node line): `{ id, runtime, figure, source, bound, says, judged }`. `id` is
 * `<runtime>:<figure>`; `source` is where a process measures it: `portable`, the figures of
 * bench/portable-core.mjs, which every runtime runs; `node-suite`, those of the Node suite
 * (bench/node-suite.mjs), which needs Node.
 */
export function promisedFigures({ shown = false } = {}) {
  const runtimes = shown ? [...JUDGED, ...SHOWN] : JUDGED;
  return PROMISES.promises.flatMap((promise) => {
    const where = runtimes.filter((runtime) => promise.in === 'every' || isNodeLine(runtime));
    const bound = promise.atLeast !== undefined ? { atLeast: promise.atLeast } : { atMost: promise.atMost };
    const source = promise.in === 'every' ? 'portable' : 'node-suite';
    return where.flatMap((runtime) =>
      promise.figures.map((figure) => ({ id: `${runtime}:${figure}`, runtime, figure, source, bound, says: promise.says, judged: JUDGED.includes(runtime) })),
    );
  });
}

/** Whether one sample keeps the promise. */
const keeps = (value, bound) => (bound.atLeast !== undefined ? value >= bound.atLeast : value <= bound.atMost);

/**
 * The evidence a miss needs at the last word: a figure whose typical process keeps its bound would
 * show as many misses at most one time in eight (the sign test) — what three processes of three
 * missing show, the least that decides a miss before the last word.
 */
export const MISS_EVIDENCE = 1 / 8;

/**
 * How far past its bound a median is missed at the last word whatever its spread: 5%, about how
 * far apart the processes of one engine read one figure (docs/guides/benchmarks.md). Within it,
 * the count of processes decides (see decide).
 */
export const FAR = 0.05;

/** `bound`, moved FAR past itself: the line a median must not cross at the last word. */
const farFrom = (bound) => (bound.atLeast !== undefined ? { atLeast: bound.atLeast * (1 - FAR) } : { atMost: bound.atMost * (1 + FAR) });

/**
 * The verdict on a figure's samples (one a process): `{ value, met, decided, how }`, `value` their
 * median. A figure is decided once at least MIN_PROCESSES measured it and every sample falls on
 * one side of the bound: while the bound lies within their spread, it is to be measured again.
 * With `last` (the time cap, or MAX_PROCESSES), a spread that still spans the bound is missed when
 * its median lies more than FAR past the bound, or when so few processes kept it that
 * MISS_EVIDENCE says so; it is kept otherwise: the noise of one engine's processes (Chromium's
 * 0.94–1.01 on one figure, a 5 MiB exchange's 0.96–1.26) is no broken promise. Fewer than
 * MIN_PROCESSES samples judge nothing: a miss.
 */
export function decide(samples, bound, { last = false } = {}) {
  if (samples.length === 0) return { value: null, met: undefined, decided: false, how: 'not measured' };
  const value = median(samples);
  const n = samples.length;
  const kept = samples.filter((sample) => keeps(sample, bound)).length;
  if (n >= MIN_PROCESSES && (kept === 0 || kept === n)) {
    return { value, met: kept !== 0, decided: true, how: `every process ${kept !== 0 ? 'kept it' : 'missed it'}` };
  }
  if (!last) return { value, met: undefined, decided: false, how: 'the spread spans the bound' };
  if (n < MIN_PROCESSES) return { value, met: false, decided: true, how: `too few processes to judge (${MIN_PROCESSES} needed)` };
  if (!keeps(value, farFrom(bound))) return { value, met: false, decided: true, how: `the median is more than ${FAR * 100}% past the bound` };
  const missed = chanceOfMisses(n - kept, n) <= MISS_EVIDENCE;
  const how = `${kept} of ${n} processes kept it, ${missed ? 'too few' : 'no evidence of a miss'} (the spread spans the bound)`;
  return { value, met: !missed, decided: true, how };
}

/** The chance that `misses` or more of `n` samples miss a bound that half of all samples keep. */
export function chanceOfMisses(misses, n) {
  let ways = 1; // n choose k, from k = 0
  let sum = 0;
  for (let k = 0; k <= n; k++) {
    if (k >= misses) sum += ways;
    ways = (ways * (n - k)) / (k + 1);
  }
  return sum / 2 ** n;
}

/**
 * Whether a judged figure of `figures` is decided missed by its samples (`samplesOf(figure)`):
 * the gate's verdict is then failure, whatever the others become, since a decided figure is never
 * measured again (`--fail-fast` stops there). A shown figure never fails the gate.
 */
export function decidedMissed(figures, samplesOf) {
  return figures.some((f) => f.judged && decide(samplesOf(f), f.bound).met === false);
}

/** The bound as written: "≥ 0.95x". */
export const boundText = (bound) => (bound.atLeast !== undefined ? `≥ ${bound.atLeast}x` : `≤ ${bound.atMost}x`);

/** One console line for a decided figure: the verdict, the median, the bound and the samples. */
export function line(figure) {
  const mark = !figure.judged ? 'shown' : figure.met === undefined ? 'n/a' : figure.met ? 'kept' : 'MISS';
  const value = figure.value === null ? '—' : `${figure.value.toFixed(2)}x`;
  const samples = figure.samples.map((x) => x.toFixed(2)).join(' ');
  const noted = [boundText(figure.bound), `${figure.samples.length} process${figure.samples.length === 1 ? '' : 'es'}: ${samples}`, figure.how, figure.note]
    .filter(Boolean)
    .join('; ');
  return `${mark.padEnd(5)} ${figure.id.padEnd(46)} ${value.padStart(7)}  (${noted})`;
}

export function median(values) {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
