/**
 * post-json-rpc.ts: `postJsonRpc`, the public edge of one exchange — what it resolves with
 * (exactly `{ answer, status, headers }`), what it throws (each non-answered outcome as one
 * `AnswerError`), the version it plans with (the caller's `MCP-Protocol-Version`) and its own
 * argument checks. The exchange's rules through it are pinned at length by post-json-rpc.test.ts,
 * post-json-rpc-eras.test.ts, exchange-network.test.ts, auth.test.ts and abort-signals.test.ts;
 * this file pins the function's own contract.
 */

import { describe, expect, test } from 'vitest';
import { postJsonRpc } from '../../src/client/post-json-rpc.js';
import { answerError, sseEvent } from '../helpers/bodies.js';
import { empty, json, resultFor, scriptedFetch, sse } from '../helpers/client-fetch.js';

const URL_ = 'https://mcp.example/mcp';
const REQUEST = { jsonrpc: '2.0', id: 'r1', method: 'tools/list' };

describe('what it resolves with', () => {
  test('a request: exactly the answer, the status and the response headers', async () => {
    const { fetch } = scriptedFetch((sent) => json(resultFor(sent, { tools: [] }), { status: 200, headers: { 'mcp-session-id': 's9' } }));
    const result = await postJsonRpc(URL_, REQUEST, { fetch });
    expect(Object.keys(result).sort()).toEqual(['answer', 'headers', 'status']);
    expect(result.answer).toEqual({ jsonrpc: '2.0', id: 'r1', result: { tools: [] } });
    expect([result.status, result.headers.get('mcp-session-id')]).toEqual([200, 's9']);
  });

  test('a notification: no answer, the status', async () => {
    const { fetch } = scriptedFetch(() => empty(202));
    expect(await postJsonRpc(URL_, { jsonrpc: '2.0', method: 'notifications/initialized' }, { fetch })).toMatchObject({ answer: undefined, status: 202 });
  });

  test('a URL object is accepted and sent as given', async () => {
    const { fetch, sent } = scriptedFetch((request) => json(resultFor(request, {})));
    await postJsonRpc(new URL(URL_), REQUEST, { fetch });
    expect(sent[0]!.url).toBe(URL_);
  });

  test('onMessage gets what was passed over; the message itself is sent unchanged', async () => {
    const note = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } };
    const { fetch, sent } = scriptedFetch((request) => sse([sseEvent(note), sseEvent(resultFor(request, {}))]));
    const seen: unknown[] = [];
    const message = { ...REQUEST, params: { cursor: 'c' } };
    await postJsonRpc(URL_, message, { fetch, onMessage: (m) => seen.push(m) });
    expect(seen).toEqual([note]);
    expect(sent[0]!.body).toEqual(message);
  });
});

describe('what it throws', () => {
  test('a refusal: http_status, the JSON-RPC error in detail.answer', async () => {
    const error = { jsonrpc: '2.0', id: 'r1', error: { code: -32001, message: 'gone' } };
    const { fetch } = scriptedFetch(() => json(error, { status: 410 }));
    const thrown = await answerError(postJsonRpc(URL_, REQUEST, { fetch }));
    expect([thrown.code, thrown.detail.status, thrown.detail.answer]).toEqual(['http_status', 410, error]);
  });

  test('a failure: its code, with its cause', async () => {
    const cause = new TypeError('fetch failed');
    const { fetch } = scriptedFetch(() => Promise.reject(cause));
    const thrown = await answerError(postJsonRpc(URL_, REQUEST, { fetch }));
    expect([thrown.code, thrown.cause]).toEqual(['stream_failed', cause]);
  });

  test('what onMessage throws while an initialize is answered: rethrown as it is, and the session that came is ended, as the caller never sees it', async () => {
    const note = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } };
    const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
    const { fetch, sent } = scriptedFetch((request) =>
      request.method === 'DELETE' ? empty(204) : sse([sseEvent(note), sseEvent(resultFor(request, { protocolVersion: '2025-11-25' }))], { headers: { 'mcp-session-id': 's-init' } }),
    );
    const thrown = new Error('the caller gave up');
    const onMessage = (): void => {
      throw thrown;
    };
    await expect(postJsonRpc(URL_, initialize, { fetch, onMessage })).rejects.toBe(thrown);
    await expect.poll(() => sent.map((request) => `${request.method} ${request.headers.get('mcp-session-id')}`)).toEqual(['POST null', 'DELETE s-init']);
  });

  test("an onMessage that is not a function: TypeError, nothing sent", async () => {
    const { fetch, sent } = scriptedFetch(() => empty(500));
    await expect(postJsonRpc(URL_, REQUEST, { fetch, onMessage: 'log' as never })).rejects.toThrow(new TypeError('onMessage must be a function, got "log"'));
    expect(sent).toEqual([]);
  });
});

test("the version it plans with is the caller's MCP-Protocol-Version: a 2025 one sent as given, a 2026 one with the derived headers", async () => {
  const { fetch, sent } = scriptedFetch((request) => json(resultFor(request, {})));
  await postJsonRpc(URL_, REQUEST, { fetch, headers: { 'MCP-Protocol-Version': '2025-11-25', 'Mcp-Session-Id': 's' } });
  await postJsonRpc(URL_, REQUEST, { fetch, headers: { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Session-Id': 's' } });
  expect(sent.map((s) => [s.headers.get('mcp-protocol-version'), s.headers.get('mcp-session-id'), s.headers.get('mcp-method')])).toEqual([
    ['2025-11-25', 's', null],
    ['2026-07-28', null, 'tools/list'],
  ]);
});

// A parser's SyntaxError quotes a piece of the body it failed on: where a server reflected a
// secret there, whole or cut, the cause an exchange with secrets holds has no such piece.
describe("the cause of a body that is not JSON", () => {
  const KEY = 'k3yABCDEFGH-0123456789';
  const reflecting = () => scriptedFetch(() => new Response(`{"a": ${KEY}}`, { headers: { 'content-type': 'application/json' } }));
  const REQUEST = { jsonrpc: '2.0', id: 1, method: 'tools/list' };

  test.each([
    ['a header named in secretHeaders', { headers: { 'x-api-key': KEY }, secretHeaders: ['x-api-key'] }],
    ["the caller's Authorization", { headers: { authorization: `Bearer ${KEY}` } }],
  ])('an exchange that sent %s: a SyntaxError that quotes nothing of the body', async (_name, options) => {
    const error = await answerError(postJsonRpc(URL_, REQUEST, { ...options, fetch: reflecting().fetch }));
    expect([error.code, error.reason]).toEqual(['malformed_answer', 'invalid_json']);
    expect(error.cause).toBeInstanceOf(SyntaxError);
    expect((error.cause as SyntaxError).message).not.toContain(KEY.slice(0, 6));
  });

  test("an exchange with no secret: the parser's own SyntaxError", async () => {
    const error = await answerError(postJsonRpc(URL_, REQUEST, { fetch: reflecting().fetch }));
    expect(error.cause).toBeInstanceOf(SyntaxError);
    expect((error.cause as SyntaxError).message).toContain(KEY.slice(0, 6));
  });
});
