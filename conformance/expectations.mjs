// The expected failures (expected-failures.json): by leg (a suite version, or a suite version
// at a forced spec version), by client, by scenario, each with its reason. A result is judged
// against them: a failure listed is expected, one not listed is not, and a listed scenario that
// passes makes the list untrue, which fails the run as much as a new failure does.
import { readFileSync } from 'node:fs';

/**
 * The expected failures in `path`, checked: every reason a non-empty string.
 * @returns {Record<string, Record<string, Record<string, string>>>}
 */
export function loadExpectations(path) {
  const parsed = JSON.parse(readFileSync(path, 'utf8'));
  const expectations = {};
  for (const [leg, clients] of Object.entries(parsed)) {
    if (leg.startsWith('$')) continue; // `$comment`
    expectations[leg] = {};
    for (const [client, scenarios] of Object.entries(clients)) {
      expectations[leg][client] = {};
      for (const [scenario, reason] of Object.entries(scenarios)) {
        if (typeof reason !== 'string' || reason.trim() === '') throw new Error(`${path}: ${leg} › ${client} › ${scenario} needs its reason, a non-empty string`);
        expectations[leg][client][scenario] = reason;
      }
    }
  }
  return expectations;
}

/**
 * A result against the expectations: `pass`, `expected` (a listed failure), `unexpected` (a
 * failure not listed) or `stale` (listed, and passed). A scenario the suite skipped or could not
 * run counts as failed: the runner only asks for scenarios the suite lists at that leg.
 */
export function judge(expectations, legId, clientId, scenario, status) {
  const reason = expectations[legId]?.[clientId]?.[scenario];
  const passed = status === 'pass';
  if (reason === undefined) return { verdict: passed ? 'pass' : 'unexpected', reason };
  return { verdict: passed ? 'stale' : 'expected', reason };
}

/**
 * The entries that name no scenario run in a full run: a leg, a client or a scenario the suites
 * no longer have. Only a full run can tell; a partial one leaves the entries it did not run.
 * @param {Set<string>} ran keys `leg › client › scenario` of every job of the full run
 */
export function unknownEntries(expectations, ran) {
  const unknown = [];
  for (const [leg, clients] of Object.entries(expectations)) {
    for (const [client, scenarios] of Object.entries(clients)) {
      for (const scenario of Object.keys(scenarios)) {
        const key = `${leg} › ${client} › ${scenario}`;
        if (!ran.has(key)) unknown.push(key);
      }
    }
  }
  return unknown;
}
