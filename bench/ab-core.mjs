// The A/B figures: this checkout's build against another's, side by side in one process, on the
// workloads of the runtimes case. Web globals only, so every runtime runs it (bench/ab.mjs).
// Two builds in one process see the same machine at the same moment, so their ratio is steadier
// than two runs of the suite; see docs/guides/benchmarks.md, "How steady the figures are".
import * as base from './.ab/base.js';
import * as head from './.ab/head.js';
import { answerBody, DRIP, LARGE, paired, STREAMS } from './portable-core.mjs';
import { consume, consumed } from './portable-readers.mjs';
import * as w from './workloads.mjs';

/** A build's scanner over `chunks`, each event handed to a callback (`scanEach`). */
function scannerOf(build, chunks) {
  return () => {
    const onEvent = (event) => consume(event.data);
    let state = build.scanStart();
    for (const chunk of chunks) state = build.scanEach(state, chunk, onEvent);
    build.scanEndEach(state, onEvent);
  };
}

/** A build's answer reducer over `chunks` of one event-stream answer, to its result. */
function answerOf(build, chunks) {
  return () => {
    let state = build.answerStart({ format: 'event-stream', requestId: 1 });
    for (const chunk of chunks) {
      const result = build.answer(state, chunk);
      if (result.outcome !== undefined) return consume(result.outcome.answer.result.content[0].text);
      state = result.state;
    }
    consume(build.answerEnd(state).outcome.answer.result.content[0].text);
  };
}

/**
 * `{ figures }`: for each of `cases` (the runtimes case's stream cases, and `answer-1mib` and
 * `answer-drip`), this build's throughput over the other's (`<case>.head/base`: above 1, this
 * build is faster), as the median of paired rounds.
 */
export function measure({ rounds, seconds, cases }) {
  const figures = [];
  for (const name of cases) {
    const stream = [...STREAMS, DRIP].find(([id]) => id === name);
    let read;
    if (stream !== undefined) {
      const chunks = w.chunked(w.encode(stream[1]()), stream[2]);
      read = (build) => scannerOf(build, chunks);
    } else if (name === 'answer-1mib' || name === 'answer-drip') {
      const chunks = name === 'answer-1mib' ? w.chunked(answerBody(LARGE), 16 * 1024) : w.chunked(answerBody(200_000), 1);
      read = (build) => answerOf(build, chunks);
    } else {
      throw new Error(`no case ${name}: the cases are ${[...STREAMS, DRIP].map(([id]) => id).join(', ')}, answer-1mib, answer-drip`);
    }
    figures.push({ id: `${name}.head/base`, ...paired(read(head), read(base), rounds, seconds) });
  }
  return { figures, sink: consumed() === -1 };
}
