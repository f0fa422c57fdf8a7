// The benchmark suite (see docs/guides/benchmarks.md). Passes:
//   node bench/run.mjs            the full suite: writes bench/results/<date>.json and regenerates
//                                 docs/benchmarks.md and its chart (`npm run bench`)
//   node bench/run.mjs --check    the release gate: targeted figures only, shorter rounds; a miss
//                                 is measured once more before it counts; exit 1 on a miss
//   node bench/run.mjs --smoke    every case once, briefly, so none can rot (CI); --write to
//                                 write its results and a document labelled as a smoke pass
//   --only ID                     the cases whose id contains ID (nothing is written); in the
//                                 runtimes case, RUNTIME: or :FIGURE (or both) pick inside it
// Run against dist/: `npm run build` first (the npm scripts do).
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { arch, cpus, platform, release, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { settingsFor } from './harness.mjs';
import { line, loadTargets, meets } from './targets.mjs';
import { consumed } from './readers.mjs';
import { consumedAnswers } from './answer.bench.mjs';
import { cases as scannerCases } from './scanner.bench.mjs';
import { cases as answerCases } from './answer.bench.mjs';
import { cases as growthCases } from './growth.bench.mjs';
import { cases as runtimeCases } from './runtimes.bench.mjs';
import { generate } from './report.mjs';

const here = (file) => fileURLToPath(new URL(file, import.meta.url));
const args = process.argv.slice(2);
const mode = args.includes('--check') ? 'check' : args.includes('--smoke') ? 'smoke' : 'full';
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const write = !only && (mode === 'full' || args.includes('--write'));
const settings = { ...settingsFor(mode), targets: loadTargets(), only };
const started = performance.now();

/** A case run in its own process, as it needs --expose-gc or a clean heap: prints one JSON line. */
const childCase = (id, group, title, script) => ({
  id,
  group,
  title,
  async run() {
    const child = spawnSync(process.execPath, ['--expose-gc', here(script), '--json', mode], { encoding: 'utf8', maxBuffer: 1 << 26 });
    if (child.status !== 0) throw new Error(`${script} exited ${child.status}: ${child.stderr.trim().split('\n').slice(-5).join(' | ')}`);
    return JSON.parse(child.stdout.trim().split('\n').at(-1));
  },
});

const cases = [
  ...scannerCases,
  ...answerCases,
  ...growthCases,
  childCase('memory', 'memory', 'peak memory reading a 16 MiB answer', './memory.bench.mjs'),
  childCase('e2e', 'e2e', 'end to end: the SDK Client over AnswerTransport and over its own transport', './e2e.bench.mjs'),
  ...runtimeCases,
  // `--only bun:` or `--only :utf8` picks runtimes or figures inside the runtimes case.
].filter((c) => !only || c.id.includes(only) || c.group === only || (c.group === 'runtimes' && only.includes(':')));

const records = [];
let missed = 0;
for (const c of cases) {
  let record;
  const caseStarted = performance.now();
  try {
    record = await c.run(settings);
  } catch (error) {
    record = { id: c.id, group: c.group, title: c.title, error: error.message, figures: [] };
  }
  console.log(`\n${record.group}: ${record.title} (${Math.round((performance.now() - caseStarted) / 1000)} s)${record.error ? `\n      not measured: ${record.error}` : ''}${record.skipped ? `\n      not measured: ${record.skipped}` : ''}`);
  // The gate's machines are noisy: a miss is measured once more, and the second figure counts.
  if (mode === 'check' && record.figures.some((f) => meets(f, settings.targets[f.id]) === false)) {
    const again = await c.run(settings);
    for (const f of again.figures) {
      const first = record.figures.find((x) => x.id === f.id);
      if (first && meets(first, settings.targets[f.id]) === false) f.remeasured = first.value;
    }
    record = again;
  }
  for (const f of record.figures) {
    const target = settings.targets[f.id];
    f.target = target;
    f.met = meets(f, target);
    if (f.met === false) missed++;
    console.log(line(f, target));
  }
  records.push(record);
}

const seconds = (performance.now() - started) / 1000;
const targeted = records.flatMap((r) => r.figures).filter((f) => f.met !== undefined);
console.log(`\n${targeted.length - missed} of ${targeted.length} targets met (${mode} pass, ${Math.round(seconds)} s)`);
const notMeasured = records.filter((r) => r.error || r.skipped).map((r) => r.id);
if (notMeasured.length > 0) console.log(`not measured: ${notMeasured.join(', ')}`);

if (write) {
  const date = new Date();
  const results = {
    date: date.toISOString(),
    pass: mode,
    settings: { rounds: settings.rounds, seconds: settings.seconds },
    seconds: Math.round(seconds),
    machine: machine(),
    records,
  };
  mkdirSync(here('./results'), { recursive: true });
  const file = here(`./results/${date.toISOString().slice(0, 10)}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 1)}\n`);
  console.log(`results: ${file}`);
  for (const written of generate()) console.log(`generated: ${written}`);
}
if (consumed() === -1 || consumedAnswers() === -1) console.log(''); // the consumers' work stays observable
// A case that could not run fails every pass: that is what the smoke pass in CI is for.
const failed = records.filter((r) => r.error);
if (failed.length > 0) console.log(`failed: ${failed.map((r) => `${r.id} (${r.error})`).join('; ')}`);
if (failed.length > 0 || (mode === 'check' && missed > 0)) process.exit(1);

function machine() {
  const cpu = cpus();
  const git = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' });
  return {
    cpu: cpu[0]?.model.trim(),
    cores: cpu.length,
    memory: `${Math.round(totalmem() / 2 ** 30)} GiB`,
    platform: `${platform()} ${release()} ${arch()}`,
    node: process.version,
    v8: process.versions.v8,
    commit: git.status === 0 ? git.stdout.trim() : undefined,
  };
}
