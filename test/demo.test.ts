// `npm run demo` (examples/demo.mjs) against the built package: the v2 SDK server in-process, first
// stateless in the 2026-07-28 era, then stateful in the 2025 era; the v2 SDK Client over
// AnswerTransport, negotiating ('auto'), talks to each. It must print each step, each line naming
// its era, and exit 0.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';

const demo = fileURLToPath(new URL('../examples/demo.mjs', import.meta.url));
const ERAS = ['2026-07-28', '2025-11-25'] as const;

let code: number;
let lines: string[];

beforeAll(async () => {
  const run = await new Promise<{ code: number; stdout: string }>((resolve) => {
    execFile(process.execPath, [demo], { encoding: 'utf8', timeout: 30_000 }, (error, out) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout: out });
    });
  });
  code = run.code;
  lines = run.stdout.split('\n').filter((line) => line !== '');
}, 40_000);

/** The lines of one era, without their `[era] ` prefix. */
function linesOf(era: string): string[] {
  const prefix = `[${era}] `;
  return lines.filter((line) => line.startsWith(prefix)).map((line) => line.slice(prefix.length));
}

test('exits 0, every line names its era, the 2026-07-28 era first', () => {
  expect(code).toBe(0);
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) expect(line).toMatch(/^\[(2026-07-28|2025-11-25)\] (client|server): /);
  const eras = lines.map((line) => line.slice(1, 11));
  expect(eras).toEqual([...eras].sort().reverse());
  expect(new Set(eras)).toEqual(new Set(ERAS));
});

describe.each(ERAS)('the %s era', (era) => {
  test('lists the tools, passes over the log and progress, answers, holds no stream', () => {
    const out = linesOf(era);
    expect(out).toContain('client: tools: countdown, echo');
    expect(out).toContain('client:   passed over: notifications/message {"level":"info","data":"counting down from 3"}');
    expect(out.filter((line) => line.startsWith('client:   passed over: notifications/progress'))).toHaveLength(3);
    expect(out).toContain('client: onprogress saw 1/3, 2/3, 3/3');
    expect(out.find((line) => line.startsWith('client: answer: '))).toMatch(/"content":\[\{"type":"text","text":"liftoff"\}\]/);
    expect(out).toContain('server: responses still open after the answer: 0 — the client holds no stream');
  });
});

test('2026-07-28: stateless, negotiated by server/discover, the call carries its metadata headers, nothing to end', () => {
  const out = linesOf('2026-07-28');
  expect(out[0]).toMatch(/^server: the v2 MCP SDK server, stateless .* on http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  expect(out).toContain("client: connected through AnswerTransport (versionNegotiation 'auto'): protocol 2026-07-28, no session");
  expect(out).toContain('server: the tools/call POST carried MCP-Protocol-Version 2026-07-28, Mcp-Method tools/call, Mcp-Name countdown, Mcp-Session-Id (none)');
  expect(out).toContain('server: nothing to end: no session was issued');
  expect(out).toContain('server: saw POST server/discover → 200, POST tools/list → 200, POST tools/call → 200');
});

test('2025-11-25: the probe refused, initialize, a session on every request, ended by DELETE', () => {
  const out = linesOf('2025-11-25');
  expect(out[0]).toMatch(/^server: the v2 MCP SDK server, stateful .* on http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  const connected = /^client: connected through AnswerTransport \(versionNegotiation 'auto'\): protocol 2025-11-25, session ([0-9a-f-]{36})$/;
  const session = out.map((line) => connected.exec(line)?.[1]).find((id) => id !== undefined);
  expect(session).toBeDefined();
  expect(out).toContain(`server: the tools/call POST carried MCP-Protocol-Version 2025-11-25, Mcp-Method (none), Mcp-Name (none), Mcp-Session-Id ${String(session)}`);
  expect(out).toContain(`server: DELETE ended session ${String(session)}`);
  expect(out).toContain(
    'server: saw POST server/discover → 400, POST initialize → 200, POST notifications/initialized → 202, POST tools/list → 200, POST tools/call → 200, DELETE → 200',
  );
});
