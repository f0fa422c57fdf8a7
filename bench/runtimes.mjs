// The runtimes the package claims, each able to run a measuring module of bench/
// (portable-core.mjs, ab-core.mjs) in a fresh process, page or worker: the pinned Node lines
// (test/runtimes/node-lines), Chromium, workerd, Deno and Bun; and `node`, the Node that runs
// this file, when named.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_LINES, nodeLine } from '../test/runtimes/node-lines.mjs';
import { measureInChromium } from './hosts/chromium.mjs';
import { measureInWorkerd } from './hosts/workerd.mjs';
import { JUDGED } from './promises.mjs';

const here = (file) => fileURLToPath(new URL(file, import.meta.url));
const require = createRequire(import.meta.url);
const script = here('./hosts/process.mjs');
const TIMEOUT_MS = 600_000;
// Deno and Bun would otherwise check for updates of themselves over the network.
const quiet = { ...process.env, DENO_NO_UPDATE_CHECK: '1', DO_NOT_TRACK: '1' };

/** A runtime started as a process, running bench/hosts/process.mjs: prints one JSON line of { runtime, figures }. */
function processRuntime(command, args) {
  return async (entry, settings) => {
    const executable = command();
    if (!existsSync(executable)) throw new Error(`${executable} is not installed (npm ci installs it)`);
    const child = spawnSync(executable, [...args, script, entry, JSON.stringify(settings)], {
      encoding: 'utf8',
      env: quiet,
      maxBuffer: 1 << 24,
      timeout: TIMEOUT_MS,
    });
    if (child.status !== 0) throw new Error(child.stderr.trim().split('\n').slice(-3).join(' | ') || `exited ${child.status ?? child.signal}`);
    return JSON.parse(child.stdout.trim().split('\n').at(-1));
  };
}

/** The executable of a pinned Node line, installed on first use; throws where it cannot run. */
export function nodeLineBinary(line) {
  const found = nodeLine(line, { log: (message) => console.log(message) });
  if (found.skipped !== undefined) throw new Error(`Node ${line} cannot run here: ${found.skipped}`);
  return found.binary;
}

/** The platform binary of Bun's npm package (its postinstall may not have run; see test/runtimes/run.mjs). */
function bunBinary() {
  const arch = process.arch === 'arm64' ? 'aarch64' : process.arch;
  const platformBinary = join(dirname(require.resolve('bun/package.json')), '..', '@oven', `bun-${process.platform}-${arch}`, 'bin', 'bun');
  return existsSync(platformBinary) ? platformBinary : here('../node_modules/.bin/bun');
}

/**
 * Each runtime, as `measure(entry, settings)`: the `measure(settings)` export of `bench/<entry>`
 * run there, resolving with `{ runtime, figures }`; a Node line's `binary()` is its executable.
 */
export const RUNTIMES = [
  { id: 'node', measure: processRuntime(() => process.execPath, []), binary: () => process.execPath },
  ...NODE_LINES.map(({ name, line }) => ({ id: name, measure: processRuntime(() => nodeLineBinary(line), []), binary: () => nodeLineBinary(line) })),
  { id: 'chromium', measure: (entry, settings) => measureInChromium(entry, settings, TIMEOUT_MS) },
  { id: 'workerd', measure: (entry, settings) => measureInWorkerd(entry, settings, TIMEOUT_MS) },
  { id: 'deno', measure: processRuntime(() => here('../node_modules/.bin/deno'), ['run', '--no-prompt', '--no-lock', '--allow-read', '--allow-env']) },
  { id: 'bun', measure: processRuntime(bunBinary, []) },
];

/** The runtime named `id`. */
export const runtimeNamed = (id) => RUNTIMES.find((r) => r.id === id);

/** The runtimes a filter names, `deno` or `deno+bun`; the judged ones (bench/promises.json) for none. */
export function runtimesNamed(filter) {
  const ids = filter ? filter.split('+') : JUDGED;
  const unknown = ids.filter((id) => runtimeNamed(id) === undefined);
  if (unknown.length > 0) throw new Error(`no runtime ${unknown.join(', ')}: the runtimes are ${RUNTIMES.map((r) => r.id).join(', ')}`);
  return ids.map(runtimeNamed);
}
