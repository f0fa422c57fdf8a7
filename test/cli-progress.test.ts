// `sse-answer call`'s progress where people look (issue 52): on a terminal, each
// notifications/progress is a bar on stderr redrawn in place, cleared before any other line;
// anywhere else stderr keeps its NDJSON, byte for byte. The printer in-process with the terminal
// decision injected, then the built CLI under a pseudo-terminal (util-linux `script`) and under
// pipes, against the browser example's v2 SDK server and its `countdown` tool.
import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { startMcpServer, type RunningMcpServer } from '../examples/browser/servers.mjs';
import { EXIT_CODES } from '../src/cli/exit-codes.js';
import { jsonLine, neverPrint } from '../src/cli/output.js';
import { progressPrinter, type ProgressTerminal } from '../src/cli/progress-bar.js';
import type { JsonRpcMessage } from '../src/index.js';
import { CLI, runCli } from './helpers/run-cli.js';

vi.setConfig({ testTimeout: 30_000 });

const CLEAR = '\r\x1b[2K';

const progress = (progress: unknown, total?: unknown, message?: unknown): JsonRpcMessage =>
  ({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress, total, message } }) as JsonRpcMessage;
const log: JsonRpcMessage = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'a log line' } };

/** A terminal that records what is written to it, and the messages passed over as lines. */
function recording(isTTY: boolean, columns?: number): { terminal: ProgressTerminal; out: string[]; passOver: (message: JsonRpcMessage) => void } {
  const out: string[] = [];
  const terminal = { isTTY, columns, write: (text: string) => void out.push(text) };
  return { terminal, out, passOver: (message) => void out.push(jsonLine(message)) };
}

describe('progressPrinter', () => {
  test('off a terminal: the messages go to passOver as they are, the bar never drawn', () => {
    const { terminal, out, passOver } = recording(false, 80);
    const printer = progressPrinter(terminal, passOver);
    expect(printer.onMessage).toBe(passOver);
    for (const message of [progress(1, 3, 'one'), log, progress(2, 3)]) printer.onMessage(message);
    printer.finish();
    expect(out).toStrictEqual([progress(1, 3, 'one'), log, progress(2, 3)].map(jsonLine));
  });

  test('on a terminal: one bar redrawn in place, another message on a line of its own with the bar drawn again under it, cleared at the end', () => {
    const { terminal, out, passOver } = recording(true, 80);
    const printer = progressPrinter(terminal, passOver);
    printer.onMessage(progress(1, 4, 'first step'));
    printer.onMessage(log);
    printer.onMessage(progress(4, 4, 'done'));
    printer.finish();
    printer.finish(); // nothing left to clear
    const bar1 = '[#####---------------] 1/4 first step';
    expect(out).toStrictEqual([`${CLEAR}${bar1}`, CLEAR, jsonLine(log), bar1, `${CLEAR}[####################] 4/4 done`, CLEAR]);
  });

  test('a message before any progress: a JSON line, no clearing', () => {
    const { terminal, out, passOver } = recording(true, 80);
    const printer = progressPrinter(terminal, passOver);
    printer.onMessage(log);
    printer.finish();
    expect(out).toStrictEqual([jsonLine(log)]);
  });

  test('without a total: a spinner and the count; progress out of range is drawn within the bar', () => {
    const { terminal, out, passOver } = recording(true, 80);
    const printer = progressPrinter(terminal, passOver);
    for (const n of [1, 2, 3, 4, 5]) printer.onMessage(progress(n));
    printer.onMessage(progress(7, 5));
    printer.onMessage(progress(-1, 5));
    printer.onMessage(progress(0.3333, 1));
    expect(out).toStrictEqual([
      `${CLEAR}[|] 1`, `${CLEAR}[/] 2`, `${CLEAR}[-] 3`, `${CLEAR}[\\] 4`, `${CLEAR}[|] 5`,
      `${CLEAR}[####################] 7/5`, `${CLEAR}[--------------------] -1/5`, `${CLEAR}[#######-------------] 0.33/1`,
    ]);
  });

  test('a progress notification with no number to draw is passed over as a line', () => {
    const { terminal, out, passOver } = recording(true, 80);
    const printer = progressPrinter(terminal, passOver);
    const odd = [progress('3', 5), progress(Number.NaN), { jsonrpc: '2.0', method: 'notifications/progress', params: [1, 2] } as JsonRpcMessage];
    for (const message of odd) printer.onMessage(message);
    expect(out).toStrictEqual(odd.map(jsonLine));
  });

  describe("the server's message: escaped, redacted, one line, cut to the terminal's width", () => {
    afterAll(() => neverPrint(new Headers(), [], []));

    test('what steers a terminal is escaped, line breaks too', () => {
      const { terminal, out, passOver } = recording(true, 200);
      progressPrinter(terminal, passOver).onMessage(progress(1, 2, 'a\x1b[31mred\u202e\nsecond line\u0007'));
      expect(out).toStrictEqual([`${CLEAR}[##########----------] 1/2 a\\u001b[31mred\\u202e second line\\u0007`]);
    });

    test("the command's secrets are never drawn", () => {
      neverPrint(new Headers(), [], ['tok-0123456789']);
      const { terminal, out, passOver } = recording(true, 200);
      progressPrinter(terminal, passOver).onMessage(progress(1, 2, 'using tok-0123456789 now'));
      expect(out).toStrictEqual([`${CLEAR}[##########----------] 1/2 using [redacted] now`]);
    });

    test.each([40, 33, 60])('a long message fits in %i columns, with a column to spare, never cut inside an escape', (columns) => {
      const { terminal, out, passOver } = recording(true, columns);
      const printer = progressPrinter(terminal, passOver);
      printer.onMessage(progress(1, 2, `${'x'.repeat(9)}\x1b${'y'.repeat(200)}`));
      const line = out[0]!.slice(CLEAR.length);
      expect(line.length).toBeLessThan(columns);
      expect(line.endsWith('…')).toBe(true);
      expect(line).not.toMatch(/\\u[0-9a-f]{0,3}…$/);
    });

    test('a terminal too narrow for any of the message: the bar alone; a width of 0 (unknown) is taken as 80', () => {
      const narrow = recording(true, 30);
      progressPrinter(narrow.terminal, narrow.passOver).onMessage(progress(1, 2, 'hello'));
      expect(narrow.out).toStrictEqual([`${CLEAR}[##########----------] 1/2`]);
      const unknown = recording(true, 0);
      progressPrinter(unknown.terminal, unknown.passOver).onMessage(progress(1, 2, 'm'.repeat(200)));
      expect(unknown.out[0]!.length - CLEAR.length).toBe(79);
    });
  });
});

/** util-linux's `script`, which runs a command under a pseudo-terminal, from PATH. */
function findScript(): string | undefined {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    try {
      accessSync(join(dir, 'script'), constants.X_OK);
      return join(dir, 'script');
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Runs the built CLI under a pseudo-terminal `columns` wide: stdout and stderr as the terminal shows them, and the exit code. */
function runInTerminal(script: string, args: readonly string[], columns: number): Promise<{ code: number; output: string }> {
  const quoted = [process.execPath, CLI, ...args].map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(' ');
  return new Promise((resolve) => {
    execFile(script, ['-qfec', `stty cols ${columns} rows 24; exec ${quoted}`, '/dev/null'], { encoding: 'utf8', timeout: 20_000 }, (error, stdout) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      // The terminal writes each line end as CR LF.
      resolve({ code, output: stdout.replaceAll('\r\n', '\n') });
    });
  });
}

const COUNTDOWN = (from: number): string => JSON.stringify({ name: 'countdown', arguments: { from }, _meta: { progressToken: 'p' } });
const ERA_LINE = 'sse-answer: era modern (2026-07-28): negotiated by server/discover\n';
const ANSWER = '{"result":{"content":[{"type":"text","text":"liftoff"}],"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"sse-answer-browser-demo","version":"1.0.0"}}},"jsonrpc":"2.0","id":1}\n';

describe('sse-answer call: progress on a terminal, NDJSON elsewhere', () => {
  let server: RunningMcpServer;
  let slow: RunningMcpServer;
  beforeAll(async () => {
    [server, slow] = await Promise.all([
      startMcpServer({ era: 'modern', origins: [] }),
      startMcpServer({ era: 'modern', origins: [], stepMs: 100 }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([server.stop(), slow.stop()]);
  });

  test('under pipes: stderr is the era line and the NDJSON it always was, byte for byte; no bar, no control character', async () => {
    const { code, stdout, stderr } = await runCli(['call', server.url, 'tools/call', COUNTDOWN(3)]);
    expect(code).toBe(0);
    expect(stdout).toBe(ANSWER);
    const lines = [
      '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"counting down from 3"}}',
      ...[1, 2, 3].map((n) => `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":${n},"total":3,"message":"${3 - n} to go"}}`),
    ];
    expect(stderr).toBe(`${ERA_LINE}${lines.map((line) => `${line}\n`).join('')}`);
  });

  test('under a pseudo-terminal: the log as a line, the bar redrawn in place, cleared before the answer', async () => {
    const script = findScript();
    expect(script, 'util-linux script on PATH').toBeDefined();
    const { code, output } = await runInTerminal(script!, ['call', server.url, 'tools/call', COUNTDOWN(3)], 60);
    expect(code).toBe(0);
    expect(output).toBe(
      ERA_LINE +
        '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"counting down from 3"}}\n' +
        `${CLEAR}[#######-------------] 1/3 2 to go` +
        `${CLEAR}[#############-------] 2/3 1 to go` +
        `${CLEAR}[####################] 3/3 0 to go` +
        CLEAR +
        ANSWER,
    );
  });

  test('under a pseudo-terminal, a failure mid-way: the bar cleared before the failure line', async () => {
    const script = findScript();
    expect(script, 'util-linux script on PATH').toBeDefined();
    const { code, output } = await runInTerminal(script!, ['call', slow.url, 'tools/call', COUNTDOWN(100), '--timeout', '1500'], 60);
    expect(code).toBe(EXIT_CODES.timeout);
    const failure = output.lastIndexOf('sse-answer: timeout');
    expect(failure).toBeGreaterThan(0);
    expect(output.slice(failure - CLEAR.length, failure)).toBe(CLEAR);
    expect(output.slice(0, failure)).toMatch(/\r\x1b\[2K\[#*-+\] \d+\/100 \d+ to go/);
    expect(output.slice(failure)).toMatch(/^sse-answer: timeout[^\r\x1b]*\n$/);
  });
});
