// `npm run fuzz -- --seconds N [--seed S] [--target NAME[,NAME]] [--path P]`
// Node 20 does not run TypeScript, so esbuild (a devDependency) first bundles worker.ts with src/
// into node_modules/.cache; each target then runs in a worker thread under a watchdog.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
// One bundle per run, so that runs side by side do not overwrite each other's.
const bundle = join(root, 'node_modules', '.cache', 'sse-answer-fuzz', `worker-${process.pid}.mjs`);
const findingsDir = join(here, 'findings');

/** Time to shrink a failing input; time a worker may run past its budget before it counts as hung. */
const SHRINK_MS = 20_000;
const GRACE_MS = 15_000;
/** A check that runs this long without returning is a hang (the slowest inputs take about a second). */
const STALL_MS = 30_000;
/** The time limit of one check of an async target: a backstop behind the target's own limit. */
const RUN_TIMEOUT_MS = 20_000;

function parseArgs(argv) {
  const args = { seconds: 60, seed: undefined, targets: undefined, path: undefined };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    i++;
    if (flag === '--seconds') args.seconds = Number(value);
    else if (flag === '--seed') args.seed = Number(value);
    else if (flag === '--target') args.targets = value.split(',');
    else if (flag === '--path') args.path = value;
    else throw new Error(`unknown option ${flag}; use --seconds N, --seed S, --target NAME[,NAME], --path P`);
  }
  if (!(args.seconds > 0)) throw new Error('--seconds must be a positive number');
  if (args.seed !== undefined && !Number.isInteger(args.seed)) throw new Error('--seed must be an integer');
  if (args.path !== undefined && args.targets?.length !== 1) throw new Error('--path replays one input: give one --target');
  return args;
}

/**
 * Runs a worker until it posts its result. The watchdog stops it when it outlives `limitMs`, or
 * when its run counter (shared memory, see worker.ts) stands still for STALL_MS: a check that hangs.
 */
function runWorker(request, limitMs, onMessage) {
  return new Promise((resolve) => {
    const worker = new Worker(bundle, { workerData: request, resourceLimits: { maxOldGenerationSizeMb: 2048 } });
    const runs = new Int32Array(request.counter);
    let settled = false;
    let lastRuns = -1;
    let lastChange = Date.now();
    const finish = (outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(watchdog);
      clearInterval(stall);
      void worker.terminate();
      resolve(outcome);
    };
    const watchdog = setTimeout(() => finish({ kind: 'hang' }), limitMs);
    const stall = setInterval(() => {
      const now = Atomics.load(runs, 0);
      if (now !== lastRuns) {
        lastRuns = now;
        lastChange = Date.now();
      } else if (request.mode === 'campaign' && Date.now() - lastChange > STALL_MS) finish({ kind: 'hang' });
    }, 500);
    worker.on('message', (message) => {
      onMessage(message);
      if (message.kind === 'done' || message.kind === 'input') finish({ kind: 'message', message });
    });
    worker.on('error', (error) => finish({ kind: 'crash', error }));
    worker.on('exit', (code) => finish({ kind: 'crash', error: new Error(`the worker exited with code ${code}`) }));
  });
}

function writeFinding(finding) {
  mkdirSync(findingsDir, { recursive: true });
  // A long shrink path would make a name no file system takes: past 80 characters, its head and a hash.
  const path = finding.path.replace(/:/g, '_');
  const named = path.length <= 80 ? path : `${path.slice(0, 60)}-${createHash('sha256').update(path).digest('hex').slice(0, 12)}`;
  const file = join(findingsDir, `${finding.target}-${finding.seed}-${named}.json`);
  writeFileSync(file, JSON.stringify(finding, null, 1) + '\n');
  return relative(root, file);
}

/** One target's campaign; returns the finding, if any. */
async function campaign(target, seed, ms, path) {
  const counter = new SharedArrayBuffer(8);
  const runs = new Int32Array(counter);
  let foundPath;
  const request = { mode: 'campaign', target, seed, ms, shrinkMs: SHRINK_MS, runTimeoutMs: RUN_TIMEOUT_MS, path, counter };
  const started = Date.now();
  const outcome = await runWorker(request, ms + SHRINK_MS + GRACE_MS, (message) => {
    if (message.kind === 'found') foundPath = message.path;
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (outcome.kind === 'message' && outcome.message.failure === undefined) {
    console.log(`  ${target}: ${outcome.message.numRuns} runs in ${seconds} s, no finding`);
    return undefined;
  }
  if (outcome.kind === 'message') {
    const { failure, numRuns } = outcome.message;
    console.log(`  ${target}: FAILED after ${numRuns} runs (${seconds} s)`);
    return { target, seed, path: failure.path, kind: 'failure', error: failure.error, input: JSON.parse(failure.input) };
  }
  // Hung or crashed: the run in progress is the last one counted, unless a failure was being shrunk.
  const hungPath = foundPath ?? String(Math.max(0, Atomics.load(runs, 0) - 1));
  const error = outcome.kind === 'hang' ? `a check did not return within ${STALL_MS} ms (a hang)` : `the worker crashed: ${outcome.error?.stack ?? outcome.error}`;
  console.log(`  ${target}: ${outcome.kind === 'hang' ? 'HUNG' : 'CRASHED'} at path ${hungPath} after ${Atomics.load(runs, 0)} runs (${seconds} s)`);
  const generated = await runWorker({ ...request, mode: 'generate', path: hungPath }, 60_000, () => {});
  const input = generated.kind === 'message' ? JSON.parse(generated.message.input) : null;
  return { target, seed, path: hungPath, kind: outcome.kind, error, input };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  await build({
    entryPoints: [join(here, 'worker.ts')],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node18',
    packages: 'external',
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  const { targetNames } = await import(pathToFileURL(bundle).href);
  const chosen = args.targets ?? targetNames;
  for (const name of chosen) if (!targetNames.includes(name)) throw new Error(`no fuzz target ${name}; there are ${targetNames.join(', ')}`);
  const seed = args.seed ?? (Math.random() * 0x1_0000_0000) | 0;
  const ms = Math.floor((args.seconds * 1000) / chosen.length);
  console.log(`fuzz: seed=${seed}, ${chosen.length} target(s), ${(ms / 1000).toFixed(1)} s each (replay: npm run fuzz -- --seed ${seed} --seconds ${args.seconds}${args.targets ? ` --target ${args.targets.join(',')}` : ''})`);
  const findings = [];
  for (const target of chosen) {
    const finding = await campaign(target, seed, ms, args.path);
    if (finding === undefined) continue;
    const file = writeFinding(finding);
    console.log(`    ${finding.error.split('\n')[0]}`);
    // The run's own path (before any shrinking) replays it, and shrinks it again.
    console.log(`    written to ${file}; replay: npm run fuzz -- --seed ${seed} --target ${target} --path ${finding.path.split(':')[0]}`);
    findings.push(finding);
  }
  console.log(`fuzz: ${findings.length === 0 ? 'no findings' : `${findings.length} finding(s)`} (seed=${seed})`);
  process.exitCode = findings.length === 0 ? 0 : 1;
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 2;
  })
  .finally(() => rmSync(bundle, { force: true }));
