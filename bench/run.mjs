// The benchmark suite: `npm run bench` (after a build). Prints one line per figure, met or MISS
// against its target, and writes the figures to bench/results.json. With --gate it exits 1 when
// a target is missed, for a release check. The memory figure runs in a child process, since it
// needs --expose-gc. BENCH_ROUNDS (default 5) and BENCH_SECONDS (default 1) tune the runs.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { arch, cpus, platform } from 'node:os';
import { fileURLToPath } from 'node:url';
import { run as runScanner } from './scanner.bench.mjs';
import { run as runAnswer } from './answer.bench.mjs';

const here = (file) => fileURLToPath(new URL(file, import.meta.url));

const results = [...(await runScanner()), ...(await runAnswer())];
console.log('');
const memory = spawnSync(process.execPath, ['--expose-gc', here('./memory.bench.mjs'), '--json'], { encoding: 'utf8' });
process.stdout.write(memory.stdout.split('\n').filter((l) => !l.startsWith('[')).join('\n'));
if (memory.status !== 0) {
  process.stderr.write(memory.stderr);
  process.exit(memory.status ?? 1);
}
const json = memory.stdout.split('\n').find((l) => l.startsWith('['));
if (json) results.push(...JSON.parse(json));

const machine = { node: process.version, platform: platform(), arch: arch(), cpus: cpus().length, date: new Date().toISOString() };
writeFileSync(here('./results.json'), `${JSON.stringify({ machine, results }, null, 2)}\n`);
const missed = results.filter((r) => !r.met);
console.log(`\n${results.length - missed.length} of ${results.length} targets met; figures in bench/results.json`);
if (process.argv.includes('--gate') && missed.length > 0) process.exit(1);
