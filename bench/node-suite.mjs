// The Node suite: the cases that need Node (benny's timing, the MCP SDK, undici, a server
// process, --expose-gc), run by whichever Node runs this file, which run.mjs picks: each pinned
// Node line in turn. Arguments: its settings as JSON,
//   { mode, figures?, cases?, only?, handicapClient? }
// `figures`: measure only the cases, and the sides, these figure ids need (the gate); `cases`:
// these cases whole; neither: every case (`only`, a substring of an id or a group, keeps some).
// `handicapClient`: AnswerClient slowed by that fraction in the client figures (clients.bench.mjs).
// Prints one JSON line, { runtime, records }, each record a case's figures and sides.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cases as answerCases, consumedAnswers } from './answer.bench.mjs';
import { cases as growthCases } from './growth.bench.mjs';
import { settingsFor } from './harness.mjs';
import { consumed } from './readers.mjs';
import { cases as scannerCases } from './scanner.bench.mjs';

const here = (file) => fileURLToPath(new URL(file, import.meta.url));

/**
 * A case run in its own process, as it needs --expose-gc or a clean heap: prints one JSON line.
 * It is told which of its figures are wanted (`--figures`), and the client handicap, if any.
 */
const childCase = (id, group, title, script) => ({
  id,
  group,
  title,
  async run(settings) {
    const figures = settings.figures?.filter((f) => caseOf(f) === id);
    const args = ['--json', settings.mode, ...(figures ? ['--figures', figures.join(',')] : []), ...(settings.handicapClient ? ['--handicap-client', String(settings.handicapClient)] : [])];
    const child = spawnSync(process.execPath, ['--expose-gc', here(script), ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
    if (child.status !== 0) throw new Error(`${script} exited ${child.status}: ${child.stderr.trim().split('\n').slice(-5).join(' | ')}`);
    return JSON.parse(child.stdout.trim().split('\n').at(-1));
  },
});

/** Every case of the Node suite, in the order the full pass runs them. */
export const CASES = [
  ...scannerCases,
  ...answerCases,
  ...growthCases,
  childCase('memory', 'memory', 'peak memory reading a 16 MiB answer', './memory.bench.mjs'),
  childCase('e2e', 'e2e', 'end to end: the SDK Client over AnswerTransport and over its own transport', './e2e.bench.mjs'),
  childCase('clients', 'clients', 'MCP clients end to end, in both eras', './clients.bench.mjs'),
];

/**
 * The case a figure id comes from: `answers.readAnswer/sdk` from `answers`, `e2e-calls.…` from
 * `e2e`, `clients-calls-instant-2026.…` from `clients`.
 */
export const caseOf = (figure) => (figure.startsWith('e2e-') ? 'e2e' : figure.startsWith('clients-') ? 'clients' : figure.split('.')[0]);

if (import.meta.url === `file://${process.argv[1]}`) {
  const { mode, figures, cases, only, handicapClient } = JSON.parse(process.argv[2]);
  const settings = { ...settingsFor(mode), figures, handicapClient };
  const chosen = CASES.filter((c) =>
    figures !== undefined ? figures.some((f) => caseOf(f) === c.id) : cases !== undefined ? cases.includes(c.id) : !only || c.id.includes(only) || c.group === only,
  );
  const records = [];
  for (const c of chosen) {
    const started = performance.now();
    try {
      records.push({ ...(await c.run(settings)), seconds: Math.round((performance.now() - started) / 100) / 10 });
    } catch (error) {
      records.push({ id: c.id, group: c.group, title: c.title, error: error instanceof Error ? error.message : String(error), figures: [] });
    }
  }
  // The consumers' work stays observable.
  console.log(JSON.stringify({ runtime: `node ${process.versions.node}`, records, sink: consumed() === -1 || consumedAnswers() === -1 }));
}
