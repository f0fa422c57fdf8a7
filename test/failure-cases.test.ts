// A failure says what happened, in the user's terms (issue 49, rule 4): could not connect; the
// connection broke before any response; the response broke; the response ended without the
// answer. Each case through postJsonRpc, AnswerClient and the CLI, in both eras: only the last
// two say that the server dropped the request with its stream, and `detail.reissue` stays where
// sending again is safe. Real sockets on 127.0.0.1, each server stopped after.
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { AnswerClient, postJsonRpc, type AnswerError } from '../src/index.js';
import { runCli } from './helpers/run-cli.js';

vi.setConfig({ testTimeout: 30_000 });

const MODERN = '2026-07-28';
const NOTE = '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"working"}}';
const DROPPED = 'the server dropped the request with its stream: re-issue it with a new id';
const ENDED = 'the text/event-stream body ended with 1 JSON-RPC message but no response to the request \\(1 event, last event id ""\\)';

type Case = 'refused' | 'broke-before' | 'response-broke' | 'ended';
const servers: (NetServer | HttpServer)[] = [];
const url: Record<Case, string> = { refused: '', 'broke-before': '', 'response-broke': '', ended: '' };

async function listen(server: NetServer | HttpServer): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

/** An event stream with one notification: then the socket is destroyed (`broke`) or the stream ends. */
function streamServer(end: 'broke' | 'ended'): HttpServer {
  return createHttpServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(`data: ${NOTE}\n\n`, () => (end === 'broke' ? response.socket?.destroy() : response.end()));
    });
  });
}

beforeAll(async () => {
  const closed = createNetServer();
  url.refused = await listen(closed);
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  servers.pop();
  url['broke-before'] = await listen(createNetServer((socket) => socket.once('data', () => socket.destroy())));
  url['response-broke'] = await listen(streamServer('broke'));
  url.ended = await listen(streamServer('ended'));
});

afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

const request = (era: 'legacy' | 'modern') => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/list',
  params: era === 'modern' ? { _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN } } : {},
});

async function rejection(pending: Promise<unknown>): Promise<AnswerError> {
  const error = await pending.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(Error);
  return error as AnswerError;
}

/** What each case says, by era: its code, its message, and whether it may be sent again. */
function expected(which: Case, era: 'legacy' | 'modern', port: string): { code: string; message: RegExp; reissue: boolean | undefined } {
  const modern = era === 'modern';
  switch (which) {
    case 'refused':
      return { code: 'connect_failed', message: new RegExp(`^could not connect to 127\\.0\\.0\\.1:${port}: the connection was refused \\(ECONNREFUSED\\); is the server running\\?$`), reissue: true };
    case 'broke-before':
      return {
        code: 'stream_failed',
        message: new RegExp(`^the connection to 127\\.0\\.0\\.1:${port} broke before the server responded to the POST: .*${modern ? '; it may be re-issued with a new id$' : '\\)$'}`),
        reissue: modern ? true : undefined,
      };
    case 'response-broke':
      return { code: 'stream_failed', message: new RegExp(`^the response body failed while being read: [^;]*${modern ? `; ${DROPPED}` : ''}$`), reissue: modern ? true : undefined };
    case 'ended':
      return modern
        ? { code: 'stream_failed', message: new RegExp(`^${ENDED}; ${DROPPED}$`), reissue: true }
        : { code: 'malformed_answer', message: new RegExp(`^${ENDED}$`), reissue: undefined };
  }
}

const CASES: readonly Case[] = ['refused', 'broke-before', 'response-broke', 'ended'];
const ERAS = ['legacy', 'modern'] as const;
const portOf = (which: Case): string => new URL(url[which]).port;

describe.each(ERAS)('%s era', (era) => {
  test.each(CASES)('postJsonRpc: %s', async (which) => {
    const error = await rejection(postJsonRpc(url[which], request(era), { resume: false }));
    const { code, message, reissue } = expected(which, era, portOf(which));
    expect([error.code, error.detail.reissue]).toEqual([code, reissue]);
    expect(error.message).toMatch(message);
    if (which === 'refused' || which === 'broke-before') expect(error.message).not.toContain('dropped');
  });

  test.each(CASES)('AnswerClient: %s', async (which) => {
    const options = era === 'modern' ? { versionNegotiation: { pin: MODERN } } : { handshake: false, resume: false };
    const client = await AnswerClient.connect(url[which], options);
    const error = await rejection(client.request('tools/list'));
    const { code, message, reissue } = expected(which, era, portOf(which));
    expect([error.code, error.detail.reissue]).toEqual([code, reissue]);
    expect(error.message).toMatch(message);
    await client.close();
  });
});

describe('the CLI: one line, and the exit code of the case', () => {
  const exits: Record<Case, number> = { refused: 11, 'broke-before': 8, 'response-broke': 8, ended: 8 };
  test.each(CASES)('call, 2026-07-28: %s', async (which) => {
    const run = await runCli(['call', url[which], 'tools/list', '--protocol-version', MODERN]);
    const { code, message } = expected(which, 'modern', portOf(which));
    expect(run.code).toBe(exits[which]);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trimEnd().split('\n');
    const last = lines.at(-1)!;
    expect(last.startsWith(`sse-answer: ${code}: `)).toBe(true);
    expect(last.slice(`sse-answer: ${code}: `.length)).toMatch(message);
  });

  test('call, 2025, nothing listening: connect_failed, exit 11, before any era line', async () => {
    const run = await runCli(['call', url.refused, 'tools/list']);
    expect(run.code).toBe(11);
    expect(run.stderr).toMatch(/^sse-answer: connect_failed: could not connect to 127\.0\.0\.1:\d+: the connection was refused \(ECONNREFUSED\); is the server running\?\n$/);
  });
});

test('a port fetch refuses: connect_failed, and it says so', async () => {
  const error = await rejection(postJsonRpc('http://127.0.0.1:9/mcp', request('modern')));
  expect([error.code, error.detail.reissue]).toEqual(['connect_failed', true]);
  expect(error.message).toBe('could not connect to 127.0.0.1:9: fetch refuses to connect to this port ("bad port"); serve it on another port');
});
