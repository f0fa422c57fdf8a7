/**
 * negotiate.ts: how a client settles its era, as a value — `'auto'` (server/discover first, the
 * 2025 `initialize` handshake when the probe says legacy), `'legacy'` (initialize alone), a pinned
 * version (2026: no handshake; 2025: an initialize the server must answer in it) and
 * `handshake: false` (nothing sent). The rule for sessions: a session id that arrived with the
 * initialize response is always ended with a DELETE when the handshake fails, whatever became of
 * the body. Scripted fetch only; the same negotiation against real servers is cli-eras.test.ts.
 */

import { describe, expect, test, vi } from 'vitest';
import type { ExchangeOptions } from '../../src/client/exchange-options.js';
import { negotiate, type Negotiation, type VersionNegotiation } from '../../src/client/negotiate.js';
import { sessionStart } from '../../src/client/session.js';
import { SessionKeeper } from '../../src/client/session-keeper.js';
import type { ClientIdentity } from '../../src/client/request-message.js';
import { written, type Failure } from '../../src/vocabulary/failure.js';
import { sseEvent } from '../helpers/bodies.js';
import { empty, json, respond, resultFor, scriptedFetch, settingsOf, sse, trail, type SentRequest } from '../helpers/client-fetch.js';

const URL_ = 'https://mcp.example/mcp';
const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const IDENTITY: ClientIdentity = { clientInfo: { name: 'probe', version: '1.2.3' }, capabilities: { roots: {} } };
const SESSION = { 'mcp-session-id': 'sess-42' };

type Handler = (sent: SentRequest) => Response | Promise<Response>;
interface Server {
  readonly discover?: Handler;
  readonly initialize?: Handler;
  readonly initialized?: Handler;
  readonly remove?: Handler;
}

const initializeResult = (version = LEGACY, extra: Record<string, unknown> = {}) => ({
  protocolVersion: version,
  capabilities: { tools: {} },
  serverInfo: { name: 'legacy-server', version: '0.9' },
  instructions: 'be kind',
  ...extra,
});

/** A scripted server: by default a 2025 server with sessions that has no server/discover. */
async function run(negotiation: VersionNegotiation, server: Server = {}, options: ExchangeOptions = {}, handshake = true) {
  const { fetch, sent } = scriptedFetch((request) => {
    if (request.method === 'DELETE') return (server.remove ?? (() => empty(204)))(request);
    switch (request.rpc) {
      case 'server/discover':
        return (server.discover ?? (() => empty(404)))(request);
      case 'initialize':
        return (server.initialize ?? ((r) => json(resultFor(r, initializeResult()), { headers: SESSION })))(request);
      case 'notifications/initialized':
        return (server.initialized ?? (() => empty(202)))(request);
      default:
        throw new Error(`unexpected ${request.method} ${String(request.rpc)}`);
    }
  });
  const settings = settingsOf({ ...options, fetch });
  const session = new SessionKeeper(URL_, settings, sessionStart('client', 'legacy', undefined));
  const negotiated = await negotiate({ url: URL_, settings, identity: IDENTITY, session }, negotiation, handshake);
  return { negotiated, sent, settings, session };
}

function failureOf(negotiation: Negotiation): Failure {
  expect(negotiation.ok).toBe(false);
  return (negotiation as { failure: Failure }).failure;
}
/** What was settled, with the session the session state holds after it. */
function settled(negotiation: Negotiation, session: SessionKeeper) {
  expect(negotiation.ok).toBe(true);
  return { ...(negotiation as Extract<Negotiation, { ok: true }>).negotiated, sessionId: session.state.sessionId };
}

describe('no handshake', () => {
  test('handshake false, nothing pinned: 2025 with no version, nothing sent', async () => {
    const { negotiated, sent, session } = await run('auto', {}, {}, false);
    expect(settled(negotiated, session)).toEqual({
      era: 'legacy',
      protocolVersion: undefined,
      sessionId: undefined,
      supportedVersions: [],
      serverInfo: undefined,
      capabilities: undefined,
      instructions: undefined,
      negotiatedBy: { by: 'none' },
      handshake: undefined,
    });
    expect(sent).toEqual([]);
  });

  test("handshake false: the era of the caller's MCP-Protocol-Version", async () => {
    const { negotiated, sent, session } = await run('legacy', {}, { headers: { 'MCP-Protocol-Version': MODERN } }, false);
    expect(settled(negotiated, session)).toMatchObject({ era: 'modern', protocolVersion: MODERN, supportedVersions: [MODERN], negotiatedBy: { by: 'none' } });
    expect(sent).toEqual([]);
  });

  test('handshake false with a pin: the pinned version, said to be pinned', async () => {
    const { negotiated, sent, session } = await run({ pin: '2025-06-18' }, {}, { headers: { 'mcp-protocol-version': MODERN } }, false);
    expect(settled(negotiated, session)).toMatchObject({ era: 'legacy', protocolVersion: '2025-06-18', negotiatedBy: { by: 'pin', initialize: false } });
    expect(sent).toEqual([]);
  });

  test('a pinned 2026 version needs no handshake: nothing sent', async () => {
    const { negotiated, sent, session } = await run({ pin: MODERN });
    expect(settled(negotiated, session)).toMatchObject({ era: 'modern', protocolVersion: MODERN, sessionId: undefined, supportedVersions: [MODERN], negotiatedBy: { by: 'pin', initialize: false } });
    expect(sent).toEqual([]);
  });
});

describe("'auto'", () => {
  test('a DiscoverResult in common: modern, what the server said of itself, no initialize', async () => {
    const discovered = {
      resultType: 'complete',
      supportedVersions: ['2025-11-25', MODERN],
      capabilities: { tools: {} },
      instructions: 'hello',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'modern-server', version: '2.0' } },
    };
    const { negotiated, sent, session } = await run('auto', { discover: (r) => json(resultFor(r, discovered), { headers: { 'x-server': 'm' } }) });
    const found = settled(negotiated, session);
    expect(found).toMatchObject({
      era: 'modern',
      protocolVersion: MODERN,
      sessionId: undefined,
      supportedVersions: [MODERN, '2025-11-25'],
      serverInfo: { name: 'modern-server', version: '2.0' },
      capabilities: { tools: {} },
      instructions: 'hello',
      negotiatedBy: { by: 'discover' },
    });
    expect(found.handshake).toMatchObject({ status: 200, format: 'json' });
    expect(found.handshake!.headers.get('x-server')).toBe('m');
    expect(trail(sent)).toEqual(['POST server/discover']);
  });

  test("the probe: id 0, the 2026 _meta with the client's identity, its metadata headers", async () => {
    const { sent } = await run('auto', { discover: (r) => json(resultFor(r, { supportedVersions: [MODERN] })) });
    expect(sent[0]!.body).toEqual({
      jsonrpc: '2.0',
      id: 0,
      method: 'server/discover',
      params: {
        _meta: {
          'io.modelcontextprotocol/clientInfo': { name: 'probe', version: '1.2.3' },
          'io.modelcontextprotocol/clientCapabilities': { roots: {} },
          'io.modelcontextprotocol/protocolVersion': MODERN,
        },
      },
    });
    expect([sent[0]!.headers.get('mcp-method'), sent[0]!.headers.get('mcp-protocol-version'), sent[0]!.headers.has('mcp-session-id')]).toEqual([
      'server/discover',
      MODERN,
      false,
    ]);
  });

  test('a probe refused with a bare 4xx: the initialize handshake, then notifications/initialized with the session', async () => {
    const { negotiated, sent, session } = await run('auto', { discover: () => empty(400) });
    const found = settled(negotiated, session);
    expect(found).toMatchObject({
      era: 'legacy',
      protocolVersion: LEGACY,
      sessionId: 'sess-42',
      supportedVersions: [LEGACY],
      serverInfo: { name: 'legacy-server', version: '0.9' },
      capabilities: { tools: {} },
      instructions: 'be kind',
      negotiatedBy: { by: 'initialize', refusal: 'HTTP 400' },
    });
    expect(found.handshake?.headers.get('mcp-session-id')).toBe('sess-42');
    expect(trail(sent)).toEqual(['POST server/discover', 'POST initialize', 'POST notifications/initialized']);
    expect(sent[1]!.body).toEqual({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: LEGACY, capabilities: { roots: {} }, clientInfo: { name: 'probe', version: '1.2.3' } },
    });
    expect([sent[1]!.headers.has('mcp-session-id'), sent[1]!.headers.has('mcp-method')]).toEqual([false, false]);
    expect([sent[2]!.headers.get('mcp-session-id'), sent[2]!.headers.get('mcp-protocol-version')]).toEqual(['sess-42', LEGACY]);
    expect(sent[2]!.body).toEqual({ jsonrpc: '2.0', method: 'notifications/initialized' });
  });

  test("the probe's refusal is said in negotiatedBy, the server's text quoted", async () => {
    const { negotiated, session } = await run('auto', { discover: (r) => json({ jsonrpc: '2.0', id: r.body?.['id'], error: { code: -32601, message: 'nope' } }) });
    expect(settled(negotiated, session).negotiatedBy).toEqual({ by: 'initialize', refusal: 'HTTP 200, JSON-RPC -32601' });
  });

  test('a probe refused with UnsupportedProtocolVersion listing no version in common: no fallback; negotiation_failed, the refusal in its detail', async () => {
    const error = { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2027-01-01'] } };
    const { negotiated, sent } = await run('auto', { discover: (r) => json({ jsonrpc: '2.0', id: r.body?.['id'], error }, { status: 400 }) });
    const failure = failureOf(negotiated);
    expect([failure.code, failure.detail.status, failure.detail.answer?.['error']]).toEqual(['negotiation_failed', 400, error]);
    expect(trail(sent)).toEqual(['POST server/discover']);
  });

  test('a probe refused with a 5xx, or whose exchange failed: failed, no fallback', async () => {
    const broken = await run('auto', { discover: () => empty(503) });
    expect(failureOf(broken.negotiated).code).toBe('http_status');
    expect(trail(broken.sent)).toEqual(['POST server/discover']);
    const unreachable = await run('auto', { discover: () => Promise.reject(new TypeError('fetch failed')) });
    expect(failureOf(unreachable.negotiated)).toMatchObject({ code: 'stream_failed', detail: { reissue: true } });
    expect(trail(unreachable.sent)).toEqual(['POST server/discover']);
  });

  test('a DiscoverResult with no version in common: negotiation_failed', async () => {
    const { negotiated } = await run('auto', { discover: (r) => json(resultFor(r, { supportedVersions: ['2030-01-01'] })) });
    expect(failureOf(negotiated).code).toBe('negotiation_failed');
  });
});

describe("'legacy' and a pinned 2025 version", () => {
  test("'legacy': initialize alone, and the version the server answers with is spoken", async () => {
    const { negotiated, sent, session } = await run('legacy', { initialize: (r) => json(resultFor(r, initializeResult('2025-06-18'))) });
    expect(settled(negotiated, session)).toMatchObject({ era: 'legacy', protocolVersion: '2025-06-18', sessionId: undefined, negotiatedBy: { by: 'initialize', refusal: undefined } });
    expect(trail(sent)).toEqual(['POST initialize', 'POST notifications/initialized']);
    expect(sent[1]!.headers.get('mcp-protocol-version')).toBe('2025-06-18');
    expect(sent[1]!.headers.has('mcp-session-id')).toBe(false);
  });

  test('an initialize answered on an event stream: the handshake says so', async () => {
    const { negotiated, session } = await run('legacy', { initialize: (r) => sse([sseEvent(resultFor(r, initializeResult()), ['id: 1'])], { headers: SESSION }) });
    expect(settled(negotiated, session).handshake).toMatchObject({ status: 200, format: 'event-stream', progress: { events: 1, lastEventId: '1' } });
  });

  test('a pinned 2025 version: asked for in initialize, and accepted when answered in it', async () => {
    const { negotiated, sent, session } = await run({ pin: '2025-06-18' }, { initialize: (r) => json(resultFor(r, initializeResult('2025-06-18')), { headers: SESSION }) });
    expect(settled(negotiated, session)).toMatchObject({ era: 'legacy', protocolVersion: '2025-06-18', sessionId: 'sess-42', negotiatedBy: { by: 'pin', initialize: true } });
    expect((sent[0]!.body?.['params'] as { protocolVersion: string }).protocolVersion).toBe('2025-06-18');
  });

  test('a pinned 2025 version answered in another: negotiation_failed, and the session ended with the answered version', async () => {
    const { negotiated, sent } = await run({ pin: '2025-06-18' });
    const failure = failureOf(negotiated);
    expect(failure.code).toBe('negotiation_failed');
    expect(written(failure.message)).toBe('the server answered initialize with protocol version 2025-11-25, not the pinned 2025-06-18');
    expect(failure.detail.answer).toMatchObject({ result: { protocolVersion: LEGACY } });
    expect(trail(sent)).toEqual(['POST initialize', 'DELETE']);
    expect([sent[1]!.headers.get('mcp-session-id'), sent[1]!.headers.get('mcp-protocol-version')]).toEqual(['sess-42', LEGACY]);
  });
});

describe('a failed initialize ends the session it issued, whatever became of the body', () => {
  const cases: [string, Handler, string][] = [
    ['answered with a JSON-RPC error', (r) => json({ jsonrpc: '2.0', id: r.body?.['id'], error: { code: -32602, message: 'bad' } }, { headers: SESSION }), 'negotiation_failed'],
    ['answered in a 2026 version', (r) => json(resultFor(r, initializeResult(MODERN)), { headers: SESSION }), 'negotiation_failed'],
    ['answered without a protocol version', (r) => json(resultFor(r, { capabilities: {} }), { headers: SESSION }), 'negotiation_failed'],
    ['accepted with 202 and no answer', () => empty(202, SESSION), 'malformed_answer'],
    ['refused with 400', () => json({ jsonrpc: '2.0', id: 0, error: { code: -32600, message: 'x' } }, { status: 400, headers: SESSION }), 'http_status'],
    ['refused with 500 and no body', () => empty(500, SESSION), 'http_status'],
    ['whose body broke', () => respond(['{"jsonrpc":"2.0",'], { headers: SESSION, errorAfter: 1 }).response, 'stream_failed'],
    ['whose body is not JSON-RPC', () => respond(['<html>'], { headers: SESSION, contentType: 'text/html' }).response, 'unsupported_content_type'],
    ['whose event stream ended without the answer', () => sse([sseEvent({ jsonrpc: '2.0', method: 'notifications/message', params: {} })], { headers: SESSION }), 'malformed_answer'],
  ];

  test.each(cases)('initialize %s: the failure, then a DELETE of the session', async (_, initialize, code) => {
    const { negotiated, sent } = await run('legacy', { initialize });
    expect(failureOf(negotiated).code).toBe(code);
    expect(trail(sent)).toEqual(['POST initialize', 'DELETE']);
    expect(sent[1]!.headers.get('mcp-session-id')).toBe('sess-42');
    expect(sent[1]!.headers.has('mcp-protocol-version')).toBe(false);
  });

  test('initialize whose body outlasted the deadline: timeout, then a DELETE under a deadline of its own', async () => {
    const { negotiated, sent } = await run('legacy', { initialize: () => respond(['{"jsonrpc":"2.0",'], { headers: SESSION, endless: true }).response }, { timeoutMs: 30 });
    expect(failureOf(negotiated).code).toBe('timeout');
    expect(trail(sent)).toEqual(['POST initialize', 'DELETE']);
    expect(sent[1]!.signal!.aborted).toBe(false);
  });

  test("initialize whose body the caller aborted: aborted at once, and a DELETE sent all the same, not under the caller's signal", async () => {
    const controller = new AbortController();
    const pending = run('legacy', { initialize: () => respond(['{"jsonrpc":"2.0",'], { headers: SESSION, endless: true }).response, remove: () => new Promise(() => undefined) }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('enough')), 20);
    const { negotiated, sent } = await pending; // resolves though the DELETE never answers
    expect(failureOf(negotiated).code).toBe('aborted');
    await vi.waitFor(() => expect(trail(sent)).toEqual(['POST initialize', 'DELETE']));
    expect(sent[1]!.headers.get('mcp-session-id')).toBe('sess-42');
    expect(sent[1]!.signal!.aborted).toBe(false);
  });

  test('a JSON-RPC error answer is quoted in the failure, and kept in detail.answer', async () => {
    const answer = { jsonrpc: '2.0', id: 0, error: { code: -32602, message: 'bad' } };
    const { negotiated } = await run('legacy', { initialize: () => json(answer) });
    const failure = failureOf(negotiated);
    expect(written(failure.message)).toBe(`the server did not accept initialize: ${JSON.stringify(JSON.stringify(answer))}`);
    expect(failure.detail.answer).toEqual(answer);
  });

  test('notifications/initialized refused: the failure, then a DELETE with the answered version', async () => {
    const { negotiated, sent } = await run('legacy', { initialized: () => empty(400) });
    expect(failureOf(negotiated)).toMatchObject({ code: 'http_status', detail: { status: 400 } });
    expect(trail(sent)).toEqual(['POST initialize', 'POST notifications/initialized', 'DELETE']);
    expect(sent[2]!.headers.get('mcp-protocol-version')).toBe(LEGACY);
  });

  test('no session issued: no DELETE', async () => {
    const { negotiated, sent } = await run('legacy', { initialize: () => empty(500) });
    expect(failureOf(negotiated).code).toBe('http_status');
    expect(trail(sent)).toEqual(['POST initialize']);
  });

  test('the failure is the handshake\'s, even when the DELETE fails too', async () => {
    const { negotiated, sent } = await run('legacy', { initialize: () => empty(500, SESSION), remove: () => Promise.reject(new TypeError('fetch failed')) });
    expect(failureOf(negotiated)).toMatchObject({ code: 'http_status', detail: { status: 500 } });
    expect(trail(sent)).toEqual(['POST initialize', 'DELETE']);
  });
});
