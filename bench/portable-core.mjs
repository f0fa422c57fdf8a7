// The figures every runtime measures (Node, Chromium, workerd, Deno, Bun): the scanner against
// eventsource-parser on each stream case, the scanner against the engine's own limit on the large
// event, and the answer reducer against the scanner alone. Web globals only, no benny: timed by
// performance.now() in paired rounds of alternating order, so a drift in the machine's speed
// lands on both sides of a ratio.
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
} from './portable-readers.mjs';
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

/** `a`'s throughput over `b`'s: the median of paired rounds, each round's order alternating. */
export function paired(a, b, rounds, seconds) {
  a();
  b();
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

/**
 * A stream case's figures, pushed onto `figures`: with `targets`, the scanner against
 * eventsource-parser, read as the parser is, each event handed to a callback (`scanEach`), and the
 * large event's ceiling; with `limits`, `scan`, which lists each chunk's events
 * (`<case>.scan/eventsource-parser`), and the case's limits.
 */
function streamFigures(figures, [name, text, size, decodeLimit], wanted, { targets, limits }, rounds, seconds) {
  const id = `${name}.scanner/eventsource-parser`;
  const listed = `${name}.scan/eventsource-parser`;
  const limit = `${name}.decode/eventsource-parser`;
  const floor = `${name}.floor/eventsource-parser`;
  const ceiling = 'large.scanner/ceiling';
  const chosen = [
    ...(targets ? [id] : []),
    ...(limits ? [listed] : []),
    ...(limits && decodeLimit ? [limit, floor] : []),
    ...(targets && name === 'large' ? [ceiling] : []),
  ].filter(wanted);
  if (chosen.length === 0) return;
  const bytes = w.encode(text());
  const chunks = w.chunked(bytes, size);
  const against = (read) => paired(read, () => readWithEventsourceParser(chunks), rounds, seconds);
  if (chosen.includes(id)) figures.push({ id, ...against(() => readWithScannerEach(chunks)) });
  if (chosen.includes(listed)) figures.push({ id: listed, ...against(() => readWithScanner(chunks)) });
  if (chosen.includes(limit)) figures.push({ id: limit, ...against(() => readDecodeOnly(chunks)) });
  if (chosen.includes(floor)) figures.push({ id: floor, ...against(() => readEventFloor(chunks)) });
  if (chosen.includes(ceiling)) {
    // The engine's own limit: the event's bytes decoded into one fresh string, nothing else.
    const data = bytes.slice(6, 6 + LARGE);
    figures.push({ id: ceiling, ...paired(() => readWithScannerEach(chunks), () => readCeiling(data), rounds, seconds) });
  }
}

/**
 * The 1 MiB answer's figures, pushed onto `figures`: with `targets`, the answer reducer; with
 * `limits`, the engine's own parse and the reducer's floor.
 */
function answerFigures(figures, wanted, { targets, limits }, rounds, seconds) {
  const chunks = ANSWERS['answer-1mib']();
  if (targets && wanted('answer-1mib.scanner/answer')) {
    figures.push({ id: 'answer-1mib.scanner/answer', ...paired(() => readWithScanner(chunks), () => readWithAnswerReducer(chunks), rounds, seconds) });
  }
  if (limits && wanted('answer-1mib.scanner/scanner+parse')) {
    // The engine's own parse, beside the reducer: the scanner, then JSON.parse of the data.
    figures.push({ id: 'answer-1mib.scanner/scanner+parse', ...paired(() => readWithScanner(chunks), () => readWithScannerAndParse(chunks), rounds, seconds) });
  }
  if (limits && wanted('answer-1mib.scanner/scanner+check')) {
    // The reducer's own floor: the scanner, then the proof that the long string may be shared.
    figures.push({ id: 'answer-1mib.scanner/scanner+check', ...paired(() => readWithScanner(chunks), () => readWithScannerAndCheck(chunks), rounds, seconds) });
  }
}

/**
 * The figures of `sets`, as `{ id, value, rounds }`; `only` (a substring of an id) measures some.
 * An id reads `<case>.<a>/<b>`: a's throughput over b's, so `scanner/answer` is what the answer
 * reducer costs as a multiple of the scanner alone.
 * - `targets`: the figures bench/targets.json bounds, and the large event's ceiling beside them.
 * - `limits`: each stream case read by `scan` (`<case>.scan/eventsource-parser`), each
 *   small-event case's decode-only limit (`<case>.decode/eventsource-parser`) and per-event floor
 *   (`<case>.floor/eventsource-parser`, see readEventFloor), and the 1 MiB answer's scanner +
 *   JSON.parse (`answer-1mib.scanner/scanner+parse`) and scanner + the check that lets the
 *   reducer share its long string (`answer-1mib.scanner/scanner+check`). No target bounds them.
 */
export function measure({ rounds, seconds, sets = ['targets'], only }) {
  const wanted = (id) => only === undefined || id.includes(only);
  const measured = { targets: sets.includes('targets'), limits: sets.includes('limits') };
  const figures = [];
  for (const stream of STREAMS) streamFigures(figures, stream, wanted, measured, rounds, seconds);
  // The 1 MiB answer is measured before the 1-byte drip: after the drip, V8 (workerd, Deno)
  // reads large strings several times slower for a while, whatever the reader (workerd: the
  // scanner on this answer 0.14 ms before, 0.5–1.8 ms after, eventsource-parser's large event
  // 0.15 ms before, 2.5 ms after), and a cost common to both sides would pull the ratio to 1.
  answerFigures(figures, wanted, measured, rounds, seconds);
  streamFigures(figures, DRIP, wanted, measured, rounds, seconds);
  if (measured.targets && wanted('answer-drip.scanner/answer')) {
    const chunks = ANSWERS['answer-drip']();
    figures.push({ id: 'answer-drip.scanner/answer', ...paired(() => readWithScanner(chunks), () => readWithAnswerReducer(chunks), rounds, seconds) });
  }
  return { figures, sink: consumed() === -1 };
}
