/**
 * exchange.ts: one exchange as a value. `planMessage` decides everything before anything is
 * sent — the request id (one rule), the method, the era (the plan's version: the sender decides it),
 * the session (2025 only) and the headers of the POST and of a resumption GET. `runExchange`
 * comes to one outcome: `answered`, `accepted`, `refused` (with the server's JSON-RPC error) or
 * `failed` — and in 2026-07-28 a request whose response broke, ended early or never came is lost
 * (`stream_failed`, `detail.reissue`). The same rules through postJsonRpc, against real servers
 * and every status, are in post-json-rpc.test.ts and exchange-network.test.ts.
 */

import { describe, expect, test } from 'vitest';
import type { ExchangeOptions, ExchangeSettings } from '../../src/client/exchange-options.js';
import { planMessage, runExchange, type ExchangeExtras, type ExchangeOutcome, type MessagePlan, type PlannedMessage } from '../../src/client/exchange.js';
import { sessionStart } from '../../src/client/session.js';
import { SessionKeeper } from '../../src/client/session-keeper.js';
import { AnswerError } from '../../src/vocabulary/errors.js';
import { answerError, written, type Failure } from '../../src/vocabulary/failure.js';
import type { JsonRpcMessage } from '../../src/vocabulary/json-rpc.js';
import { sseEvent } from '../helpers/bodies.js';
import { empty, headersObject, json, never, respond, resultFor, scriptedFetch, settingsOf, sse, trail, type Script, type SentRequest } from '../helpers/client-fetch.js';

const URL_ = 'https://mcp.example/mcp';
const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const META = { 'io.modelcontextprotocol/protocolVersion': MODERN };
const REQUEST = { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'echo' } };
const MODERN_REQUEST = { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'echo', _meta: META } };
const ANSWER = { jsonrpc: '2.0', id: 5, result: { ok: true } };
const NOTE = { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } };

const plan = (message: unknown, options: ExchangeOptions = {}, messagePlan?: MessagePlan) => planMessage(message, settingsOf(options), messagePlan);

/** The session state an exchange reports to, as postJsonRpc's: the caller holds the session (from the headers). */
function callerSession(settings: ExchangeSettings, planned: PlannedMessage): SessionKeeper {
  return new SessionKeeper(URL_, settings, sessionStart('caller', planned.era, planned.version, planned.sessionId));
}

/** runExchange with the session state postJsonRpc gives it. */
function runAsCaller(settings: ExchangeSettings, message: object, messagePlan?: MessagePlan, extras: Omit<ExchangeExtras, 'session'> = {}): Promise<ExchangeOutcome> {
  const planned = planMessage(message, settings, messagePlan);
  return runExchange(URL_, settings, planned, { ...extras, session: callerSession(settings, planned) });
}

async function exchange(message: object, script: Script, options: ExchangeOptions = {}, messagePlan?: MessagePlan, onMessage?: (m: JsonRpcMessage) => void) {
  const { fetch, sent } = scriptedFetch(script);
  const settings = settingsOf({ ...options, fetch });
  const planned = planMessage(message, settings, messagePlan);
  const outcome = await runExchange(URL_, settings, planned, { onMessage, session: callerSession(settings, planned) });
  return { outcome, sent };
}

function failureOf(outcome: ExchangeOutcome): Failure {
  expect(outcome.kind).toBe('failed');
  return (outcome as { failure: Failure }).failure;
}

describe('planMessage', () => {
  test.each([['a string', 'x'], ['null', null], ['an array', [REQUEST]], ['a number', 1]])('%s is no message: TypeError', (_, message) => {
    expect(() => plan(message)).toThrow(TypeError);
    expect(() => plan(message)).toThrow(/^message must be a JSON-RPC message object, got /);
  });

  test('a request: its id and method; the body is the message as JSON, the message kept as given', () => {
    const planned = plan(REQUEST);
    expect(planned).toMatchObject({ requestId: 5, method: 'tools/call', era: 'legacy', version: undefined, sessionId: undefined });
    expect(planned.message).toBe(REQUEST);
    expect(planned.body).toBe(JSON.stringify(REQUEST));
  });

  test('a notification and a response have no request id; a response no method', () => {
    expect(plan({ jsonrpc: '2.0', method: 'notifications/initialized' })).toMatchObject({ requestId: undefined, method: 'notifications/initialized' });
    expect(plan({ jsonrpc: '2.0', id: 3, result: {} })).toMatchObject({ requestId: undefined, method: undefined });
  });

  test("the request id's one rule: a string or an integer", () => {
    expect(plan({ jsonrpc: '2.0', id: 'abc', method: 'm' }).requestId).toBe('abc');
    expect(() => plan({ jsonrpc: '2.0', id: null, method: 'm' })).toThrow(new TypeError('message.id must be a string or a number, got null'));
    expect(() => plan({ jsonrpc: '2.0', id: true, method: 'm' })).toThrow(TypeError);
    expect(() => plan({ jsonrpc: '2.0', id: NaN, method: 'm' })).toThrow(RangeError);
    expect(() => plan({ jsonrpc: '2.0', id: Infinity, method: 'm' })).toThrow(RangeError);
    expect(() => plan({ jsonrpc: '2.0', id: 1.5, method: 'm' })).toThrow(new RangeError('message.id must be an integer, got 1.5'));
    expect(plan({ jsonrpc: '2.0', id: -0, method: 'm' }).requestId).toBe(-0);
  });

  test('2025: the session and the version on the POST and on the GET; Accept and Content-Type on the POST only', () => {
    const planned = plan(REQUEST, { headers: { 'x-a': '1', accept: 'text/html', 'content-type': 'text/plain' } }, { version: LEGACY, sessionId: 's1' });
    expect(planned).toMatchObject({ era: 'legacy', version: LEGACY, sessionId: 's1' });
    expect(headersObject(planned.headers)).toEqual({
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': LEGACY,
      'mcp-session-id': 's1',
      'x-a': '1',
    });
    expect(headersObject(planned.streamHeaders)).toEqual({ accept: 'text/html', 'content-type': 'text/plain', 'mcp-protocol-version': LEGACY, 'mcp-session-id': 's1', 'x-a': '1' });
  });

  test("2025 with no version nor session in the plan: the caller's own headers carry them", () => {
    const planned = plan(REQUEST, { headers: { 'mcp-session-id': 'own', 'mcp-protocol-version': '2025-06-18' } });
    expect([planned.headers.get('mcp-session-id'), planned.headers.get('mcp-protocol-version')]).toEqual(['own', '2025-06-18']);
  });

  test("2026-07-28 from the plan's version: the metadata headers mirrored from the body, and no session at all", () => {
    const planned = plan(MODERN_REQUEST, { headers: { 'mcp-session-id': 'callers', 'mcp-method': 'wrong' } }, { version: MODERN, sessionId: 's1' });
    expect(planned).toMatchObject({ era: 'modern', version: MODERN, sessionId: undefined });
    expect(headersObject(planned.headers)).toEqual({
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-method': 'tools/call',
      'mcp-name': 'echo',
      'mcp-protocol-version': MODERN,
    });
  });

  test("the plan's version decides, whatever the message declares: it is not read again", () => {
    const planned = plan(MODERN_REQUEST, {}, { version: LEGACY, sessionId: 's1' });
    expect(planned).toMatchObject({ era: 'legacy', version: LEGACY, sessionId: 's1' });
    expect([planned.headers.get('mcp-protocol-version'), planned.headers.get('mcp-session-id'), planned.headers.has('mcp-method')]).toEqual([LEGACY, 's1', false]);
  });

  test("2026-07-28 from the plan's version, for a message that declares none", () => {
    const planned = plan({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }, {}, { version: MODERN });
    expect(planned.era).toBe('modern');
    expect([planned.headers.get('mcp-protocol-version'), planned.headers.get('mcp-method')]).toEqual([MODERN, 'notifications/cancelled']);
  });

  test('2026-07-28: a response has no metadata to mirror', () => {
    const planned = plan({ jsonrpc: '2.0', id: 1, result: {} }, {}, { version: MODERN });
    expect([planned.era, planned.headers.has('mcp-method'), planned.headers.has('mcp-protocol-version')]).toEqual(['modern', false, false]);
  });

  test("the plan's headers go over the caller's; an Authorization there beside an authProvider is a TypeError", () => {
    const planned = plan(MODERN_REQUEST, { headers: { 'mcp-param-region': 'old', 'x-b': 'b' } }, { version: MODERN, headers: new Headers({ 'Mcp-Param-Region': 'new' }) });
    expect([planned.headers.get('mcp-param-region'), planned.headers.get('x-b')]).toEqual(['new', 'b']);
    expect(() => plan(REQUEST, { authProvider: { token: async () => 't' } }, { headers: new Headers({ authorization: 'Bearer x' }) })).toThrow(
      new TypeError("the message's headers has an Authorization header and authProvider is set: pass one or the other"),
    );
  });

  test("a message's own secret headers join the exchange's secrets, by the caller's secretHeaders names too", () => {
    const settings = settingsOf({ secretHeaders: ['X-Api-Key'] });
    planMessage(REQUEST, settings, { headers: new Headers({ authorization: 'Bearer tok-0123456789', 'x-api-key': 'key-0123456789', 'x-trace': 'trace-0123456789' }) });
    expect(settings.secrets.redact('Bearer tok-0123456789 / key-0123456789 / trace-0123456789')).toBe('[redacted] / [redacted] / trace-0123456789');
  });

  test('a 2026-07-28 message the headers cannot be derived from is a TypeError', () => {
    expect(() => plan({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: META } }, {}, { version: MODERN })).toThrow(new TypeError('message.params.name must be a string, got undefined'));
  });
});

describe('runExchange: answered', () => {
  test('a JSON answer: the answer, status, headers, format and progress', async () => {
    const { outcome, sent } = await exchange(REQUEST, () => json(ANSWER, { status: 201, headers: { 'x-server': 'y' } }));
    expect(outcome).toMatchObject({ kind: 'answered', answer: ANSWER, status: 201, format: 'json' });
    expect(outcome.kind === 'answered' && [outcome.headers.get('x-server'), outcome.progress.bytesRead]).toEqual(['y', JSON.stringify(ANSWER).length]);
    expect(trail(sent)).toEqual(['POST tools/call']);
    expect(sent[0]!.body).toEqual(REQUEST);
  });

  test('an event stream: passed-over messages to onMessage, in order, then the answer', async () => {
    const seen: JsonRpcMessage[] = [];
    const { outcome } = await exchange(REQUEST, () => sse([sseEvent(NOTE, ['id: 1']), sseEvent(ANSWER, ['id: 2'])]), {}, undefined, (m) => seen.push(m));
    expect(outcome).toMatchObject({ kind: 'answered', answer: ANSWER, format: 'event-stream', progress: { events: 2, messages: 1, lastEventId: '2' } });
    expect(seen).toEqual([NOTE]);
  });

  test('what onMessage throws goes up as it is', async () => {
    const error = new Error('from onMessage');
    const { fetch } = scriptedFetch(() => sse([sseEvent(NOTE), sseEvent(ANSWER)]));
    const settings = settingsOf({ fetch });
    const thrown = runAsCaller(settings, REQUEST, undefined, {
      onMessage: () => {
        throw error;
      },
    });
    await expect(thrown).rejects.toBe(error);
  });
});

describe('runExchange: accepted, and requests with no answer', () => {
  test.each([200, 201, 202])('a notification answered %i is accepted, its body unread and released', async (status) => {
    const made = respond(['{"ignored":true}'], { status });
    const { outcome } = await exchange({ jsonrpc: '2.0', method: 'notifications/initialized' }, () => made.response);
    expect(outcome).toMatchObject({ kind: 'accepted', status });
    expect(await made.source.released).toBe('cancelled');
    expect(made.source.delivered).toBe(0);
  });

  test('a response (a reply to a server request) is accepted too', async () => {
    const { outcome } = await exchange({ jsonrpc: '2.0', id: 'srv-1', result: {} }, () => empty(202));
    expect(outcome.kind).toBe('accepted');
  });

  test.each([
    ['202', () => empty(202)],
    ['204', () => empty(204)],
    ['205', () => empty(205)],
    ['200 with no body', () => empty(200)],
  ])('a request answered %s: failed, malformed_answer no_message, with the headers', async (label, script) => {
    const { outcome } = await exchange(REQUEST, script);
    const failure = failureOf(outcome);
    expect([failure.code, failure.reason]).toEqual(['malformed_answer', 'no_message']);
    expect(written(failure.message)).toBe(`the server accepted the request with HTTP ${label.slice(0, 3)} and sent no answer`);
    expect(outcome.headers).toBeInstanceOf(Headers);
  });
});

test.each([204, 205])('a request answered %i carries no answer by definition, even where fetch gives a body: not read', async (status) => {
  const made = respond([JSON.stringify(ANSWER)]);
  // A Response cannot be built with a body for these statuses; a fetch of another runtime may give one.
  const response = { status, ok: true, type: 'default', headers: new Headers({ 'content-type': 'application/json' }), body: made.response.body } as unknown as Response;
  const { outcome } = await exchange(REQUEST, () => response);
  expect(failureOf(outcome)).toMatchObject({ code: 'malformed_answer', reason: 'no_message' });
  expect(made.source.delivered).toBe(0);
});

describe('runExchange: refused', () => {
  test("a status outside 2xx with the request's JSON-RPC error: refused, the error kept as the answer and in the failure", async () => {
    const error = { jsonrpc: '2.0', id: 5, error: { code: -32602, message: 'bad' } };
    const { outcome } = await exchange(REQUEST, () => json(error, { status: 400, headers: { 'mcp-session-id': 'x' } }));
    expect(outcome).toMatchObject({ kind: 'refused', status: 400, answer: error });
    const failure = (outcome as { failure: Failure }).failure;
    expect(failure.detail).toMatchObject({ status: 400, answer: error, contentType: 'application/json', bytesRead: JSON.stringify(error).length });
    expect(written(failure.message)).toBe('the server answered HTTP 400: "bad" (JSON-RPC error -32602)');
    expect(outcome.headers?.get('mcp-session-id')).toBe('x');
  });

  test('a result response with a refusal is not an error: no answer', async () => {
    const { outcome } = await exchange(REQUEST, () => json(ANSWER, { status: 500 }));
    expect(outcome).toMatchObject({ kind: 'refused', status: 500, answer: undefined });
  });

  test('a body that is no JSON-RPC: refused without an answer', async () => {
    const { outcome } = await exchange(REQUEST, () => respond(['<html>'], { status: 502, contentType: 'text/html' }).response);
    expect(outcome).toMatchObject({ kind: 'refused', status: 502, answer: undefined });
  });

  test("a notification's refusal is read for an error too", async () => {
    const error = { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'no' } };
    const { outcome } = await exchange({ jsonrpc: '2.0', method: 'notifications/x' }, () => json(error, { status: 400 }));
    expect(outcome).toMatchObject({ kind: 'refused', status: 400, answer: error });
  });

  test('a refusal whose body outlasts the deadline: failed, timeout, with the headers', async () => {
    const { outcome } = await exchange(REQUEST, () => respond(['{"jsonrpc"'], { status: 500, endless: true }).response, { timeoutMs: 20 });
    expect(failureOf(outcome).code).toBe('timeout');
    expect(outcome.headers).toBeInstanceOf(Headers);
  });
});

describe('runExchange: failed', () => {
  test("a signal already aborted: nothing is sent", async () => {
    const { outcome, sent } = await exchange(REQUEST, () => json(ANSWER), { signal: AbortSignal.abort(new Error('no')) });
    expect(failureOf(outcome).code).toBe('aborted');
    expect([sent.length, outcome.headers]).toEqual([0, undefined]);
  });

  test('an extra signal ends the exchange as the settings signal does', async () => {
    const controller = new AbortController();
    const { fetch } = scriptedFetch(() => sse([sseEvent(NOTE)], { endless: true }));
    const settings = settingsOf({ fetch });
    const pending = runAsCaller(settings, REQUEST, undefined, { signals: [undefined, controller.signal], onMessage: () => controller.abort(new Error('enough')) });
    const outcome = await pending;
    expect(failureOf(outcome).code).toBe('aborted');
    expect(outcome.headers).toBeInstanceOf(Headers);
  });

  test('2025: a fetch that fails is stream_failed, not to be re-issued', async () => {
    const error = new TypeError('fetch failed');
    const failure = failureOf((await exchange(REQUEST, () => Promise.reject(error))).outcome);
    expect([failure.code, failure.cause, failure.detail.reissue]).toEqual(['stream_failed', error, undefined]);
  });

  test('2026-07-28: a request whose POST got no response may be re-issued: stream_failed, reissue, the cause kept, no word of a dropped stream', async () => {
    const error = new TypeError('fetch failed');
    const failure = failureOf((await exchange(MODERN_REQUEST, () => Promise.reject(error), {}, { version: MODERN })).outcome);
    expect([failure.code, failure.cause, failure.detail.reissue]).toEqual(['stream_failed', error, true]);
    expect(written(failure.message)).toBe('the POST request got no response: TypeError: fetch failed; it may be re-issued with a new id');
  });

  test.each([
    ['2025', REQUEST, {}],
    ['2026-07-28', MODERN_REQUEST, { version: MODERN }],
  ] as const)('%s: a request that could not connect may be sent again: connect_failed, reissue, the message as it is', async (_, request, plan) => {
    const error = new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    const failure = failureOf((await exchange(request, () => Promise.reject(error), {}, plan)).outcome);
    expect([failure.code, failure.cause, failure.detail.reissue]).toEqual(['connect_failed', error, true]);
    expect(written(failure.message)).toMatch(/^could not connect to [^ ]+: the connection was refused \(ECONNREFUSED\); is the server running\?$/);
  });

  test('2026-07-28: an event stream that ends without the answer is lost, restating the read failure (its cause at the edge); nothing resumed', async () => {
    const { outcome, sent } = await exchange(MODERN_REQUEST, () => sse([sseEvent(NOTE, ['id: 9', 'retry: 1'])]), {}, { version: MODERN });
    const failure = failureOf(outcome);
    expect([failure.code, failure.detail.reissue, failure.detail.lastEventId]).toEqual(['stream_failed', true, '9']);
    // A value until the edge: no error is made inside the exchange.
    expect([failure.hasCause, failure.restates?.code, failure.restates?.reason]).toEqual([undefined, 'malformed_answer', 'no_response']);
    const error = answerError(failure);
    expect(error.cause).toBeInstanceOf(AnswerError);
    expect([(error.cause as AnswerError).code, (error.cause as AnswerError).reason]).toEqual(['malformed_answer', 'no_response']);
    expect(trail(sent)).toEqual(['POST tools/call']);
  });

  test('2026-07-28: a JSON body without the answer is malformed, not lost', async () => {
    const failure = failureOf((await exchange(MODERN_REQUEST, () => json(NOTE), {}, { version: MODERN })).outcome);
    expect([failure.code, failure.reason, failure.detail.reissue]).toEqual(['malformed_answer', 'no_response', undefined]);
  });

  test('2026-07-28: a notification that fails is not a lost request', async () => {
    const note = { jsonrpc: '2.0', method: 'notifications/x', params: { _meta: META } };
    const failure = failureOf((await exchange(note, () => Promise.reject(new TypeError('fetch failed')))).outcome);
    expect([failure.code, failure.detail.reissue]).toEqual(['stream_failed', undefined]);
  });

  test('2025: an event stream that ends after an event id is resumed with a GET; with resume false it is not', async () => {
    const script: Script = (_, i) => (i === 0 ? sse([sseEvent(NOTE, ['id: 1', 'retry: 1'])]) : sse([sseEvent(ANSWER)]));
    const resumed = await exchange(REQUEST, script, {}, { version: LEGACY, sessionId: 's' });
    expect(resumed.outcome.kind).toBe('answered');
    expect(trail(resumed.sent)).toEqual(['POST tools/call', 'GET']);
    expect([resumed.sent[1]!.headers.get('last-event-id'), resumed.sent[1]!.headers.get('mcp-session-id')]).toEqual(['1', 's']);

    const kept = await exchange(REQUEST, script, { resume: false }, { version: LEGACY });
    expect(failureOf(kept.outcome)).toMatchObject({ code: 'malformed_answer', reason: 'no_response' });
    expect(trail(kept.sent)).toEqual(['POST tools/call']);
  });

  test('the deadline covers the wait for the response', async () => {
    const { outcome } = await exchange(REQUEST, () => never(), { timeoutMs: 10 });
    expect(failureOf(outcome).code).toBe('timeout');
  });
});

describe("runExchange: the session of a response passed over on an initialize's way is ended", () => {
  const INITIALIZE = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 't', version: '1' } } };
  const initialized = (sent: SentRequest, session: string) => json(resultFor(sent, { protocolVersion: LEGACY, capabilities: {} }), { headers: { 'mcp-session-id': session } });
  /** The sessions `sent` ended, in order. */
  const ended = (sent: readonly SentRequest[]) => sent.filter((request) => request.method === 'DELETE').map((request) => request.headers.get('mcp-session-id'));
  /** Answers each DELETE 204, every other request by `script` (numbered without the DELETEs). */
  const withDeletes = (script: (sent: SentRequest, index: number) => Response | Promise<Response>) => {
    let posts = 0;
    return (sent: SentRequest) => (sent.method === 'DELETE' ? empty(204) : script(sent, posts++));
  };

  test('a followed redirect that carried one: that session is ended, to the URL the caller named; the answer keeps its own', async () => {
    const { outcome, sent } = await exchange(INITIALIZE, withDeletes((request, i) => (i === 0 ? empty(307, { location: '/moved', 'mcp-session-id': 'on-redirect' }) : initialized(request, 'kept'))), {}, { version: LEGACY });
    expect(outcome.headers?.get('mcp-session-id')).toBe('kept');
    expect(ended(sent)).toEqual(['on-redirect']);
    const deleted = sent.find((request) => request.method === 'DELETE')!;
    expect([deleted.url, deleted.headers.get('mcp-protocol-version')]).toEqual([URL_, LEGACY]);
  });

  test('a redirect that carried the session the answer carries: nothing is ended (the caller holds it)', async () => {
    const { outcome, sent } = await exchange(INITIALIZE, withDeletes((request, i) => (i === 0 ? empty(308, { location: '/moved', 'mcp-session-id': 'same' }) : initialized(request, 'same'))));
    expect([outcome.kind, outcome.headers?.get('mcp-session-id')]).toEqual(['answered', 'same']);
    expect(trail(sent)).toEqual(['POST initialize', 'POST initialize']);
  });

  test('a redirect that carried the session the request carried: nothing is ended (that one is the caller\'s)', async () => {
    const { outcome, sent } = await exchange(INITIALIZE, withDeletes((request, i) => (i === 0 ? empty(307, { location: '/moved', 'mcp-session-id': 'held' }) : initialized(request, 'new'))), {}, { version: LEGACY, sessionId: 'held' });
    expect([outcome.kind, outcome.headers?.get('mcp-session-id')]).toEqual(['answered', 'new']);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(trail(sent)).toEqual(['POST initialize', 'POST initialize']);
  });

  test('a redirect not followed: its session is ended here, and the failure carries no headers to hold', async () => {
    const { outcome, sent } = await exchange(INITIALIZE, withDeletes(() => empty(307, { location: 'https://elsewhere.example/mcp', 'mcp-session-id': 'refused' })));
    expect([failureOf(outcome).code, outcome.headers]).toEqual(['http_status', undefined]);
    expect(ended(sent)).toEqual(['refused']);
  });

  test.each([
    ['answered, and the retry answered with another session', true],
    ['whose onUnauthorized fails', false],
  ])('a 401 %s: the 401\'s session is ended', async (_, recovers) => {
    const authProvider = {
      token: async () => 'token-0123456789',
      onUnauthorized: async () => {
        if (!recovers) throw new Error('no new token');
      },
    };
    const { outcome, sent } = await exchange(INITIALIZE, withDeletes((request, i) => (i === 0 ? empty(401, { 'mcp-session-id': 'on-401' }) : initialized(request, 'kept'))), { authProvider });
    expect(outcome.kind).toBe(recovers ? 'answered' : 'failed');
    // The DELETE awaits its own token first.
    await expect.poll(() => ended(sent)).toEqual(['on-401']);
  });

  test("a response that came after the caller's abort: released, and its session ended", async () => {
    const controller = new AbortController();
    let answer: (response: Response) => void = () => undefined;
    const { fetch, sent } = scriptedFetch((request) => (request.method === 'DELETE' ? empty(204) : new Promise<Response>((resolve) => (answer = resolve))));
    // A fetch that ignores its signal: the exchange settles at the abort all the same.
    const settings = settingsOf({ fetch: (input, init) => fetch(input, { ...init, signal: null }), signal: controller.signal });
    const pending = runAsCaller(settings, INITIALIZE);
    await expect.poll(() => sent.length).toBe(1);
    controller.abort(new Error('stop'));
    expect(failureOf(await pending).code).toBe('aborted');
    const late = respond(['{}'], { headers: { 'mcp-session-id': 'late' } });
    answer(late.response);
    await expect.poll(() => ended(sent)).toEqual(['late']);
    await expect.poll(() => late.source.cancelled).toBe(true);
  });

  test.each([
    ['the request carried none: the session is ended, since the caller never sees it', undefined, ['issued']],
    ['the request carried that same session: it is the caller\'s still, and nothing is ended', 'issued', []],
  ])("onMessage throws while the answer to initialize is read, and %s", async (_, carried, deleted) => {
    const thrown = new Error('the caller gave up');
    const stream = (request: SentRequest) => sse([sseEvent(NOTE), sseEvent(resultFor(request, { protocolVersion: LEGACY }))], { headers: { 'mcp-session-id': 'issued' } });
    const { fetch, sent } = scriptedFetch(withDeletes(stream));
    const settings = settingsOf({ fetch });
    const pending = runAsCaller(settings, INITIALIZE, { version: LEGACY, sessionId: carried }, {
      onMessage: () => {
        throw thrown;
      },
    });
    await expect(pending).rejects.toBe(thrown);
    await expect.poll(() => ended(sent)).toEqual(deleted);
    expect(trail(sent).filter((line) => line !== 'DELETE')).toEqual(['POST initialize']);
  });

  test("another request's passed-over session is none of the exchange's (only initialize's response issues one)", async () => {
    const { sent } = await exchange(REQUEST, withDeletes((request, i) => (i === 0 ? empty(307, { location: '/moved', 'mcp-session-id': 'stray' }) : json(ANSWER))));
    expect(trail(sent)).toEqual(['POST tools/call', 'POST tools/call']);
  });
});
