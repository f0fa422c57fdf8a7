// `npm run conformance`: the official MCP conformance suite's client scenarios — every suite
// installed (0.1.x, and 0.2.x under the alias mcp-conformance-next), each at its default
// versions and, where it knows 2026-07-28, at that wire too — against two clients built on the
// package (`dist/`): AnswerClient, and the v2 SDK's Client over AnswerTransport. The suite's own
// verdict decides each scenario; expected-failures.json says which may fail and why. Exits 1
// when a scenario fails that is not listed, or a listed one passes.
//
//   node conformance/run.mjs [--quick] [--suite LEG]… [--client ID]… [--scenario NAME]… [--jobs N] [--keep]
//
// Loopback only, offline: the suite's servers listen on this machine, the clients connect to
// them. Results are written under the system's temporary folder, removed unless --keep is given
// or something failed unexpectedly. What runs, what passes and why: docs/guides/conformance.md.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { judge, loadExpectations, unknownEntries } from './expectations.mjs';
import { report } from './report.mjs';
import { clientScenarios, installedSuites, legsOf, runScenario, stopAll, suiteNode } from './suites.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const EXPECTED = join(here, 'expected-failures.json');

/** The client programs, each a user of the built package. */
const CLIENTS = [
  { id: 'answer-client', program: join(here, 'clients', 'answer-client.mjs') },
  { id: 'sdk-client', program: join(here, 'clients', 'sdk-client.mjs') },
];

/**
 * `--quick`: the scenarios that prove most per second, by leg — each era's handshake and a tool
 * call (2025: the discover refused, initialize, the session and its DELETE; 2026-07-28:
 * server/discover and the request metadata), the 2025 resumption after a closed stream, the 2026
 * request metadata and version retry, MRTR, the Mcp-Param-* headers, and OAuth in each era
 * (discovery, registration, authorization code with PKCE, the 401 retried, the 403 step-up).
 */
const QUICK = {
  '0.2.0-alpha.12': ['tools_call', 'sse-retry', 'request-metadata', 'sep-2322-client-request-state', 'http-custom-headers', 'auth/scope-step-up'],
  '0.2.0-alpha.12@2026-07-28': ['tools_call', 'auth/scope-step-up'],
};

/** One CLI run's limit: the suite gives its client 30 s; its servers start and stop besides. */
const SCENARIO_TIMEOUT_MS = 120_000;

const USAGE = `usage: node conformance/run.mjs [options]
  --quick            only the quick subset (the scenarios that prove most per second)
  --suite LEG        only this leg: a suite version (0.1.16), or one at a spec version (0.2.0-alpha.12@2026-07-28); repeatable
  --client ID        only this client: ${CLIENTS.map(({ id }) => id).join(', ')}; repeatable
  --scenario NAME    only this scenario; repeatable
  --jobs N           scenarios run at once (default: ${defaultJobs()})
  --keep             keep every scenario's results (checks.json, the client's stdout and stderr)`;

/** Scenarios at once: twice the cores, as a scenario mostly waits (measured fastest on 2 cores). */
function defaultJobs() {
  return Math.min(8, 2 * availableParallelism());
}

function parseOptions() {
  try {
    const { values } = parseArgs({
      options: {
        quick: { type: 'boolean', default: false },
        suite: { type: 'string', multiple: true, default: [] },
        client: { type: 'string', multiple: true, default: [] },
        scenario: { type: 'string', multiple: true, default: [] },
        jobs: { type: 'string' },
        keep: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    });
    const jobs = values.jobs === undefined ? defaultJobs() : Number(values.jobs);
    if (!Number.isSafeInteger(jobs) || jobs < 1) throw new Error(`--jobs must be a whole number from 1, got ${values.jobs}`);
    const unknownClient = values.client.find((id) => !CLIENTS.some((client) => client.id === id));
    if (unknownClient !== undefined) throw new Error(`--client must be one of ${CLIENTS.map(({ id }) => id).join(', ')}, got ${unknownClient}`);
    return { ...values, jobs };
  } catch (error) {
    console.error(`${error.message}\n${USAGE}`);
    process.exit(2);
  }
}

/** Runs `tasks` (functions returning promises) at most `jobs` at a time, results in order. */
async function pool(tasks, jobs) {
  const results = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, tasks.length) }, worker));
  return results;
}

async function main() {
  const options = parseOptions();
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  if (!existsSync(join(here, '..', 'dist', 'index.js'))) {
    console.error('conformance: dist/ is missing: run `npm run build` first (`npm run conformance` does)');
    return 1;
  }
  const node = suiteNode((message) => console.log(message));
  if (node.skipped !== undefined) {
    // Reported, not failed: nothing here can run the suite (the package itself was not judged).
    console.log(`conformance: skipped: ${node.skipped}`);
    return 0;
  }
  const expectations = loadExpectations(EXPECTED);

  const outputRoot = mkdtempSync(join(tmpdir(), 'sse-answer-conformance-'));
  const env = {
    ...process.env,
    // Loopback only: no proxy between the clients and the suite's servers on this machine.
    NO_PROXY: 'localhost,127.0.0.1,::1',
    no_proxy: 'localhost,127.0.0.1,::1',
    // The suite's CLI starts once per scenario: its compiled code is cached across starts,
    // from the first (the listing of its scenarios) on.
    NODE_COMPILE_CACHE: join(outputRoot, '.compile-cache'),
  };
  let keep = false;
  try {
    const run = await runAll(options, node, expectations, outputRoot, env);
    keep = run.keep;
    return run.code;
  } finally {
    if (keep) console.log(`\nresults kept in ${outputRoot}`);
    else rmSync(outputRoot, { recursive: true, force: true });
  }
}

/**
 * Lists the scenarios, runs those the options choose and reports: the exit code, and whether
 * the results are worth keeping (asked for, or something failed).
 * @returns {Promise<{ code: number, keep: boolean }>}
 */
async function runAll(options, node, expectations, outputRoot, env) {
  const allLegs = installedSuites().flatMap((suite) => legsOf(suite, clientScenarios(node.binary, suite, env)));
  const clients = CLIENTS.filter(({ id }) => options.client.length === 0 || options.client.includes(id));
  const unknownLeg = options.suite.find((id) => !allLegs.some((leg) => leg.id === id));
  if (unknownLeg !== undefined) {
    console.error(`--suite must be one of ${allLegs.map(({ id }) => id).join(', ')}, got ${unknownLeg}`);
    return { code: 2, keep: false };
  }
  const legs = allLegs
    .filter(({ id }) => options.suite.length === 0 || options.suite.includes(id))
    .map((leg) => ({
      ...leg,
      scenarios: leg.scenarios.filter((name) => (!options.quick || (QUICK[leg.id] ?? []).includes(name)) && (options.scenario.length === 0 || options.scenario.includes(name))),
    }))
    .filter((leg) => leg.scenarios.length > 0);
  if (options.quick) {
    // The quick list names scenarios of the suites installed: one they no longer list is a list to fix.
    const missing = Object.entries(QUICK).flatMap(([legId, names]) => names.filter((name) => !allLegs.some((leg) => leg.id === legId && leg.scenarios.includes(name))).map((name) => `${legId} › ${name}`));
    if (missing.length > 0) {
      console.error(`conformance: the --quick list names scenarios the installed suites do not run: ${missing.join(', ')}`);
      return { code: 1, keep: false };
    }
  }
  if (legs.length === 0) {
    console.error('conformance: no scenario matches the options');
    return { code: 2, keep: false };
  }

  const stop = () => {
    stopAll();
    rmSync(outputRoot, { recursive: true, force: true });
    process.exit(130);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  const total = legs.reduce((sum, leg) => sum + leg.scenarios.length, 0) * clients.length;
  console.log(`conformance: ${total} scenario runs (${legs.map((leg) => `${leg.id}: ${leg.scenarios.length}`).join(', ')}; × ${clients.map(({ id }) => id).join(', ')}), ${options.jobs} at a time; suite CLI on Node ${node.version}, clients on Node ${process.versions.node}`);
  const started = performance.now();
  const results = [];
  const timings = [];
  for (const leg of legs) {
    for (const client of clients) {
      // Each leg × client is timed on its own: its scenarios run together, then the next group.
      const groupStarted = performance.now();
      const runs = await pool(
        leg.scenarios.map((scenario, index) => () => {
          const outputDir = join(outputRoot, leg.id, client.id, String(index));
          mkdirSync(outputDir, { recursive: true });
          return runScenario({ node: node.binary, leg, scenario, client, outputDir, env, timeoutMs: SCENARIO_TIMEOUT_MS });
        }),
        options.jobs,
      );
      const seconds = (performance.now() - groupStarted) / 1000;
      timings.push({ leg: leg.id, client: client.id, scenarios: runs.length, seconds, slowest: runs.reduce((worst, run, index) => (run.seconds > worst.seconds ? { seconds: run.seconds, scenario: leg.scenarios[index] } : worst), { seconds: 0, scenario: '' }) });
      runs.forEach((run, index) => {
        const scenario = leg.scenarios[index];
        results.push({ leg: leg.id, client: client.id, scenario, ...run, ...judge(expectations, leg.id, client.id, scenario, run.status) });
      });
      console.log(`  ${leg.id} × ${client.id}: ${runs.length} scenarios in ${seconds.toFixed(1)} s`);
    }
  }
  const seconds = (performance.now() - started) / 1000;

  // Only a run of everything can tell an entry that names nothing the suites still run.
  const full = !options.quick && options.suite.length === 0 && options.client.length === 0 && options.scenario.length === 0;
  const unknown = full ? unknownEntries(expectations, new Set(results.map((result) => `${result.leg} › ${result.client} › ${result.scenario}`))) : [];

  console.log(report({ legs, clients, results, timings, seconds, unknown }));
  const failed = results.some((result) => result.verdict === 'unexpected' || result.verdict === 'stale') || unknown.length > 0;
  return { code: failed ? 1 : 0, keep: failed || options.keep };
}

process.exitCode = await main();
