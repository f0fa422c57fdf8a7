// Peak memory while reading a 16 MiB answer (1 MiB in the smoke pass), readAnswer against the MCP
// SDK's transport. Run with --expose-gc, as its own process (run.mjs does: `--json MODE` prints
// the record). Method: the body's chunks are built first; once the previous run's leftovers are
// collected (forced GCs), the baseline is heap used + array buffers. While reading, the same
// figure is sampled at every chunk the body delivers and once more with the answer in hand. The
// result is (peak - baseline) / body size: what reading costs beyond the body's own chunks. Two
// readings: "garbage included" samples as it finds the heap (the target's figure), the pass's
// memory rounds alternating between the sides, medians; "live" forces a GC before each sample,
// which is what a reader really retains, once a side.
import { chunked, encode } from './workloads.mjs';
import { viaReadAnswer, viaSdk } from './answer.bench.mjs';
import { median, settingsFor } from './harness.mjs';

if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');

const MiB = 1024 * 1024;
const mode = process.argv[process.argv.indexOf('--json') + 1] ?? 'full';
const BODY = mode === 'smoke' ? MiB : 16 * MiB;
const CHUNK = 64 * 1024;

function answerBody() {
  const head = 'event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"';
  const tail = '"}]}}\n\n';
  return chunked(encode(head + 'z'.repeat(BODY - head.length - tail.length) + tail), CHUNK);
}

function used(collect = true) {
  if (collect) globalThis.gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/**
 * The figure once the previous run's leftovers are gone: a reader that keeps reading after its
 * answer (the SDK's does, until the body ends) frees its memory a few turns later.
 */
async function settled() {
  let last = used();
  for (let i = 0; i < 50; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const now = used();
    if (Math.abs(now - last) < 2 ** 20) return now;
    last = now;
  }
  return last;
}

/**
 * Reads once, sampling at every chunk the body delivers and with the answer in hand, and returns
 * the peak over the body size. `collect`: force a GC before each sample (live memory only), then
 * at every fourth chunk, since a forced GC per chunk makes a reading take half a minute;
 * otherwise garbage not yet collected counts too.
 */
async function peakOf(read, chunks, collect) {
  let peak = 0;
  const sample = () => {
    peak = Math.max(peak, used(collect));
  };
  const sampled = new Set(chunks);
  let delivered = 0;
  const baseline = await settled();
  const originalEnqueue = ReadableStreamDefaultController.prototype.enqueue;
  ReadableStreamDefaultController.prototype.enqueue = function (chunk) {
    if (sampled.has(chunk) && (!collect || delivered++ % 4 === 0)) sample();
    return originalEnqueue.call(this, chunk);
  };
  try {
    await read(chunks, sample);
  } finally {
    ReadableStreamDefaultController.prototype.enqueue = originalEnqueue;
  }
  return (peak - baseline) / chunks.reduce((n, c) => n + c.length, 0);
}

/**
 * What an answer held after reading retains, over the answer's size: the body is one chunk that
 * carries an 8 MiB notification and then the answer, whose result holds a 256 KiB string. The
 * baseline and the reading are both taken after forced GCs, the chunk's bytes in both. A string
 * in the answer that were a slice of the chunk's decoded text would keep all 8 MiB alive.
 */
async function retainedOf(read) {
  const size = 256 * 1024;
  const note = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'n'.repeat(BODY / 2) } };
  const reply = { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'image', data: 'a'.repeat(size), mimeType: 'image/png' }] } };
  const chunks = [encode(`event: message\ndata: ${JSON.stringify(note)}\n\nevent: message\ndata: ${JSON.stringify(reply)}\n\n`)];
  const baseline = await settled();
  const answer = await read(chunks);
  const retained = (await settled()) - baseline;
  if (answer.result.content[0].data.length !== size) throw new Error('the answer was not read whole');
  return retained / size;
}

/** `live`: take the live readings too, once a side (a diagnostic, and slow: forced GCs). */
export async function run(rounds, live) {
  const chunks = answerBody();
  const ours = [];
  const sdk = [];
  // The answer is sampled while it is held.
  const hold = (read) => async (c, sample) => {
    const answer = await read(c);
    sample();
    if (answer.result.content[0].text.length < BODY / 2) throw new Error('the answer was not read whole');
  };
  const holdOurs = hold(viaReadAnswer);
  const holdSdk = hold(viaSdk);
  for (let round = 0; round < rounds; round++) {
    const withLive = live && round === 0;
    ours.push({ all: await peakOf(holdOurs, chunks, false), live: withLive ? await peakOf(holdOurs, chunks, true) : undefined });
    sdk.push({ all: await peakOf(holdSdk, chunks, false), live: withLive ? await peakOf(holdSdk, chunks, true) : undefined });
  }
  const kept = [];
  const keptSdk = [];
  for (let round = 0; round < rounds; round++) {
    kept.push(await retainedOf(viaReadAnswer));
    keptSdk.push(await retainedOf(viaSdk));
  }
  const figure = (id, label, values) => ({ id: `memory.${id}`, label, value: median(values), rounds: values, unit: 'x', lowerIsBetter: true });
  return {
    id: 'memory',
    group: 'memory',
    title: `peak memory reading a ${BODY / MiB} MiB answer, 64 KiB chunks`,
    about: '(peak − baseline) ÷ body size while reading and holding the answer; lower is better',
    bytes: BODY,
    figures: [
      figure('readAnswer', 'readAnswer, garbage included', ours.map((r) => r.all)),
      figure('sdk', 'SDK transport, garbage included', sdk.map((r) => r.all)),
      ...(live
        ? [
            figure('readAnswer-live', 'readAnswer, live (forced GC before each sample)', ours.slice(0, 1).map((r) => r.live)),
            figure('sdk-live', 'SDK transport, live', sdk.slice(0, 1).map((r) => r.live)),
          ]
        : []),
      figure('held', 'readAnswer: an answer held, over its size, from a chunk with 8 MiB more', kept),
      figure('held-sdk', 'SDK transport: the same', keptSdk),
    ],
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { memoryRounds } = settingsFor(mode);
  const record = await run(memoryRounds, mode !== 'check');
  console.log(JSON.stringify(record));
}
