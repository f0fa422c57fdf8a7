// Paired benchmark rounds over benny: each round runs every case of a comparison once, in an
// order that alternates between rounds (so neither side always runs on a warmer or cooler
// process), and the figure reported is the median over rounds of the per-round ratio. Ratios of
// throughput within one round cancel most of the machine's drift; the median drops the round a
// GC or a neighbour spoiled.
import b from 'benny';

/**
 * Options: rounds (default 6, or BENCH_ROUNDS), seconds per case per round (BENCH_SECONDS).
 * An even count, so that each order runs in half the rounds and neither decides the median: in
 * one CRLF run the three rounds with ours first measured 1.09–1.10 and the two with the peer
 * first 1.24–1.33, and with five rounds the median is the majority order's figure.
 */
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 1);

/**
 * Runs `ours` against `peer` for ROUNDS rounds and returns the median ratio of ours' throughput
 * to peer's (above 1: ours is faster), with the per-round figures.
 * `ours` and `peer` are benny case functions: sync, or returning a promise.
 */
export async function compare(name, ours, peer, { seconds = SECONDS } = {}) {
  const ratios = [];
  const opsOurs = [];
  const opsPeer = [];
  for (let round = 0; round < ROUNDS; round++) {
    const cases = [b.add('ours', ours), b.add('peer', peer)];
    if (round % 2 === 1) cases.reverse();
    const summary = await quiet(() =>
      b.suite(`${name} #${round + 1}`, ...cases, b.configure({ cases: { minTime: seconds, maxTime: seconds * 2 } })),
    );
    const ops = Object.fromEntries(summary.results.map((r) => [r.name, r.ops]));
    opsOurs.push(ops.ours);
    opsPeer.push(ops.peer);
    ratios.push(ops.ours / ops.peer);
  }
  return { name, ratio: median(ratios), ratios, opsOurs: median(opsOurs), opsPeer: median(opsPeer) };
}

export function median(values) {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** benny prints a line per suite; the caller prints one summary line per comparison instead. */
async function quiet(run) {
  const log = console.log;
  console.log = () => {};
  try {
    return await run();
  } finally {
    console.log = log;
  }
}

/** Formats a result line: name, ratio, target and whether it was met (no target: a diagnostic). */
export function line(result, target, unit = 'x') {
  const rounds = result.ratios.map((r) => r.toFixed(2)).join(' ');
  // A diagnostic has no target: its figure and rounds only.
  if (target === undefined) return `      ${result.name.padEnd(44)} ${result.ratio.toFixed(2)}${unit} (rounds ${rounds})`;
  const met = result.ratio >= target;
  return `${met ? 'met ' : 'MISS'}  ${result.name.padEnd(44)} ${result.ratio.toFixed(2)}${unit} (target >= ${target}${unit}; rounds ${rounds})`;
}
