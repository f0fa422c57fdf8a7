// postJsonRpc: one exchange under one deadline. First against the official MCP server (every
// mode the issue lists), then the exchange's own rules against scripted responses, where the
// exact requests, bodies and listeners can be counted.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AnswerError, isAnswerError, postJsonRpc, type FetchFunction, type JsonRpcMessage } from '../src/index.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { jsonResponse, NOTE, rejection, sseEvent, sseResponse, type SourceBody } from './helpers/bodies.js';
import { eventually, OrderedEventStore, SERVER_MODES, startMcpServer, type RunningMcpServer } from './helpers/mcp-server.js';

const VERSION = '2025-11-25';
const MiB = 1024 * 1024;

/** Initializes over postJsonRpc; the headers every later request carries. */
async function initialize(url: string): Promise<Record<string, string>> {
  const init = await postJsonRpc(url, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'test', version: '1' } },
  });
  const headers: Record<string, string> = { 'mcp-protocol-version': VERSION };
  const sessionId = init.headers.get('mcp-session-id');
  if (sessionId !== null) headers['mcp-session-id'] = sessionId;
  const initialized = await postJsonRpc(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, { headers });
  expect(initialized).toMatchObject({ answer: undefined, status: 202 });
  return headers;
}

function callTool(id: number, name: string, args: Record<string, unknown> = {}, progressToken?: string): object {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, ...(progressToken === undefined ? {} : { _meta: { progressToken } }) } };
}

function textOf(answer: unknown): string {
  return (answer as { result: { content: { text: string }[] } }).result.content[0]!.text;
}

describe.each(SERVER_MODES)('against the official MCP server (stateful: $stateful, json: $json)', ({ stateful, json }) => {
  let server: RunningMcpServer;
  let headers: Record<string, string>;
  beforeAll(async () => {
    server = await startMcpServer({ stateful, json });
    headers = await initialize(server.url);
  });
  afterAll(() => server.stop());

  test('initialize answers with the negotiated version, and a session id only when stateful', async () => {
    const init = await postJsonRpc(server.url, {
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'test', version: '1' } },
    });
    expect(init.status).toBe(200);
    expect(init.answer).toMatchObject({ jsonrpc: '2.0', id: 'init', result: { protocolVersion: VERSION } });
    expect(init.headers.get('mcp-session-id') !== null).toBe(stateful);
    expect(init.headers.get('content-type')).toContain(json ? 'application/json' : 'text/event-stream');
  });

  test('tools/list', async () => {
    const { answer } = await postJsonRpc(server.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { headers });
    const names = (answer as { result: { tools: { name: string }[] } }).result.tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'progress', 'big', 'never', 'poll', 'ask']));
  });

  test('a tool that logs and reports progress before its result: the messages are passed over in order', async () => {
    const seen: JsonRpcMessage[] = [];
    const { answer } = await postJsonRpc(server.url, callTool(2, 'progress', { steps: 3 }, 'p'), { headers, onMessage: (m) => seen.push(m) });
    expect(textOf(answer)).toBe('done');
    // In JSON mode the server has nowhere to put notifications: it drops them.
    const expected = json
      ? []
      : ['notifications/message', 'notifications/progress', 'notifications/progress', 'notifications/progress'];
    expect(seen.map((m) => m['method'])).toEqual(expected);
    if (!json) expect(seen.slice(1).map((m) => (m['params'] as { progress: number }).progress)).toEqual([1, 2, 3]);
  });

  test('a 5 MiB result', async () => {
    const { answer } = await postJsonRpc(server.url, callTool(3, 'big', { bytes: 5 * MiB }), { headers });
    expect(textOf(answer)).toHaveLength(5 * MiB);
  });

  test('a 5 MiB result with maxBytes 1 MiB is budget_exceeded, and the server sees the connection closed', async () => {
    const before = server.requests.length;
    const error = await rejection(postJsonRpc(server.url, callTool(4, 'big', { bytes: 5 * MiB }), { headers, maxBytes: MiB }));
    expect(error).toBeInstanceOf(AnswerError);
    expect((error as AnswerError).code).toBe('budget_exceeded');
    expect((error as AnswerError).detail.maxBytes).toBe(MiB);
    const request = server.requests.slice(before).find((r) => r.rpcMethod === 'tools/call')!;
    await eventually(() => request.socketClosed);
  });

  test('a tool that never answers: timeout within the deadline, and the connection is released', async () => {
    const before = server.requests.length;
    const started = Date.now();
    const error = await rejection(postJsonRpc(server.url, callTool(5, 'never'), { headers, timeoutMs: 300 }));
    const took = Date.now() - started;
    expect(isAnswerError(error) && error.code).toBe('timeout');
    expect(took).toBeGreaterThanOrEqual(290);
    expect(took).toBeLessThan(5000);
    const request = server.requests.slice(before).find((r) => r.rpcMethod === 'tools/call')!;
    await eventually(() => request.closed && request.socketClosed);
    expect(request.closedEarly).toBe(true);
  });

  test('a notification is accepted with 202 and no answer', async () => {
    const result = await postJsonRpc(server.url, { jsonrpc: '2.0', method: 'notifications/roots/list_changed' }, { headers });
    expect(result.status).toBe(202);
    expect(result.answer).toBeUndefined();
  });

  test("a wrong MCP-Protocol-Version is http_status 400 with the server's JSON-RPC error", async () => {
    const error = await rejection(postJsonRpc(server.url, { jsonrpc: '2.0', id: 6, method: 'tools/list' }, { headers: { ...headers, 'mcp-protocol-version': '1999-01-01' } }));
    expect(isAnswerError(error) && error.code).toBe('http_status');
    const { detail } = error as AnswerError;
    expect(detail.status).toBe(400);
    expect(detail.answer).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    expect(JSON.stringify(detail.answer)).toContain('Unsupported protocol version: 1999-01-01');
    expect(detail.bytesRead).toBeGreaterThan(0);
    expect((error as AnswerError).message).toContain('HTTP 400');
  });

  test('200 sequential calls reuse their connections: the server opens at most two sockets', async () => {
    const before = server.sockets();
    for (let i = 0; i < 200; i += 1) {
      const { answer } = await postJsonRpc(server.url, callTool(100 + i, 'echo', { text: `n${i}` }), { headers });
      expect(textOf(answer)).toBe(`n${i}`);
    }
    expect(server.sockets() - before).toBeLessThanOrEqual(2);
  }, 60_000);
});

describe('resumption against the official server (event store, retryInterval, closeSSEStream)', () => {
  let server: RunningMcpServer;
  let headers: Record<string, string>;
  beforeAll(async () => {
    server = await startMcpServer({ stateful: true, json: false, resumable: { retryInterval: 50 } });
    headers = await initialize(server.url);
  });
  afterAll(() => server.stop());

  test('a stream closed after its priming event is resumed with a GET carrying Last-Event-ID, and answers', async () => {
    const before = server.requests.length;
    const seen: JsonRpcMessage[] = [];
    const { answer, status } = await postJsonRpc(server.url, callTool(1, 'poll', { delayMs: 100 }), { headers, onMessage: (m) => seen.push(m) });
    expect(server.pollCouldClose()).toBe(true);
    expect(status).toBe(200);
    expect(textOf(answer)).toBe('polled');
    // The notification sent after the close came through the resumed stream.
    expect(seen.map((m) => m['method'])).toEqual(['notifications/message']);
    const gets = server.requests.slice(before).filter((r) => r.method === 'GET');
    expect(gets.length).toBeGreaterThanOrEqual(1);
    expect(gets[0]!.headers['last-event-id']).toMatch(/.+/);
    expect(gets[0]!.headers['accept']).toBe('text/event-stream');
    expect(gets[0]!.headers['mcp-session-id']).toBe(headers['mcp-session-id']);
    expect(gets[0]!.headers['mcp-protocol-version']).toBe(VERSION);
  });

  test("the server's event store replays every event stored after Last-Event-ID, in order, even within one millisecond", async () => {
    // `poll` stores its priming event and its log message in one millisecond: the notification
    // above comes through the resumed stream only if the store orders them as they were stored.
    const store = new OrderedEventStore();
    const stream = 'stream-1';
    const priming = await store.storeEvent(stream, {} as JSONRPCMessage);
    const messages = Array.from({ length: 50 }, (_, n): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/message', params: { n } }));
    for (const message of messages) await store.storeEvent(stream, message);
    await store.storeEvent('stream-2', messages[0]!);
    const replayed: JSONRPCMessage[] = [];
    const replayedStream = await store.replayEventsAfter(priming, { send: async (_id, message) => void replayed.push(message) });
    expect(replayedStream).toBe(stream);
    expect(replayed).toEqual(messages);
  });

  test('with resume: false the same tool is no_message, and no GET is sent', async () => {
    const before = server.requests.length;
    const error = await rejection(postJsonRpc(server.url, callTool(2, 'poll', { delayMs: 50 }), { headers, resume: false }));
    expect(isAnswerError(error) && [error.code, error.reason]).toEqual(['malformed_answer', 'no_message']);
    expect((error as AnswerError).detail.lastEventId).not.toBe('');
    expect((error as AnswerError).detail.retry).toBe(50);
    expect(server.requests.slice(before).filter((r) => r.method === 'GET')).toEqual([]);
  });

  test('the resumption is under the same deadline', async () => {
    const error = await rejection(postJsonRpc(server.url, callTool(3, 'poll', { delayMs: 2000 }), { headers, timeoutMs: 400 }));
    expect(isAnswerError(error) && error.code).toBe('timeout');
  });
});

// ---------------------------------------------------------------------------------------------
// The exchange's own rules, against scripted responses.

interface Sent {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly body: string | undefined;
  readonly signal: AbortSignal | undefined;
}

/** A fetch that answers from `script` in turn and records every request. */
function scripted(script: ((sent: Sent) => Response | Promise<Response>)[]): { fetch: FetchFunction; sent: Sent[] } {
  const sent: Sent[] = [];
  const fetch: FetchFunction = async (input, init) => {
    const request: Sent = {
      url: String(input),
      method: init.method ?? 'GET',
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? init.body : undefined,
      signal: init.signal ?? undefined,
    };
    sent.push(request);
    const next = script.shift();
    if (next === undefined) throw new Error('the script has no more responses');
    return next(request);
  };
  return { fetch, sent };
}

const REQUEST = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'x' } };
const ANSWER = { jsonrpc: '2.0', id: 7, result: { ok: true } };

describe('the exchange', () => {
  test('POSTs the message as JSON with both media types and the caller headers', async () => {
    const { fetch, sent } = scripted([() => jsonResponse([JSON.stringify(ANSWER)]).response]);
    const result = await postJsonRpc('http://example.test/mcp', REQUEST, { fetch, headers: { authorization: 'Bearer t', 'mcp-session-id': 's1' } });
    expect(result.answer).toEqual(ANSWER);
    expect(result.status).toBe(200);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.method).toBe('POST');
    expect(sent[0]!.headers.get('accept')).toBe('application/json, text/event-stream');
    expect(sent[0]!.headers.get('content-type')).toBe('application/json');
    expect(sent[0]!.headers.get('authorization')).toBe('Bearer t');
    expect(sent[0]!.headers.get('mcp-session-id')).toBe('s1');
    expect(JSON.parse(sent[0]!.body!)).toEqual(REQUEST);
  });

  test('a 2xx JSON-RPC error response resolves as the answer', async () => {
    const error = { jsonrpc: '2.0', id: 7, error: { code: -32602, message: 'bad params' } };
    const { fetch } = scripted([() => jsonResponse([JSON.stringify(error)]).response]);
    expect((await postJsonRpc('http://x.test/', REQUEST, { fetch })).answer).toEqual(error);
  });

  test('a non-2xx without a JSON-RPC body is http_status without an answer, and the body is released', async () => {
    let source: SourceBody | undefined;
    const { fetch } = scripted([
      () => {
        const made = sseResponse(['<html>gone</html>'], { contentType: 'text/html', status: 404 });
        source = made.source;
        return made.response;
      },
    ]);
    const error = await rejection(postJsonRpc('http://x.test/', REQUEST, { fetch }));
    expect(isAnswerError(error) && error.code).toBe('http_status');
    expect((error as AnswerError).detail).toMatchObject({ status: 404, contentType: 'text/html' });
    expect((error as AnswerError).detail.answer).toBeUndefined();
    expect(await source!.released).toBe('cancelled');
  });

  test('a request the server accepts with 202 has no answer: no_message', async () => {
    const { fetch } = scripted([() => new Response(null, { status: 202 })]);
    const error = await rejection(postJsonRpc('http://x.test/', REQUEST, { fetch }));
    expect(isAnswerError(error) && [error.code, error.reason]).toEqual(['malformed_answer', 'no_message']);
  });

  test("a notification's 2xx body is not read", async () => {
    let source: SourceBody | undefined;
    const { fetch } = scripted([
      () => {
        const made = sseResponse([sseEvent(ANSWER)], { endless: true });
        source = made.source;
        return made.response;
      },
    ]);
    const result = await postJsonRpc('http://x.test/', { jsonrpc: '2.0', method: 'notifications/x' }, { fetch });
    expect(result.answer).toBeUndefined();
    expect(await source!.released).toBe('cancelled');
    expect(source!.delivered).toBe(0);
  });

  test('a fetch that fails is stream_failed with its error as the cause', async () => {
    const cause = new TypeError('fetch failed');
    const fetch: FetchFunction = () => Promise.reject(cause);
    const error = await rejection(postJsonRpc('http://x.test/', REQUEST, { fetch }));
    expect(isAnswerError(error) && error.code).toBe('stream_failed');
    expect((error as AnswerError).cause).toBe(cause);
  });

  test('the deadline covers waiting for the headers; fetch is given the exchange signal', async () => {
    let given: AbortSignal | undefined;
    const fetch: FetchFunction = (_url, init) =>
      new Promise((_resolve, reject) => {
        given = init.signal ?? undefined;
        given?.addEventListener('abort', () => reject(given?.reason));
      });
    const error = await rejection(postJsonRpc('http://x.test/', REQUEST, { fetch, timeoutMs: 50 }));
    expect(isAnswerError(error) && error.code).toBe('timeout');
    expect(given?.aborted).toBe(true);
  });

  test("the caller's signal aborts the exchange: aborted, with its reason as the cause", async () => {
    const controller = new AbortController();
    const { fetch } = scripted([() => sseResponse([], { endless: true }).response]);
    const pending = rejection(postJsonRpc('http://x.test/', REQUEST, { fetch, signal: controller.signal }));
    setTimeout(() => controller.abort('stop'), 20);
    const error = await pending;
    expect(isAnswerError(error) && error.code).toBe('aborted');
    expect((error as AnswerError).cause).toBe('stop');
  });

  test('an already aborted signal sends nothing', async () => {
    const { fetch, sent } = scripted([]);
    const error = await rejection(postJsonRpc('http://x.test/', REQUEST, { fetch, signal: AbortSignal.abort() }));
    expect(isAnswerError(error) && error.code).toBe('aborted');
    expect(sent).toEqual([]);
  });

  test("nothing accumulates on a shared caller signal: every listener added is removed", async () => {
    const controller = new AbortController();
    let live = 0;
    const add = controller.signal.addEventListener.bind(controller.signal);
    const remove = controller.signal.removeEventListener.bind(controller.signal);
    controller.signal.addEventListener = ((...args: Parameters<typeof add>) => {
      live += 1;
      add(...args);
    }) as typeof add;
    controller.signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
      live -= 1;
      remove(...args);
    }) as typeof remove;
    for (let i = 0; i < 20; i += 1) {
      const { fetch } = scripted([() => jsonResponse([JSON.stringify(ANSWER)]).response]);
      await postJsonRpc('http://x.test/', REQUEST, { fetch, signal: controller.signal });
      const failing = scripted([() => jsonResponse(['{'], { status: 500 }).response]);
      await rejection(postJsonRpc('http://x.test/', REQUEST, { fetch: failing.fetch, signal: controller.signal }));
    }
    expect(live).toBe(0);
  });

  test('timeoutMs Infinity sets no deadline; bad options are TypeError or RangeError before any request', async () => {
    const { fetch } = scripted([() => jsonResponse([JSON.stringify(ANSWER)]).response]);
    expect((await postJsonRpc('http://x.test/', REQUEST, { fetch, timeoutMs: Infinity })).answer).toEqual(ANSWER);
    const none = scripted([]);
    await expect(postJsonRpc('http://x.test/', REQUEST, { fetch: none.fetch, timeoutMs: -1 })).rejects.toThrow(RangeError);
    await expect(postJsonRpc('http://x.test/', REQUEST, { fetch: none.fetch, timeoutMs: Number.NaN })).rejects.toThrow(RangeError);
    await expect(postJsonRpc('http://x.test/', REQUEST, { fetch: none.fetch, maxBytes: 1.5 })).rejects.toThrow(RangeError);
    await expect(postJsonRpc('http://x.test/', REQUEST, { fetch: none.fetch, resume: 'yes' as never })).rejects.toThrow(TypeError);
    await expect(postJsonRpc('http://x.test/', null as never, { fetch: none.fetch })).rejects.toThrow(TypeError);
    await expect(postJsonRpc(42 as never, REQUEST, { fetch: none.fetch })).rejects.toThrow(TypeError);
    await expect(postJsonRpc('http://x.test/', { ...REQUEST, id: Number.NaN }, { fetch: none.fetch })).rejects.toThrow(RangeError);
    await expect(postJsonRpc('http://x.test/', { ...REQUEST, id: { nested: 1 } }, { fetch: none.fetch })).rejects.toThrow(TypeError);
    expect(none.sent).toEqual([]);
  });

  test('option errors name the option and the value, in the package\'s one wording; a signal must be a real AbortSignal', async () => {
    const none = scripted([]);
    const fakeSignal = { aborted: false, addEventListener() {}, removeEventListener() {} };
    await expect(postJsonRpc('http://x.test/', REQUEST, { fetch: none.fetch, signal: fakeSignal as never })).rejects.toThrow(
      new TypeError('signal must be an AbortSignal, got [object Object]'),
    );
    await expect(postJsonRpc('http://x.test/', REQUEST, { fetch: none.fetch, timeoutMs: '100' as never })).rejects.toThrow(
      new TypeError('timeoutMs must be a number of milliseconds, got "100"'),
    );
    await expect(postJsonRpc('http://x.test/', REQUEST, { fetch: none.fetch, timeoutMs: -1 })).rejects.toThrow(
      new RangeError('timeoutMs must be a number of milliseconds (0 or more) or Infinity, got -1'),
    );
    await expect(postJsonRpc(42 as never, REQUEST, { fetch: none.fetch })).rejects.toThrow(new TypeError('url must be a URL, got 42'));
    expect(none.sent).toEqual([]);
  });
});

describe('resumption rules', () => {
  const NOTE_MESSAGE = { jsonrpc: '2.0', method: 'notifications/message', params: {} };
  const priming = (id: string, retry?: number) => `id: ${id}\n${retry === undefined ? '' : `retry: ${retry}\n`}data:\n\n`;

  test('reads on with the same request id, the budget that is left, and Last-Event-ID', async () => {
    const notification = { jsonrpc: '2.0', method: 'notifications/message', params: {} };
    const other = { jsonrpc: '2.0', id: 99, result: {} };
    const { fetch, sent } = scripted([
      () => sseResponse([priming('a', 5), sseEvent(notification, ['id: b'])]).response,
      () => sseResponse([sseEvent(other, ['id: c']), sseEvent(ANSWER, ['id: d'])]).response,
    ]);
    const seen: JsonRpcMessage[] = [];
    const result = await postJsonRpc('http://x.test/mcp', REQUEST, { fetch, headers: { 'mcp-session-id': 's' }, onMessage: (m) => seen.push(m) });
    expect(result.answer).toEqual(ANSWER);
    expect(seen).toEqual([notification, other]);
    expect(sent.map((s) => s.method)).toEqual(['POST', 'GET']);
    expect(sent[1]!.headers.get('last-event-id')).toBe('b');
    expect(sent[1]!.headers.get('accept')).toBe('text/event-stream');
    expect(sent[1]!.headers.get('mcp-session-id')).toBe('s');
  });

  test('a stream that breaks after an event id is resumed as a closed one is (2025 era)', async () => {
    const { fetch, sent } = scripted([
      () => sseResponse([priming('a', 1), sseEvent(NOTE_MESSAGE, ['id: b'])], { errorAfter: 2, error: new TypeError('terminated') }).response,
      () => sseResponse([sseEvent(ANSWER, ['id: c'])]).response,
    ]);
    const result = await postJsonRpc('http://x.test/mcp', REQUEST, { fetch });
    expect(result.answer).toEqual(ANSWER);
    expect(sent.map((s) => [s.method, s.headers.get('last-event-id')])).toEqual([['POST', null], ['GET', 'b']]);
  });

  test('a stream that breaks before any event id is stream_failed, not resumed', async () => {
    const broken = new TypeError('terminated');
    const { fetch, sent } = scripted([() => sseResponse([sseEvent(NOTE_MESSAGE)], { errorAfter: 1, error: broken }).response]);
    const error = await rejection(postJsonRpc('http://x.test/mcp', REQUEST, { fetch }));
    expect(isAnswerError(error) && error.code).toBe('stream_failed');
    expect((error as AnswerError).cause).toBe(broken);
    expect(sent).toHaveLength(1);
  });

  test.each(['\u00e9t\u00e9-1', '\u0100\u{1f680}', 'plain'])('an event id goes back in Last-Event-ID as the bytes the server sent (UTF-8): %s', async (id) => {
    const { fetch, sent } = scripted([() => sseResponse([priming(id, 1)]).response, () => sseResponse([sseEvent(ANSWER)]).response]);
    expect((await postJsonRpc('http://x.test/mcp', REQUEST, { fetch })).answer).toEqual(ANSWER);
    const header = sent[1]!.headers.get('last-event-id')!;
    expect(Uint8Array.from(header, (char) => char.charCodeAt(0))).toEqual(new TextEncoder().encode(id));
  });

  test('an event id no header can carry unchanged ends the exchange with the reason, not a raw TypeError', async () => {
    const { fetch, sent } = scripted([() => sseResponse(['id:  padded \nretry: 1\ndata:\n\n']).response]);
    const error = await rejection(postJsonRpc('http://x.test/mcp', REQUEST, { fetch }));
    expect(isAnswerError(error) && [error.code, error.reason]).toEqual(['malformed_answer', 'no_message']);
    expect((error as AnswerError).message).toMatch(/leading or trailing whitespace, which Last-Event-ID cannot carry/);
    expect(sent).toHaveLength(1);
  });

  test('the cap counts every body', async () => {
    const first = priming('a', 1);
    const { fetch } = scripted([
      () => sseResponse([first]).response,
      () => sseResponse([`: ${'x'.repeat(100)}\n\n`, sseEvent(ANSWER, ['id: b'])]).response,
    ]);
    const error = await rejection(postJsonRpc('http://x.test/', REQUEST, { fetch, maxBytes: first.length + 50 }));
    expect(isAnswerError(error) && error.code).toBe('budget_exceeded');
    expect((error as AnswerError).detail.maxBytes).toBe(first.length + 50);
    expect((error as AnswerError).detail.bytesRead).toBeGreaterThan(first.length + 50);
  });

  test('stops after a bounded number of resumptions that bring no new event id', async () => {
    const { fetch, sent } = scripted([
      () => sseResponse([priming('a', 1)]).response,
      ...Array.from({ length: 10 }, () => () => sseResponse([': nothing new\n\n']).response),
    ]);
    const error = await rejection(postJsonRpc('http://x.test/', REQUEST, { fetch }));
    expect(isAnswerError(error) && [error.code, error.reason]).toEqual(['malformed_answer', 'no_message']);
    expect(sent.filter((s) => s.method === 'GET')).toHaveLength(3);
    expect(sent.every((s, i) => i === 0 || s.headers.get('last-event-id') === 'a')).toBe(true);
  });

  test('keeps going while each resumption brings a new event id', async () => {
    const { fetch, sent } = scripted([
      () => sseResponse([priming('1', 1)]).response,
      ...['2', '3', '4', '5', '6'].map((id) => () => sseResponse([priming(id)]).response),
      () => sseResponse([sseEvent(ANSWER)]).response,
    ]);
    expect((await postJsonRpc('http://x.test/', REQUEST, { fetch })).answer).toEqual(ANSWER);
    expect(sent.slice(1).map((s) => s.headers.get('last-event-id'))).toEqual(['1', '2', '3', '4', '5', '6']);
  });

  test('a 405 to the GET ends it with the original error; a body without an event id is not resumed', async () => {
    const refused = scripted([() => sseResponse([priming('a', 1)]).response, () => new Response(null, { status: 405 })]);
    const error = await rejection(postJsonRpc('http://x.test/', REQUEST, { fetch: refused.fetch }));
    expect(isAnswerError(error) && [error.code, error.reason, error.detail.lastEventId]).toEqual(['malformed_answer', 'no_message', 'a']);

    const notJson = scripted([() => sseResponse([priming('a', 1)]).response, () => jsonResponse([JSON.stringify(ANSWER)]).response]);
    const second = await rejection(postJsonRpc('http://x.test/', REQUEST, { fetch: notJson.fetch }));
    expect(isAnswerError(second) && second.reason).toBe('no_message');

    const noId = scripted([() => sseResponse([sseEvent({ jsonrpc: '2.0', method: 'n' })]).response]);
    const third = await rejection(postJsonRpc('http://x.test/', REQUEST, { fetch: noId.fetch }));
    expect(isAnswerError(third) && third.reason).toBe('no_response');
    expect(noId.sent).toHaveLength(1);
  });

  test('waits the retry the stream set', async () => {
    const { fetch } = scripted([() => sseResponse([priming('a', 200)]).response, () => sseResponse([sseEvent(ANSWER)]).response]);
    const started = Date.now();
    await postJsonRpc('http://x.test/', REQUEST, { fetch });
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });
});

describe('the era follows the protocol version the exchange carries', () => {
  const MODERN = '2026-07-28';
  const modernCall = (id: number, name: string, args: Record<string, unknown> = {}): object => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: args, _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN } },
  });

  test('2026-07-28: the standard headers from the body, over whatever the caller set; no session id; its Mcp-Param-* kept', async () => {
    const { fetch, sent } = scripted([() => jsonResponse([JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} })]).response]);
    await postJsonRpc('http://x.test/mcp', modernCall(1, 'execute_sql', { region: 'us-west1' }), {
      fetch,
      headers: { 'mcp-session-id': 's1', 'mcp-method': 'tools/list', 'mcp-param-region': 'us-west1', authorization: 'Bearer t' },
    });
    const headers = sent[0]!.headers;
    expect(headers.get('mcp-protocol-version')).toBe(MODERN);
    expect(headers.get('mcp-method')).toBe('tools/call');
    expect(headers.get('mcp-name')).toBe('execute_sql');
    expect(headers.get('mcp-param-region')).toBe('us-west1');
    expect(headers.get('authorization')).toBe('Bearer t');
    expect(headers.has('mcp-session-id')).toBe(false);
  });

  test("2026-07-28 from the caller's MCP-Protocol-Version when the message declares none", async () => {
    const { fetch, sent } = scripted([() => jsonResponse([JSON.stringify(ANSWER)]).response]);
    await postJsonRpc('http://x.test/mcp', REQUEST, { fetch, headers: { 'mcp-protocol-version': MODERN, 'mcp-session-id': 's1' } });
    expect(sent[0]!.headers.get('mcp-method')).toBe('tools/call');
    expect(sent[0]!.headers.get('mcp-name')).toBe('x');
    expect(sent[0]!.headers.has('mcp-session-id')).toBe(false);
  });

  test('2025-11-25: the caller headers as they are, nothing derived', async () => {
    const { fetch, sent } = scripted([() => jsonResponse([JSON.stringify(ANSWER)]).response]);
    await postJsonRpc('http://x.test/mcp', REQUEST, { fetch, headers: { 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': 's1' } });
    expect(sent[0]!.headers.has('mcp-method')).toBe(false);
    expect(sent[0]!.headers.has('mcp-name')).toBe(false);
    expect(sent[0]!.headers.get('mcp-session-id')).toBe('s1');
  });

  test('2026-07-28: an event stream that ends without the answer after an event id is not resumed: stream_failed, reissue', async () => {
    const { fetch, sent } = scripted([() => sseResponse(['id: e1\nretry: 1\ndata:\n\n', sseEvent({ jsonrpc: '2.0', method: 'notifications/progress', params: {} })]).response]);
    const error = await rejection(postJsonRpc('http://x.test/mcp', modernCall(7, 'x'), { fetch }));
    expect(isAnswerError(error) && [error.code, error.detail.reissue]).toEqual(['stream_failed', true]);
    expect((error as AnswerError).message).toMatch(/re-issue it with a new id/);
    expect(isAnswerError((error as AnswerError).cause) && ((error as AnswerError).cause as AnswerError).reason).toBe('no_response');
    expect(sent.map((request) => request.method)).toEqual(['POST']);
  });

  test('2026-07-28: a stream that breaks mid-answer is stream_failed, reissue, with the stream error as the cause', async () => {
    const broken = new TypeError('terminated');
    const { fetch, sent } = scripted([() => sseResponse([NOTE, 'data: {"jsonrpc":"2.0","id":7,'], { errorAfter: 2, error: broken }).response]);
    const error = await rejection(postJsonRpc('http://x.test/mcp', modernCall(7, 'x'), { fetch }));
    expect(isAnswerError(error) && [error.code, error.detail.reissue]).toEqual(['stream_failed', true]);
    expect((error as AnswerError).cause).toBe(broken);
    expect(sent).toHaveLength(1);
  });

  test('2026-07-28: a POST that gets no response is stream_failed, reissue', async () => {
    const cause = new TypeError('fetch failed');
    const fetch: FetchFunction = () => Promise.reject(cause);
    const error = await rejection(postJsonRpc('http://x.test/mcp', modernCall(7, 'x'), { fetch }));
    expect(isAnswerError(error) && [error.code, error.detail.reissue]).toEqual(['stream_failed', true]);
    expect((error as AnswerError).cause).toBe(cause);
  });

  test('2025-11-25: the same broken stream is stream_failed without reissue (the 2025 rules, unchanged)', async () => {
    const { fetch } = scripted([() => sseResponse([NOTE], { errorAfter: 1 }).response]);
    const error = await rejection(postJsonRpc('http://x.test/mcp', REQUEST, { fetch }));
    expect(isAnswerError(error) && [error.code, error.detail.reissue]).toEqual(['stream_failed', undefined]);
  });

  test('2026-07-28: an abort closes the response stream (the cancellation of the request)', async () => {
    const controller = new AbortController();
    let source: SourceBody | undefined;
    const { fetch } = scripted([
      () => {
        const made = sseResponse([NOTE], { endless: true });
        source = made.source;
        return made.response;
      },
    ]);
    const pending = rejection(postJsonRpc('http://x.test/mcp', modernCall(7, 'x'), { fetch, signal: controller.signal, onMessage: () => controller.abort(new Error('user')) }));
    const error = await pending;
    expect(isAnswerError(error) && [error.code, error.detail.reissue]).toEqual(['aborted', undefined]);
    expect(await source!.released).toBe('cancelled');
  });
});
