// `npm run bench:instructions`: the performance check that cannot flake, for every change. It
// counts instructions instead of timing: the newest pinned Node line (test/runtimes/node-lines)
// runs under valgrind's callgrind with --predictable, which counts the same twice to within
// 0.3% (most figures within 0.05%). For each workload (bench/instructions-core.mjs), ours over our peer's:
//   <workload>.scanner/eventsource-parser          the scanner (scanEach) over eventsource-parser
//   <workload>.answer/eventsource-parser+parse     the answer reducer over eventsource-parser and
//                                                  JSON.parse of each event (the answer workloads)
// compared with bench/instructions-baseline.json.
//   node bench/instructions.mjs            exit 1, naming the figure, when one grew more than 2%
//   node bench/instructions.mjs --update   rewrite the baseline with the counts of this checkout
//   --only WORKLOAD[,WORKLOAD]             some workloads (nothing is written)
//   --reads                                print each marked read's count too
// Exit 2 when it cannot count here: no valgrind (Debian: apt-get install valgrind), or no Node
// line (Linux x64 only). Run against dist/: the npm script builds first.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NEWEST_LINE, nodeLine } from '../test/runtimes/node-lines.mjs';
import { compare, TOLERANCE } from './instruction-check.mjs';
import { WORKLOADS } from './instructions-core.mjs';

const here = (file) => fileURLToPath(new URL(file, import.meta.url));
const BASELINE = here('./instructions-baseline.json');
/** The figures: ours over the peer, on the workloads both read. */
const FIGURES = [
  ['scanner', 'eventsource-parser'],
  ['answer', 'eventsource-parser+parse'],
];
// The markers of instructions-core.mjs: callgrind zeroes its counters on entering the first and
// writes them out on entering the second.
const MARKERS = ['--zero-before=node::os::GetUptime*', '--dump-before=node::os::GetLoadAvg*'];
// --predictable: one thread, no background compilation, a fixed seed. A young generation of a
// fixed 64 MiB: no read of a workload fills it, so none pays for a scavenge in its count.
const NODE_FLAGS = ['--predictable', '--expose-gc', '--min-semi-space-size=64', '--max-semi-space-size=64'];

const args = process.argv.slice(2);
const update = args.includes('--update');
const showReads = args.includes('--reads');
const only = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : undefined;
if (update && only !== undefined) cannot('--update rewrites the whole baseline: run it without --only');
const unknown = (only ?? []).filter((name) => !(name in WORKLOADS));
if (unknown.length > 0) cannot(`no workload ${unknown.join(', ')}: the workloads are ${Object.keys(WORKLOADS).join(', ')}`);

const valgrind = spawnSync('valgrind', ['--version'], { encoding: 'utf8' });
if (valgrind.status !== 0) cannot('valgrind is not installed (Debian, Ubuntu: apt-get install valgrind)');
const node = nodeLine(NEWEST_LINE.line, { log: (message) => console.log(message) });
if (node.skipped !== undefined) cannot(`Node ${NEWEST_LINE.version} cannot run here: ${node.skipped}`);

const baseline = readBaseline();
if (!update && baseline.node !== NEWEST_LINE.version) {
  cannot(`the baseline was counted with Node ${baseline.node}, and this is Node ${NEWEST_LINE.version}: run with --update to count it again`);
}

const started = performance.now();
const names = only ?? Object.keys(WORKLOADS);
console.log(`instructions: ${names.length} workloads, Node ${NEWEST_LINE.version} --predictable under ${valgrind.stdout.trim()}; ours ÷ the peer's, against the baseline`);
const counts = Object.fromEntries(await inParallel(names, countWorkload, Math.max(1, Math.min(availableParallelism(), 4))));

const figures = {};
for (const name of names) {
  for (const [ours, peer] of FIGURES) {
    if (counts[name][ours] === undefined || counts[name][peer] === undefined) continue;
    figures[`${name}.${ours}/${peer}`] = { ratio: round(counts[name][ours] / counts[name][peer]), ours: counts[name][ours], peer: counts[name][peer] };
  }
}

const { rows, grown } = compare(figures, baseline);
for (const { id, ratio, base, change, verdict } of rows) {
  const figure = figures[id];
  const against = base === undefined ? 'no baseline' : `baseline ${base.toFixed(4)}, ${change >= 0 ? '+' : ''}${(change * 100).toFixed(2)}%`;
  const mark = update ? '    ' : { grew: 'GREW', less: 'less', same: 'same' }[verdict];
  console.log(`${mark}  ${id.padEnd(44)} ${ratio.toFixed(4)}  (${figure.ours.toLocaleString('en')} ÷ ${figure.peer.toLocaleString('en')}; ${against})`);
}
console.log(`(${Math.round((performance.now() - started) / 1000)} s)`);

if (update) {
  const comment =
    'Instruction counts of bench/instructions.mjs (npm run bench:instructions -- --update writes this file): per workload, ours over the peer\'s, counted under callgrind with the Node named here. The check fails when a ratio grows more than 2% over the one here.';
  // One line a figure, so that a change of the baseline reads as a diff of the figures it moved.
  const lines = Object.entries(figures).map(([id, figure]) => `  ${JSON.stringify(id)}: ${JSON.stringify(figure).replaceAll(',', ', ').replaceAll(':', ': ')}`);
  writeFileSync(BASELINE, `{\n "$comment": ${JSON.stringify(comment)},\n "node": ${JSON.stringify(NEWEST_LINE.version)},\n "figures": {\n${lines.join(',\n')}\n }\n}\n`);
  console.log(`baseline written: ${BASELINE}`);
} else if (grown.length > 0) {
  console.log(`\ngrew more than ${TOLERANCE * 100}% over the baseline: ${grown.join(', ')}`);
  console.log('A change meant to cost more: npm run bench:instructions -- --update, and commit the baseline with it.');
  process.exitCode = 1;
} else {
  const less = rows.filter((row) => row.verdict === 'less').map((row) => row.id);
  if (less.length > 0) console.log(`\nless than the baseline by more than ${TOLERANCE * 100}%: ${less.join(', ')}; --update keeps the gain from being spent unseen`);
  console.log(`\nno figure grew more than ${TOLERANCE * 100}% over its baseline`);
}

/** One workload under callgrind: `[name, { reader: instructions }]`, the median of its marked reads. */
async function countWorkload(name) {
  const dir = mkdtempSync(join(tmpdir(), `sse-answer-instructions-${name}-`));
  try {
    const out = join(dir, 'callgrind.out');
    const command = ['--tool=callgrind', ...MARKERS, `--callgrind-out-file=${out}`, node.binary, ...NODE_FLAGS, here('./instructions-core.mjs'), name];
    const { code, stdout, stderr } = await run('valgrind', command);
    if (code !== 0) throw new Error(`${name}: valgrind ${command.join(' ')} exited ${code}\n${stderr.split('\n').slice(-8).join('\n')}`);
    const { order } = JSON.parse(stdout.trim().split('\n').at(-1));
    // callgrind numbers its dumps from 1, in the order the markers were passed.
    const dumps = readdirSync(dir).filter((file) => /^callgrind\.out\.\d+$/.test(file)).sort((a, b) => Number(a.split('.').at(-1)) - Number(b.split('.').at(-1)));
    if (dumps.length !== order.length) throw new Error(`${name}: ${dumps.length} counts for ${order.length} marked reads`);
    const byReader = {};
    dumps.forEach((file, i) => (byReader[order[i]] ??= []).push(totalOf(join(dir, file))));
    if (showReads) for (const [reader, values] of Object.entries(byReader)) console.log(`      ${name} ${reader}: ${values.map((v) => v.toLocaleString('en')).join(', ')}`);
    return [name, Object.fromEntries(Object.entries(byReader).map(([reader, values]) => [reader, median(values)]))];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The instructions a callgrind dump counted. */
function totalOf(file) {
  const total = /^(?:totals|summary): (\d+)/m.exec(readFileSync(file, 'utf8'));
  if (total === null) throw new Error(`no total in ${file}`);
  return Number(total[1]);
}

function run(command, argv) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text) => (stderr += text));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `work` over `items`, `width` at a time; the results in the items' order. */
async function inParallel(items, work, width) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]);
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return results;
}

function readBaseline() {
  try {
    return JSON.parse(readFileSync(BASELINE, 'utf8'));
  } catch {
    if (update) return { figures: {} };
    return cannot(`no baseline at ${BASELINE}: run with --update to count one`);
  }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : Math.round((sorted[mid - 1] + sorted[mid]) / 2);
}

function round(value) {
  return Math.round(value * 1e6) / 1e6;
}

function cannot(why) {
  console.log(`bench:instructions cannot count here: ${why}`);
  process.exit(2);
}
