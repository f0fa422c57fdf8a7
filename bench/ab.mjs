// A/B: this checkout's source against another commit's, side by side in one process per runtime
// (`npm run bench:ab -- REF`). Both are bundled from `src/` the same way, into bench/.ab/, and
// each runtime reads the same workloads with both (bench/ab-core.mjs).
//   node bench/ab.mjs REF                   every judged runtime (Node 24 and 26, Chromium, workerd,
//                                           Deno, Bun), the cases tokens, tokens-16k, mcp, keepalive
//   --only RUNTIME[+RUNTIME]:CASE[,CASE]    e.g. node26+bun:tokens-16k,answer-1mib (either side may be
//                                           empty; `node` is the Node that runs this script)
//   --rounds N --seconds S                  paired rounds (default 6) and seconds a side (default 0.3)
//   --repeat K                              each runtime in K fresh processes (default 1): a compiler's
//                                           choices differ between processes, so a change of a few
//                                           percent needs more than one
// A figure `<case>.head/base` above 1 means this checkout is faster. Run `npm run build` first
// (the npm script does): the shared bench code reads the built package.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runtimesNamed } from './runtimes.mjs';

const here = (file) => fileURLToPath(new URL(file, import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const ref = args[0];
if (ref === undefined || ref.startsWith('--')) {
  console.error('usage: node bench/ab.mjs REF [--only RUNTIME[+RUNTIME]:CASE[,CASE]] [--rounds N] [--seconds S] [--repeat K]');
  process.exit(2);
}
const [runtimeFilter = '', caseFilter = ''] = option('--only', ':').split(':');
const cases = caseFilter === '' ? ['tokens', 'tokens-16k', 'mcp', 'keepalive'] : caseFilter.split(',');
const settings = { rounds: Number(option('--rounds', 6)), seconds: Number(option('--seconds', 0.3)), cases };
const repeat = Number(option('--repeat', 1));

/** Bundles `entry` (a src/index.ts) as the package is built, into `out`. */
async function bundle(entry, out) {
  await build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'neutral', target: 'es2022', outfile: out, logLevel: 'silent' });
}

// The other commit's src/ and tsconfig.json, from git itself: no checkout is touched.
const base = mkdtempSync(join(tmpdir(), 'sse-answer-ab-'));
try {
  const archive = spawnSync('git', ['archive', '--format=tar', ref, 'src', 'tsconfig.json'], { maxBuffer: 1 << 28 });
  if (archive.status !== 0) throw new Error(`git archive ${ref}: ${archive.stderr.toString().trim()}`);
  const untar = spawnSync('tar', ['-x', '-C', base], { input: archive.stdout });
  if (untar.status !== 0) throw new Error(`tar: ${untar.stderr.toString().trim()}`);
  mkdirSync(here('./.ab'), { recursive: true });
  await bundle(join(base, 'src/index.ts'), here('./.ab/base.js'));
  await bundle(here('../src/index.ts'), here('./.ab/head.js'));
} finally {
  rmSync(base, { recursive: true, force: true });
}

const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
console.log(`A/B: this checkout (${head}${spawnSync('git', ['diff', '--quiet', 'HEAD', '--', 'src']).status === 0 ? '' : ', with changes to src'}) over ${ref}; above 1, this checkout is faster`);
for (const runtime of runtimesNamed(runtimeFilter)) {
  for (let k = 0; k < repeat; k++) {
    try {
      const out = await runtime.measure('ab-core.mjs', settings);
      for (const f of out.figures) console.log(`${`${runtime.id}:${f.id}`.padEnd(34)} ${f.value.toFixed(2)}x  (rounds ${f.rounds.map((x) => x.toFixed(2)).join(' ')})`);
    } catch (error) {
      console.log(`${runtime.id}: not measured: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
