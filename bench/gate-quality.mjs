// The release gate's own quality (docs/guides/benchmarks.md, "How good the gate is"): runs
// `bench/run.mjs --check` a number of times, each a fresh gate, and counts how many passed and
// how long each took. On unchanged code, every run should pass; with the scanner slowed by 10%
// (`--handicap 0.1`), nearly every run should fail. Each gate runs with --fail-fast, which stops
// it at its first missed figure and never changes its verdict: a failing gate takes a minute or
// two instead of the whole gate's time, and a passing one is the whole gate.
//   node bench/gate-quality.mjs --runs 10                  unchanged code
//   node bench/gate-quality.mjs --runs 10 --handicap 0.1   the scanner slowed by 10%
//   node bench/gate-quality.mjs --runs 10 --handicap-client 0.1   AnswerClient slowed by 10%
// Writes bench/results/gate-quality-<date>-<label>.json (label: unchanged, handicap-F or
// handicap-client-F): each run's verdict, seconds, missed figures and close calls (kept, the
// median past the bound), with the machine.
// Run `npm run build` first (the npm script does), on a quiet machine: nothing else should run
// meanwhile.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = (file) => fileURLToPath(new URL(file, import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const runs = Number(option('--runs', 10));
const handicap = option('--handicap');
const handicapClient = option('--handicap-client');
const label = [handicap === undefined ? '' : `handicap-${handicap}`, handicapClient === undefined ? '' : `handicap-client-${handicapClient}`].filter(Boolean).join('-') || 'unchanged';
const slowed = [...(handicap === undefined ? [] : ['--handicap', handicap]), ...(handicapClient === undefined ? [] : ['--handicap-client', handicapClient])];

const dir = mkdtempSync(join(tmpdir(), 'sse-answer-gate-quality-'));
const results = [];
try {
  for (let run = 1; run <= runs; run++) {
    const record = join(dir, `run-${run}.json`);
    const started = performance.now();
    const gate = spawnSync(process.execPath, [here('./run.mjs'), '--check', '--fail-fast', '--record', record, ...slowed], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 1 << 26,
    });
    const seconds = Math.round((performance.now() - started) / 1000);
    // A gate that stopped before its verdict wrote no record: it failed, and stderr says why.
    const judged = existsSync(record) ? JSON.parse(readFileSync(record, 'utf8')).promises.filter((f) => f.judged) : [];
    // The figures decided missed, or measured by no process (a figure a stop left undecided is neither).
    const missed = existsSync(record) ? judged.filter((f) => f.met === false || f.how === 'not measured').map((f) => `${f.id} ${f.value === null ? '—' : f.value.toFixed(2)}`) : ['(no verdict)'];
    // The close calls: figures kept though their median lies past the bound (no evidence of a miss).
    const past = (f) => (f.bound.atLeast !== undefined ? f.value < f.bound.atLeast : f.value > f.bound.atMost);
    const keptPast = judged.filter((f) => f.met === true && past(f)).map((f) => `${f.id} ${f.value.toFixed(3)}`);
    results.push({ run, passed: gate.status === 0, seconds, missed, keptPast });
    const notes = [missed.length > 0 ? `missed ${missed.join(', ')}` : '', keptPast.length > 0 ? `kept past the bound ${keptPast.join(', ')}` : ''].filter(Boolean);
    console.log(`run ${run} of ${runs}: ${gate.status === 0 ? 'passed' : 'failed'} in ${seconds} s${notes.map((note) => `; ${note}`).join('')}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const passed = results.filter((r) => r.passed).length;
const longest = Math.max(...results.map((r) => r.seconds));
console.log(`\n${label}: ${passed} of ${runs} gates passed, ${runs - passed} failed; the longest took ${Math.floor(longest / 60)} min ${longest % 60} s`);
const date = new Date().toISOString();
const git = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' });
mkdirSync(here('./results'), { recursive: true });
const file = here(`./results/gate-quality-${date.slice(0, 10)}-${label}.json`);
const summary = { date, handicap: handicap === undefined ? null : Number(handicap), ...(handicapClient === undefined ? {} : { handicapClient: Number(handicapClient) }), runs, passed, longestSeconds: longest, machine: { cpu: cpus()[0]?.model.trim(), cores: cpus().length, commit: git.stdout.trim() }, results };
writeFileSync(file, `${JSON.stringify(summary, null, 1)}\n`);
console.log(`results: ${file}`);
