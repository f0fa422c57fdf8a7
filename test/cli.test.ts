// The built `sse-answer` command (dist/cli.js), run as a process: captured bodies, bad usage, and
// calls against the official MCP server. `npm test` builds dist/ first.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EXIT_CODES } from '../src/cli/exit-codes.js';
import { startMcpServer, type RunningMcpServer } from './helpers/mcp-server.js';
import { runCli, type CliRun } from './helpers/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'sse-answer-cli-'));

const run = (args: readonly string[], stdin?: string): Promise<CliRun> => runCli(args, { stdin });

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const lines = (text: string): unknown[] => text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as unknown);

/** Bad input and server errors get one line on stderr and no stack trace. */
function expectOneLine(stderr: string): void {
  expect(stderr.trim().split('\n')).toHaveLength(1);
  expect(stderr).toMatch(/^sse-answer: /);
  expect(stderr).not.toMatch(/\n\s+at /);
}

/** `call`'s stderr: the line that says which era and version were used, then the rest. */
function eraLine(stderr: string): { line: string; rest: string } {
  const [line = '', ...rest] = stderr.split('\n');
  expect(line).toMatch(/^sse-answer: era (legacy|modern) \(/);
  return { line, rest: rest.join('\n') };
}

/** The era line of a 2025 server that refused `server/discover` as the official server does. */
const FELL_BACK = 'sse-answer: era legacy (2025-11-25): server/discover refused (HTTP 400, JSON-RPC -32000), negotiated by initialize';

const STREAM = 'id: 1\nretry: 500\ndata:\n\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}\n\ndata: {"jsonrpc":"2.0","id":"1","result":{"text":"s"}}\n\ndata: {"jsonrpc":"2.0","id":1,"result":{"text":"n"}}\n\n';

describe('sse-answer --help', () => {
  test('lists one distinct exit code for every AnswerError code, and 2 for bad usage', async () => {
    const { code, stdout } = await run(['--help']);
    expect(code).toBe(0);
    const codes = Object.entries(EXIT_CODES);
    expect(codes.map(([name]) => name).sort()).toEqual(
      ['aborted', 'budget_exceeded', 'connect_failed', 'http_status', 'malformed_answer', 'session_expired', 'stream_failed', 'timeout', 'unsupported_content_type', 'unsupported_request'],
    );
    expect(new Set(codes.map(([, exit]) => exit)).size).toBe(codes.length);
    for (const [name, exit] of codes) {
      expect(exit).not.toBe(0);
      expect(exit).not.toBe(2);
      expect(stdout).toMatch(new RegExp(`\\b${exit}  ${name}\\n`));
    }
    expect(stdout).toMatch(/\b2 {2}bad usage/);
  });
});

describe('sse-answer read', () => {
  test('a captured event stream: the answer on stdout, the passed-over messages as NDJSON on stderr', async () => {
    const { code, stdout, stderr } = await run(['read', file('a.sse', STREAM)]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ jsonrpc: '2.0', id: '1', result: { text: 's' } });
    expect(lines(stderr)).toEqual([{ jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } }]);
  });

  test("--request-id is JSON when it parses: 1 is the number, '\"1\"' the string, abc a string", async () => {
    const path = file('b.sse', STREAM);
    expect(JSON.parse((await run(['read', path, '--request-id', '1'])).stdout)).toMatchObject({ id: 1, result: { text: 'n' } });
    expect(JSON.parse((await run(['read', path, '--request-id', '"1"'])).stdout)).toMatchObject({ id: '1' });
    const other = await run(['read', path, '--request-id', 'abc']);
    expect(other.code).toBe(EXIT_CODES.malformed_answer);
    expectOneLine(other.stderr.split('\n').filter((line) => line.startsWith('sse-answer')).join('\n'));
  });

  test('from stdin, a body starting with { or [ after blanks is JSON; --content-type overrides the sniffing', async () => {
    const one = await run(['read'], ' \n {"jsonrpc":"2.0","id":3,"result":true}');
    expect([one.code, JSON.parse(one.stdout)]).toEqual([0, { jsonrpc: '2.0', id: 3, result: true }]);
    const batch = await run(['read', '-', '--request-id', '4'], '[{"jsonrpc":"2.0","method":"m"},{"jsonrpc":"2.0","id":4,"result":1}]');
    expect([batch.code, JSON.parse(batch.stdout), lines(batch.stderr)]).toEqual([0, { jsonrpc: '2.0', id: 4, result: 1 }, [{ jsonrpc: '2.0', method: 'm' }]]);
    const forced = await run(['read', '--content-type', 'text/event-stream'], '{"jsonrpc":"2.0","id":3,"result":true}');
    expect(forced.code).toBe(EXIT_CODES.malformed_answer); // not an event stream's data line
  });

  test('each failure has its exit code and one line on stderr', async () => {
    const cases: [string[], string | undefined, number][] = [
      [['read', '--content-type', 'text/html'], '<p>hi</p>', EXIT_CODES.unsupported_content_type],
      [['read'], '{"jsonrpc":', EXIT_CODES.malformed_answer],
      [['read'], ': only a comment\n\n', EXIT_CODES.malformed_answer],
      [['read', '--max-bytes', '10'], STREAM, EXIT_CODES.budget_exceeded],
    ];
    for (const [args, stdin, exit] of cases) {
      const { code, stderr, stdout } = await run(args, stdin);
      expect(code, args.join(' ')).toBe(exit);
      expect(stdout).toBe('');
      expectOneLine(stderr);
    }
  });

  test('a file that cannot be read: exit 1, one line', async () => {
    const { code, stderr } = await run(['read', join(dir, 'missing.sse')]);
    expect(code).toBe(1);
    expectOneLine(stderr);
    expect(stderr).toContain('ENOENT');
  });
});

test('sse-answer events: one {type, data, lastEventId} a line', async () => {
  const { code, stdout } = await run(['events', file('e.sse', 'event: ping\nid: 9\ndata: a\ndata: b\n\n: comment\ndata: tail')]);
  expect(code).toBe(0);
  expect(lines(stdout)).toEqual([
    { type: 'ping', data: 'a\nb', lastEventId: '9' },
    { type: 'message', data: 'tail', lastEventId: '9' },
  ]);
});

describe('bad usage: exit 2, one clear line, no stack trace', () => {
  test.each([
    [[]],
    [['frobnicate']],
    [['read', '--bogus']],
    [['read', 'a', 'b']],
    [['read', '--max-bytes', 'lots']],
    [['call']],
    [['call', 'http://127.0.0.1:1/mcp']],
    [['call', 'not a url', 'm']],
    [['call', 'ftp://127.0.0.1/mcp', 'm']],
    [['call', 'http://127.0.0.1:1/mcp', 'm', '{nope']],
    [['call', 'http://127.0.0.1:1/mcp', 'm', '42']],
    [['call', 'http://127.0.0.1:1/mcp', 'm', '--header', 'no-colon']],
    [['call', 'http://127.0.0.1:1/mcp', 'm', '--timeout', '-5']],
    [['call', 'http://127.0.0.1:1/mcp', 'm', '--protocol-version', 'latest']],
    [['call', 'http://127.0.0.1:1/mcp', 'm', '[1]', '--protocol-version', '2026-07-28']],
    [['probe']],
    [['probe', 'not a url']],
    [['probe', 'http://127.0.0.1:1/mcp', 'extra']],
    [['probe', 'http://127.0.0.1:1/mcp', '--no-initialize']],
  ])('%j', async (args) => {
    const { code, stdout, stderr } = await run(args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expectOneLine(stderr);
  });

  // What the user typed is quoted as a bounded prefix, as a server's text is.
  test.each([
    ['an unknown command', ['x'.repeat(3000)]],
    ['an unknown command of terminal controls', ['\x1b'.repeat(1000)]],
    ['an extra argument', ['call', 'http://127.0.0.1:1/mcp', 'm', '{}', 'A'.repeat(3000)]],
    ['an unknown option', ['call', 'http://127.0.0.1:1/mcp', 'm', `--${'b'.repeat(3000)}`]],
  ])('%s, 1000 characters or more: one short line', async (_name, args) => {
    const { code, stderr } = await run(args);
    expect(code).toBe(2);
    expectOneLine(stderr);
    // 64 characters quoted, each escaped at worst as \u001b: six times as many, and the words.
    expect(stderr.length).toBeLessThan(600);
  });

  test("a URL with a user and a password: refused, and the password is not repeated", async () => {
    const { code, stderr } = await run(['call', 'http://me:hunter2-password@127.0.0.1:1/mcp', 'tools/list']);
    expect(code).toBe(2);
    expectOneLine(stderr);
    expect(stderr).toMatch(/must not carry a user or a password/);
    expect(stderr).not.toContain('hunter2');
  });

  test('a --secret-header value shorter than 8 characters: refused, and not repeated', async () => {
    const { code, stderr } = await run(['call', 'http://127.0.0.1:1/mcp', 'tools/list', '--header', 'X-Key: short1', '--secret-header', 'X-Key']);
    expect(code).toBe(2);
    expectOneLine(stderr);
    expect(stderr).toMatch(/shorter than 8 characters/);
    expect(stderr).not.toContain('short1');
  });
});

describe('sse-answer call against the official MCP server', () => {
  let stateful: RunningMcpServer;
  let stateless: RunningMcpServer;
  beforeAll(async () => {
    stateful = await startMcpServer({ stateful: true, json: false });
    stateless = await startMcpServer({ stateful: false, json: true });
  });
  afterAll(async () => {
    await stateful.stop();
    await stateless.stop();
  });

  test('falls back from server/discover to initialize, sends the request with the negotiated version, prints the answer, ends the session', async () => {
    const before = stateful.requests.length;
    const { code, stdout, stderr } = await run(['call', stateful.url, 'tools/call', '{"name":"progress","arguments":{"steps":2}}', '--header', 'x-trace: t1']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'done' }] } });
    const { line, rest } = eraLine(stderr);
    expect(line).toBe(FELL_BACK);
    expect(lines(rest)).toEqual([{ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'starting' } }]);
    const seen = stateful.requests.slice(before);
    expect(seen.map((r) => `${r.method} ${r.rpcMethod ?? ''}`.trim())).toEqual(['POST server/discover', 'POST initialize', 'POST notifications/initialized', 'POST tools/call', 'DELETE']);
    expect(seen[0]!.headers['x-trace']).toBe('t1');
    const sessionId = seen[3]!.headers['mcp-session-id'];
    expect(sessionId).toMatch(/.+/);
    for (const request of seen.slice(2)) {
      expect(request.headers['mcp-protocol-version']).toBe('2025-11-25');
      expect(request.headers['mcp-session-id']).toBe(sessionId);
      expect(request.headers['x-trace']).toBe('t1');
    }
    expect(stateful.endedSessions).toContain(sessionId);
  });

  test('--no-initialize sends the request alone', async () => {
    const before = stateless.requests.length;
    const { code, stdout } = await run(['call', stateless.url, 'tools/list', '--no-initialize']);
    expect(code).toBe(0);
    expect(JSON.stringify(JSON.parse(stdout))).toContain('"name":"echo"');
    expect(stateless.requests.slice(before).map((r) => r.rpcMethod)).toEqual(['tools/list']);
  });

  test("a JSON-RPC error answer is an answer: exit 0", async () => {
    const { code, stdout } = await run(['call', stateful.url, 'no/such/method']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ id: 1, error: { code: -32601 } });
  });

  test("http_status: exit 9, the server's JSON-RPC error on stdout, one line on stderr", async () => {
    const { code, stdout, stderr } = await run(['call', stateless.url, 'tools/list', '--no-initialize', '--header', 'MCP-Protocol-Version: 1999-01-01']);
    expect(code).toBe(EXIT_CODES.http_status);
    expect(JSON.parse(stdout)).toMatchObject({ error: { code: -32000 } });
    const { line, rest } = eraLine(stderr);
    expect(line).toBe('sse-answer: era legacy (1999-01-01): no handshake (--no-initialize)');
    expectOneLine(rest);
    expect(rest).toContain('HTTP 400');
  });

  test('timeout: exit 7, and the session is still ended', async () => {
    const before = stateful.requests.length;
    const { code, stderr } = await run(['call', stateful.url, 'tools/call', '{"name":"never","arguments":{}}', '--timeout', '1000']);
    expect(code).toBe(EXIT_CODES.timeout);
    const { line, rest } = eraLine(stderr);
    expect(line).toBe(FELL_BACK);
    expectOneLine(rest);
    expect(stateful.requests.slice(before).map((r) => r.method)).toContain('DELETE');
  });

  test('budget_exceeded: exit 5', async () => {
    const { code, stderr } = await run(['call', stateful.url, 'tools/call', '{"name":"big","arguments":{"bytes":100000}}', '--max-bytes', '1000']);
    expect(code).toBe(EXIT_CODES.budget_exceeded);
    expectOneLine(eraLine(stderr).rest);
  });

  test('a server that is not there: connect_failed, exit 11', async () => {
    const { code, stderr } = await run(['call', 'http://127.0.0.1:1/mcp', 'tools/list']);
    expect(code).toBe(EXIT_CODES.connect_failed);
    expectOneLine(stderr);
  });
});
