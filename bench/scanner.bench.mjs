// The scanner against eventsource-parser 4.1.3 fed by a streaming TextDecoder (ignoreBOM: true,
// as an SSE client must, since the parser strips the BOM itself). Both sides read every event's
// data in full: consume() touches its first, middle and last character, which makes an engine
// materialise a string built lazily (a rope), so neither side can defer work past the timer.
import { createParser } from 'eventsource-parser';
import { scan, scanEnd, scanStart } from '../dist/index.js';
import { compare, line, median } from './harness.mjs';
import * as w from './workloads.mjs';

let sink = 0;
function consume(data) {
  const n = data.length;
  if (n !== 0) sink += data.charCodeAt(0) + data.charCodeAt(n >> 1) + data.charCodeAt(n - 1);
}

export function readWithScanner(chunks) {
  let state = scanStart();
  for (const chunk of chunks) {
    const result = scan(state, chunk);
    state = result.state;
    for (const event of result.events) consume(event.data);
  }
  for (const event of scanEnd(state).events) consume(event.data);
}

export function readWithPeer(chunks) {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const parser = createParser({ onEvent: (event) => consume(event.data) });
  for (const chunk of chunks) parser.feed(decoder.decode(chunk, { stream: true }));
  parser.feed(decoder.decode());
}

const cases = [
  { name: 'small: 20,000 token events, 1 KiB chunks', chunks: w.chunked(w.encode(w.tokenEvents()), 1024), target: 0.95 },
  { name: 'small: MCP notifications, 1 KiB chunks', chunks: w.chunked(w.encode(w.mcpNotifications()), 1024), target: 0.95 },
  { name: 'small: UTF-8-heavy events, 1 KiB chunks', chunks: w.chunked(w.encode(w.utf8Events()), 1024), target: 0.95 },
  { name: 'CRLF: 20,000 typed events, 1 KiB chunks', chunks: w.chunked(w.encode(w.crlfEvents()), 1024), target: 1.2 },
  { name: 'large: one 1 MiB event, 16 KiB chunks', chunks: w.chunked(w.encode(w.oneLargeEvent(1 << 20)), 16 * 1024), target: 4 },
  // Diagnostic, no target: the large case below V8's large-object size (128 KiB), where a string
  // is not put on freshly mapped pages. See docs/guides/benchmarks.md.
  { name: 'diagnostic: one 120 KiB event, 16 KiB chunks', chunks: w.chunked(w.encode(w.oneLargeEvent(120 * 1024)), 16 * 1024) },
  { name: 'tiny: one 200 KB line, 1-byte chunks', chunks: w.chunked(w.encode(w.oneLargeEvent(200_000)), 1), target: 1.5 },
];

/**
 * The ceiling for the 1 MiB case on this machine: the peer against doing nothing but what any
 * reader must do there, make one fresh 1 MiB string and read it as the consumer does. No
 * implementation can beat the peer by more than this ratio. (Decoding, scanning and everything
 * else come on top.)
 */
const ceiling = {
  name: 'ceiling: one fresh 1 MiB string vs the peer',
  chunks: w.chunked(w.encode(w.oneLargeEvent(1 << 20)), 16 * 1024),
};
let letter = 0;
function freshString() {
  consume(String.fromCharCode(97 + (letter++ % 26)).repeat(1 << 20));
}

/** Time per byte of a long line in 1-byte chunks: 512 KiB against 64 KiB, ours alone. */
function linearity() {
  const perByte = (size) => {
    const chunks = w.chunked(w.encode(w.oneLargeEvent(size)), 1);
    readWithScanner(chunks);
    const times = [];
    for (let i = 0; i < 5; i++) {
      const start = performance.now();
      readWithScanner(chunks);
      times.push((performance.now() - start) / chunks.length);
    }
    return median(times);
  };
  const ratios = [];
  for (let round = 0; round < 5; round++) ratios.push(perByte(512 * 1024) / perByte(64 * 1024));
  return median(ratios);
}

export async function run() {
  const results = [];
  console.log('scanner vs eventsource-parser 4.1.3 (throughput ratio, higher is better)');
  for (const c of cases) {
    if (process.env.BENCH_ONLY && !c.name.includes(process.env.BENCH_ONLY)) continue;
    const result = await compare(c.name, () => readWithScanner(c.chunks), () => readWithPeer(c.chunks));
    console.log(line(result, c.target));
    if (c.target === undefined) continue;
    results.push({ ...result, target: c.target, met: result.ratio >= c.target });
  }
  if (!process.env.BENCH_ONLY || ceiling.name.includes(process.env.BENCH_ONLY)) {
    const result = await compare(ceiling.name, freshString, () => readWithPeer(ceiling.chunks));
    console.log(line(result));
  }
  if (process.env.BENCH_ONLY && !'linearity'.includes(process.env.BENCH_ONLY)) return results;
  const ratio = linearity();
  const met = ratio <= 1.5;
  console.log(`${met ? 'met ' : 'MISS'}  ${'linearity: time/byte 512 KiB vs 64 KiB line'.padEnd(44)} ${ratio.toFixed(2)}x (target <= 1.5x)`);
  results.push({ name: 'linearity', ratio, target: 1.5, met });
  if (sink === 42) console.log(''); // keep the consumer's work observable
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
