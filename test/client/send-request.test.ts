/**
 * send-request.ts: one HTTP request of an exchange, and every way it can end as a value — the
 * response; `unanswered` (fetch rejected or threw, or resolved with no Response); `failed` (the
 * signal, a redirect not followed, and why). What fetch is asked (`redirect: 'manual'`, the
 * exchange's signal), the redirects followed (307/308 within the origin, at most five, with the
 * same method, headers and body) and each refusal's wording and detail. Also `release`. The same
 * rules over real connections are in exchange-network.test.ts; `untilAborted` is abort-watch's,
 * tested in abort-signals.test.ts.
 */

import { describe, expect, test } from 'vitest';
import { MAX_REDIRECTS, release, sendRequest, type RequestRoute, type Sent } from '../../src/client/send-request.js';
import { nothingRead, written, type Failure } from '../../src/vocabulary/failure.js';
import { nextTurn } from '../helpers/bodies.js';
import { empty, never, respond, scriptedFetch, trail, type Script } from '../helpers/client-fetch.js';
import { listenersOn } from '../helpers/signals.js';

const URL_ = 'https://mcp.example/a/mcp';
const DETAIL = nothingRead(1234);
const POST = { method: 'POST', headers: new Headers({ 'x-a': '1' }), body: '{"jsonrpc":"2.0","id":1,"method":"m"}' } as const;

function route(script: Script, extra: Partial<RequestRoute> = {}) {
  const { fetch, sent } = scriptedFetch(script);
  return { route: { fetch, url: URL_, signal: new AbortController().signal, redirect: 'same-origin', detail: DETAIL, ...extra } as RequestRoute, sent };
}

function failureOf(sent: Sent, kind: 'unanswered' | 'failed'): Failure {
  expect(sent.kind).toBe(kind);
  return (sent as { failure: Failure }).failure;
}

const redirect = (status: number, location?: string): Response => empty(status, location === undefined ? {} : { location });

describe('the request', () => {
  test("fetch is given the method, headers, body, the exchange's signal and redirect: 'manual'", async () => {
    const signal = new AbortController().signal;
    const answer = empty(200);
    const { route: r, sent } = route(() => answer, { signal });
    const result = await sendRequest(r, POST);
    expect(result).toEqual({ kind: 'response', response: answer });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe(URL_);
    expect(sent[0]!.init).toMatchObject({ method: 'POST', body: POST.body, redirect: 'manual' });
    expect(sent[0]!.init.signal).toBe(signal);
    expect(sent[0]!.headers.get('x-a')).toBe('1');
  });

  test('a request without a body sends a null body', async () => {
    const { route: r, sent } = route(() => empty(200));
    await sendRequest(r, { method: 'DELETE', headers: new Headers() });
    expect(sent[0]!.init.body).toBeNull();
  });

  test('any status that is not a redirect is the response, unread', async () => {
    for (const status of [200, 202, 400, 404, 500]) {
      const made = respond(['body'], { status });
      const { route: r } = route(() => made.response);
      const result = await sendRequest(r, POST);
      expect(result.kind === 'response' && result.response.status).toBe(status);
      expect(made.source.pulls).toBe(0);
    }
  });
});

describe('no response: unanswered, with the cause', () => {
  test('a fetch that rejects for a refused connection: connect_failed, unsent, the host and port named', async () => {
    const error = new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }) });
    const { route: r } = route(() => Promise.reject(error));
    const sent = await sendRequest(r, POST);
    const failure = failureOf(sent, 'unanswered');
    expect(sent.kind === 'unanswered' && sent.unsent).toBe(true);
    expect(failure).toMatchObject({ code: 'connect_failed', detail: DETAIL, cause: error, hasCause: true });
    expect(written(failure.message)).toBe('could not connect to mcp.example:443: the connection was refused (ECONNREFUSED); is the server running?');
  });

  test('a fetch that rejects saying nothing the package reads: stream_failed, its error and its own cause described', async () => {
    const error = new TypeError('fetch failed', { cause: new Error('something odd') });
    const { route: r } = route(() => Promise.reject(error));
    const sent = await sendRequest(r, POST);
    const failure = failureOf(sent, 'unanswered');
    expect(sent.kind === 'unanswered' && sent.unsent).toBe(false);
    expect(failure).toMatchObject({ code: 'stream_failed', detail: DETAIL, cause: error, hasCause: true });
    expect(written(failure.message)).toBe('the POST request got no response: TypeError: fetch failed (Error: something odd)');
  });

  test('a fetch that throws synchronously', async () => {
    const error = new Error('sync');
    const r: RequestRoute = {
      fetch: () => {
        throw error;
      },
      url: URL_,
      signal: new AbortController().signal,
      redirect: 'same-origin',
      detail: DETAIL,
    };
    const failure = failureOf(await sendRequest(r, { method: 'GET', headers: new Headers() }), 'unanswered');
    expect([failure.code, failure.cause, written(failure.message)]).toEqual(['stream_failed', error, 'the GET request got no response: Error: sync']);
  });

  test.each([
    ['undefined', undefined],
    ['a plain object', { ok: true }],
    ['an object without headers', { status: 200 }],
  ])('a fetch that resolves with %s: a TypeError as the cause', async (_, value) => {
    const { route: r } = route(() => value as never);
    const failure = failureOf(await sendRequest(r, POST), 'unanswered');
    expect(failure.code).toBe('stream_failed');
    expect(failure.cause).toBeInstanceOf(TypeError);
    expect(String((failure.cause as Error).message)).toMatch(/^what fetch resolved with must be a Response, got /);
  });
});

describe('the signal', () => {
  test('aborted while fetch hangs: failed, aborted, with the reason; the listener removed', async () => {
    const controller = new AbortController();
    const { route: r } = route(() => never(), { signal: controller.signal });
    const pending = sendRequest(r, POST);
    await nextTurn();
    const reason = new Error('stop');
    controller.abort(reason);
    const failure = failureOf(await pending, 'failed');
    expect([failure.code, failure.cause, failure.detail]).toEqual(['aborted', reason, DETAIL]);
    expect(listenersOn(controller.signal)).toBe(0);
  });

  test('a TimeoutError reason is a timeout', async () => {
    const controller = new AbortController();
    const { route: r } = route(() => never(), { signal: controller.signal });
    const pending = sendRequest(r, POST);
    controller.abort(new DOMException('late', 'TimeoutError'));
    expect(failureOf(await pending, 'failed').code).toBe('timeout');
  });

  test('a response that comes after the abort is released', async () => {
    const controller = new AbortController();
    let resolve!: (response: Response) => void;
    const made = respond(['late body']);
    const { route: r } = route(() => new Promise<Response>((done) => (resolve = done)), { signal: controller.signal });
    const pending = sendRequest(r, POST);
    await nextTurn();
    controller.abort(new Error('stop'));
    expect(failureOf(await pending, 'failed').code).toBe('aborted');
    resolve(made.response);
    expect(await made.source.released).toBe('cancelled');
  });
});

describe('redirects', () => {
  test.each([307, 308])('%i within the origin is followed, relative Location resolved, the same request re-sent', async (status) => {
    const { route: r, sent } = route((_, i) => (i === 0 ? redirect(status, '../b/mcp?x=1') : empty(200)));
    const result = await sendRequest(r, POST);
    expect(result.kind === 'response' && result.response.status).toBe(200);
    expect(sent.map((s) => [s.url, s.method, s.init.body, s.headers.get('x-a')])).toEqual([
      [URL_, 'POST', POST.body, '1'],
      ['https://mcp.example/b/mcp?x=1', 'POST', POST.body, '1'],
    ]);
  });

  test('the redirect response is released', async () => {
    const made = respond(['moved'], { status: 307, headers: { location: '/other' } });
    const { route: r } = route((_, i) => (i === 0 ? made.response : empty(200)));
    await sendRequest(r, POST);
    expect(await made.source.released).toBe('cancelled');
  });

  test(`at most ${MAX_REDIRECTS} are followed: the next is refused, with its status and Location`, async () => {
    expect(MAX_REDIRECTS).toBe(5);
    const { route: r, sent } = route((_, i) => redirect(307, `/hop${i + 1}`));
    const failure = failureOf(await sendRequest(r, POST), 'failed');
    expect(sent).toHaveLength(6);
    expect(failure.code).toBe('http_status');
    expect(failure.detail).toMatchObject({ status: 307, location: '/hop6', maxBytes: 1234 });
    expect(written(failure.message)).toBe('the server redirected the POST with HTTP 307 to "/hop6", not followed: after 5 redirects');
  });

  test.each([
    [307, 'https://evil.example/mcp', 'to another origin'],
    [308, 'http://mcp.example/a/mcp', 'to another origin'],
    [307, undefined, 'without a Location'],
    [301, '/a/mcp2', 'that would not keep the method and body (only 307 and 308 are followed)'],
    [302, '/a/mcp2', 'that would not keep the method and body (only 307 and 308 are followed)'],
    [303, '/a/mcp2', 'that would not keep the method and body (only 307 and 308 are followed)'],
    [300, undefined, 'that would not keep the method and body (only 307 and 308 are followed)'],
  ])('%i to %s: refused %s, nothing sent there', async (status, location, why) => {
    const { route: r, sent } = route(() => redirect(status, location));
    const failure = failureOf(await sendRequest(r, POST), 'failed');
    expect(trail(sent)).toEqual(['POST m']);
    expect(failure.detail).toMatchObject({ status, location });
    const to = location === undefined ? '' : ` to "${location}"`;
    expect(written(failure.message)).toBe(`the server redirected the POST with HTTP ${status}${to}, not followed: ${why}`);
  });

  test("redirect: 'error' refuses a 307 within the origin", async () => {
    const { route: r, sent } = route(() => redirect(307, '/a/other'), { redirect: 'error' });
    const failure = failureOf(await sendRequest(r, POST), 'failed');
    expect(sent).toHaveLength(1);
    expect(written(failure.message)).toMatch(/not followed: redirects are refused \(redirect: "error"\)$/);
  });

  test("a browser's opaque redirect (no status, no headers) is refused as a 3xx", async () => {
    const opaque = { type: 'opaqueredirect', status: 0, headers: new Headers(), body: null } as unknown as Response;
    const { route: r } = route(() => opaque);
    const failure = failureOf(await sendRequest(r, POST), 'failed');
    expect(failure.detail).toMatchObject({ status: 0, location: undefined, contentType: null });
    expect(written(failure.message)).toBe('the server redirected the POST with HTTP 3xx, not followed: that would not keep the method and body (only 307 and 308 are followed)');
  });
});

describe('release', () => {
  const bare = { onRelease: undefined } as unknown as RequestRoute;

  test("cancels a response's body; a response without one, or with a locked one, is fine", async () => {
    const made = respond(['x']);
    release(bare, made.response);
    expect(await made.source.released).toBe('cancelled');
    expect(() => release(bare, empty(204))).not.toThrow();
    const locked = respond(['y']);
    locked.response.body!.getReader();
    expect(() => release(bare, locked.response)).not.toThrow();
    await nextTurn();
    expect(locked.source.cancelled).toBe(false);
  });

  test("shows the route the response first (its headers may carry a session to end)", () => {
    const shown: Response[] = [];
    const made = respond(['x']);
    release({ onRelease: (response: Response) => shown.push(response) } as unknown as RequestRoute, made.response);
    expect(shown).toEqual([made.response]);
  });
});

describe('the responses released on the way are shown to the route', () => {
  test('each followed redirect and a refused one; never the response handed back', async () => {
    const shown: number[] = [];
    const onRelease = (response: Response) => shown.push(response.status);
    const followed = route((_, i) => (i === 0 ? redirect(307, '/b') : i === 1 ? redirect(308, '/c') : empty(200)), { onRelease });
    expect((await sendRequest(followed.route, POST)).kind).toBe('response');
    expect(shown).toEqual([307, 308]);
    shown.length = 0;
    const refused = route(() => redirect(307, 'https://elsewhere.example/'), { onRelease });
    expect((await sendRequest(refused.route, POST)).kind).toBe('failed');
    expect(shown).toEqual([307]);
  });

  test('a response that comes after the abort', async () => {
    const shown: Response[] = [];
    const controller = new AbortController();
    let answer: (response: Response) => void = () => undefined;
    const { route: r } = route(() => new Promise<Response>((resolve) => (answer = resolve)), { signal: controller.signal, onRelease: (response) => shown.push(response) });
    const pending = sendRequest(r, POST);
    controller.abort(new Error('stop'));
    expect((await pending).kind).toBe('failed');
    const late = empty(200, { 'mcp-session-id': 'late' });
    answer(late);
    await nextTurn();
    expect(shown).toEqual([late]);
  });
});
