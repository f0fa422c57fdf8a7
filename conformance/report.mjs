// The runner's report: a compact table (scenario × leg × client), the timings, then what needs
// a look — unexpected failures with the checks that failed and the client's last words, expected
// failures that passed, entries that name nothing — and the expected failures with their reasons.

/** A cell of the table, by verdict. */
const CELL = { pass: 'pass', expected: 'xfail', unexpected: 'FAIL', stale: 'XPASS' };

/**
 * @param {{ legs: { id: string, specVersion: string | undefined, scenarios: string[] }[], clients: { id: string }[], results: object[], timings: object[], seconds: number, unknown: string[] }} run
 * @returns {string}
 */
export function report({ legs, clients, results, timings, seconds, unknown }) {
  const lines = [''];
  // Rows: every scenario run, in the order the suites list them, the newest suite's first.
  const byDefaultFirst = [...legs.filter((leg) => leg.specVersion === undefined).reverse(), ...legs.filter((leg) => leg.specVersion !== undefined)];
  const scenarios = [...new Set(byDefaultFirst.flatMap((leg) => leg.scenarios))];
  const columns = legs.flatMap((leg) => clients.map((client) => ({ leg: leg.id, client: client.id })));
  const cell = (scenario, { leg, client }) => {
    const result = results.find((candidate) => candidate.scenario === scenario && candidate.leg === leg && candidate.client === client);
    return result === undefined ? '-' : CELL[result.verdict];
  };
  const nameWidth = Math.max(8, ...scenarios.map((name) => name.length));
  const widths = columns.map(({ leg, client }) => Math.max(leg.length, client.length, 5));
  const row = (first, cells) => `${first.padEnd(nameWidth)}  ${cells.map((text, index) => text.padEnd(widths[index])).join('  ')}`.trimEnd();
  lines.push(row('', columns.map(({ leg }) => leg)));
  lines.push(row('scenario', columns.map(({ client }) => client)));
  for (const scenario of scenarios) lines.push(row(scenario, columns.map((column) => cell(scenario, column))));

  const count = (verdict) => results.filter((result) => result.verdict === verdict).length;
  lines.push('', `${results.length} runs: ${count('pass')} pass, ${count('expected')} expected failures, ${count('unexpected')} unexpected failures, ${count('stale')} expected failures that passed`);
  lines.push('', 'timings (wall clock, each leg × client on its own):');
  for (const timing of timings) {
    lines.push(`  ${`${timing.leg} × ${timing.client}`.padEnd(48)} ${String(timing.scenarios).padStart(3)} scenarios  ${timing.seconds.toFixed(1).padStart(6)} s  (slowest: ${timing.slowest.scenario}, ${timing.slowest.seconds.toFixed(1)} s)`);
  }
  lines.push(`  ${'total'.padEnd(48)} ${String(results.length).padStart(3)} runs       ${seconds.toFixed(1).padStart(6)} s`);

  const unexpected = results.filter((result) => result.verdict === 'unexpected');
  if (unexpected.length > 0) {
    lines.push('', 'UNEXPECTED FAILURES (fix them, or list them with their reason in conformance/expected-failures.json):');
    for (const result of unexpected) lines.push(...describeFailure(result));
  }
  const stale = results.filter((result) => result.verdict === 'stale');
  if (stale.length > 0) {
    lines.push('', 'EXPECTED FAILURES THAT PASSED (remove them from conformance/expected-failures.json):');
    for (const result of stale) lines.push(`  ${result.leg} › ${result.client} › ${result.scenario} (listed: ${result.reason})`);
  }
  if (unknown.length > 0) {
    lines.push('', 'EXPECTED FAILURES OF NOTHING RUN (no such leg, client or scenario; remove them):');
    for (const key of unknown) lines.push(`  ${key}`);
  }
  // The suite's verdict stands; a pass it gave with no check succeeding (every check skipped or
  // informational) proves nothing, and is said.
  const hollow = results.filter((result) => result.verdict === 'pass' && result.succeeded === 0);
  if (hollow.length > 0) {
    lines.push('', 'passed with no check succeeding (nothing was proved; look at the scenario):');
    for (const result of hollow) lines.push(`  ${result.leg} › ${result.client} › ${result.scenario}`);
  }
  const expected = results.filter((result) => result.verdict === 'expected');
  if (expected.length > 0) {
    lines.push('', 'expected failures:');
    for (const result of expected) lines.push(`  ${result.leg} › ${result.client} › ${result.scenario}: ${result.reason}`);
  }
  return lines.join('\n');
}

/** An unexpected failure: the suite's status, each check that failed or warned, how the client ended. */
function describeFailure(result) {
  const lines = [`  ${result.leg} › ${result.client} › ${result.scenario} (${result.status}, ${result.seconds.toFixed(1)} s)`];
  for (const check of result.failedChecks) lines.push(`      ${check.status} ${check.id}: ${check.message}`);
  if (result.clientExit !== undefined) lines.push(`      client: exited ${result.clientExit}${result.clientError === undefined ? '' : `: ${result.clientError}`}`);
  if (result.failedChecks.length === 0 && result.clientExit === undefined) {
    const tail = result.output.split('\n').filter((line) => line.trim() !== '').slice(-6);
    for (const line of tail) lines.push(`      ${line}`);
  }
  return lines;
}
