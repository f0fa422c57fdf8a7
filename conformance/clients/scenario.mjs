// What the conformance suite gives a client program, read once: the server URL (its last
// argument), the scenario (MCP_CONFORMANCE_SCENARIO), the spec version the run is at
// (MCP_CONFORMANCE_PROTOCOL_VERSION, 0.2.x) and the scenario's context (MCP_CONFORMANCE_CONTEXT,
// JSON: credentials, the tool calls to make). And how a program ends: exit 0 when its flow went
// through, 1 with the error on stderr, which the suite shows in its verdict.

/**
 * The run this process was started for.
 * @returns {{ serverUrl: string, scenario: string, specVersion: string | undefined, context: Record<string, unknown> }}
 */
export function scenarioRun() {
  const serverUrl = process.argv.at(-1);
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO;
  if (serverUrl === undefined || !/^https?:\/\//.test(serverUrl) || scenario === undefined || scenario === '') {
    throw new Error('usage: MCP_CONFORMANCE_SCENARIO=<scenario> node <client>.mjs <server-url> (the conformance suite sets both)');
  }
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  const context = raw === undefined || raw === '' ? {} : JSON.parse(raw);
  return { serverUrl, scenario, specVersion: process.env.MCP_CONFORMANCE_PROTOCOL_VERSION || undefined, context };
}

/**
 * A string field of the scenario's context, or an error naming what the suite did not give.
 * @param {Record<string, unknown>} context
 * @param {string} name
 * @returns {string}
 */
export function contextString(context, name) {
  const value = context[name];
  if (typeof value !== 'string') throw new Error(`MCP_CONFORMANCE_CONTEXT has no string ${name}`);
  return value;
}

/**
 * Runs the handler of the scenario this process was started for, then exits: 0 when it went
 * through, 1 with the error (and its cause) on stderr. An unknown scenario is an error too, so
 * that a scenario the suite adds is never passed by a program that did nothing.
 * @param {Record<string, (run: ReturnType<typeof scenarioRun>) => Promise<void>>} handlers
 */
export async function runScenario(handlers) {
  let run;
  try {
    run = scenarioRun();
    const handler = Object.hasOwn(handlers, run.scenario) ? handlers[run.scenario] : undefined;
    if (handler === undefined) throw new Error(`no handler for scenario ${run.scenario}`);
    await handler(run);
    process.exit(0);
  } catch (error) {
    console.error(`${run?.scenario ?? 'conformance client'}: ${describe(error)}`);
    process.exit(1);
  }
}

/** An error with its code and its chain of causes, one line each. */
function describe(error) {
  const lines = [];
  for (let current = error, depth = 0; current !== undefined && depth < 5; current = current?.cause, depth += 1) {
    if (current instanceof Error) {
      const code = typeof current.code === 'string' ? ` [${current.code}]` : '';
      lines.push(`${depth === 0 ? '' : 'caused by: '}${current.name}${code}: ${current.message}`);
    } else {
      lines.push(`${depth === 0 ? '' : 'caused by: '}${String(current)}`);
    }
  }
  return lines.join('\n  ');
}

/**
 * Each exchange's deadline in both programs. The suite's servers are on this machine and answer
 * at once: an exchange still waiting after this waits for what will not come (a message sent on
 * a standing stream, which neither client holds), and the suite's own 30 s would go on it.
 */
export const EXCHANGE_TIMEOUT_MS = 10_000;

/** Debug lines go to stderr, which the suite keeps with the scenario's results. */
export function log(...parts) {
  console.error(...parts);
}
