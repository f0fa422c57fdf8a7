// `npm run test:runtimes`: the runtime suite against the built package (dist/) in every runtime
// the package claims, one line per runtime with its counts: the Node that runs this script, each
// pinned Node line (node-lines.mjs), Chromium, workerd, Deno and Bun. A runtime that cannot start,
// hangs or fails a test fails the run. Only a pinned Node line that cannot be installed or run on
// this platform, or that is the very Node running this script, is skipped, and the run says which
// and why. `node test/runtimes/run.mjs deno bun`
// runs some.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runChromium } from './hosts/chromium.mjs';
import { runEntry } from './hosts/processes.mjs';
import { runWorkerd } from './hosts/workerd.mjs';
import { NODE_LINES, nodeLines } from './node-lines.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(import.meta.url);
const entries = join(root, 'test/runtimes/entries');
const TIMEOUT_MS = 60_000;
const options = { root, timeoutMs: TIMEOUT_MS };
// Deno and Bun would otherwise check for updates of themselves over the network.
const quiet = { DENO_NO_UPDATE_CHECK: '1', DO_NOT_TRACK: '1' };

/** The suite's two Node entries, ESM and CommonJS, run by the Node executable `node`. */
const nodeEntries = (prefix, node) => ({
  [`${prefix}-import`]: () => runEntry(node('import'), [join(entries, 'import.mjs')], { ...options, cwd: root }),
  [`${prefix}-require`]: () => runEntry(node('require'), [join(entries, 'node-require.cjs')], { ...options, cwd: root }),
});

const RUNTIMES = {
  ...nodeEntries('node', () => process.execPath),
  // Each pinned line, installed on first use; `node22-import`, `node22-require`, …
  ...Object.fromEntries(NODE_LINES.flatMap(({ name }) => Object.entries(nodeEntries(name, (entry) => pinnedNode(name, entry))))),
  chromium: () => runChromium(options),
  workerd: () => runWorkerd(options),
  deno: () => runEntry(denoBinary(), ['run', '--no-prompt', '--no-lock', join(entries, 'import.mjs')], { ...options, cwd: root, env: quiet }),
  bun: () => runEntry(bunBinary(), [join(entries, 'import.mjs')], { ...options, cwd: root, env: quiet }),
};

/**
 * Deno's executable from its npm package. Its postinstall links the binary in place of a Node
 * wrapper; without it (scripts not run) `bin.cjs` finds the platform package's binary itself.
 */
function denoBinary() {
  return join(dirname(require.resolve('deno/package.json')), '..', '.bin', 'deno');
}

/**
 * Bun's executable from its npm package. Its postinstall moves the platform package's binary in
 * place of a placeholder that only prints an error; when scripts were not run, the binary is
 * still in the platform package.
 */
function bunBinary() {
  const arch = process.arch === 'arm64' ? 'aarch64' : process.arch;
  const platformBinary = join(dirname(require.resolve('bun/package.json')), '..', '@oven', `bun-${process.platform}-${arch}`, 'bin', 'bun');
  return existsSync(platformBinary) ? platformBinary : join(dirname(require.resolve('bun/package.json')), '..', '.bin', 'bun');
}

/** A line that is not run: it cannot run here, or it is the Node that runs this script. The run says so and goes on. */
class Skipped extends Error {}

let lines;
/** The executable of pinned line `name` for its `entry` (import or require); throws Skipped. */
function pinnedNode(name, entry) {
  const line = lines.find((candidate) => candidate.name === name);
  if (line.skipped !== undefined) throw new Skipped(`node ${line.version}: ${line.skipped}`);
  // The same version twice proves nothing more.
  if (line.version === process.versions.node && chosen.includes(`node-${entry}`)) throw new Skipped(`node ${line.version} is the Node running this script: run as node-${entry}`);
  return line.binary;
}

const chosen = process.argv.length > 2 ? process.argv.slice(2) : Object.keys(RUNTIMES);
const unknown = chosen.filter((name) => !(name in RUNTIMES));
if (unknown.length > 0) throw new Error(`unknown runtimes: ${unknown.join(', ')}; known: ${Object.keys(RUNTIMES).join(', ')}`);
if (!existsSync(join(root, 'dist/index.js')) || !existsSync(join(root, 'dist/index.cjs'))) {
  throw new Error('dist/ is not built: run `npm run build` first');
}

// The pinned lines are installed before any runtime is timed.
if (chosen.some((name) => NODE_LINES.some((line) => name.startsWith(`${line.name}-`)))) lines = nodeLines({ log: (message) => console.log(message) });

/** Runs one runtime: its line of counts (and its failures), whether it failed, whether it was skipped. */
async function runOne(name) {
  const started = Date.now();
  let result;
  try {
    result = await RUNTIMES[name]();
  } catch (error) {
    if (error instanceof Skipped) return { text: `${name.padEnd(30)} skipped: ${error.message}`, failed: false, skipped: true };
    return { text: `${name.padEnd(30)} did not run: ${error instanceof Error ? error.message : String(error)}`, failed: true, skipped: false };
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const failures = result.failures.map((failure) => `\n  FAIL ${failure.name}\n       ${failure.message}`).join('');
  return { text: `${result.runtime.padEnd(30)} ${result.passed} passed, ${result.failed} failed  (${seconds} s)${failures}`, failed: result.failed > 0 || result.passed === 0, skipped: false };
}

// The runtimes mostly wait on the fixtures' timers (a quarter of their time is CPU), so a few run
// at once; each line is printed in the order asked, as soon as those before it are done.
const jobs = Math.max(1, Number(process.env.RUNTIME_JOBS ?? 3) || 1);
const results = new Array(chosen.length);
let next = 0;
let printed = 0;
const flush = () => {
  while (printed < chosen.length && results[printed] !== undefined) console.log(results[printed++].text);
};
await Promise.all(
  Array.from({ length: Math.min(jobs, chosen.length) }, async () => {
    while (next < chosen.length) {
      const index = next++;
      results[index] = await runOne(chosen[index]);
      flush();
    }
  }),
);
const failed = results.filter((result) => result.failed).length;
const skipped = chosen.filter((_, index) => results[index].skipped);
if (skipped.length > 0) console.log(`skipped (each line above says why): ${skipped.join(', ')}`);
if (failed > 0) {
  console.log(`${failed} of ${chosen.length} runtimes failed`);
  process.exitCode = 1;
}
