// End to end: the MCP SDK's Client over AnswerTransport against the same Client over the SDK's
// own StreamableHTTPClientTransport, both talking to the official server (e2e-server.mjs) in
// another process on loopback: 200 sequential tool calls, and one 5 MiB result (its time, and
// apart, the peak memory of this process). Run with --expose-gc, as its own process (run.mjs does:
// `--json MODE` prints the record as one JSON line).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as sseAnswer from '../dist/index.js';
import { median, settingsFor } from './harness.mjs';

if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
const RESULT = 5 * 1024 * 1024;

const SIDES = [
  { id: 'answerTransport', label: 'SDK Client over sse-answer AnswerTransport', transport: (url) => new sseAnswer.AnswerTransport(url) },
  { id: 'sdk', label: 'SDK Client over StreamableHTTPClientTransport 1.32.2', transport: (url) => new StreamableHTTPClientTransport(new URL(url)) },
];

/** Calls a side makes before any is timed, in turns of WARM_CALLS, alternating the sides. */
const WARM_TURNS = 4;
const WARM_CALLS = 250;

async function connected(side, url) {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(side.transport(url));
  return client;
}

/** Seconds for `calls` sequential short tool calls on one connected client. */
async function callsTime(side, url, calls) {
  const client = await connected(side, url);
  const start = performance.now();
  for (let i = 0; i < calls; i++) await client.callTool({ name: 'echo', arguments: {} });
  const seconds = (performance.now() - start) / 1000;
  await client.close();
  return seconds;
}

const used = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

/**
 * One 5 MiB result: its seconds, timed alone; or with `sampled`, the peak memory over the result
 * instead, (peak - baseline) / result size, the peak sampled at every turn of the event loop while
 * the call is in flight (each read of the socket is one) and once with the result in hand. Apart,
 * because a sample (`process.memoryUsage()`) costs tens of microseconds, and a reader whose body
 * takes more turns of the loop would pay more of them in its time.
 */
async function largeCall(side, url, sampled) {
  const client = await connected(side, url);
  globalThis.gc();
  const baseline = used();
  let peak = baseline;
  let done = false;
  const tick = () => {
    peak = Math.max(peak, used());
    if (!done) setImmediate(tick);
  };
  if (sampled) tick();
  const start = performance.now();
  const result = await client.callTool({ name: 'large', arguments: {} });
  const seconds = (performance.now() - start) / 1000;
  peak = Math.max(peak, used());
  done = true;
  if (result.content[0].text.length !== RESULT) throw new Error(`${side.id}: the result was not read whole`);
  await client.close();
  return sampled ? { memory: (peak - baseline) / RESULT } : { seconds };
}

async function main(settings) {
  const record = {
    id: 'e2e',
    group: 'e2e',
    title: 'end to end: the SDK Client over AnswerTransport and over its own transport',
    about: `the official MCP server in another process on loopback: ${settings.calls} sequential tool calls, and one 5 MiB result (time and this process's peak memory)`,
    figures: [],
  };
  if (typeof sseAnswer.AnswerTransport !== 'function') return { ...record, skipped: 'AnswerTransport is not in dist/' };
  const server = spawn(process.execPath, [fileURLToPath(new URL('./e2e-server.mjs', import.meta.url))], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const [first] = await once(server.stdout, 'data');
    const url = `http://127.0.0.1:${String(first).trim()}/mcp`;
    const calls = { answerTransport: [], sdk: [] };
    const large = { answerTransport: [], sdk: [] };
    // Warm both paths and the server until the engine has compiled them: a client's first few
    // hundred calls run code the JIT has not optimized yet, and a round of them measures the
    // compiler rather than the transport (each side reads 0.8–0.9 ms a call warm in Node 26, and
    // two to three times that in its first hundred calls).
    for (let turn = 0; turn < WARM_TURNS; turn++) for (const side of turn % 2 ? [...SIDES].reverse() : SIDES) await callsTime(side, url, WARM_CALLS);
    for (let round = 0; round < settings.e2eRounds; round++) {
      const order = round % 2 ? [...SIDES].reverse() : SIDES;
      for (const side of order) calls[side.id].push(await callsTime(side, url, settings.calls));
      // The 5 MiB result, a few times a side, in turn: one call is a tenth of a second, and one
      // stall of the machine would decide a round.
      const took = { answerTransport: [], sdk: [] };
      for (let call = 0; call < settings.e2eLargeCalls; call++) for (const side of order) took[side.id].push((await largeCall(side, url, false)).seconds);
      for (const side of order) large[side.id].push({ seconds: median(took[side.id]), ...(await largeCall(side, url, true)) });
    }
    const perRound = (f) => calls.sdk.map((_, i) => f(i));
    const figure = (id, label, rounds, extra = {}) => ({ id, label, value: median(rounds), rounds, ...extra });
    record.sides = Object.fromEntries(
      SIDES.map((s) => [
        s.id,
        {
          label: s.label,
          callsPerSecond: median(calls[s.id].map((t) => settings.calls / t)),
          largeSeconds: median(large[s.id].map((x) => x.seconds)),
          largeMemory: median(large[s.id].map((x) => x.memory)),
        },
      ]),
    );
    record.figures = [
      figure('e2e-calls.answerTransport/sdk', `${settings.calls} calls: AnswerTransport ÷ SDK transport (throughput)`, perRound((i) => calls.sdk[i] / calls.answerTransport[i])),
      figure('e2e-large.answerTransport/sdk', '5 MiB result: AnswerTransport ÷ SDK transport (throughput)', perRound((i) => large.sdk[i].seconds / large.answerTransport[i].seconds)),
      figure('e2e-large-memory.answerTransport/sdk', '5 MiB result: peak memory, AnswerTransport ÷ SDK transport', perRound((i) => large.answerTransport[i].memory / large.sdk[i].memory), { lowerIsBetter: true }),
      figure('e2e-large-memory.answerTransport', '5 MiB result: peak memory over the result, AnswerTransport', large.answerTransport.map((x) => x.memory), { lowerIsBetter: true }),
      figure('e2e-large-memory.sdk', '5 MiB result: peak memory over the result, SDK transport', large.sdk.map((x) => x.memory), { lowerIsBetter: true }),
    ];
    return record;
  } finally {
    server.kill();
  }
}

const mode = process.argv[process.argv.indexOf('--json') + 1] ?? 'full';
console.log(JSON.stringify(await main(settingsFor(mode))));
