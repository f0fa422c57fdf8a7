/**
 * end-session.ts: `endSession`, the DELETE that ends a 2025 session, as a value — its headers
 * (the caller's, `Mcp-Session-Id`, `MCP-Protocol-Version` when known), `ended` for 2xx and 405,
 * `failed` for any other status, a failed request, a redirect not followed, the deadline or a
 * signal; its body released either way. The DELETE under AnswerTransport.close() is in
 * answer-transport*.test.ts, exchange-network.test.ts and auth.test.ts (its token).
 */

import { describe, expect, test } from 'vitest';
import { endAbandonedSession, endSession, type SessionEnd } from '../../src/client/end-session.js';
import type { ExchangeOptions } from '../../src/client/exchange-options.js';
import { written, type Failure } from '../../src/vocabulary/failure.js';
import { nextTurn } from '../helpers/bodies.js';
import { empty, headersObject, never, respond, scriptedFetch, settingsOf, trail, type Script } from '../helpers/client-fetch.js';

const URL_ = 'https://mcp.example/mcp';

function ending(script: Script, options: ExchangeOptions = {}) {
  const { fetch, sent } = scriptedFetch(script);
  return { settings: settingsOf({ ...options, fetch }), sent };
}

const failureOf = (end: SessionEnd): Failure => {
  expect(end.kind).toBe('failed');
  return (end as { failure: Failure }).failure;
};

test("a DELETE to the URL with the caller's headers, the session id and the version; no body", async () => {
  const { settings, sent } = ending(() => empty(204), { headers: { 'x-tenant': 't1', 'mcp-session-id': 'stale' } });
  expect(await endSession(URL_, settings, 'sess-1', '2025-11-25')).toEqual({ kind: 'ended', status: 204 });
  expect(trail(sent)).toEqual(['DELETE']);
  expect(sent[0]!.url).toBe(URL_);
  expect(sent[0]!.init.body).toBeNull();
  expect(headersObject(sent[0]!.headers)).toEqual({ 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': 'sess-1', 'x-tenant': 't1' });
});

test('no version known: no MCP-Protocol-Version, unless the caller sent one', async () => {
  const bare = ending(() => empty(200));
  await endSession(URL_, bare.settings, 's', undefined);
  expect(bare.sent[0]!.headers.has('mcp-protocol-version')).toBe(false);
  const own = ending(() => empty(200), { headers: { 'mcp-protocol-version': '2025-06-18' } });
  await endSession(URL_, own.settings, 's', undefined);
  expect(own.sent[0]!.headers.get('mcp-protocol-version')).toBe('2025-06-18');
});

describe('what it comes to', () => {
  test.each([200, 202, 204, 299, 405])('%i: ended, with that status', async (status) => {
    const { settings } = ending(() => empty(status));
    expect(await endSession(URL_, settings, 's', undefined)).toEqual({ kind: 'ended', status });
  });

  test.each([400, 401, 404, 500])('%i: failed, http_status with the status and the content type', async (status) => {
    const made = respond(['{"error":"x"}'], { status });
    const { settings } = ending(() => made.response);
    const failure = failureOf(await endSession(URL_, settings, 's', undefined));
    expect(failure.code).toBe('http_status');
    expect(failure.detail).toMatchObject({ status, contentType: 'application/json', bytesRead: 0, answer: undefined });
    expect(written(failure.message)).toMatch(new RegExp(`^the server answered HTTP ${status}`));
    expect(await made.source.released).toBe('cancelled');
  });

  test("a 2xx's body is released unread", async () => {
    const made = respond(['{"bye":true}'], { status: 200 });
    const { settings } = ending(() => made.response);
    await endSession(URL_, settings, 's', undefined);
    expect(await made.source.released).toBe('cancelled');
    expect(made.source.delivered).toBe(0);
  });

  test('a fetch that fails: failed, stream_failed with its cause', async () => {
    const error = new TypeError('fetch failed');
    const { settings } = ending(() => Promise.reject(error));
    const failure = failureOf(await endSession(URL_, settings, 's', undefined));
    expect([failure.code, failure.cause]).toEqual(['stream_failed', error]);
    expect(written(failure.message)).toBe('the DELETE request got no response: TypeError: fetch failed');
  });

  test('a redirect to another origin is not followed: failed, http_status with the Location', async () => {
    const { settings, sent } = ending(() => empty(307, { location: 'https://elsewhere.example/mcp' }));
    const failure = failureOf(await endSession(URL_, settings, 's', undefined));
    expect(failure.detail).toMatchObject({ status: 307, location: 'https://elsewhere.example/mcp' });
    expect(sent).toHaveLength(1);
  });
});

describe('its deadline and signals', () => {
  test("an aborted settings signal, or an aborted extra signal: failed, aborted, nothing sent", async () => {
    const reason = new Error('closing');
    const viaSettings = ending(() => empty(200), { signal: AbortSignal.abort(reason) });
    const first = failureOf(await endSession(URL_, viaSettings.settings, 's', undefined));
    expect([first.code, first.cause, viaSettings.sent.length]).toEqual(['aborted', reason, 0]);
    const viaExtra = ending(() => empty(200));
    const second = failureOf(await endSession(URL_, viaExtra.settings, 's', undefined, [undefined, AbortSignal.abort(reason)]));
    expect([second.code, viaExtra.sent.length]).toEqual(['aborted', 0]);
    expect(written(second.message)).toBe('the exchange was aborted: Error: closing');
  });

  test('an extra signal that aborts while the DELETE waits ends it', async () => {
    const controller = new AbortController();
    const { settings, sent } = ending(() => never());
    const pending = endSession(URL_, settings, 's', undefined, [controller.signal]);
    await nextTurn();
    controller.abort(new Error('give up'));
    expect(failureOf(await pending).code).toBe('aborted');
    expect(sent[0]!.signal!.aborted).toBe(true);
  });

  test('the deadline of the settings bounds it: timeout', async () => {
    const { settings } = ending(() => never(), { timeoutMs: 5 });
    expect(failureOf(await endSession(URL_, settings, 's', undefined)).code).toBe('timeout');
  });
});

describe('endAbandonedSession: a DELETE under its own deadline, whatever the caller aborted', () => {
  test("sent with the caller's signal already aborted, and never rejects", async () => {
    const { fetch, sent } = scriptedFetch(() => Promise.reject(new TypeError('fetch failed')));
    const settings = settingsOf({ fetch, signal: AbortSignal.abort(new Error('gone')) });
    await expect(endAbandonedSession(URL_, settings, 's-1', undefined)).resolves.toMatchObject({ kind: 'failed' });
    expect(trail(sent)).toEqual(['DELETE']);
    expect(sent[0]!.signal!.aborted).toBe(false);
  });
});
