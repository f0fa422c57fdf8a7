// One workload's instruction counts, run by bench/instructions.mjs under valgrind's callgrind:
//   <node> --predictable --expose-gc … bench/instructions-core.mjs WORKLOAD
// Each reader is read until its code is compiled as it will stay; then, in turn, each reads the
// workload once more between two markers: os.uptime(), before which callgrind zeroes its counters,
// and os.loadavg(), before which it writes them to a file. Nothing else calls either. Before each
// marked read, a minor GC empties the young generation, so a read starts from the same heap
// whatever the reads before it allocated, and pays for no collection it did not cause. Prints the
// reader of each marked read, in order, as one JSON line.
import { loadavg, uptime } from 'node:os';
import { ANSWERS, answerBody, STREAMS } from './portable-core.mjs';
import { consumed, readAnswerWithEventsourceParser, readWithAnswerReducer, readWithEventsourceParser, readWithScannerEach } from './portable-readers.mjs';
import * as w from './workloads.mjs';

/** The readers counted, by the id the counts use: ours and their peers. */
export const READERS = {
  scanner: readWithScannerEach,
  'eventsource-parser': readWithEventsourceParser,
  answer: readWithAnswerReducer,
  'eventsource-parser+parse': readAnswerWithEventsourceParser,
};

/**
 * A 1-byte drip costs per chunk, so 16 KB shows what 200 KB does, and keeps the slowest reads
 * under valgrind (eventsource-parser's, a decoder call per byte) to seconds.
 */
const DRIP_BYTES = 16_000;

/**
 * The workloads of the runtimes case (portable-core.mjs), the drips at DRIP_BYTES: `{ chunks,
 * readers }`. A stream is read by the scanner and eventsource-parser; an answer by the answer
 * reducer and eventsource-parser with `JSON.parse`, and by the scanner and eventsource-parser too.
 */
export const WORKLOADS = {
  ...Object.fromEntries(
    STREAMS.map(([name, text, size]) => [name, { chunks: () => w.chunked(w.encode(text()), size), readers: ['scanner', 'eventsource-parser'] }]),
  ),
  drip: { chunks: () => w.chunked(w.encode(w.oneLargeEvent(DRIP_BYTES)), 1), readers: ['scanner', 'eventsource-parser'] },
  'answer-1mib': { chunks: ANSWERS['answer-1mib'], readers: ['answer', 'eventsource-parser+parse', 'scanner', 'eventsource-parser'] },
  'answer-drip': { chunks: () => w.chunked(answerBody(DRIP_BYTES), 1), readers: ['answer', 'eventsource-parser+parse', 'scanner', 'eventsource-parser'] },
};

/** Marked reads of each reader; the driver takes the median, which drops a read a compilation or a major GC fell in. */
export const MARKED_READS = 5;

/**
 * Warm-up reads: enough for 24,000 chunks, at least 12 and at most 24. Fewer leave code below its
 * last tier (after 3 reads of a drip, the scanner counted 45% more than after 12); past this, a
 * figure moves only by the compiler's choices, which depend on what ran before (utf8 within 1.5%
 * from 12 to 60 reads, the others within 0.5%).
 */
const warmUpReads = (chunks) => Math.min(24, Math.max(12, Math.ceil(24_000 / chunks.length)));
const WARM_UP_SCALE = Number(process.env.INSTRUCTIONS_WARM_UP_SCALE ?? 1);

if (import.meta.url === `file://${process.argv[1]}`) {
  const name = process.argv[2];
  const workload = WORKLOADS[name];
  if (workload === undefined) throw new Error(`no workload ${name}: the workloads are ${Object.keys(WORKLOADS).join(', ')}`);
  if (typeof globalThis.gc !== 'function') throw new Error('run with --expose-gc');
  const chunks = workload.chunks();
  const readers = workload.readers.map((id) => [id, READERS[id]]);
  for (let i = Math.round(warmUpReads(chunks) * WARM_UP_SCALE); i > 0; i--) for (const [, read] of readers) read(chunks);
  const order = [];
  for (let k = 0; k < MARKED_READS; k++) {
    for (const [id, read] of readers) {
      globalThis.gc({ type: 'minor' });
      uptime();
      read(chunks);
      loadavg();
      order.push(id);
    }
  }
  console.log(JSON.stringify({ workload: name, order, sink: consumed() === -1 }));
}
