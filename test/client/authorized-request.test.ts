/**
 * authorized-request.ts: `sendAuthorized`, one request with the exchange's bearer token — set
 * here and nowhere else, each token sent joining the exchange's secrets, the caller's headers
 * never changed; on a 401, `onUnauthorized` awaited with its context and the request sent once
 * more; what comes back then (a second 401 too) handed to the caller as the response. Its use by
 * every exchange (POST, resumption GET, DELETE), deadlines and redaction end to end is
 * auth.test.ts; this file calls `sendAuthorized` itself.
 */

import { describe, expect, test } from 'vitest';
import type { AuthProvider, UnauthorizedContext } from '../../src/client/auth-provider.js';
import { sendAuthorized, type AuthorizedRoute } from '../../src/client/authorized-request.js';
import type { Sent } from '../../src/client/send-request.js';
import { nothingRead, written, type Failure } from '../../src/vocabulary/failure.js';
import { Secrets } from '../../src/vocabulary/secrets.js';
import { nextTurn } from '../helpers/bodies.js';
import { empty, never, respond, scriptedFetch, type Script } from '../helpers/client-fetch.js';

const URL_ = 'https://mcp.example/mcp';
const TOKEN = 'tok-0123456789abcdef';

function route(script: Script, authProvider: AuthProvider | undefined, signal = new AbortController().signal) {
  const { fetch, sent } = scriptedFetch(script);
  const r: AuthorizedRoute = { fetch, url: URL_, signal, redirect: 'same-origin', detail: nothingRead(100), authProvider, secrets: new Secrets() };
  return { route: r, sent };
}

const POST = () => ({ method: 'POST', headers: new Headers({ 'x-caller': 'mine' }), body: '{}' }) as const;
const statusOf = (sent: Sent): number | undefined => (sent.kind === 'response' ? sent.response.status : undefined);
const failureOf = (sent: Sent): Failure => {
  expect(sent.kind).toBe('failed');
  return (sent as { failure: Failure }).failure;
};

describe('the token', () => {
  test('without a provider, the request goes as given: no Authorization added', async () => {
    const { route: r, sent } = route(() => empty(200), undefined);
    const request = { method: 'POST', headers: new Headers({ authorization: 'Bearer callers-own' }), body: '{}' } as const;
    expect(statusOf(await sendAuthorized(r, request))).toBe(200);
    expect(sent[0]!.headers.get('authorization')).toBe('Bearer callers-own');
    expect(r.secrets.empty).toBe(true);
  });

  test("Bearer <token> on the request, the caller's headers kept and never changed, the token a secret", async () => {
    const { route: r, sent } = route(() => empty(200), { token: async () => TOKEN });
    const request = POST();
    await sendAuthorized(r, request);
    expect([sent[0]!.headers.get('authorization'), sent[0]!.headers.get('x-caller')]).toEqual([`Bearer ${TOKEN}`, 'mine']);
    expect(request.headers.has('authorization')).toBe(false);
    expect(r.secrets.redact(`echo ${TOKEN}`)).toBe('echo [redacted]');
  });

  test.each([undefined, ''])('a token() of %j sends no Authorization', async (token) => {
    const { route: r, sent } = route(() => empty(200), { token: async () => token });
    await sendAuthorized(r, POST());
    expect(sent[0]!.headers.has('authorization')).toBe(false);
  });

  test('a token no header can carry is not sent and not quoted', async () => {
    const bad = 'has space-0123456789';
    const { route: r, sent } = route(() => empty(200), { token: async () => bad });
    const failure = failureOf(await sendAuthorized(r, POST()));
    expect(sent).toHaveLength(0);
    expect(failure.code).toBe('stream_failed');
    expect(written(failure.message)).toBe(
      'the POST request was not sent: authProvider.token() must resolve with a bearer token (visible ASCII) or undefined, got 20 characters a header cannot carry',
    );
    expect(failure.hasCause).toBeUndefined();
  });

  test('a token that is not a string is described', async () => {
    const { route: r } = route(() => empty(200), { token: async () => 42 as never });
    expect(written(failureOf(await sendAuthorized(r, { method: 'GET', headers: new Headers() })).message)).toMatch(/^the GET request was not sent: .*, got 42$/);
  });

  test("a token() that fails: stream_failed with its error as the cause, nothing sent", async () => {
    const error = new Error('vault down');
    const { route: r, sent } = route(() => empty(200), { token: () => Promise.reject(error) });
    const failure = failureOf(await sendAuthorized(r, POST()));
    expect([failure.code, failure.cause, sent.length]).toEqual(['stream_failed', error, 0]);
    expect(written(failure.message)).toBe('the POST request was not sent: authProvider.token() failed: Error: vault down');
  });

  test('a token() still pending when the signal aborts: aborted, nothing sent', async () => {
    const controller = new AbortController();
    const { route: r, sent } = route(() => empty(200), { token: () => never() }, controller.signal);
    const pending = sendAuthorized(r, POST());
    await nextTurn();
    controller.abort(new Error('stop'));
    expect(failureOf(await pending).code).toBe('aborted');
    expect(sent).toHaveLength(0);
  });
});

describe('a 401', () => {
  test('without onUnauthorized: the 401 is the response, for the caller to read', async () => {
    const { route: r, sent } = route(() => empty(401), { token: async () => TOKEN });
    expect(statusOf(await sendAuthorized(r, POST()))).toBe(401);
    expect(sent).toHaveLength(1);
  });

  test('onUnauthorized is awaited with its context, then the request is sent once more with a fresh token', async () => {
    const tokens = ['first-token-0123', 'second-token-0123'];
    const contexts: UnauthorizedContext[] = [];
    const provider: AuthProvider = {
      token: async () => tokens[contexts.length],
      onUnauthorized: async (context) => {
        contexts.push(context);
      },
    };
    const first = respond(['{}'], { status: 401 });
    const { route: r, sent } = route((_, i) => (i === 0 ? first.response : empty(200)), provider);
    expect(statusOf(await sendAuthorized(r, POST()))).toBe(200);
    expect(sent.map((s) => s.headers.get('authorization'))).toEqual(['Bearer first-token-0123', 'Bearer second-token-0123']);
    expect(sent[1]!.init.body).toBe('{}');
    expect(contexts).toHaveLength(1);
    expect(contexts[0]!.response).toBe(first.response);
    expect(contexts[0]!.serverUrl).toEqual(new URL(URL_));
    expect(await first.source.released).toBe('cancelled');
    expect(r.secrets.redact('first-token-0123 second-token-0123')).toBe('[redacted] [redacted]');
  });

  test('a second 401 is the response: retried once only', async () => {
    let calls = 0;
    const provider: AuthProvider = { token: async () => TOKEN, onUnauthorized: async () => void (calls += 1) };
    const { route: r, sent } = route(() => empty(401), provider);
    expect(statusOf(await sendAuthorized(r, POST()))).toBe(401);
    expect([sent.length, calls]).toEqual([2, 1]);
  });

  test("the context's fetchFn is the exchange's fetch: the exchange's signal unless the provider gives its own", async () => {
    const controller = new AbortController();
    let context: UnauthorizedContext | undefined;
    const provider: AuthProvider = { token: async () => TOKEN, onUnauthorized: async (given) => void (context = given) };
    const { route: r, sent } = route((_, i) => (i === 0 ? empty(401) : empty(200)), provider, controller.signal);
    await sendAuthorized(r, POST());
    const own = new AbortController().signal;
    await context!.fetchFn('https://as.example/token', { method: 'POST' });
    await context!.fetchFn('https://as.example/meta', { signal: own });
    const [, , tokenRequest, metaRequest] = sent;
    expect([tokenRequest!.url, tokenRequest!.signal, tokenRequest!.headers.has('authorization')]).toEqual(['https://as.example/token', controller.signal, false]);
    expect(metaRequest!.signal).toBe(own);
  });

  test('an onUnauthorized that fails: the 401 as http_status, its error the cause, nothing retried, the body released', async () => {
    const error = new Error('refresh refused');
    const first = respond(['{}'], { status: 401, headers: { 'www-authenticate': 'Bearer error="invalid_token"' } });
    const { route: r, sent } = route(() => first.response, { token: async () => TOKEN, onUnauthorized: () => Promise.reject(error) });
    const failure = failureOf(await sendAuthorized(r, POST()));
    expect([failure.code, failure.detail.status, failure.cause, sent.length]).toEqual(['http_status', 401, error, 1]);
    expect(written(failure.message)).toBe('the server answered HTTP 401 (Bearer error "invalid_token"), and authProvider.onUnauthorized failed: Error: refresh refused');
    expect(await first.source.released).toBe('cancelled');
  });

  test('403 is not retried: it is the response', async () => {
    let calls = 0;
    const { route: r, sent } = route(() => empty(403), { token: async () => TOKEN, onUnauthorized: async () => void (calls += 1) });
    expect(statusOf(await sendAuthorized(r, POST()))).toBe(403);
    expect([sent.length, calls]).toEqual([1, 0]);
  });
});
