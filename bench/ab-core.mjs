// The A/B figures: this checkout's build against another's, side by side in one process, on the
// workloads of the runtimes case. Web globals only, so every runtime runs it (bench/ab.mjs).
// Two builds in one process see the same machine at the same moment, so their ratio is steadier
// than two runs of the suite; see docs/guides/benchmarks.md, "How steady the figures are".
import * as base from './.ab/base.js';
import * as head from './.ab/head.js';
import { ANSWERS, DRIP, paired, STREAMS } from './portable-core.mjs';
import { answerReducerOf, consumed, scannerEachOf } from './portable-readers.mjs';
import * as w from './workloads.mjs';

/** The stream cases, the drip included. */
const STREAM_CASES = [...STREAMS, DRIP];

/** A case's reader of one build, by name: a stream case's scanner, or an answer case's reducer. */
function readerOf(name) {
  const stream = STREAM_CASES.find(([id]) => id === name);
  if (stream !== undefined) {
    const chunks = w.chunked(w.encode(stream[1]()), stream[2]);
    return (build) => {
      const read = scannerEachOf(build);
      return () => read(chunks);
    };
  }
  if (name in ANSWERS) {
    const chunks = ANSWERS[name]();
    return (build) => {
      const read = answerReducerOf(build);
      return () => read(chunks);
    };
  }
  throw new Error(`no case ${name}: the cases are ${STREAM_CASES.map(([id]) => id).join(', ')}, ${Object.keys(ANSWERS).join(', ')}`);
}

/**
 * `{ figures }`: for each of `cases` (the runtimes case's stream cases, `answer-1mib` and
 * `answer-drip`), this build's throughput over the other's (`<case>.head/base`: above 1, this
 * build is faster), as the median of paired rounds.
 */
export function measure({ rounds, seconds, cases }) {
  const figures = [];
  for (const name of cases) {
    const reader = readerOf(name);
    figures.push({ id: `${name}.head/base`, ...paired(reader(head), reader(base), rounds, seconds) });
  }
  return { figures, sink: consumed() === -1 };
}
