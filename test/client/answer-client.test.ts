/**
 * answer-client.ts: `AnswerClient`, an MCP client in both eras with no SDK, against a scripted
 * fake `fetch`: connect's option checks and negotiation (what the client then says of the
 * server), request ids (0 for the handshake, then 1, 2, …), each era's requests on the wire, the
 * 404 session rule, `close()` (the DELETE's status, or its error; closed either way), MRTR rounds
 * bounded by `maxInputRounds`, 2025 server requests answered by POST, `notifications/cancelled`
 * for a 2025 request stopped by its signal or its deadline (none for one stopped before it
 * began), and a 2026 `tools/call`'s `Mcp-Param-*` from `tools/list`. The client against real
 * servers is answer-client-servers.test.ts, through the CLI cli-eras.test.ts; negotiation's every
 * rule is negotiate.test.ts and discover-outcome.test.ts.
 */

import { describe, expect, test, vi } from 'vitest';
import { AnswerClient, type AnswerClientOptions } from '../../src/client/answer-client.js';
import type { InputRequest, InputRequestContext } from '../../src/client/input-required.js';
import { AnswerError } from '../../src/vocabulary/errors.js';
import type { JsonRpcMessage } from '../../src/vocabulary/json-rpc.js';
import { answerError, rejection, sseEvent } from '../helpers/bodies.js';
import { empty, json, never, resultFor, scriptedFetch, sse, trail, type SentRequest } from '../helpers/client-fetch.js';

const URL_ = 'https://mcp.example/mcp';
const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const SESSION = 'sess-7';

type Handle = (sent: SentRequest) => Response | Promise<Response>;

/**
 * A scripted server of `era`: it answers the handshake (server/discover, or initialize with a
 * session, notifications/initialized, the DELETE with 204) and hands every other request to
 * `handle`.
 */
function server(era: 'modern' | 'legacy', handle: Handle = (sent) => json(resultFor(sent, { ok: true }))) {
  return scriptedFetch((sent) => {
    if (sent.method === 'DELETE') return empty(204);
    if (sent.rpc === 'server/discover') {
      if (era === 'legacy') return empty(404);
      return json(resultFor(sent, { supportedVersions: [MODERN], capabilities: { tools: {} }, _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'srv', version: '1' } } }));
    }
    if (sent.rpc === 'initialize') return json(resultFor(sent, { protocolVersion: LEGACY, capabilities: { tools: {} }, serverInfo: { name: 'old', version: '1' } }), { headers: { 'mcp-session-id': SESSION } });
    if (sent.rpc === 'notifications/initialized') return empty(202);
    return handle(sent);
  });
}

async function connected(era: 'modern' | 'legacy', handle?: Handle, options: AnswerClientOptions = {}) {
  const { fetch, sent } = server(era, handle);
  const client = await AnswerClient.connect(URL_, { ...options, fetch });
  return { client, sent, handshakes: sent.length };
}

/** The requests sent after the handshake. */
const after = (sent: SentRequest[], from: number): SentRequest[] => sent.slice(from);

describe('connect', () => {
  test('a 2026 server: modern, and what it said of itself', async () => {
    const { client, sent } = await connected('modern');
    expect([client.era, client.protocolVersion, client.sessionId, client.supportedVersions]).toEqual(['modern', MODERN, undefined, [MODERN]]);
    expect([client.serverInfo, client.capabilities, client.instructions]).toEqual([{ name: 'srv', version: '1' }, { tools: {} }, undefined]);
    expect(client.negotiatedBy).toEqual({ by: 'discover' });
    expect(client.handshake?.status).toBe(200);
    expect(trail(sent)).toEqual(['POST server/discover']);
  });

  test('a 2025 server: the initialize fallback, the session held', async () => {
    const { client, sent } = await connected('legacy');
    expect([client.era, client.protocolVersion, client.sessionId]).toEqual(['legacy', LEGACY, SESSION]);
    expect(client.negotiatedBy).toEqual({ by: 'initialize', refusal: 'HTTP 404' });
    expect(client.serverInfo).toEqual({ name: 'old', version: '1' });
    expect(trail(sent)).toEqual(['POST server/discover', 'POST initialize', 'POST notifications/initialized']);
  });

  test('clientInfo and capabilities are what the client declares', async () => {
    const { sent } = await connected('legacy', undefined, { clientInfo: { name: 'me', version: '2', title: 'Me' }, capabilities: { elicitation: {} } });
    expect(sent[0]!.body?.['params']).toMatchObject({
      _meta: { 'io.modelcontextprotocol/clientInfo': { name: 'me', version: '2', title: 'Me' }, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } },
    });
    expect(sent[1]!.body?.['params']).toEqual({ protocolVersion: LEGACY, capabilities: { elicitation: {} }, clientInfo: { name: 'me', version: '2', title: 'Me' } });
  });

  test('the default client info is the package', async () => {
    const { sent } = await connected('modern');
    expect((sent[0]!.body?.['params'] as { _meta: Record<string, unknown> })._meta['io.modelcontextprotocol/clientInfo']).toEqual({ name: 'sse-answer', version: '0.1.0' });
  });

  test.each([
    ['url', 5, {}, TypeError],
    ['versionNegotiation', URL_, { versionNegotiation: 'modern' }, TypeError],
    ['versionNegotiation', URL_, { versionNegotiation: { pin: '2026' } }, TypeError],
    ['versionNegotiation', URL_, { versionNegotiation: null }, TypeError],
    ['handshake', URL_, { handshake: 'no' }, TypeError],
    ['clientInfo', URL_, { clientInfo: { name: 'x' } }, TypeError],
    ['clientInfo', URL_, { clientInfo: null }, TypeError],
    ['capabilities', URL_, { capabilities: [] }, TypeError],
    ['onInputRequired', URL_, { onInputRequired: 'answer' }, TypeError],
    ['maxInputRounds', URL_, { maxInputRounds: -1 }, RangeError],
    ['maxInputRounds', URL_, { maxInputRounds: 1.5 }, RangeError],
    ['timeoutMs', URL_, { timeoutMs: -1 }, RangeError],
  ])('a bad %s is refused before anything is sent', async (name, url, options, kind) => {
    const { fetch, sent } = server('modern');
    const error = await rejection(AnswerClient.connect(url as string, { ...(options as AnswerClientOptions), fetch }));
    expect(error).toBeInstanceOf(kind);
    expect((error as Error).message).toMatch(new RegExp(`^${name} must be `));
    expect(sent).toEqual([]);
  });

  test('a failed negotiation is an AnswerError, with no secret the exchange sent', async () => {
    const { fetch } = scriptedFetch((sent) =>
      json({ jsonrpc: '2.0', id: sent.body?.['id'], error: { code: -32020, message: `header authorization "Bearer s3cret-token-value" does not match` } }),
    );
    const error = await answerError(AnswerClient.connect(URL_, { fetch, headers: { authorization: 'Bearer s3cret-token-value' } }));
    expect(error.code).toBe('negotiation_failed');
    expect(error.message).not.toContain('s3cret-token-value');
    expect(error.message).toContain('[redacted]');
  });

  test('handshake false: nothing sent; the era of the MCP-Protocol-Version given', async () => {
    const { fetch, sent } = server('modern');
    const client = await AnswerClient.connect(new URL(URL_), { fetch, handshake: false, headers: { 'mcp-protocol-version': MODERN } });
    expect([client.era, client.protocolVersion, client.negotiatedBy]).toEqual(['modern', MODERN, { by: 'none' }]);
    expect(sent).toEqual([]);
    await client.request('tools/list');
    expect(sent[0]!.headers.get('mcp-method')).toBe('tools/list');
  });
});

describe('requests', () => {
  test('2026-07-28: ids from 1, the per-request _meta and headers, no session', async () => {
    const { client, sent, handshakes } = await connected('modern');
    expect(await client.request('tools/list')).toEqual({ jsonrpc: '2.0', id: 1, result: { ok: true } });
    await client.request('prompts/list', { cursor: 'c' });
    const [first, second] = after(sent, handshakes);
    expect([first!.body?.['id'], second!.body?.['id']]).toEqual([1, 2]);
    expect(second!.body?.['params']).toMatchObject({ cursor: 'c', _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN } });
    expect([second!.headers.get('mcp-method'), second!.headers.get('mcp-protocol-version'), second!.headers.has('mcp-session-id')]).toEqual(['prompts/list', MODERN, false]);
  });

  test('2025: the params as given, the session and the version on every request', async () => {
    const { client, sent, handshakes } = await connected('legacy');
    await client.request('tools/call', { name: 'echo', arguments: { text: 'hi' } });
    const [call] = after(sent, handshakes);
    expect(call!.body).toEqual({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } });
    expect([call!.headers.get('mcp-session-id'), call!.headers.get('mcp-protocol-version')]).toEqual([SESSION, LEGACY]);
  });

  test("2025: the client's era and version, whatever the caller's _meta declares (the message is not read for them again)", async () => {
    const { client, sent, handshakes } = await connected('legacy');
    for (const declared of [MODERN, 'garbage']) await client.request('tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': declared } });
    for (const call of after(sent, handshakes)) {
      expect([call.headers.get('mcp-session-id'), call.headers.get('mcp-protocol-version'), call.headers.has('mcp-method')]).toEqual([SESSION, LEGACY, false]);
    }
  });

  test('a JSON-RPC error response is the answer, as it came', async () => {
    const error = { code: -32602, message: 'Unknown tool' };
    const { client } = await connected('modern', (sent) => json({ jsonrpc: '2.0', id: sent.body?.['id'], error }));
    expect(await client.request('prompts/get', { name: 'nope' })).toEqual({ jsonrpc: '2.0', id: 1, error });
  });

  test('a status outside 2xx is http_status, the JSON-RPC error in detail.answer', async () => {
    const answer = { jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'bad' } };
    const { client } = await connected('modern', () => json(answer, { status: 400 }));
    const error = await answerError(client.request('tools/list'));
    expect([error.code, error.detail.status, error.detail.answer]).toEqual(['http_status', 400, answer]);
  });

  test('a request the server accepts with no answer: malformed_answer, no_message', async () => {
    const { client } = await connected('modern', () => empty(202));
    const error = await answerError(client.request('tools/list'));
    expect([error.code, error.reason, error.message]).toEqual(['malformed_answer', 'no_message', 'the server accepted the request with HTTP 202 and sent no answer']);
  });

  test('messages passed over go to onMessage, in order, before the answer', async () => {
    const notes = [1, 2].map((progress) => ({ jsonrpc: '2.0', method: 'notifications/progress', params: { progress } }));
    const { client } = await connected('modern', (sent) => sse([...notes.map((n) => sseEvent(n)), sseEvent(resultFor(sent, { done: true }))]));
    const seen: JsonRpcMessage[] = [];
    expect(await client.request('tools/list', undefined, { onMessage: (m) => seen.push(m) })).toMatchObject({ result: { done: true } });
    expect(seen).toEqual(notes);
  });

  test('bad arguments are TypeErrors; array params in 2026-07-28 too', async () => {
    const { client, sent, handshakes } = await connected('modern');
    await expect(client.request(5 as never)).rejects.toThrow(new TypeError('method must be a string, got 5'));
    await expect(client.request('m', {}, { onMessage: 'x' as never })).rejects.toThrow(new TypeError('onMessage must be a function, got "x"'));
    await expect(client.request('m', {}, { signal: {} as never })).rejects.toThrow(new TypeError('signal must be an AbortSignal, got [object Object]'));
    await expect(client.request('m', [1])).rejects.toThrow(/^params must be an object in the 2026-07-28 era/);
    await expect(client.request('m', {}, null as never)).rejects.toThrow(new TypeError('options must be an object, got null'));
    await expect(client.notify('m', {}, 5 as never)).rejects.toThrow(new TypeError('options must be an object, got 5'));
    await expect(client.close(null as never)).rejects.toThrow(new TypeError('options must be an object, got null'));
    expect(sent).toHaveLength(handshakes);
  });

  test('2025: array params, as JSON-RPC allows, are sent as given, in a request and in a notification', async () => {
    const { client, sent, handshakes } = await connected('legacy', (request) => (request.body?.['id'] === undefined ? empty(202) : json(resultFor(request, {}))));
    const params = [1, 'two', { three: 3 }];
    await client.request('m', params);
    await client.notify('n', params);
    expect(after(sent, handshakes).map((request) => request.body?.['params'])).toEqual([params, params]);
  });

  test('notify: a notification, resolved once accepted; a refusal is http_status', async () => {
    let status = 202;
    const { client, sent, handshakes } = await connected('modern', () => empty(status));
    expect(await client.notify('notifications/roots/list_changed')).toBeUndefined();
    const [note] = after(sent, handshakes);
    expect(note!.body).toMatchObject({ jsonrpc: '2.0', method: 'notifications/roots/list_changed', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN } } });
    expect('id' in note!.body!).toBe(false);
    status = 400;
    expect((await answerError(client.notify('notifications/x'))).code).toBe('http_status');
  });
});

describe('the 2025 session', () => {
  test('renewSession: false, a 404 to a request that carried the session: http_status, the session forgotten, nothing more sent with it', async () => {
    let status = 404;
    const { client, sent, handshakes } = await connected('legacy', (request) => (status === 404 ? empty(404) : json(resultFor(request, {}))), { renewSession: false });
    const error = await answerError(client.request('tools/list'));
    expect([error.code, error.detail.status]).toEqual(['http_status', 404]);
    expect(client.sessionId).toBeUndefined();
    status = 200;
    await client.request('tools/list');
    expect(after(sent, handshakes).map((s) => s.headers.get('mcp-session-id'))).toEqual([SESSION, null]);
    expect(await client.close()).toBeUndefined();
    expect(trail(sent).includes('DELETE')).toBe(false);
  });

  test('an initialize the caller sends itself, with no handshake: the session it issued is held, sent, and ended by close()', async () => {
    const { fetch, sent } = server('legacy');
    const client = await AnswerClient.connect(URL_, { fetch, handshake: false });
    await client.request('initialize', { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'c', version: '1' } });
    expect(client.sessionId).toBe(SESSION);
    await client.request('tools/list');
    expect(await client.close()).toBe(204);
    expect(trail(sent)).toEqual(['POST initialize', 'POST tools/list', 'DELETE']);
    expect([sent[1]!.headers.get('mcp-session-id'), sent[2]!.headers.get('mcp-session-id')]).toEqual([SESSION, SESSION]);
  });

  /** A 2025 server with no handshake, whose `initialize` issues the session `reply` says, and whose other answers carry `other`. */
  function initializing(reply: (sent: SentRequest) => Response, other?: string) {
    return scriptedFetch((sent) => {
      if (sent.method === 'DELETE') return empty(204);
      if (sent.rpc === 'initialize') return reply(sent);
      return json(resultFor(sent, {}), other === undefined ? {} : { headers: { 'mcp-session-id': other } });
    });
  }
  const INITIALIZE = { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'c', version: '1' } };

  test('a second initialize whose session replaces the held one: the new one held, the old one ended', async () => {
    let next = 1;
    const { fetch, sent } = initializing((request) => json(resultFor(request, { protocolVersion: LEGACY }), { headers: { 'mcp-session-id': `s-${next++}` } }));
    const client = await AnswerClient.connect(URL_, { fetch, handshake: false });
    await client.request('initialize', INITIALIZE);
    await client.request('initialize', INITIALIZE);
    expect(client.sessionId).toBe('s-2');
    await vi.waitFor(() => expect(trail(sent)).toEqual(['POST initialize', 'POST initialize', 'DELETE']));
    expect(sent[2]!.headers.get('mcp-session-id')).toBe('s-1');
  });

  test('an initialize that failed with a session: it is ended at once, and none is held', async () => {
    const { fetch, sent } = initializing(() => empty(500, { 'mcp-session-id': 'sess-9' }));
    const client = await AnswerClient.connect(URL_, { fetch, handshake: false });
    expect((await answerError(client.request('initialize', INITIALIZE))).code).toBe('http_status');
    expect(client.sessionId).toBeUndefined();
    await vi.waitFor(() => expect(trail(sent)).toEqual(['POST initialize', 'DELETE']));
    expect(sent[1]!.headers.get('mcp-session-id')).toBe('sess-9');
  });

  test('a session id on an answer to anything but initialize is not taken: nothing held, nothing ended', async () => {
    const { fetch, sent } = initializing(() => empty(500), 'unasked');
    const client = await AnswerClient.connect(URL_, { fetch, handshake: false });
    await client.request('tools/list');
    expect(client.sessionId).toBeUndefined();
    expect(await client.close()).toBeUndefined();
    expect(trail(sent)).toEqual(['POST tools/list']);
  });

  test("what the caller's onMessage throws during its own initialize: rethrown, and the session that came is ended", async () => {
    const note = { jsonrpc: '2.0', method: 'notifications/message', params: {} };
    const { fetch, sent } = initializing((request) => sse([sseEvent(note), sseEvent(resultFor(request, { protocolVersion: LEGACY }))], { headers: { 'mcp-session-id': 'sess-x' } }));
    const client = await AnswerClient.connect(URL_, { fetch, handshake: false });
    const thrown = new Error('the caller gave up');
    const onMessage = (): void => {
      throw thrown;
    };
    expect(await rejection(client.request('initialize', INITIALIZE, { onMessage }))).toBe(thrown);
    expect(client.sessionId).toBeUndefined();
    await vi.waitFor(() => expect(trail(sent)).toEqual(['POST initialize', 'DELETE']));
    expect(sent[1]!.headers.get('mcp-session-id')).toBe('sess-x');
  });

  test('a 404 to a request that carried a session the client no longer holds leaves the one it holds', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let next = 1;
    const { fetch, sent } = initializing(
      (request) => json(resultFor(request, { protocolVersion: LEGACY }), { headers: { 'mcp-session-id': `s-${next++}` } }),
    );
    const slow: typeof fetch = async (input, init) => {
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string }) : {};
      if (body.method === 'tools/list') {
        await held;
        return empty(404);
      }
      return fetch(input, init);
    };
    const client = await AnswerClient.connect(URL_, { fetch: slow, handshake: false });
    await client.request('initialize', INITIALIZE);
    const old = client.request('tools/list'); // carries s-1, answered 404 after s-2 replaced it
    await vi.waitFor(() => expect(trail(sent)).toEqual(['POST initialize']));
    await client.request('initialize', INITIALIZE);
    release();
    expect((await answerError(old)).detail.status).toBe(404);
    expect(client.sessionId).toBe('s-2');
  });

  test('another refusal keeps the session', async () => {
    const { client } = await connected('legacy', () => empty(400));
    await answerError(client.request('tools/list'));
    expect(client.sessionId).toBe(SESSION);
  });
});

describe('close', () => {
  test("2025: a DELETE of the session with the version, its status returned; later calls do nothing, requests are refused", async () => {
    const { client, sent, handshakes } = await connected('legacy');
    expect(await client.close()).toBe(204);
    const [remove] = after(sent, handshakes);
    expect([remove!.method, remove!.headers.get('mcp-session-id'), remove!.headers.get('mcp-protocol-version')]).toEqual(['DELETE', SESSION, LEGACY]);
    expect(client.sessionId).toBeUndefined();
    expect(await client.close()).toBeUndefined();
    expect(sent).toHaveLength(handshakes + 1);
    await expect(client.request('tools/list')).rejects.toThrow(new Error('AnswerClient: the client is closed'));
    await expect(client.notify('notifications/x')).rejects.toThrow(new Error('AnswerClient: the client is closed'));
  });

  test('a 405 (the server lets no client end sessions) is returned as the status', async () => {
    const { fetch } = scriptedFetch((sent) =>
      sent.method === 'DELETE' ? empty(405) : sent.rpc === 'initialize' ? json(resultFor(sent, { protocolVersion: LEGACY }), { headers: { 'mcp-session-id': 's' } }) : empty(202),
    );
    const client = await AnswerClient.connect(URL_, { fetch, versionNegotiation: 'legacy' });
    expect(await client.close()).toBe(405);
  });

  test('a DELETE that fails is thrown, and the client is closed all the same', async () => {
    const { fetch } = scriptedFetch((sent) =>
      sent.method === 'DELETE' ? empty(500) : sent.rpc === 'initialize' ? json(resultFor(sent, { protocolVersion: LEGACY }), { headers: { 'mcp-session-id': 's' } }) : empty(202),
    );
    const client = await AnswerClient.connect(URL_, { fetch, versionNegotiation: 'legacy' });
    const error = await answerError(client.close());
    expect([error.code, error.detail.status]).toEqual(['http_status', 500]);
    expect(client.sessionId).toBeUndefined();
    await expect(client.request('tools/list')).rejects.toThrow('the client is closed');
    expect(await client.close()).toBeUndefined();
  });

  test("close's signal ends the DELETE", async () => {
    const { fetch } = scriptedFetch((sent) =>
      sent.method === 'DELETE' ? never() : sent.rpc === 'initialize' ? json(resultFor(sent, { protocolVersion: LEGACY }), { headers: { 'mcp-session-id': 's' } }) : empty(202),
    );
    const client = await AnswerClient.connect(URL_, { fetch, versionNegotiation: 'legacy' });
    expect((await answerError(client.close({ signal: AbortSignal.abort(new Error('hurry')) }))).code).toBe('aborted');
  });

  test('2026-07-28: no session, nothing sent', async () => {
    const { client, sent, handshakes } = await connected('modern');
    expect(await client.close()).toBeUndefined();
    expect(sent).toHaveLength(handshakes);
  });

  test('requests in flight end as aborted; no notifications/cancelled after close', async () => {
    const { client, sent } = await connected('legacy', () => sse([], { endless: true }));
    const pending = answerError(client.request('tools/call', { name: 'slow' }, { signal: new AbortController().signal }));
    await vi.waitFor(() => expect(trail(sent).at(-1)).toBe('POST tools/call'));
    await client.close();
    expect((await pending).code).toBe('aborted');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(trail(sent).includes('POST notifications/cancelled')).toBe(false);
  });
});

describe('MRTR (2026-07-28): input_required answered and re-issued', () => {
  const inputRequired = (requestState?: string) => ({
    resultType: 'input_required',
    inputRequests: { login: { method: 'elicitation/create', params: { message: 'Login?' } } },
    ...(requestState === undefined ? {} : { requestState }),
  });

  test('the handler answers, the request is re-issued with a new id, inputResponses and the requestState exactly', async () => {
    const { client, sent, handshakes } = await connected(
      'modern',
      (request) => json(resultFor(request, (request.body?.['params'] as Record<string, unknown>)['inputResponses'] === undefined ? inputRequired(' opaque\u00e9 ') : { content: [{ type: 'text', text: 'done' }] })),
      {
        onInputRequired: async (request: InputRequest, context: InputRequestContext) => {
          asked.push([request, context.era, context.key]);
          return { action: 'accept', content: { name: 'octocat' } };
        },
      },
    );
    const asked: unknown[] = [];
    const answer = await client.request('prompts/get', { name: 'deploy', arguments: { env: 'prod' } });
    expect(answer).toEqual({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'done' }] } });
    expect(asked).toEqual([[{ method: 'elicitation/create', params: { message: 'Login?' } }, 'modern', 'login']]);
    const [first, retry] = after(sent, handshakes);
    expect([first!.body?.['id'], retry!.body?.['id']]).toEqual([1, 2]);
    expect(retry!.body?.['params']).toMatchObject({ name: 'deploy', arguments: { env: 'prod' }, inputResponses: { login: { action: 'accept', content: { name: 'octocat' } } }, requestState: ' opaque\u00e9 ' });
  });

  test('no requestState from the server: none in the retry', async () => {
    let round = 0;
    const { client, sent, handshakes } = await connected('modern', (request) => json(resultFor(request, round++ === 0 ? inputRequired() : { ok: true })), {
      onInputRequired: () => ({ action: 'decline' }),
    });
    await client.request('prompts/get', { name: 'p' });
    expect('requestState' in (after(sent, handshakes)[1]!.body?.['params'] as object)).toBe(false);
  });

  test.each([0, 1, 3])('maxInputRounds %i: at most that many retries, then the input_required result as it is', async (rounds) => {
    let calls = 0;
    const { client, sent, handshakes } = await connected('modern', (request) => json(resultFor(request, inputRequired('s'))), {
      maxInputRounds: rounds,
      onInputRequired: () => {
        calls += 1;
        return {};
      },
    });
    const answer = await client.request('resources/read', { uri: 'file:///x' });
    expect(answer).toMatchObject({ id: rounds + 1, result: { resultType: 'input_required' } });
    expect([after(sent, handshakes).length, calls]).toEqual([rounds + 1, rounds]);
  });

  test('without a handler, or for a method MRTR does not cover, the result comes back as it is', async () => {
    const bare = await connected('modern', (request) => json(resultFor(request, request.rpc === 'tools/list' ? { tools: [] } : inputRequired('s'))));
    expect(await bare.client.request('tools/call', { name: 'x' })).toMatchObject({ result: { resultType: 'input_required' } });
    expect(trail(after(bare.sent, bare.handshakes))).toEqual(['POST tools/list', 'POST tools/call']);
    let calls = 0;
    const other = await connected('modern', (request) => json(resultFor(request, inputRequired('s'))), { onInputRequired: () => ({ n: ++calls }) });
    expect(await other.client.request('tools/list')).toMatchObject({ result: { resultType: 'input_required' } });
    expect(calls).toBe(0);
  });

  test('2025: an input_required result is not MRTR', async () => {
    let calls = 0;
    const { client, sent, handshakes } = await connected('legacy', (request) => json(resultFor(request, inputRequired('s'))), { onInputRequired: () => ({ n: ++calls }) });
    await client.request('tools/call', { name: 'x' });
    expect([after(sent, handshakes).length, calls]).toEqual([1, 0]);
  });

  test('an inputRequests key "__proto__" is answered like any other', async () => {
    const asked = { resultType: 'input_required', inputRequests: JSON.parse('{"__proto__": {"method": "elicitation/create", "params": {}}}') as object };
    const { client, sent, handshakes } = await connected(
      'modern',
      (request) => json(resultFor(request, (request.body?.['params'] as Record<string, unknown>)['inputResponses'] === undefined ? asked : { ok: true })),
      { onInputRequired: () => ({ action: 'accept' }) },
    );
    expect(await client.request('prompts/get', { name: 'x' })).toMatchObject({ result: { ok: true } });
    const retry = after(sent, handshakes)[1]!;
    expect(Object.keys((retry.body?.['params'] as { inputResponses: object }).inputResponses)).toEqual(['__proto__']);
  });

  test.each(['abort', 'close'])("a handler that ignores its signal cannot hold the request past its %s: aborted at once", async (how) => {
    const { client } = await connected('modern', (request) => json(resultFor(request, request.rpc === 'tools/list' ? { tools: [] } : inputRequired())), {
      onInputRequired: () => new Promise(() => {}),
    });
    const controller = new AbortController();
    const pending = answerError(client.request('tools/call', { name: 'x' }, { signal: controller.signal }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (how === 'abort') controller.abort(new Error('stop'));
    else void client.close();
    const error = await pending;
    expect(error.code).toBe('aborted');
  });

  test.each(['before the request began', 'while the handler answers'])('a stop %s whose reason quotes the Authorization sent: redacted in the message', async (when) => {
    const token = 'tok-0123456789abcdef';
    const { client } = await connected('modern', (request) => json(resultFor(request, inputRequired())), {
      headers: { authorization: `Bearer ${token}` },
      onInputRequired: () => new Promise(() => {}),
    });
    const controller = new AbortController();
    const stop = (): void => controller.abort(new Error(`gave up: Authorization: Bearer ${token}`));
    if (when === 'before the request began') stop();
    const pending = answerError(client.request('prompts/get', { name: 'x' }, { signal: controller.signal }));
    if (when !== 'before the request began') setTimeout(stop, 20);
    const error = await pending;
    expect(error.code).toBe('aborted');
    expect(error.message).not.toContain(token.slice(0, 8));
    expect(error.message).toContain('[redacted]');
  });

  test("what the handler throws is the request's error, as it is", async () => {
    const error = new Error('the user closed the dialog');
    const { client } = await connected('modern', (request) => json(resultFor(request, inputRequired())), {
      onInputRequired: () => {
        throw error;
      },
    });
    await expect(client.request('tools/call', { name: 'x' })).rejects.toBe(error);
  });
});

describe('2026-07-28 tools/call: Mcp-Param-* from tools/list', () => {
  const tools = [
    { name: 'weather', inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } } },
    { name: 'broken', inputSchema: { type: 'object', properties: { n: { type: 'number', 'x-mcp-header': 'N' } } } },
  ];
  const handle: Handle = (request) => json(resultFor(request, request.rpc === 'tools/list' ? { tools } : { ok: true }));

  test('tools/list read once; each call carries its parameter headers', async () => {
    const { client, sent, handshakes } = await connected('modern', handle);
    await client.request('tools/call', { name: 'weather', arguments: { region: 'eu-west1' } });
    await client.request('tools/call', { name: 'weather', arguments: { region: 'Zürich' } });
    const calls = after(sent, handshakes);
    expect(trail(calls)).toEqual(['POST tools/list', 'POST tools/call', 'POST tools/call']);
    expect(calls.map((s) => s.headers.get('mcp-param-region'))).toEqual([null, 'eu-west1', '=?base64?WsO8cmljaA==?=']);
    // The caller's requests are numbered 1, 2, …; the client's own tools/list pages apart.
    expect(calls.map((s) => s.body?.['id'])).toEqual(['tools/list-1', 1, 2]);
  });

  test("the caller's own tools/list is kept: a call after it reads no list of its own", async () => {
    const { client, sent, handshakes } = await connected('modern', handle);
    await client.request('tools/list');
    await client.request('tools/call', { name: 'weather', arguments: { region: 'eu' } });
    expect(trail(after(sent, handshakes))).toEqual(['POST tools/list', 'POST tools/call']);
    expect(sent.at(-1)!.headers.get('mcp-param-region')).toBe('eu');
  });

  test("a tools/list the caller reads again replaces the definitions kept: a tool's changed annotation is mirrored", async () => {
    let header = 'Region';
    const changing: Handle = (request) =>
      json(resultFor(request, request.rpc === 'tools/list' ? { tools: [{ name: 'weather', inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': header } } } }] } : { ok: true }));
    const { client, sent } = await connected('modern', changing);
    await client.request('tools/call', { name: 'weather', arguments: { region: 'eu' } });
    expect(sent.at(-1)!.headers.get('mcp-param-region')).toBe('eu');
    header = 'Zone';
    await client.request('tools/list');
    await client.request('tools/call', { name: 'weather', arguments: { region: 'us' } });
    expect([sent.at(-1)!.headers.get('mcp-param-zone'), sent.at(-1)!.headers.get('mcp-param-region')]).toEqual(['us', null]);
  });

  test("the tools/list a call reads follows the call's signal", async () => {
    const { client, sent, handshakes } = await connected('modern', (request) => (request.rpc === 'tools/list' ? sse([], { endless: true }) : json(resultFor(request, {}))));
    const controller = new AbortController();
    const pending = answerError(client.request('tools/call', { name: 'weather', arguments: {} }, { signal: controller.signal }));
    await vi.waitFor(() => expect(trail(after(sent, handshakes))).toEqual(['POST tools/list']));
    controller.abort(new Error('stop'));
    expect((await pending).code).toBe('aborted');
    expect(sent.at(-1)!.signal!.aborted).toBe(true);
  });

  test('a tool with invalid annotations: invalid_tool, and the call is not sent', async () => {
    const { client, sent, handshakes } = await connected('modern', handle);
    const error = await answerError(client.request('tools/call', { name: 'broken', arguments: { n: 1 } }));
    expect(error.code).toBe('invalid_tool');
    expect(trail(after(sent, handshakes))).toEqual(['POST tools/list']);
  });

  test('a tools/list that fails is the call\'s error', async () => {
    const { client, sent, handshakes } = await connected('modern', (request) => (request.rpc === 'tools/list' ? empty(500) : json(resultFor(request, {}))));
    expect((await answerError(client.request('tools/call', { name: 'weather', arguments: {} }))).code).toBe('http_status');
    expect(trail(after(sent, handshakes))).toEqual(['POST tools/list']);
  });

  test('2025: no tools/list, no parameter headers', async () => {
    const { client, sent, handshakes } = await connected('legacy', handle);
    await client.request('tools/call', { name: 'weather', arguments: { region: 'eu' } });
    expect(trail(after(sent, handshakes))).toEqual(['POST tools/call']);
  });
});

describe('2025 server requests on the answer stream', () => {
  /** An event stream: `first`, then (once `gate` settles) `rest`. */
  function gated(first: readonly string[], gate: Promise<unknown>, rest: () => readonly string[]): Response {
    const encoder = new TextEncoder();
    let step = 0;
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          if (step === 0) controller.enqueue(encoder.encode(first.join('')));
          else if (step === 1) {
            await gate;
            controller.enqueue(encoder.encode(rest().join('')));
          } else controller.close();
          step += 1;
        },
      },
      { highWaterMark: 0 },
    );
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  }

  /** A 2025 server whose tools/call sends `serverRequest` first and answers once the reply is POSTed. */
  function askingServer(serverRequest: Record<string, unknown>) {
    let replied!: (reply: SentRequest) => void;
    const reply = new Promise<SentRequest>((resolve) => (replied = resolve));
    const handle: Handle = (request) => {
      if (request.rpc === undefined) {
        replied(request);
        return empty(202);
      }
      return gated([sseEvent(serverRequest)], reply, () => [sseEvent(resultFor(request, { ok: true }))]);
    };
    return { handle, reply };
  }

  test("the handler's answer is POSTed with the session while the read goes on; the request then answers", async () => {
    const ask = { jsonrpc: '2.0', id: 'srv-1', method: 'elicitation/create', params: { message: 'Login?' } };
    const { handle, reply } = askingServer(ask);
    const contexts: InputRequestContext[] = [];
    const abortedWhileAsked: boolean[] = [];
    const { client } = await connected('legacy', handle, {
      onInputRequired: (_, context) => {
        contexts.push(context);
        abortedWhileAsked.push(context.signal.aborted);
        return { action: 'accept' };
      },
    });
    const seen: JsonRpcMessage[] = [];
    expect(await client.request('tools/call', { name: 'x' }, { onMessage: (m) => seen.push(m) })).toMatchObject({ result: { ok: true } });
    const posted = await reply;
    expect(posted.body).toEqual({ jsonrpc: '2.0', id: 'srv-1', result: { action: 'accept' } });
    expect([posted.method, posted.headers.get('mcp-session-id'), posted.headers.get('mcp-protocol-version')]).toEqual(['POST', SESSION, LEGACY]);
    expect(seen).toEqual([ask]);
    expect(contexts.map((c) => [c.era, c.id])).toEqual([['legacy', 'srv-1']]);
    // The handler's signal is live while it is asked, and aborts once the request has ended.
    expect([abortedWhileAsked, contexts[0]!.signal.aborted]).toEqual([[false], true]);
  });

  test("a handler still pending when the request ends is told by its signal: the request's end aborts it", async () => {
    const ask = { jsonrpc: '2.0', id: 'srv-2', method: 'elicitation/create', params: { message: 'Still there?' } };
    const contexts: InputRequestContext[] = [];
    // The server answers the request without waiting for the reply; the handler waits for its signal.
    const { client } = await connected('legacy', (request) => sse([sseEvent(ask), sseEvent(resultFor(request, { ok: true }))]), {
      onInputRequired: (_, context) => {
        contexts.push(context);
        return new Promise((_resolve, reject) => context.signal.addEventListener('abort', () => reject(new Error('gave up')), { once: true }));
      },
    });
    expect(await client.request('tools/call', { name: 'y' })).toMatchObject({ result: { ok: true } });
    expect(contexts.map((c) => [c.id, c.signal.aborted])).toEqual([['srv-2', true]]);
  });

  test('ping is answered {}; with no handler anything else is -32601', async () => {
    const ping = askingServer({ jsonrpc: '2.0', id: 9, method: 'ping' });
    const first = await connected('legacy', ping.handle);
    await first.client.request('tools/call', { name: 'x' });
    expect((await ping.reply).body).toEqual({ jsonrpc: '2.0', id: 9, result: {} });

    const roots = askingServer({ jsonrpc: '2.0', id: 10, method: 'roots/list' });
    const second = await connected('legacy', roots.handle);
    await second.client.request('tools/call', { name: 'x' });
    expect((await roots.reply).body).toEqual({ jsonrpc: '2.0', id: 10, error: { code: -32601, message: 'the client does not answer roots/list' } });
  });

  test('a handler whose result cannot be sent (a BigInt) is answered -32603, and nothing is left unhandled', async () => {
    const elicit = askingServer({ jsonrpc: '2.0', id: 12, method: 'elicitation/create', params: {} });
    const { client } = await connected('legacy', elicit.handle, { onInputRequired: () => ({ big: 1n }) as never });
    await client.request('tools/call', { name: 'x' });
    expect((await elicit.reply).body).toMatchObject({ jsonrpc: '2.0', id: 12, error: { code: -32603 } });
  });

  test('a handler that throws is answered -32603', async () => {
    const sampling = askingServer({ jsonrpc: '2.0', id: 11, method: 'sampling/createMessage', params: {} });
    const { client } = await connected('legacy', sampling.handle, {
      onInputRequired: () => {
        throw new Error('no model');
      },
    });
    await client.request('tools/call', { name: 'x' });
    expect((await sampling.reply).body).toEqual({ jsonrpc: '2.0', id: 11, error: { code: -32603, message: 'the client failed to answer sampling/createMessage: Error: no model' } });
  });
});

describe('cancellation', () => {
  test('2025: a request its signal aborted is cancelled on the server with notifications/cancelled', async () => {
    const { client, sent } = await connected('legacy', (request) => (request.rpc === 'tools/call' ? sse([], { endless: true }) : empty(202)));
    const controller = new AbortController();
    const pending = answerError(client.request('tools/call', { name: 'slow' }, { signal: controller.signal }));
    await vi.waitFor(() => expect(trail(sent).at(-1)).toBe('POST tools/call'));
    controller.abort(new Error('user stop'));
    const error = await pending;
    expect(error.code).toBe('aborted');
    await vi.waitFor(() => expect(trail(sent).at(-1)).toBe('POST notifications/cancelled'));
    const cancelled = sent.at(-1)!;
    expect(cancelled.body).toEqual({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'aborted by the client' } });
    expect(cancelled.headers.get('mcp-session-id')).toBe(SESSION);
  });

  test('2025: a request that outlives its deadline is cancelled as timed out, signal or none', async () => {
    const { client, sent } = await connected('legacy', (request) => (request.rpc === 'tools/call' ? sse([], { endless: true }) : empty(202)), { timeoutMs: 30 });
    const error = await answerError(client.request('tools/call', { name: 'slow' }));
    expect(error.code).toBe('timeout');
    await vi.waitFor(() => expect(sent.at(-1)?.body).toEqual({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'timed out' } }));
  });

  test('a signal already aborted: aborted, and nothing is sent — no request, no tools/list, nothing to cancel', async () => {
    for (const era of ['legacy', 'modern'] as const) {
      const { client, sent, handshakes } = await connected(era);
      const reason = new Error('before it began');
      const error = await answerError(client.request('tools/call', { name: 'x' }, { signal: AbortSignal.abort(reason) }));
      expect([error.code, error.cause]).toEqual(['aborted', reason]);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(sent).toHaveLength(handshakes);
    }
  });

  test('2026-07-28: an abort closes the stream, and nothing more is sent', async () => {
    const { client, sent } = await connected('modern', () => sse([], { endless: true }));
    const controller = new AbortController();
    const pending = answerError(client.request('tools/list', undefined, { signal: controller.signal }));
    await vi.waitFor(() => expect(trail(sent).at(-1)).toBe('POST tools/list'));
    controller.abort(new Error('user stop'));
    expect((await pending).code).toBe('aborted');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(trail(sent).at(-1)).toBe('POST tools/list');
  });

  test('an AnswerError from the client is the package\'s', async () => {
    const { client } = await connected('modern', () => empty(500));
    expect(await rejection(client.request('tools/list'))).toBeInstanceOf(AnswerError);
  });
});
