// AnswerTransport under the MCP SDK's own Client, against the official MCP server: every scenario
// of the issue, in the four server modes where the protocol allows it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ListRootsRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AnswerTransport, isAnswerError, type AnswerTransportOptions, type TransportMessage } from '../src/index.js';
import { rejection } from './helpers/bodies.js';
import { eventually, SERVER_MODES, startMcpServer, type RunningMcpServer } from './helpers/mcp-server.js';

const VERSION = '2025-11-25';
const MiB = 1024 * 1024;

// Checked by the type-check (`npm run typecheck`): the SDK's Transport accepts an AnswerTransport
// as it is, with no adapter and no import of the SDK in src/.
const asTransport = (transport: AnswerTransport): Transport => transport;

async function connect(url: string, options: AnswerTransportOptions = {}): Promise<{ client: Client; transport: AnswerTransport; logs: string[] }> {
  const client = new Client({ name: 'answer-transport-test', version: '1.0.0' }, { capabilities: { roots: { listChanged: true } } });
  const logs: string[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    logs.push(String(notification.params.data));
  });
  client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: 'file:///root', name: 'root' }] }));
  const transport = new AnswerTransport(url, options);
  await client.connect(asTransport(transport));
  return { client, transport, logs };
}

function textOf(result: unknown): string {
  return (result as { content: { text: string }[] }).content[0]!.text;
}

describe.each(SERVER_MODES)('the SDK Client over AnswerTransport (stateful: $stateful, json: $json)', ({ stateful, json }) => {
  let server: RunningMcpServer;
  let client: Client;
  let transport: AnswerTransport;
  let logs: string[];
  beforeAll(async () => {
    server = await startMcpServer({ stateful, json });
    ({ client, transport, logs } = await connect(server.url));
  });
  afterAll(async () => {
    await client.close();
    await server.stop();
  });

  test('initialize: the negotiated version goes on every later request, and the session id when stateful', async () => {
    expect(transport.protocolVersion).toBe(VERSION);
    expect(client.getServerVersion()).toMatchObject({ name: 'sse-answer-test' });
    expect(transport.sessionId !== undefined).toBe(stateful);
    await client.listTools();
    const later = server.requests.filter((r) => r.rpcMethod !== 'initialize');
    expect(later.length).toBeGreaterThanOrEqual(2); // notifications/initialized, tools/list
    for (const request of later) {
      expect(request.headers['mcp-protocol-version']).toBe(VERSION);
      expect(request.headers['mcp-session-id']).toBe(transport.sessionId);
    }
  });

  test('tools/list', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['echo', 'progress', 'big', 'never', 'poll', 'ask']));
  });

  test("a tool that logs and reports progress before its result: the client's onprogress sees the progress", async () => {
    const progress: number[] = [];
    logs.length = 0;
    const result = await client.callTool({ name: 'progress', arguments: { steps: 3 } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    expect(textOf(result)).toBe('done');
    // In JSON mode the server drops notifications: there is no stream to put them on.
    expect(progress).toEqual(json ? [] : [1, 2, 3]);
    expect(logs).toEqual(json ? [] : ['starting']);
  });

  test('a 5 MiB result', async () => {
    const result = await client.callTool({ name: 'big', arguments: { bytes: 5 * MiB } });
    expect(textOf(result)).toHaveLength(5 * MiB);
  });

  test('maxBytes 1 MiB: budget_exceeded, and the server sees the connection closed', async () => {
    const capped = await connect(server.url, { maxBytes: MiB });
    const before = server.requests.length;
    const error = await rejection(capped.client.callTool({ name: 'big', arguments: { bytes: 5 * MiB } }));
    expect(isAnswerError(error) && error.code).toBe('budget_exceeded');
    const request = server.requests.slice(before).find((r) => r.rpcMethod === 'tools/call')!;
    await eventually(() => request.socketClosed);
    await capped.client.close();
  });

  test('a tool that never answers: timeout within the deadline, and the connection is released', async () => {
    const quick = await connect(server.url, { timeoutMs: 300 });
    const before = server.requests.length;
    const started = Date.now();
    const error = await rejection(quick.client.callTool({ name: 'never', arguments: {} }));
    expect(isAnswerError(error) && error.code).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(5000);
    const request = server.requests.slice(before).find((r) => r.rpcMethod === 'tools/call')!;
    await eventually(() => request.socketClosed);
    expect(request.closedEarly).toBe(true);
    await quick.client.close();
  });

  test('a notification is accepted (202) and nothing comes back', async () => {
    const before = server.requests.length;
    await client.sendRootsListChanged();
    const sent = server.requests.slice(before);
    expect(sent.map((r) => [r.rpcMethod, r.status])).toEqual([['notifications/roots/list_changed', 202]]);
  });

  test("a wrong MCP-Protocol-Version: the server's JSON-RPC error with the 400 is the answer the client sees", async () => {
    const wrong = await connect(server.url);
    wrong.transport.setProtocolVersion('1999-01-01');
    const error = await rejection(wrong.client.listTools());
    expect(isAnswerError(error)).toBe(false);
    expect((error as Error).message).toContain('Unsupported protocol version: 1999-01-01');
    const seen = server.requests.at(-1)!;
    expect([seen.rpcMethod, seen.status]).toEqual(['tools/list', 400]);
    await wrong.client.close();
  });

  test('200 sequential calls reuse their connections: the server opens at most two sockets', async () => {
    const before = server.sockets();
    for (let i = 0; i < 200; i += 1) {
      expect(textOf(await client.callTool({ name: 'echo', arguments: { text: `n${i}` } }))).toBe(`n${i}`);
    }
    expect(server.sockets() - before).toBeLessThanOrEqual(2);
  }, 60_000);
});

describe('AnswerTransport and sessions (stateful, SSE)', () => {
  let server: RunningMcpServer;
  beforeAll(async () => {
    server = await startMcpServer({ stateful: true, json: false });
  });
  afterAll(() => server.stop());

  test('onmessage gets the passed-over messages in order, then the answer', async () => {
    const { client, transport } = await connect(server.url);
    const seen: TransportMessage[] = [];
    const sdkHandler = transport.onmessage;
    transport.onmessage = (message) => {
      seen.push(message);
      sdkHandler?.(message);
    };
    await client.callTool({ name: 'progress', arguments: { steps: 2 } }, undefined, { onprogress: () => undefined });
    expect(seen.map((m) => m.method ?? `answer ${String(m.id)}`)).toEqual([
      'notifications/message',
      'notifications/progress',
      'notifications/progress',
      expect.stringMatching(/^answer \d+$/),
    ]);
    await client.close();
  });

  test('a server request on the POST stream reaches the client, and its reply goes out as its own POST', async () => {
    const { client } = await connect(server.url);
    const before = server.requests.length;
    const result = await client.callTool({ name: 'ask', arguments: {} });
    expect(textOf(result)).toBe('file:///root');
    const posts = server.requests.slice(before);
    const call = posts.findIndex((r) => r.rpcMethod === 'tools/call');
    const reply = posts.findIndex((r) => r.rpcMethod === undefined && (r.body as { result?: { roots?: unknown } }).result?.roots !== undefined);
    expect(call).toBeGreaterThanOrEqual(0);
    expect(reply).toBeGreaterThan(call);
    expect(posts[reply]!.status).toBe(202);
    await client.close();
  });

  test('close(): the server sees DELETE with the session id, the session ends, onclose is called once', async () => {
    const { client, transport } = await connect(server.url);
    const sessionId = transport.sessionId!;
    let closes = 0;
    const sdkOnclose = transport.onclose;
    transport.onclose = () => {
      closes += 1;
      sdkOnclose?.();
    };
    await transport.close();
    await transport.close();
    expect(closes).toBe(1);
    const deletes = server.requests.filter((r) => r.method === 'DELETE');
    expect(deletes.at(-1)!.headers['mcp-session-id']).toBe(sessionId);
    expect(server.endedSessions).toContain(sessionId);
    expect(transport.sessionId).toBeUndefined();
    await expect(transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' })).rejects.toThrow(/closed/);
    void client;
  });

  test('close() aborts the sends in flight', async () => {
    const transport = new AnswerTransport(server.url);
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 't', version: '1' } } };
    await transport.send(init);
    transport.setProtocolVersion(VERSION);
    await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const before = server.requests.length;
    const pending = rejection(transport.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'never', arguments: {} } }));
    await eventually(() => server.requests.slice(before).some((r) => r.rpcMethod === 'tools/call'));
    await transport.close();
    const error = await pending;
    expect(isAnswerError(error) && error.code).toBe('aborted');
    const request = server.requests.slice(before).find((r) => r.rpcMethod === 'tools/call')!;
    // The DELETE may end the server's stream first; either way the client dropped the connection.
    await eventually(() => request.closed && request.socketClosed);
  });

  test('a 404 on a request that carried the session clears sessionId; a new client starts a new session', async () => {
    const { client, transport } = await connect(server.url);
    const old = transport.sessionId;
    expect(old).toBeDefined();
    server.forgetSessions();
    const error = await rejection(client.listTools());
    expect(isAnswerError(error) && [error.code, error.detail.status]).toEqual(['http_status', 404]);
    expect(transport.sessionId).toBeUndefined();
    await client.close();
    // Reconnecting, as the embedding guide shows: a new transport and a new initialize.
    const again = await connect(server.url);
    expect(again.transport.sessionId).toBeDefined();
    expect(again.transport.sessionId).not.toBe(old);
    expect((await again.client.listTools()).tools.length).toBeGreaterThan(0);
    await again.client.close();
  });
});

test('bad options fail at construction with TypeError or RangeError', () => {
  expect(() => new AnswerTransport(42 as never)).toThrow(TypeError);
  expect(() => new AnswerTransport('http://x.test/', { timeoutMs: -1 })).toThrow(RangeError);
  expect(() => new AnswerTransport('http://x.test/', { maxBytes: 0.5 })).toThrow(RangeError);
  expect(() => new AnswerTransport('http://x.test/', { resume: 1 as never })).toThrow(TypeError);
  expect(() => new AnswerTransport('http://x.test/', { fetch: 'no' as never })).toThrow(TypeError);
  expect(() => new AnswerTransport('http://x.test/', { headers: [['bad header', 'v']] })).toThrow(TypeError);
  expect(() => new AnswerTransport('http://x.test/', { timeoutMs: '5' as never })).toThrow(new TypeError('timeoutMs must be a number of milliseconds, got "5"'));
  expect(() => new AnswerTransport('http://x.test/', null as never)).toThrow(new TypeError('options must be an object, got null'));
});

describe('AnswerTransport and resumption (event store, retryInterval, closeSSEStream)', () => {
  let server: RunningMcpServer;
  beforeAll(async () => {
    server = await startMcpServer({ stateful: true, json: false, resumable: { retryInterval: 50 } });
  });
  afterAll(() => server.stop());

  test('a tool that closes its stream and answers later is answered through resumption', async () => {
    const { client, logs } = await connect(server.url);
    const before = server.requests.length;
    const result = await client.callTool({ name: 'poll', arguments: { delayMs: 100 } });
    expect(textOf(result)).toBe('polled');
    expect(logs).toEqual(['polling']);
    const get = server.requests.slice(before).find((r) => r.method === 'GET');
    expect(get?.headers['last-event-id']).toMatch(/.+/);
    await client.close();
  });

  test('with resume: false it is no_message', async () => {
    const { client } = await connect(server.url, { resume: false });
    const error = await rejection(client.callTool({ name: 'poll', arguments: { delayMs: 50 } }));
    expect(isAnswerError(error) && [error.code, error.reason]).toEqual(['malformed_answer', 'no_message']);
    await client.close();
  });
});
