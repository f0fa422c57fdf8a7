// The conformance suites installed as dev dependencies, the Node that runs their CLI, and one
// scenario run through it. The suite's CLI needs Node 22 or later (it imports `fs.globSync`),
// so it runs on a pinned Node line (test/runtimes/node-lines.mjs); the client programs run on
// the Node that runs this script, the toolchain's.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { nodeLines } from '../test/runtimes/node-lines.mjs';

const require = createRequire(import.meta.url);

/**
 * The suites, by the package name each is installed under (0.2.x beside 0.1.x under an alias).
 * A run at a spec version other than the suite's default is a leg of its own.
 */
const INSTALLED = ['@modelcontextprotocol/conformance', 'mcp-conformance-next'];

/** The wire each suite's 2026-only scenarios already run at, and the one the extra leg forces. */
export const MODERN = '2026-07-28';

/** The oldest Node the suite's CLI runs on. */
const OLDEST_SUITE_NODE = 22;

/**
 * A Node to run the suite's CLI: the newest pinned line that runs here (installing the lines
 * first where needed), or this Node when it is new enough; else why there is none.
 * @returns {{ binary: string, version: string } | { skipped: string }}
 */
export function suiteNode(log) {
  const lines = nodeLines({ log }).filter((line) => line.line >= OLDEST_SUITE_NODE);
  const usable = lines.filter((line) => line.binary !== undefined).at(-1);
  if (usable !== undefined) return { binary: usable.binary, version: usable.version };
  if (Number(process.versions.node.split('.')[0]) >= OLDEST_SUITE_NODE) return { binary: process.execPath, version: process.versions.node };
  const why = lines.map((line) => `Node ${line.version}: ${line.skipped}`).join('; ');
  return { skipped: `the suite's CLI needs Node ${OLDEST_SUITE_NODE} or later, this is ${process.version}, and no pinned line runs here (${why || 'none is pinned'})` };
}

/**
 * The installed suites: `{ version, cli }`, the CLI's entry file and the version its package says.
 * @returns {{ version: string, cli: string }[]}
 */
export function installedSuites() {
  return INSTALLED.map((name) => {
    const manifestPath = require.resolve(`${name}/package.json`);
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    return { version: manifest.version, cli: join(dirname(manifestPath), manifest.bin.conformance) };
  });
}

/**
 * The client scenarios a suite lists, each with the spec versions it applies to (`[]` for an
 * extension, which is on no spec timeline), in the suite's order.
 * @returns {{ name: string, versions: string[] }[]}
 */
export function clientScenarios(node, suite, env) {
  const listed = spawnSync(node, ['--no-deprecation', suite.cli, 'list', '--client'], { encoding: 'utf8', timeout: 60_000, env });
  if (listed.status !== 0) throw new Error(`conformance ${suite.version} list --client failed: ${listed.stderr || listed.error?.message}`);
  return listed.stdout.split('\n').flatMap((line) => {
    const found = /^\s+- (\S+) \[([^\]]*)\]$/.exec(line);
    if (found === null) return [];
    const versions = found[2].split(',').filter((tag) => /^\d{4}-\d{2}-\d{2}$/.test(tag));
    return [{ name: found[1], versions }];
  });
}

/**
 * The legs of a suite: its own default run of every client scenario (each at the version the
 * suite resolves for it: the newest dated one, or 2026-07-28 for a scenario only that revision
 * has), and where it knows 2026-07-28, that wire forced on every scenario that spans both eras.
 * @returns {{ id: string, suite: { version: string, cli: string }, specVersion: string | undefined, scenarios: string[] }[]}
 */
export function legsOf(suite, scenarios) {
  const legs = [{ id: suite.version, suite, specVersion: undefined, scenarios: scenarios.map(({ name }) => name) }];
  const spanning = scenarios.filter(({ versions }) => versions.includes(MODERN) && versions.some((version) => version < MODERN));
  if (spanning.length > 0) legs.push({ id: `${suite.version}@${MODERN}`, suite, specVersion: MODERN, scenarios: spanning.map(({ name }) => name) });
  return legs;
}

/** A path as one word of a POSIX shell command (the suite runs `--command` through `sh -c`). */
function shellWord(path) {
  return `'${path.replaceAll("'", `'\\''`)}'`;
}

/**
 * Runs one scenario of a leg against one client program through the suite's CLI, and reads what
 * the suite decided. The CLI's exit status is the verdict (it fails a scenario for a failed
 * check, a warning, a client that timed out or exited non-zero where the scenario allows no
 * client error); `checks.json` says which checks failed, `stderr.txt` what the client said.
 * @param {{ node: string, leg: ReturnType<typeof legsOf>[number], scenario: string, client: { id: string, program: string }, outputDir: string, env: Record<string, string>, timeoutMs: number }} job
 * @returns {Promise<{ status: 'pass' | 'fail' | 'skipped' | 'error', seconds: number, failedChecks: { id: string, status: string, message: string }[], succeeded: number, clientError: string | undefined, clientExit: string | undefined, output: string }>}
 */
export function runScenario({ node, leg, scenario, client, outputDir, env, timeoutMs }) {
  const command = `${shellWord(process.execPath)} ${shellWord(client.program)}`;
  const args = ['--no-deprecation', leg.suite.cli, 'client', '--command', command, '--scenario', scenario, '--output-dir', outputDir];
  if (leg.specVersion !== undefined) args.push('--spec-version', leg.specVersion);
  const started = performance.now();
  return new Promise((resolve) => {
    // Its own process group, so that a run past its time is ended with the client it started.
    const child = spawn(node, args, { cwd: outputDir, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, timeoutMs);
    RUNNING.add(child);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      RUNNING.delete(child);
      const seconds = (performance.now() - started) / 1000;
      const result = readResult(outputDir);
      let status = code === 0 ? 'pass' : 'fail';
      if (/^SKIPPED: /m.test(output)) status = 'skipped';
      else if (result === undefined) status = 'error';
      const clientExit = /Client exited with code (\d+)/.exec(output)?.[1] ?? (/Client timed out/.test(output) ? 'timed out' : undefined);
      const why = timedOut ? `the suite's CLI ran past ${timeoutMs / 1000} s and was stopped` : signal !== null ? `the suite's CLI ended by ${signal}` : undefined;
      resolve({
        status: why === undefined ? status : 'error',
        seconds,
        failedChecks: result?.failedChecks ?? [],
        succeeded: result?.succeeded ?? 0,
        clientError: result?.clientError,
        clientExit,
        output: why === undefined ? output : `${why}\n${output}`,
      });
    });
  });
}

/** The CLIs running now, so that an interrupted run ends them (and their clients) too. */
const RUNNING = new Set();

function killGroup(child) {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** Ends every CLI still running, with the client each started. */
export function stopAll() {
  for (const child of RUNNING) killGroup(child);
}

/**
 * What one scenario's result directory holds: the checks that failed or warned (with their
 * message), and the last lines the client wrote to stderr. `undefined` when the suite wrote none.
 */
function readResult(outputDir) {
  // `<scenario>-<time>/`, under a folder of its own for a scenario named `auth/…`.
  const found = readdirSync(outputDir, { recursive: true }).find((path) => String(path).endsWith('checks.json'));
  if (found === undefined) return undefined;
  const base = dirname(join(outputDir, String(found)));
  const checks = JSON.parse(readFileSync(join(base, 'checks.json'), 'utf8'));
  const failedChecks = checks
    .filter((check) => check.status === 'FAILURE' || check.status === 'WARNING')
    .map((check) => ({ id: check.id, status: check.status, message: oneLine(check.errorMessage ?? check.description ?? '') }));
  const succeeded = checks.filter((check) => check.status === 'SUCCESS').length;
  const stderrPath = join(base, 'stderr.txt');
  const stderr = existsSync(stderrPath) ? readFileSync(stderrPath, 'utf8') : '';
  const lines = stderr.split('\n').filter((line) => line.trim() !== '');
  return { failedChecks, succeeded, clientError: lines.length === 0 ? undefined : lines.slice(-4).join(' | ') };
}

function oneLine(text) {
  const flat = String(text).replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 297)}...` : flat;
}
