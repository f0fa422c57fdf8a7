// The scanner cases and a 1 MiB answer in any runtime (Node, Bun, Deno): web globals only, no
// benny, timed by performance.now() in paired rounds. runtimes.bench.mjs runs it in each runtime;
// it prints one JSON line: { runtime, figures }.
import { answer, answerEnd, answerStart } from '../dist/index.js';
import { consume, consumed, readWithEventsourceParser, readWithScanner } from './portable-readers.mjs';
import * as w from './workloads.mjs';

const [rounds, seconds] = (globalThis.process?.argv ?? globalThis.Deno?.args ?? []).slice(-2).map(Number);

function readWithAnswerReducer(chunks) {
  let state = answerStart({ format: 'event-stream', requestId: 1 });
  for (const chunk of chunks) {
    const result = answer(state, chunk);
    if (result.outcome !== undefined) return consume(result.outcome.answer.result.content[0].text);
    state = result.state;
  }
  consume(answerEnd(state).outcome.answer.result.content[0].text);
}

/** Reads a second's worth (or `seconds`) and returns reads a second. */
function hz(read) {
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

/** The ratio of `a`'s throughput to `b`'s, median over paired rounds in alternating order. */
function paired(a, b) {
  a();
  b();
  const ratios = [];
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      const x = hz(a);
      ratios.push(x / hz(b));
    } else {
      const y = hz(b);
      ratios.push(hz(a) / y);
    }
  }
  return { value: median(ratios), rounds: ratios };
}

const streams = [
  ['tokens', w.tokenEvents(), 1024],
  ['mcp', w.mcpNotifications(), 1024],
  ['utf8', w.utf8Events(), 1024],
  ['keepalive', w.keepAliveEvents(), 1024],
  ['crlf', w.crlfEvents(), 1024],
  ['large', w.oneLargeEvent(1 << 20), 16 * 1024],
  ['drip', w.oneLargeEvent(200_000), 1],
];

const figures = [];
for (const [id, text, size] of streams) {
  const chunks = w.chunked(w.encode(text), size);
  figures.push({ id: `${id}.scanner/eventsource-parser`, ...paired(() => readWithScanner(chunks), () => readWithEventsourceParser(chunks)) });
}
// The 1 MiB answer: the answer reducer against the scanner alone on the same bytes.
const body = w.encode(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'y'.repeat(1 << 20) }] } })}\n\n`);
const answerChunks = w.chunked(body, 16 * 1024);
figures.push({ id: 'answer-1mib.answer/scanner', ...paired(() => readWithAnswerReducer(answerChunks), () => readWithScanner(answerChunks)) });

const runtime = globalThis.Bun ? `bun ${globalThis.Bun.version}` : globalThis.Deno ? `deno ${globalThis.Deno.version.deno}` : `node ${globalThis.process.version}`;
console.log(JSON.stringify({ runtime, figures, sink: consumed() === -1 }));
