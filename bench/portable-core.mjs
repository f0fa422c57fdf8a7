// The figures every runtime measures (Node, Chromium, workerd, Deno, Bun): the scanner against
// eventsource-parser on each stream case (what a promise bounds), and the records: the scanner
// against the engine's own limits, and the answer reducer against the scanner alone. Web globals
// only, no benny: timed by performance.now() in paired rounds of alternating order, so a drift in
// the machine's speed lands on both sides of a ratio.
import {
  consumed,
  readCeiling,
  readDecodeOnly,
  readEventFloor,
  readWithAnswerReducer,
  readWithEventsourceParser,
  readWithScanner,
  readWithScannerAndCheck,
  readWithScannerAndParse,
  readWithScannerEach,
  scannerEachOf,
} from './portable-readers.mjs';
import * as sseAnswer from '../dist/index.js';
import { handicapped } from './handicap.mjs';
import * as w from './workloads.mjs';

/** Reads for `seconds` and returns reads a second. */
function hz(read, seconds) {
  const start = performance.now();
  let count = 0;
  do {
    read();
    count++;
  } while (performance.now() - start < seconds * 1000);
  return (count * 1000) / (performance.now() - start);
}

const median = (values) => {
  const s = [...values].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * Untimed rounds a side reads before the paired rounds: an engine optimizes a reader over its
 * first few tenths of a second, and rounds in that time measure the compiler (two copies of one
 * reader read 1.6–8x apart in their first three rounds of 0.1 s in Node 26, and within 4% after).
 */
const WARM_TURNS = 2;

/** `a`'s throughput over `b`'s: the median of paired rounds, each round's order alternating, after WARM_TURNS untimed ones. */
export function paired(a, b, rounds, seconds) {
  for (let turn = 0; turn < WARM_TURNS; turn++) {
    hz(a, seconds);
    hz(b, seconds);
  }
  const ratios = [];
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      const x = hz(a, seconds);
      ratios.push(x / hz(b, seconds));
    } else {
      const y = hz(b, seconds);
      ratios.push(hz(a, seconds) / y);
    }
  }
  return { value: median(ratios), rounds: ratios };
}

export const LARGE = 1 << 20;

/**
 * The stream cases of the Node suite, with the same chunk sizes, and the token stream in 16 KiB
 * reads: `[name, text, chunk size, whether its limits are measured]` (the small-event cases'
 * decode-only and per-event floors; the large event has its ceiling instead).
 */
export const STREAMS = [
  ['tokens', () => w.tokenEvents(), 1024, true],
  // The same stream in reads of 16 KiB, as a network delivers it: the most the scanner reads as
  // one text (DETACH), so the per-chunk costs are spread over 400 events.
  ['tokens-16k', () => w.tokenEvents(), 16 * 1024, true],
  ['mcp', () => w.mcpNotifications(), 1024, true],
  ['utf8', () => w.utf8Events(), 1024, true],
  ['keepalive', () => w.keepAliveEvents(), 1024, true],
  ['crlf', () => w.crlfEvents(), 1024, true],
  ['large', () => w.oneLargeEvent(LARGE), 16 * 1024, false],
];

/** The 1-byte drip, measured after the 1 MiB answer (see measure). */
export const DRIP = ['drip', () => w.oneLargeEvent(200_000), 1, false];

/** An event-stream answer whose result carries `size` bytes of text. */
export function answerBody(size) {
  return w.encode(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'y'.repeat(size) }] } })}\n\n`);
}

/** The answer cases' chunks, by name: a 1 MiB answer in 16 KiB reads, a 200 KB one in 1-byte reads. */
export const ANSWERS = {
  'answer-1mib': () => w.chunked(answerBody(LARGE), 16 * 1024),
  'answer-drip': () => w.chunked(answerBody(200_000), 1),
};

/** The id of the figure a promise bounds on a stream case: the scanner against eventsource-parser. */
const promised = (name) => `${name}.scanner/eventsource-parser`;

/**
 * A stream case's figures, pushed onto `figures`: the promised one, the scanner against
 * eventsource-parser, read as the parser is, each event handed to a callback (`scanEach`),
 * slowed by `handicap` if given (handicap.mjs); and the records: `scan`, which lists each chunk's
 * events (`<case>.scan/eventsource-parser`), the case's limits, and the large event's ceiling.
 */
function streamFigures(figures, [name, text, size, decodeLimit], wanted, rounds, seconds, handicap) {
  const id = promised(name);
  const listed = `${name}.scan/eventsource-parser`;
  const limit = `${name}.decode/eventsource-parser`;
  const floor = `${name}.floor/eventsource-parser`;
  const ceiling = 'large.scanner/ceiling';
  const chosen = [id, listed, ...(decodeLimit ? [limit, floor] : []), ...(name === 'large' ? [ceiling] : [])].filter(wanted);
  if (chosen.length === 0) return;
  const bytes = w.encode(text());
  const chunks = w.chunked(bytes, size);
  const against = (read) => paired(read, () => readWithEventsourceParser(chunks), rounds, seconds);
  if (chosen.includes(id)) {
    const scanner = handicap === undefined ? readWithScannerEach : scannerEachOf(handicapped(sseAnswer, handicap));
    figures.push({ id, ...against(() => scanner(chunks)) });
  }
  if (chosen.includes(listed)) figures.push({ id: listed, ...against(() => readWithScanner(chunks)) });
  if (chosen.includes(limit)) figures.push({ id: limit, ...against(() => readDecodeOnly(chunks)) });
  if (chosen.includes(floor)) figures.push({ id: floor, ...against(() => readEventFloor(chunks)) });
  if (chosen.includes(ceiling)) {
    // The engine's own limit: the event's bytes decoded into one fresh string, nothing else.
    const data = bytes.slice(6, 6 + LARGE);
    figures.push({ id: ceiling, ...paired(() => readWithScannerEach(chunks), () => readCeiling(data), rounds, seconds) });
  }
}

/** The 1 MiB answer's records: the answer reducer, the engine's own parse and the reducer's floor. */
function answerFigures(figures, wanted, rounds, seconds) {
  const chunks = ANSWERS['answer-1mib']();
  if (wanted('answer-1mib.scanner/answer')) {
    figures.push({ id: 'answer-1mib.scanner/answer', ...paired(() => readWithScanner(chunks), () => readWithAnswerReducer(chunks), rounds, seconds) });
  }
  if (wanted('answer-1mib.scanner/scanner+parse')) {
    // The engine's own parse, beside the reducer: the scanner, then JSON.parse of the data.
    figures.push({ id: 'answer-1mib.scanner/scanner+parse', ...paired(() => readWithScanner(chunks), () => readWithScannerAndParse(chunks), rounds, seconds) });
  }
  if (wanted('answer-1mib.scanner/scanner+check')) {
    // The reducer's own floor: the scanner, then the proof that the long string may be shared.
    figures.push({ id: 'answer-1mib.scanner/scanner+check', ...paired(() => readWithScanner(chunks), () => readWithScannerAndCheck(chunks), rounds, seconds) });
  }
}

/** Every stream case, the drip last: the ids of the figures the promises bound here. */
export const PROMISED = [...STREAMS, DRIP].map(([name]) => promised(name));

/**
 * The figures asked for, as `{ id, value, rounds }`, each the median of `rounds` paired rounds
 * of `seconds` a side. An id reads `<case>.<a>/<b>`: a's throughput over b's, so
 * `scanner/answer` is what the answer reducer costs as a multiple of the scanner alone.
 * - `figures`: these ids; or
 * - `sets`: `promises`, the figures bench/promises.json bounds (PROMISED); `records`, the rest:
 *   each stream case read by `scan` (`<case>.scan/eventsource-parser`), each small-event case's
 *   decode-only limit (`<case>.decode/eventsource-parser`) and per-event floor
 *   (`<case>.floor/eventsource-parser`, see readEventFloor), the large event's ceiling
 *   (`large.scanner/ceiling`), the answer reducer against the scanner alone on the 1 MiB answer
 *   and at 1-byte chunks (`answer-1mib.scanner/answer`, `answer-drip.scanner/answer`), and the 1
 *   MiB answer's scanner + JSON.parse (`answer-1mib.scanner/scanner+parse`) and scanner + the
 *   check that lets the reducer share its long string (`answer-1mib.scanner/scanner+check`);
 *   `only` (a substring of an id) keeps some of them.
 * - `handicap`: the fraction the scanner is slowed by in the promised figures (handicap.mjs).
 */
export function measure({ rounds, seconds, figures: ids, sets = ['promises'], only, handicap }) {
  const inSets = (id) => (PROMISED.includes(id) ? sets.includes('promises') : sets.includes('records'));
  const wanted = ids !== undefined ? (id) => ids.includes(id) : (id) => inSets(id) && (only === undefined || id.includes(only));
  const figures = [];
  for (const stream of STREAMS) streamFigures(figures, stream, wanted, rounds, seconds, handicap);
  // The 1 MiB answer is measured before the 1-byte drip: after the drip, V8 (workerd, Deno)
  // reads large strings several times slower for a while, whatever the reader (workerd: the
  // scanner on this answer 0.14 ms before, 0.5–1.8 ms after, eventsource-parser's large event
  // 0.15 ms before, 2.5 ms after), and a cost common to both sides would pull the ratio to 1.
  answerFigures(figures, wanted, rounds, seconds);
  streamFigures(figures, DRIP, wanted, rounds, seconds, handicap);
  if (wanted('answer-drip.scanner/answer')) {
    const chunks = ANSWERS['answer-drip']();
    figures.push({ id: 'answer-drip.scanner/answer', ...paired(() => readWithScanner(chunks), () => readWithAnswerReducer(chunks), rounds, seconds) });
  }
  return { figures, sink: consumed() === -1 };
}
