// Paired rounds over benny: each round runs every side of a case once, in an order that reverses
// between rounds (so no side always runs on a warmer or cooler process), and a ratio is the
// median over rounds of the per-round ratio of throughputs. Ratios within one round cancel most
// of the machine's drift; the median drops the round a GC or a neighbour spoiled.
import b from 'benny';

/** The paired rounds of the portable figures: a gate's process (promised figures) and a records process. */
function portable(gateRounds, gateSeconds, recordRounds, recordSeconds) {
  return { gateRounds, gateSeconds, recordRounds, recordSeconds };
}

/**
 * The client benchmark's settings (clients.bench.mjs): `rounds` timed after `warmRounds` untimed,
 * each `turns` turns of `blockCalls` calls a side and `connects` connects a side; a fresh process
 * a side for memory, `memoryProcesses` of them, each making `memoryCalls` calls, for every server
 * and era or (`memoryEverywhere` false) the first only.
 */
function clients(rounds, warmRounds, turns, blockCalls, connects, memoryProcesses, memoryCalls, memoryEverywhere = true) {
  return { clients: { rounds, warmRounds, turns, blockCalls, connects, memoryProcesses, memoryCalls, memoryEverywhere } };
}

/**
 * The three passes. full: `npm run bench`; check: the release gate (`npm run bench:check`);
 * smoke: every case once, briefly, so that none can rot (CI). `seconds` bounds each side's time
 * in a round of the Node suite's cases (benny); a process measuring promised figures runs
 * `gateRounds` rounds of `gateSeconds` a side, the same in the gate and the full pass, one
 * measuring records `recordRounds` of `recordSeconds`; no such process starts after `capSeconds`
 * (gate.mjs). BENCH_ROUNDS and BENCH_SECONDS override the Node suite's and the records' figures.
 */
const MODES = {
  full: { rounds: 6, seconds: 0.5, cycle: 0.05, samples: 5, slowRead: 1.5, memoryRounds: 3, growthReads: 7, calls: 200, e2eRounds: 6, e2eLargeCalls: 5, ...portable(4, 0.1, 4, 0.25), ...clients(6, 3, 40, 5, 20, 2, 200), capSeconds: 600 },
  check: { rounds: 4, seconds: 0.1, cycle: 0.03, samples: 3, slowRead: 1.5, memoryRounds: 1, growthReads: 3, calls: 100, e2eRounds: 6, e2eLargeCalls: 5, ...portable(4, 0.1, 4, 0.1), ...clients(5, 3, 40, 5, 10, 1, 200), capSeconds: 390 },
  smoke: { rounds: 1, seconds: 0.005, cycle: 0.002, samples: 1, slowRead: 0.2, memoryRounds: 1, growthReads: 1, calls: 20, e2eRounds: 1, e2eLargeCalls: 1, ...portable(1, 0.005, 1, 0.005), ...clients(1, 0, 1, 5, 1, 1, 5, false), capSeconds: 60 },
};

/** The settings of a pass: its mode's figures, with the environment's overrides. */
export function settingsFor(mode) {
  const settings = { mode, ...MODES[mode] };
  if (process.env.BENCH_ROUNDS) settings.rounds = settings.recordRounds = Number(process.env.BENCH_ROUNDS);
  if (process.env.BENCH_SECONDS) settings.seconds = settings.recordSeconds = Number(process.env.BENCH_SECONDS);
  return settings;
}

/**
 * Measures the sides of one case: [{ id, read }], `read` sync or returning a promise. Returns
 * { [id]: { hz, rounds } } with throughput in reads a second. A side is read once first: one that
 * throws is recorded with its error, and one slower than `slowRead` seconds is timed by one warm
 * read alone (`single`), since rounds of it would take minutes.
 */
export async function measure(sides, settings) {
  const out = {};
  const paired = [];
  for (const side of sides) {
    try {
      // The first read compiles; a slow one is read again (once warm) before it counts as slow.
      let seconds = await timeOnce(side.read);
      if (seconds > settings.slowRead && settings.mode !== 'smoke') seconds = await timeOnce(side.read);
      if (seconds > settings.slowRead) out[side.id] = { hz: 1 / seconds, rounds: [1 / seconds], single: true };
      else paired.push(side);
    } catch (error) {
      out[side.id] = { error: error instanceof Error ? error.message : String(error) };
    }
  }
  for (const side of paired) out[side.id] = { rounds: [] };
  for (let round = 0; round < settings.rounds && paired.length > 0; round++) {
    const order = round % 2 === 1 ? [...paired].reverse() : paired;
    const config = { cases: { minTime: settings.cycle, maxTime: settings.seconds, minSamples: settings.samples } };
    const summary = await quiet(() => b.suite(`round ${round + 1}`, ...order.map((s) => b.add(s.id, s.read)), b.configure(config)));
    for (const result of summary.results) out[result.name].rounds.push(result.ops);
  }
  for (const side of paired) out[side.id].hz = median(out[side.id].rounds);
  return out;
}

/**
 * The ratio of `a`'s throughput to `b`'s (above 1: `a` is faster): the median of the per-round
 * ratios. A side timed by a single read contributes that figure to every round; a side that
 * failed gives no ratio, and the failure is the note.
 */
export function ratio(sides, a, b) {
  const x = sides[a];
  const y = sides[b];
  if (x.error || y.error) {
    const [id, side] = x.error ? [a, x] : [b, y];
    return { value: null, rounds: [], note: side.excluded ? `${id} ${side.error}` : `${id} failed: ${side.error.slice(0, 120)}` };
  }
  const count = Math.max(x.rounds.length, y.rounds.length);
  const rounds = [];
  for (let i = 0; i < count; i++) rounds.push((x.single ? x.hz : x.rounds[i]) / (y.single ? y.hz : y.rounds[i]));
  const single = x.single || y.single;
  return { value: median(rounds), rounds, ...(single ? { note: `${x.single ? a : b} timed by one read` } : {}) };
}

/** Seconds one read takes. */
export async function timeOnce(read) {
  const start = performance.now();
  await read();
  return (performance.now() - start) / 1000;
}

export function median(values) {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** benny prints a line per suite; the runner prints one summary line per figure instead. */
async function quiet(run) {
  const log = console.log;
  console.log = () => {};
  try {
    return await run();
  } finally {
    console.log = log;
  }
}
