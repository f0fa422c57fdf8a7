/**
 * answer-client.ts, session.ts, negotiate.ts (`renewSession`): a 2025 session the server forgot,
 * renewed (issue #51.3), against a scripted server that issues `s-1`, `s-2`, … and answers 404
 * to a session it no longer holds. A 404 to a request that carried the session: the handshake
 * again, in the version spoken, then the request once more in the new session, with a new id;
 * requests at once share one renewal; the dead session gets no DELETE; a second 404 is
 * `session_expired`, as is a failed handshake (its failure the cause); `renewSession: false`
 * and a client with no handshake keep the old rule (`http_status` 404, the session cleared);
 * `close()` ends the new session. Against the v1 and v2 SDK servers:
 * answer-client-renewal-servers.test.ts.
 */

import { describe, expect, test, vi } from 'vitest';
import { AnswerClient } from '../../src/client/answer-client.js';
import { AnswerError } from '../../src/vocabulary/errors.js';
import { answerError, rejection } from '../helpers/bodies.js';
import { empty, json, never, resultFor, trail, type SentRequest } from '../helpers/client-fetch.js';
import { after, connectTo, gate, LEGACY, mcpScript, paramsOf, rpcError, URL_, type Handle } from '../helpers/answer-client-script.js';

/** Answers every request with the session it carried. */
const echoSession: Handle = (sent) => json(resultFor(sent, { session: sent.headers.get('mcp-session-id'), content: [] }));

const sessionsOf = (sent: readonly SentRequest[]): (string | null)[] => sent.map((request) => request.headers.get('mcp-session-id'));

/** A connected client whose server has forgotten its session, and whose renewal's handshake waits for `handshake` to open. */
async function renewalHeldOpen() {
  const handshake = gate();
  const server = mcpScript('legacy', echoSession, {
    initialize: async (sent, session) => {
      if (session !== 's-1') await handshake.opened;
      return json(resultFor(sent, { protocolVersion: LEGACY }), { headers: { 'mcp-session-id': session } });
    },
  });
  const client = await AnswerClient.connect(URL_, { fetch: server.fetch });
  server.forget();
  return { handshake, server, client };
}

describe('a session the server forgot is renewed', () => {
  test('the handshake again, then the request once more in the new session, with a new id; its answer comes back', async () => {
    const { client, server, sent, from } = await connectTo('legacy', echoSession, { versionNegotiation: 'legacy' });
    expect(client.sessionId).toBe('s-1');
    server.forget();
    const answer = await client.request('tools/call', { name: 'echo', arguments: { text: 'x' } });
    expect(answer).toEqual({ jsonrpc: '2.0', id: 2, result: { session: 's-2', content: [] } });
    expect(client.sessionId).toBe('s-2');
    const requests = after(sent, from);
    expect(trail(requests)).toEqual(['POST tools/call', 'POST initialize', 'POST notifications/initialized', 'POST tools/call']);
    expect(sessionsOf(requests)).toEqual(['s-1', null, 's-2', 's-2']);
    expect([requests[0]!.body?.['id'], requests[3]!.body?.['id']]).toEqual([1, 2]);
    expect(requests[3]!.body?.['params']).toEqual(requests[0]!.body?.['params']);
  });

  test.each([
    ["'auto' (fell back to initialize)", {}],
    ["'legacy'", { versionNegotiation: 'legacy' as const }],
    ['a pinned 2025 version', { versionNegotiation: { pin: '2025-06-18' } }],
  ])('%s: the renewing initialize asks for the version spoken, and the requests carry it', async (_, options) => {
    const { client, server, sent, from } = await connectTo('legacy', echoSession, options, { version: '2025-06-18' });
    expect(client.protocolVersion).toBe('2025-06-18');
    server.forget();
    await client.request('tools/list');
    const requests = after(sent, from);
    const initialize = requests.find((request) => request.rpc === 'initialize')!;
    expect(paramsOf(initialize)['protocolVersion']).toBe('2025-06-18');
    expect(requests.map((request) => request.headers.get('mcp-protocol-version'))).toEqual(['2025-06-18', null, '2025-06-18', '2025-06-18']);
    expect(client.protocolVersion).toBe('2025-06-18');
  });

  test('the renewing initialize declares the same client info and capabilities', async () => {
    const clientInfo = { name: 'me', version: '9' };
    const { server, sent, from, client } = await connectTo('legacy', echoSession, { clientInfo, capabilities: { roots: {} } });
    server.forget();
    await client.request('tools/list');
    const initialize = after(sent, from).find((request) => request.rpc === 'initialize')!;
    expect(paramsOf(initialize)).toEqual({ protocolVersion: LEGACY, capabilities: { roots: {} }, clientInfo });
  });

  test('typed calls are renewed too', async () => {
    const { client, server, sent, from } = await connectTo('legacy', (request) =>
      json(resultFor(request, request.rpc === 'tools/list' ? { tools: [{ name: 'a', inputSchema: {} }] } : { content: [{ type: 'text', text: 'ok' }] })),
    );
    server.forget();
    expect(await client.listTools()).toEqual([{ name: 'a', inputSchema: {} }]);
    server.forget();
    expect(await client.callTool('a', {})).toEqual({ content: [{ type: 'text', text: 'ok' }] });
    expect(trail(after(sent, from)).filter((line) => line === 'POST initialize')).toHaveLength(2);
    expect(client.sessionId).toBe('s-3');
  });

  test('the dead session gets no DELETE; close() ends the new one', async () => {
    const { client, server, sent, from } = await connectTo('legacy', echoSession);
    server.forget();
    await client.request('tools/list');
    expect(trail(sent)).not.toContain('DELETE');
    expect(await client.close()).toBe(204);
    const deletes = after(sent, from).filter((request) => request.method === 'DELETE');
    expect(sessionsOf(deletes)).toEqual(['s-2']);
  });

  test('forgotten again later: renewed again, once each time', async () => {
    const { client, server, sent, from } = await connectTo('legacy', echoSession);
    for (const expected of ['s-2', 's-3']) {
      server.forget();
      expect(await client.request('tools/list')).toMatchObject({ result: { session: expected } });
    }
    expect(trail(after(sent, from)).filter((line) => line === 'POST initialize')).toHaveLength(2);
  });
});

describe('requests at once share one renewal', () => {
  test('N requests met by 404 together: one initialize; each is sent again in the new session, with its own new id', async () => {
    const N = 5;
    const allIn = gate();
    let refused = 0;
    const server = mcpScript('legacy', echoSession);
    const { fetch } = server;
    // Holds each 404 until every request has arrived, so that all of them are refused before the renewal.
    const holding: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (response.status === 404 && String(init.body).includes('"tools/call"')) {
        refused += 1;
        if (refused === N) allIn.open();
        await allIn.opened;
      }
      return response;
    };
    const client = await AnswerClient.connect(URL_, { fetch: holding });
    const from = server.sent.length;
    server.forget();
    const answers = await Promise.all(Array.from({ length: N }, (_, i) => client.request('tools/call', { name: `t${i}` })));
    expect(answers.map((answer) => (answer as { result: { session: string } }).result.session)).toEqual(Array(N).fill('s-2'));
    const requests = after(server.sent, from);
    expect(requests.filter((request) => request.rpc === 'initialize')).toHaveLength(1);
    const calls = requests.filter((request) => request.rpc === 'tools/call');
    expect(calls).toHaveLength(2 * N);
    const ids = calls.map((request) => request.body?.['id']);
    expect(new Set(ids).size).toBe(2 * N);
    expect(sessionsOf(calls)).toEqual([...Array(N).fill('s-1'), ...Array(N).fill('s-2')]);
  });

  test('a 404 that comes after the renewal is done: sent again in the new session, no second initialize', async () => {
    const late = gate();
    const server = mcpScript('legacy', echoSession);
    const holding: typeof server.fetch = async (input, init) => {
      const response = await server.fetch(input, init);
      if (response.status === 404 && String(init.body).includes('"late"')) await late.opened;
      return response;
    };
    const client = await AnswerClient.connect(URL_, { fetch: holding });
    server.forget();
    const slow = client.request('tools/call', { name: 'late' });
    await vi.waitFor(() => expect(server.sent.some((request) => paramsOf(request)['name'] === 'late')).toBe(true));
    expect(await client.request('tools/call', { name: 'early' })).toMatchObject({ result: { session: 's-2' } });
    late.open();
    expect(await slow).toMatchObject({ result: { session: 's-2' } });
    expect(server.sent.filter((request) => request.rpc === 'initialize')).toHaveLength(2);
  });

  test("a request whose signal aborts while it waits for the renewal: aborted at once; the renewal goes on for the others", async () => {
    const { handshake, server, client } = await renewalHeldOpen();
    const controller = new AbortController();
    const waiting = answerError(client.request('tools/list', {}, { signal: controller.signal }));
    const other = client.request('tools/list');
    await vi.waitFor(() => expect(server.sent.filter((request) => request.rpc === 'initialize')).toHaveLength(2));
    controller.abort(new Error('user stop'));
    expect((await waiting).code).toBe('aborted');
    handshake.open();
    expect(await other).toMatchObject({ result: { session: 's-2' } });
  });
});

describe('when renewal fails: session_expired', () => {
  test('the server forgets the new session too: session_expired, detail.status 404, one renewal only', async () => {
    const server = mcpScript('legacy', echoSession);
    const forgetting: typeof server.fetch = async (input, init) => {
      const response = await server.fetch(input, init);
      if (String(init.body).includes('"notifications/initialized"')) server.forget(); // each new session is gone as soon as it is made
      return response;
    };
    const client = await AnswerClient.connect(URL_, { fetch: forgetting, versionNegotiation: 'legacy' });
    const from = server.sent.length;
    server.forget();
    const error = await answerError(client.request('tools/list'));
    expect([error.code, error.detail.status]).toEqual(['session_expired', 404]);
    expect(error.message).toBe('the server forgot the session (HTTP 404), and it forgot the new one too');
    expect(trail(after(server.sent, from))).toEqual(['POST tools/list', 'POST initialize', 'POST notifications/initialized', 'POST tools/list']);
    expect(client.sessionId).toBeUndefined();
  });

  test('the handshake fails: session_expired, the handshake failure its cause; the request is not sent again', async () => {
    const { client, server, sent, from } = await connectTo('legacy', echoSession, {}, {
      initialize: (request, session) => (session === 's-1' ? json(resultFor(request, { protocolVersion: LEGACY }), { headers: { 'mcp-session-id': session } }) : empty(503)),
    });
    server.forget();
    const error = await answerError(client.request('tools/list'));
    expect([error.code, error.detail.status]).toEqual(['session_expired', 404]);
    expect(error.message).toBe('the server forgot the session (HTTP 404), and renewing it failed: the server answered HTTP 503');
    expect(error.cause).toBeInstanceOf(AnswerError);
    expect([(error.cause as AnswerError).code, (error.cause as AnswerError).detail.status]).toEqual(['http_status', 503]);
    expect(trail(after(sent, from))).toEqual(['POST tools/list', 'POST initialize']);
  });

  test('the handshake answered in another version: session_expired (negotiation_failed its cause), and the session it opened is ended', async () => {
    const { client, server, sent, from } = await connectTo('legacy', echoSession, {}, {
      initialize: (request, session) =>
        json(resultFor(request, { protocolVersion: session === 's-1' ? LEGACY : '2025-03-26' }), { headers: { 'mcp-session-id': session } }),
    });
    server.forget();
    const error = await answerError(client.request('tools/list'));
    expect(error.code).toBe('session_expired');
    expect((error.cause as AnswerError).code).toBe('negotiation_failed');
    const requests = after(sent, from);
    expect(trail(requests)).toEqual(['POST tools/list', 'POST initialize', 'DELETE']);
    expect(requests[2]!.headers.get('mcp-session-id')).toBe('s-2');
    expect(client.sessionId).toBeUndefined();
  });

  test('a typed call is session_expired the same way', async () => {
    const { client, server } = await connectTo('legacy', echoSession, {}, {
      initialize: (request, session) => (session === 's-1' ? json(resultFor(request, { protocolVersion: LEGACY }), { headers: { 'mcp-session-id': session } }) : rpcError(request, -32603, 'down')),
    });
    server.forget();
    const error = await answerError(client.listTools());
    expect([error.code, (error.cause as AnswerError).code]).toEqual(['session_expired', 'negotiation_failed']);
  });
});

describe('no renewal', () => {
  test('renewSession: false: http_status 404, the session cleared, no initialize', async () => {
    const { client, server, sent, from } = await connectTo('legacy', echoSession, { renewSession: false });
    server.forget();
    const error = await answerError(client.request('tools/list'));
    expect([error.code, error.detail.status]).toEqual(['http_status', 404]);
    expect(client.sessionId).toBeUndefined();
    expect(trail(after(sent, from))).toEqual(['POST tools/list']);
  });

  test('a client connected with handshake: false does not renew the session of its own initialize', async () => {
    const server = mcpScript('legacy', echoSession);
    const client = await AnswerClient.connect(URL_, { fetch: server.fetch, handshake: false });
    await client.request('initialize', { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'c', version: '1' } });
    expect(client.sessionId).toBe('s-1');
    server.forget();
    const error = await answerError(client.request('tools/list'));
    expect([error.code, error.detail.status]).toEqual(['http_status', 404]);
    expect(trail(server.sent)).toEqual(['POST initialize', 'POST tools/list']);
  });

  test('a 404 to a 2026-07-28 request (no session): http_status, nothing renewed', async () => {
    const { client, sent, from } = await connectTo('modern', () => empty(404));
    expect((await answerError(client.request('tools/list'))).detail.status).toBe(404);
    expect(trail(after(sent, from))).toEqual(['POST tools/list']);
  });

  test('another status (400, 410) to a request with the session: refused as it is, the session kept', async () => {
    for (const status of [400, 410]) {
      const { client, sent, from } = await connectTo('legacy', () => empty(status));
      expect((await answerError(client.request('tools/list'))).detail.status).toBe(status);
      expect(client.sessionId).toBe('s-1');
      expect(trail(after(sent, from))).toEqual(['POST tools/list']);
    }
  });
});

describe('regressions: renewal', () => {
  test('close() while the renewal runs: the request waiting ends as aborted (an AnswerError), with or without a signal of its own', async () => {
    const server = mcpScript('legacy', echoSession, {
      initialize: (sent, session) => (session === 's-1' ? json(resultFor(sent, { protocolVersion: LEGACY }), { headers: { 'mcp-session-id': session } }) : never()),
    });
    const client = await AnswerClient.connect(URL_, { fetch: server.fetch });
    server.forget();
    const bare = rejection(client.request('tools/list'));
    const signalled = rejection(client.request('tools/list', {}, { signal: new AbortController().signal }));
    await vi.waitFor(() => expect(server.sent.filter((request) => request.rpc === 'initialize')).toHaveLength(2));
    await client.close();
    for (const error of [await bare, await signalled]) {
      expect(error).toBeInstanceOf(AnswerError);
      expect([(error as AnswerError).code, (error as AnswerError).cause]).toEqual(['aborted', new Error('AnswerClient: the client is closed')]);
    }
  });

  test('a request made while a renewal runs waits for it, and goes in the new session (not with none)', async () => {
    const { handshake, server, client } = await renewalHeldOpen();
    const first = client.request('tools/list');
    await vi.waitFor(() => expect(server.sent.filter((request) => request.rpc === 'initialize')).toHaveLength(2));
    const second = client.request('prompts/list');
    await new Promise((resolve) => setTimeout(resolve, 20));
    handshake.open();
    expect(await first).toMatchObject({ result: { session: 's-2' } });
    expect(await second).toMatchObject({ result: { session: 's-2' } });
  });

  test('a notification met by 404 forgets the session; the next request renews it before it is sent', async () => {
    const { client, server, sent, from } = await connectTo('legacy', echoSession);
    server.forget();
    await answerError(client.notify('notifications/roots/list_changed'));
    expect(await client.request('tools/list')).toMatchObject({ result: { session: 's-2' } });
    expect(trail(after(sent, from))).toEqual(['POST notifications/roots/list_changed', 'POST initialize', 'POST notifications/initialized', 'POST tools/list']);
  });

  test('after a renewal failed (session_expired), the next request tries the handshake again rather than going with no session', async () => {
    let down = true;
    const { client, server } = await connectTo('legacy', echoSession, {}, {
      initialize: (request, session) =>
        session !== 's-1' && down ? empty(503) : json(resultFor(request, { protocolVersion: LEGACY }), { headers: { 'mcp-session-id': session } }),
    });
    server.forget();
    expect((await answerError(client.request('tools/list'))).code).toBe('session_expired');
    down = false;
    expect(await client.request('tools/list')).toMatchObject({ result: { session: expect.stringMatching(/^s-/) } });
  });
});
