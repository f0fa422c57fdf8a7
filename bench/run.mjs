// The benchmark suite (see docs/guides/benchmarks.md). Passes:
//   node bench/run.mjs --check    the release gate: judges the promises of bench/promises.json in
//                                 each judged runtime, each figure decided with its noise
//                                 (gate.mjs); exit 1 when one is missed or cannot be measured
//   node bench/run.mjs            the full pass: the same judgement, the shown Node lines too,
//                                 then every record in every runtime and the Node suite's other
//                                 readers; writes bench/results/<date>.json and regenerates
//                                 docs/benchmarks.md and its chart (`npm run bench`)
//   node bench/run.mjs --smoke    every figure and case once, briefly, so none can rot (CI);
//                                 --write to write its results and a page labelled as a smoke pass
//   --only RUNTIME[+RUNTIME]:FIGURE   some runtimes (`bun:`), some figures (`:utf8`, a substring
//                                 of an id), or both; a word without a colon picks figures and
//                                 Node-suite cases by substring. Nothing is written.
//   --handicap F                  the scanner slowed by the fraction F in the promised figures of
//                                 every runtime (bench/handicap.mjs): how the gate's own quality
//                                 is measured (bench/gate-quality.mjs)
//   --handicap-client F           AnswerClient slowed by the fraction F in the client figures
//                                 (bench/clients.bench.mjs): each of its timed calls and connects
//                                 takes F longer; used as --handicap is
//   --record FILE                 write the judgement as JSON to FILE (any pass)
//   --fail-fast                   the gate starts no process once a figure is decided missed (its
//                                 verdict is the same; bench/gate-quality.mjs uses it)
// Run against dist/: `npm run build` first (the npm scripts do).
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { arch, cpus, platform, release, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { NEWEST_LINE, nodeLine } from '../test/runtimes/node-lines.mjs';
import { judge } from './gate.mjs';
import { settingsFor } from './harness.mjs';
import { isNodeLine, JUDGED, line, MIN_PROCESSES, promisedFigures, SHOWN } from './promises.mjs';
import { generate } from './report.mjs';
import { runtimeNamed } from './runtimes.mjs';

const here = (file) => fileURLToPath(new URL(file, import.meta.url));
const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const mode = args.includes('--check') ? 'check' : args.includes('--smoke') ? 'smoke' : 'full';
const only = option('--only');
const handicap = option('--handicap') === undefined ? undefined : Number(option('--handicap'));
if (handicap !== undefined && !(handicap > 0 && handicap < 1)) throw new Error(`--handicap takes a fraction between 0 and 1, not ${option('--handicap')}`);
const handicapClient = option('--handicap-client') === undefined ? undefined : Number(option('--handicap-client'));
if (handicapClient !== undefined && !(handicapClient > 0 && handicapClient < 1)) throw new Error(`--handicap-client takes a fraction between 0 and 1, not ${option('--handicap-client')}`);
const write = !only && handicap === undefined && handicapClient === undefined && (mode === 'full' || args.includes('--write'));
const settings = { ...settingsFor(mode), handicap, handicapClient, failFast: args.includes('--fail-fast'), log: (message) => console.log(message) };
const started = performance.now();

// `--only bun:utf8`: runtimes before the colon, a figure substring after it; no colon, a substring.
const [runtimeFilter, figureFilter] = only === undefined ? [undefined, undefined] : only.includes(':') ? only.split(':') : ['', only];
const runtimeWanted = (runtime) => !runtimeFilter || runtimeFilter.split('+').includes(runtime);
const figureWanted = (figure) => !figureFilter || figure.includes(figureFilter);

// The promises: judged in the gate; in the full pass, measured the same way in the shown Node lines too.
const promised = promisedFigures({ shown: mode === 'full' }).filter((f) => runtimeWanted(f.runtime) && figureWanted(f.figure));
let judgement = { figures: [], versions: {}, seconds: 0 };
if (mode !== 'smoke' && promised.length > 0) {
  const slowed = [handicap ? `the scanner slowed by ${handicap * 100}%` : '', handicapClient ? `AnswerClient slowed by ${handicapClient * 100}%` : ''].filter(Boolean);
  console.log(`${mode === 'check' ? 'The release gate' : 'The promises'}: ${promised.length} figures in ${new Set(promised.map((f) => f.runtime)).size} runtimes, each by at least ${MIN_PROCESSES} fresh processes${slowed.map((s) => `, ${s}`).join('')}`);
  judgement = await judge(promised, settings);
  console.log('');
  for (const f of judgement.figures) console.log(line(f));
}

// The records: every other figure, in every runtime (the smoke pass: every figure, in one process each).
const records = {};
const versions = { ...judgement.versions };
if (mode !== 'check') {
  for (const runtime of [...JUDGED, ...SHOWN].filter(runtimeWanted)) {
    const sets = mode === 'smoke' ? ['promises', 'records'] : ['records'];
    // A Node line that cannot run on this platform is left out, as npm test leaves it out.
    const unavailable = isNodeLine(runtime) ? nodeLine(Number(runtime.slice(4))).skipped : undefined;
    if (unavailable !== undefined) {
      records[runtime] = { skipped: unavailable };
      console.log(`\nrecords: ${runtime} skipped, as it cannot run here: ${unavailable}`);
      continue;
    }
    try {
      const out = await runtimeNamed(runtime).measure('portable-core.mjs', { rounds: settings.recordRounds, seconds: settings.recordSeconds, sets, only: figureFilter });
      versions[runtime] = out.runtime;
      records[runtime] = out.figures;
      console.log(`\nrecords: ${out.runtime}`);
      for (const f of out.figures) console.log(`      ${f.id.padEnd(46)} ${f.value.toFixed(2).padStart(6)}x  (rounds ${f.rounds.map((x) => x.toFixed(2)).join(' ')})`);
    } catch (error) {
      records[runtime] = { error: error instanceof Error ? error.message : String(error) };
      console.log(`\nrecords: ${runtime} not measured: ${records[runtime].error}`);
    }
  }
}

// The Node suite whole (every reader, growth, memory, end to end): in the newest Node line; the
// smoke pass runs it in the Node that runs this file, since it only proves that each case runs.
let nodeSuite;
if (mode !== 'check' && (!runtimeFilter || runtimeFilter.split('+').some((r) => r.startsWith('node')))) {
  const node = mode === 'smoke' ? process.execPath : runtimeNamed(`node${NEWEST_LINE.line}`).binary();
  const child = spawnSync(node, [here('./node-suite.mjs'), JSON.stringify({ mode, only: figureFilter })], { encoding: 'utf8', maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'inherit'] });
  if (child.status !== 0) nodeSuite = { error: `the Node suite exited ${child.status ?? child.signal}` };
  else nodeSuite = JSON.parse(child.stdout.trim().split('\n').at(-1));
  console.log(`\nthe Node suite: ${nodeSuite.runtime ?? ''}${nodeSuite.error ? ` not measured: ${nodeSuite.error}` : ''}`);
  for (const record of nodeSuite.records ?? []) {
    console.log(`${record.group}: ${record.title} (${record.seconds ?? '?'} s)${record.error ? `\n      not measured: ${record.error}` : ''}${record.skipped ? `\n      not measured: ${record.skipped}` : ''}`);
    for (const f of record.figures) console.log(`      ${f.id.padEnd(46)} ${f.value === null ? '     —' : `${f.value.toFixed(2).padStart(6)}x`}${f.note ? `  (${f.note})` : ''}`);
  }
}

const seconds = Math.round((performance.now() - started) / 1000);
const judged = judgement.figures.filter((f) => f.judged);
const missed = judged.filter((f) => f.met !== true);
if (judged.length > 0) {
  console.log(`\n${judged.length - missed.length} of ${judged.length} promised figures kept (${mode} pass, ${seconds} s)${judgement.capped ? '; the time cap was reached' : ''}${judgement.stopped ? '; stopped at the first missed figure (--fail-fast)' : ''}`);
  if (missed.length > 0) console.log(`missed or not measured: ${missed.map((f) => f.id).join(', ')}`);
} else console.log(`\n${mode} pass, ${seconds} s`);

const results = {
  date: new Date().toISOString(),
  pass: mode,
  settings: {
    gate: { rounds: settings.gateRounds, seconds: settings.gateSeconds, capSeconds: settings.capSeconds },
    records: { rounds: settings.recordRounds, seconds: settings.recordSeconds },
    nodeSuite: { rounds: settings.rounds, seconds: settings.seconds },
    clients: settings.clients,
    ...(handicap ? { handicap } : {}),
    ...(handicapClient ? { handicapClient } : {}),
  },
  seconds,
  machine: machine(),
  versions,
  promises: judgement.figures,
  records,
  nodeSuite,
};
if (option('--record')) writeFileSync(option('--record'), `${JSON.stringify(results, null, 1)}\n`);
if (write) {
  mkdirSync(here('./results'), { recursive: true });
  const file = here(`./results/${results.date.slice(0, 10)}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 1)}\n`);
  console.log(`results: ${file}`);
  for (const written of generate()) console.log(`generated: ${written}`);
}
// A runtime or a case that could not run fails every pass: that is what the smoke pass in CI is for.
const broken = [
  ...Object.entries(records).filter(([, r]) => r.error).map(([runtime]) => runtime),
  ...(nodeSuite?.error ? ['the Node suite'] : []),
  ...(nodeSuite?.records ?? []).filter((r) => r.error).map((r) => r.id),
];
if (broken.length > 0) console.log(`failed: ${broken.join(', ')}`);
if (broken.length > 0 || missed.length > 0) process.exit(1);

function machine() {
  const cpu = cpus();
  const git = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' });
  return {
    cpu: cpu[0]?.model.trim(),
    cores: cpu.length,
    memory: `${Math.round(totalmem() / 2 ** 30)} GiB`,
    platform: `${platform()} ${release()} ${arch()}`,
    node: process.version,
    commit: git.status === 0 ? git.stdout.trim() : undefined,
  };
}
