/**
 * `postJsonRpc` against a generated server (fake-server.ts) in both eras: any status 1xx–5xx;
 * redirects to the same origin, another one, nowhere or garbage; odd content types, session ids
 * and retry values; JSON and event-stream bodies (ids, priming events, `retry`) cut at random,
 * reset, stalled or endless; a `fetch` that throws, rejects, hangs or returns junk; the caller's
 * signal aborted before, during (at a time, at a call, at a read) or never; small deadlines and caps.
 *
 * Each exchange must settle once, with an answer the server sent for the request or an
 * `AnswerError` of a documented code that the last reply explains; within its deadline; with
 * every request to the origin the caller named, by the redirect rules; with every body released
 * (also a `Response` that comes late); and with no listener on any signal and no timer left.
 */
import fc from 'fast-check';
import { getEventListeners } from 'node:events';
import { ACCEPT, DEFAULT_MAX_BYTES, isAnswerError, postJsonRpc, type AnswerErrorCode, type FetchFunction, type JsonRpcMessage, type PostJsonRpcOptions } from '../../../src/index.js';
import { countTimers } from '../counted-timers.js';
import { fakeServer, realClearTimeout, realSetTimeout, type BodySpec, type Call, type EventPlan, type JunkKind, type MessageKind, type Reply } from '../fake-server.js';
import { reasonOf, type ReasonKind } from '../faulty-body.js';
import { jsonDifference, show } from '../json-values.js';
import { Broken, defineTarget, ensure } from '../target.js';
import { markProcess, sinceMark } from '../process-watch.js';

/** What the caller's `onMessage` does: nothing (none given), records, throws or aborts the caller's signal at its `at`-th message. */
type OnMessagePlan =
  | { readonly kind: 'none' }
  | { readonly kind: 'record' }
  | { readonly kind: 'throw'; readonly at: number }
  | { readonly kind: 'abort'; readonly at: number; readonly reason: ReasonKind };

type SignalPlan =
  | { readonly kind: 'none' }
  | { readonly kind: 'given' }
  | { readonly kind: 'pre-aborted'; readonly reason: ReasonKind }
  | { readonly kind: 'at'; readonly ms: number; readonly reason: ReasonKind };

/**
 * A listener of the caller's own on its signal: a plain one, an `onabort`, one that throws, one
 * that stops the event's propagation, or (`any`) the signal given is `AbortSignal.any` over the
 * caller's.
 */
export type ForeignListener = 'listener' | 'onabort' | 'throws' | 'stops' | 'any';

export interface ExchangeInput {
  /** 2025-11-25, or 2026-07-28 declared in the message's `_meta` or only in the caller's `MCP-Protocol-Version`. */
  readonly era: 'legacy' | 'modern' | 'modern-by-header';
  readonly kind: 'request' | 'notification';
  readonly requestId: number | string;
  readonly url: string;
  readonly sessionId: string | null;
  readonly redirect: 'same-origin' | 'error' | undefined;
  readonly resume: boolean | undefined;
  readonly timeoutMs: number;
  readonly maxBytes: number | undefined;
  readonly signal: SignalPlan;
  /** Whether the caller's signal has its own `addEventListener` and `removeEventListener`, doing nothing. */
  readonly patchedSignal: boolean;
  /**
   * The caller's own listeners on its signal, added before the exchange sees it, in order (as the
   * AI SDK, frameworks and `AbortSignal.any` chains add theirs). Absent in older stored inputs.
   */
  readonly foreignListeners?: readonly ForeignListener[] | undefined;
  /**
   * Listeners the caller's `fetch` puts on the signal each request hands it (the exchange's own
   * deadline), in order: one that stops the event's propagation, one that throws. Absent in
   * older stored inputs.
   */
  readonly fetchListeners?: readonly ('stops' | 'throws')[] | undefined;
  readonly onMessage: OnMessagePlan;
  /** Other exchanges on the same caller signal, started alongside (a client-wide signal). */
  readonly alongside: number;
  readonly replies: readonly Reply[];
}

/** How late past its deadline (or the caller's abort) an exchange may settle on a busy machine. */
const SLACK_MS = 300;
/** Past this, an exchange has not settled at all. */
const HARD_MS = 2_000;

/** The codes `postJsonRpc` documents (errors.ts): all but `AnswerTransport`'s `unsupported_request`. */
const CODES: readonly AnswerErrorCode[] = ['unsupported_content_type', 'malformed_answer', 'budget_exceeded', 'aborted', 'timeout', 'connect_failed', 'stream_failed', 'http_status'];

const URLS = ['http://mcp.test/mcp', 'https://mcp.test:8443/a/b?x=1', 'http://127.0.0.1:3000/', 'http://[::1]:8080/mcp'];

/** Locations for a server at `url`: same origin (relative, absolute, other case), other origins (host, scheme, port, userinfo tricks), and garbage. */
function locationsOf(url: string): string[] {
  const u = new URL(url);
  const otherScheme = u.protocol === 'http:' ? 'https:' : 'http:';
  const port = Number(u.port === '' ? (u.protocol === 'http:' ? 80 : 443) : u.port);
  return [
    '/moved',
    'next',
    '',
    '?page=2',
    `${u.origin}/moved`,
    `${u.origin.toUpperCase()}/upper`,
    'http://evil.test/steal',
    '//evil.test/x',
    `${otherScheme}//${u.host}/x`,
    `${u.protocol}//${u.hostname}:${port + 1}/x`,
    `${u.protocol}//user@evil.test/`,
    `${u.origin}@evil.test/`,
    `${u.protocol}//${u.hostname.startsWith('[') ? 'evil.test' : `${u.hostname}.`}/x`,
    'http://[::1',
    'javascript:void 0',
    'data:,x',
    ' /padded ',
    '%zz',
    '\u00e9',
  ];
}

const reasonArb = fc.constantFrom<ReasonKind>('error', 'timeout', 'string', 'default');

const SSE_TYPES = ['text/event-stream', 'text/event-stream; charset=utf-8', 'Text/Event-Stream'];
const JSON_TYPES = ['application/json', 'application/json; charset=utf-8'];
const ODD_TYPES = ['text/html', '', 'application/json, text/event-stream', 'text/event-stream;charset=utf-16', 'multipart/mixed', 'application/problem+json', 'text/event-stream\u00a0', 'application/octet-stream'];

const STATUSES_2XX = [201, 202, 203, 204, 205, 206, 299];
const STATUSES_3XX = [300, 301, 302, 303, 304, 305, 306, 307, 307, 308, 308, 399];
const STATUSES_4XX_5XX = [400, 401, 403, 404, 405, 406, 409, 429, 500, 502, 503, 599];
const STATUSES_1XX = [100, 101, 103, 199];

const eventArb: fc.Arbitrary<EventPlan> = fc.record(
  {
    id: fc.option(fc.constantFrom('1', 'e1', 'e2', '42', '\u00e9', '\u20ac', ' lead', 'trail ', '', 'a\u0000b', 'x'.repeat(300)), { nil: null, freq: 2 }),
    retry: fc.option(fc.constantFrom('0', '3', '10', '1000', 'abc', '-1', ''), { nil: null, freq: 2 }),
    data: fc.constantFrom<MessageKind>('priming', 'priming', 'answer', 'answer', 'error', 'other-id', 'notification', 'server-request', 'garbage'),
  },
  { noNullPrototype: true },
);

const bodyArb: fc.Arbitrary<BodySpec> = fc.record(
  {
    plan: fc.oneof(
      { weight: 1, arbitrary: fc.record({ format: fc.constant('json' as const), data: fc.constantFrom<MessageKind | 'batch' | 'empty'>('answer', 'answer', 'error', 'other-id', 'notification', 'garbage', 'batch', 'empty') }, { noNullPrototype: true }) },
      {
        weight: 2,
        arbitrary: fc.record({ format: fc.constant('event-stream' as const), events: fc.array(eventArb, { maxLength: 4 }), eol: fc.constantFrom<'\n' | '\r\n'>('\n', '\r\n') }, { noNullPrototype: true }),
      },
    ),
    keep: fc.oneof({ weight: 3, arbitrary: fc.constant(1000) }, { weight: 2, arbitrary: fc.nat({ max: 1000 }) }),
    cuts: fc.array(fc.nat({ max: 1000 }), { maxLength: 4 }),
    fault: fc.oneof(
      { weight: 5, arbitrary: fc.constant({ kind: 'none' as const }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('reset' as const), at: fc.nat({ max: 4 }) }, { noNullPrototype: true }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('stall' as const), at: fc.nat({ max: 4 }) }, { noNullPrototype: true }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('abort-caller' as const), at: fc.nat({ max: 4 }), reason: reasonArb }, { noNullPrototype: true }) },
      { weight: 1, arbitrary: fc.constant({ kind: 'endless' as const }) },
    ),
    cancel: fc.constantFrom<'ok' | 'throw' | 'reject'>('ok', 'ok', 'ok', 'throw', 'reject'),
  },
  { noNullPrototype: true },
);

function replyArb(url: string): fc.Arbitrary<Reply> {
  const locations = locationsOf(url);
  const statusArb = fc.oneof(
    { weight: 8, arbitrary: fc.constant(200) },
    { weight: 2, arbitrary: fc.constantFrom(...STATUSES_2XX) },
    { weight: 3, arbitrary: fc.constantFrom(...STATUSES_3XX) },
    { weight: 2, arbitrary: fc.constantFrom(...STATUSES_4XX_5XX) },
    { weight: 1, arbitrary: fc.constantFrom(...STATUSES_1XX) },
  );
  const respond = fc
    .record(
      {
        delay: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 30 }) }),
        status: statusArb,
        body: fc.option(bodyArb, { nil: null, freq: 6 }),
        odd: fc.oneof({ weight: 6, arbitrary: fc.constant<string | null | undefined>(undefined) }, { weight: 1, arbitrary: fc.constantFrom<string | null>(null, ...ODD_TYPES) }),
        location: fc.constantFrom<string | null>(null, ...locations),
        sessionId: fc.constantFrom<string | null>(null, null, 'srv-1', 'a b'),
        retryAfter: fc.constantFrom<string | null>(null, null, '0', '1', 'soon', '-5', '99999999999'),
      },
      { noNullPrototype: true },
    )
    .map(({ delay, status, body, odd, location, sessionId, retryAfter }): Reply => {
      const matching = body === null ? null : body.plan.format === 'json' ? JSON_TYPES[status % JSON_TYPES.length]! : SSE_TYPES[status % SSE_TYPES.length]!;
      const redirect = status >= 300 && status <= 399;
      return { kind: 'respond', delay, status, contentType: odd === undefined ? matching : odd, location: redirect || status % 7 === 0 ? location : null, sessionId, retryAfter, body };
    });
  return fc.oneof(
    { weight: 12, arbitrary: respond },
    { weight: 1, arbitrary: fc.constant<Reply>({ kind: 'throw' }) },
    { weight: 1, arbitrary: fc.constant<Reply>({ kind: 'reject' }) },
    { weight: 1, arbitrary: fc.boolean().map((honoursSignal): Reply => ({ kind: 'hang', honoursSignal })) },
    { weight: 1, arbitrary: fc.constantFrom<JunkKind>('null', 'undefined', 'object', 'string', 'response-like', 'bare-response', 'thenable-throws').map((value): Reply => ({ kind: 'junk', value })) },
    { weight: 1, arbitrary: reasonArb.map((reason): Reply => ({ kind: 'abort-caller', reason })) },
  );
}

/** A 200 event stream of events that start with `first`, maybe cut, reset or stalled. */
function streamArb(first: fc.Arbitrary<EventPlan>): fc.Arbitrary<Reply> {
  return fc
    .record(
      {
        // Later events keep retries short: a long one would only run into the deadline.
        events: fc.tuple(first, fc.array(eventArb.map((e) => (e.retry === '1000' ? { ...e, retry: '1' } : e)), { maxLength: 2 })).map(([e, rest]) => [e, ...rest]),
        eol: fc.constantFrom<'\n' | '\r\n'>('\n', '\r\n'),
        keep: fc.oneof({ weight: 3, arbitrary: fc.constant(1000) }, { weight: 1, arbitrary: fc.nat({ max: 1000 }) }),
        fault: fc.oneof(
          { weight: 4, arbitrary: fc.constant<BodySpec['fault']>({ kind: 'none' }) },
          { weight: 1, arbitrary: fc.nat({ max: 3 }).map((at): BodySpec['fault'] => ({ kind: 'reset', at })) },
        ),
        contentType: fc.constantFrom(...SSE_TYPES),
      },
      { noNullPrototype: true },
    )
    .map(({ events, eol, keep, fault, contentType }): Reply => ({
      kind: 'respond',
      delay: 0,
      status: 200,
      contentType,
      location: null,
      sessionId: null,
      retryAfter: null,
      body: { plan: { format: 'event-stream', events, eol }, keep, cuts: [], fault, cancel: 'ok' },
    }));
}

/** A priming event: an id and a short retry, before any data (the start of a resumable stream). */
const primingArb: fc.Arbitrary<EventPlan> = fc.record(
  { id: fc.constantFrom('e1', 'e2', '7', '\u00e9', '\u20ac'), retry: fc.constantFrom<string | null>('0', '2', '5', '1', null), data: fc.constantFrom<MessageKind>('priming', 'priming', 'notification') },
  { noNullPrototype: true },
);

/** An event that answers, with an id of its own. */
const answeringArb: fc.Arbitrary<EventPlan> = fc.record(
  { id: fc.constantFrom<string | null>('e3', null), retry: fc.constant(null), data: fc.constantFrom<MessageKind>('answer', 'answer', 'error', 'other-id') },
  { noNullPrototype: true },
);

/** A 307 or 308, most often within the origin. */
function redirectArb(url: string): fc.Arbitrary<Reply> {
  const u = new URL(url);
  return fc
    .record(
      {
        status: fc.constantFrom(307, 308),
        location: fc.oneof({ weight: 3, arbitrary: fc.constantFrom('/moved', 'next', '', `${u.origin}/moved`) }, { weight: 1, arbitrary: fc.constantFrom(...locationsOf(url)) }),
      },
      { noNullPrototype: true },
    )
    .map(({ status, location }): Reply => ({ kind: 'respond', delay: 0, status, contentType: null, location, sessionId: null, retryAfter: null, body: null }));
}

/**
 * The replies of one exchange: any at all; a resumable stream (a priming event, then the GETs'
 * replies, often streams that answer); or redirects in a row before the rest.
 */
function repliesArb(url: string): fc.Arbitrary<Reply[]> {
  const any = replyArb(url);
  const resumption = fc.oneof({ weight: 2, arbitrary: streamArb(answeringArb) }, { weight: 1, arbitrary: streamArb(primingArb) }, { weight: 2, arbitrary: any });
  return fc.oneof(
    { weight: 3, arbitrary: fc.array(any, { minLength: 1, maxLength: 7 }) },
    { weight: 3, arbitrary: fc.tuple(streamArb(primingArb), fc.array(resumption, { minLength: 1, maxLength: 4 })).map(([first, rest]) => [first, ...rest]) },
    { weight: 1, arbitrary: fc.tuple(fc.array(redirectArb(url), { minLength: 1, maxLength: 6 }), fc.array(any, { minLength: 1, maxLength: 3 })).map(([r, rest]) => [...r, ...rest]) },
  );
}

/** Any exchange: every option and every reply at random. */
function anyExchangeArb(url: string): fc.Arbitrary<ExchangeInput> {
  return fc.record(
    {
      era: fc.constantFrom<ExchangeInput['era']>('legacy', 'legacy', 'modern', 'modern-by-header'),
      kind: fc.constantFrom<'request' | 'notification'>('request', 'request', 'request', 'request', 'notification'),
      requestId: fc.oneof(fc.nat({ max: 1000 }), fc.constantFrom('r-1', '\u00e9', '')),
      url: fc.constant(url),
      sessionId: fc.constantFrom<string | null>(null, 's-1'),
      redirect: fc.constantFrom<'same-origin' | 'error' | undefined>(undefined, undefined, 'same-origin', 'error'),
      resume: fc.constantFrom<boolean | undefined>(undefined, undefined, true, false),
      timeoutMs: fc.oneof({ weight: 1, arbitrary: fc.constantFrom(0, 1, 3) }, { weight: 4, arbitrary: fc.integer({ min: 10, max: 60 }) }),
      maxBytes: fc.oneof({ weight: 3, arbitrary: fc.constant<number | undefined>(undefined) }, { weight: 1, arbitrary: fc.constant(Infinity) }, { weight: 1, arbitrary: fc.nat({ max: 300 }) }),
      signal: fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom<SignalPlan>({ kind: 'none' }, { kind: 'given' }) },
        { weight: 1, arbitrary: reasonArb.map((reason): SignalPlan => ({ kind: 'pre-aborted', reason })) },
        { weight: 1, arbitrary: fc.record({ kind: fc.constant('at' as const), ms: fc.nat({ max: 60 }), reason: reasonArb }, { noNullPrototype: true }) },
      ),
      patchedSignal: fc.constantFrom(false, false, false, true),
      foreignListeners: fc.oneof(
        { weight: 1, arbitrary: fc.constant<readonly ForeignListener[]>([]) },
        { weight: 2, arbitrary: fc.array(fc.constantFrom<ForeignListener>('listener', 'onabort', 'throws', 'stops', 'any'), { minLength: 1, maxLength: 3 }) },
      ),
      fetchListeners: fc.oneof(
        { weight: 3, arbitrary: fc.constant<readonly ('stops' | 'throws')[]>([]) },
        { weight: 1, arbitrary: fc.array(fc.constantFrom<'stops' | 'throws'>('stops', 'throws'), { minLength: 1, maxLength: 2 }) },
      ),
      onMessage: fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom<OnMessagePlan>({ kind: 'none' }, { kind: 'record' }) },
        { weight: 1, arbitrary: fc.record({ kind: fc.constant('throw' as const), at: fc.nat({ max: 2 }) }, { noNullPrototype: true }) },
        { weight: 1, arbitrary: fc.record({ kind: fc.constant('abort' as const), at: fc.nat({ max: 2 }), reason: reasonArb }, { noNullPrototype: true }) },
      ),
      alongside: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 12 }) }),
      replies: repliesArb(url),
    },
    { noNullPrototype: true },
  );
}

/** A 2025-era request whose stream is resumable, with time and bytes to resume it: the GETs' paths. */
function resumableExchangeArb(url: string): fc.Arbitrary<ExchangeInput> {
  const resumption = fc.oneof({ weight: 3, arbitrary: streamArb(answeringArb) }, { weight: 1, arbitrary: streamArb(primingArb) }, { weight: 1, arbitrary: replyArb(url) });
  return anyExchangeArb(url).chain((base) =>
    fc
      .record(
        {
          timeoutMs: fc.integer({ min: 20, max: 60 }),
          signal: fc.oneof({ weight: 3, arbitrary: fc.constant<SignalPlan>({ kind: 'given' }) }, { weight: 1, arbitrary: fc.record({ kind: fc.constant('at' as const), ms: fc.nat({ max: 60 }), reason: reasonArb }, { noNullPrototype: true }) }),
          replies: fc.tuple(streamArb(primingArb), fc.array(resumption, { minLength: 1, maxLength: 4 })).map(([first, rest]) => [first, ...rest]),
        },
        { noNullPrototype: true },
      )
      .map((over): ExchangeInput => ({ ...base, era: 'legacy', kind: 'request', resume: undefined, maxBytes: undefined, ...over })),
  );
}

const inputArb: fc.Arbitrary<ExchangeInput> = fc
  .constantFrom(...URLS)
  .chain((url) => fc.oneof({ weight: 3, arbitrary: anyExchangeArb(url) }, { weight: 1, arbitrary: resumableExchangeArb(url) }));

/**
 * The signal an exchange is given, with the caller's own listeners on it (on the controller's
 * signal, and on the `AbortSignal.any` over it where one is asked for), and how many listeners
 * each signal carried before the exchange saw it: any beyond those is the exchange's.
 */
function withForeignListeners(signal: AbortSignal, plan: readonly ForeignListener[]): { signal: AbortSignal; listeners: (on: AbortSignal) => number } {
  let given = signal;
  for (const kind of plan) {
    if (kind === 'any') given = AbortSignal.any([given]);
    // Node's onabort setter calls the signal's own methods, which a patched signal has replaced.
    else if (kind === 'onabort' && !Object.prototype.hasOwnProperty.call(given, 'addEventListener')) given.onabort = () => undefined;
    else if (kind === 'stops') EventTarget.prototype.addEventListener.call(given, 'abort', (event) => event.stopImmediatePropagation());
    else if (kind === 'throws') {
      EventTarget.prototype.addEventListener.call(given, 'abort', () => {
        throw new Error(LISTENER_FAILURE);
      });
    } else EventTarget.prototype.addEventListener.call(given, 'abort', () => undefined);
  }
  const before = new Map([signal, given].map((on) => [on, getEventListeners(on, 'abort').length]));
  return { signal: given, listeners: (on) => before.get(on) ?? 0 };
}

/** The message of the error a caller's throwing listener throws. */
const LISTENER_FAILURE = 'a listener of the caller failed (fuzz)';

/** The uncaught errors other than {@link LISTENER_FAILURE} while listener failures were expected, oldest first. */
const unexpectedUncaught: unknown[] = [];
let expectingFailures = 0;
let savedUncaughtHandlers: NodeJS.UncaughtExceptionListener[] = [];

/**
 * Node reports what a listener throws as an uncaught exception, which would end the worker (or
 * fail vitest's run). While a case with a throwing listener runs, that error is expected and
 * swallowed; any other uncaught error is recorded, for the case to fail with. The handlers that
 * were there come back when the last such case ends. Returns that end.
 */
function expectListenerFailures(): () => void {
  if (expectingFailures++ === 0) {
    savedUncaughtHandlers = process.listeners('uncaughtException');
    process.removeAllListeners('uncaughtException');
    process.on('uncaughtException', (error) => {
      if (!(error instanceof Error && error.message === LISTENER_FAILURE)) unexpectedUncaught.push(error);
    });
  }
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    if (--expectingFailures > 0) return;
    process.removeAllListeners('uncaughtException');
    for (const handler of savedUncaughtHandlers) process.on('uncaughtException', handler);
  };
}

/** The message an input sends. */
function messageOf(input: ExchangeInput): Record<string, unknown> {
  const params: Record<string, unknown> = input.kind === 'request' ? { name: 'echo', arguments: {} } : { requestId: 0 };
  if (input.era === 'modern') params['_meta'] = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };
  return input.kind === 'request' ? { jsonrpc: '2.0', id: input.requestId, method: 'tools/call', params } : { jsonrpc: '2.0', method: 'notifications/cancelled', params };
}

/** The caller's headers of an input. */
function headersOf(input: ExchangeInput): Record<string, string> {
  const headers: Record<string, string> = { 'x-api-key': 'k-1' };
  if (input.sessionId !== null) headers['mcp-session-id'] = input.sessionId;
  if (input.era === 'modern-by-header') headers['mcp-protocol-version'] = '2026-07-28';
  return headers;
}

/** A header value as a Last-Event-ID carries an id: its UTF-8 bytes, one character each. */
function asHeaderBytes(id: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(id)) out += String.fromCharCode(byte);
  return out;
}

function isTimeoutReason(reason: unknown): boolean {
  return reason instanceof DOMException && reason.name === 'TimeoutError';
}

function resolveUrl(location: string, base: string): URL | undefined {
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}

/** The fetch of the exchanges alongside: an answer to whatever was sent. */
const answering = async (_url: string | URL, init: RequestInit): Promise<Response> => {
  const { id } = JSON.parse(String(init.body)) as { id: unknown };
  return new Response(JSON.stringify({ jsonrpc: '2.0', id, result: {} }), { headers: { 'content-type': 'application/json' } });
};


const turn = (): Promise<void> => new Promise((resolve) => realSetTimeout(resolve, 0));

type Result = { ok: true; value: unknown } | { ok: false; error: unknown };

function describeResult(r: Result): string {
  if (r.ok) return `resolved with ${show(r.value)}`;
  if (isAnswerError(r.error)) return `rejected with ${r.error.code}${r.error.reason === undefined ? '' : ` (${r.error.reason})`}: ${show(r.error.message)}`;
  return `rejected with ${r.error instanceof Error ? `${r.error.name}: ${r.error.message}` : show(r.error)}`;
}

export const exchangeTarget = defineTarget<ExchangeInput>({
  name: 'exchange',
  summary: 'postJsonRpc against a generated server: settles once, documented code, deadline, origin, bodies released, nothing left behind',
  async: true,
  arbitrary: inputArb,
  async check(input) {
    await checkExchange(input);
  },
});

/**
 * Checks one exchange (see the module) and says how it ended: `answer`, `accepted` (a
 * notification), `onMessage's error`, or the error's code and reason, as `malformed_answer no_message`.
 */
export async function checkExchange(input: ExchangeInput): Promise<string> {
  // A busy machine can pause any run past a deadline's slack; a late settlement is a finding only when every try is late.
  for (let attempt = 1; ; attempt++) {
    try {
      return await checkOnce(input);
    } catch (error) {
      if (!(error instanceof Late) || attempt === TRIES) throw error;
    }
  }
}

function outcomeOf(r: Result, thrown: unknown): string {
  if (r.ok) return (r.value as { answer: unknown }).answer === undefined ? 'accepted' : 'answer';
  if (r.error === thrown) return "onMessage's error";
  if (!isAnswerError(r.error)) return 'not an AnswerError';
  return r.error.reason === undefined ? r.error.code : `${r.error.code} ${r.error.reason}`;
}

/** A settlement past its deadline or its abort, or none at all (see {@link TRIES}). */
class Late extends Broken {}

/** Tries of an input that settled late, before it counts. */
const TRIES = 3;

async function checkOnce(input: ExchangeInput): Promise<string> {
  const mark = markProcess();

  // A throwing listener's error is reported on the turn after the abort: expected until the case ends.
  const throwing = input.foreignListeners?.includes('throws') === true || input.fetchListeners?.includes('throws') === true;
  const endExpecting = throwing ? expectListenerFailures() : undefined;
  const uncaughtBefore = unexpectedUncaught.length;
  try {
    return await checkCase(input, mark);
  } finally {
    endExpecting?.();
    const uncaught = unexpectedUncaught.slice(uncaughtBefore);
    ensure(uncaught.length === 0, () => `an uncaught error: ${show(String(uncaught[0]))}`);
  }
}

async function checkCase(input: ExchangeInput, mark: ReturnType<typeof markProcess>): Promise<string> {
  const message = messageOf(input);
  const isRequest = input.kind === 'request';
  const modern = input.era !== 'legacy';

  const caller = new AbortController();
  // A signal whose own methods were replaced must still end the exchange: the platform's are used.
  if (input.patchedSignal) Object.assign(caller.signal, { addEventListener: () => undefined, removeEventListener: () => undefined });
  // The caller's own listeners come first, and may hide the event from any listener after them.
  const given = withForeignListeners(caller.signal, input.foreignListeners ?? []);
  let abortedAt: number | undefined;
  const abortCaller = (kind: ReasonKind): void => {
    if (caller.signal.aborted) return;
    abortedAt = performance.now();
    caller.abort(reasonOf(kind));
  };
  if (input.signal.kind === 'pre-aborted') abortCaller(input.signal.reason);
  const server = fakeServer(input.replies, input.requestId, abortCaller);
  const received: JsonRpcMessage[] = [];
  const thrown = new Error('thrown by onMessage');
  let threwAtCall: number | undefined;
  let abortedByOnMessage = false;
  const onMessage = (m: JsonRpcMessage): void => {
    received.push(m);
    const plan = input.onMessage;
    if ((plan.kind === 'throw' || plan.kind === 'abort') && plan.at === received.length - 1) {
      if (plan.kind === 'abort') {
        if (options.signal !== undefined && !caller.signal.aborted) abortedByOnMessage = true;
        return abortCaller(plan.reason);
      }
      threwAtCall = server.calls.length;
      throw thrown;
    }
  };
  const headers = headersOf(input);
  // The caller's fetch may listen to the signal it is handed, and stop the event there or throw:
  // once a signal (the requests of one exchange share it), as a fetch that let go of them would.
  const fetchListeners = input.fetchListeners ?? [];
  const listenedTo = new WeakSet<AbortSignal>();
  const fetch: FetchFunction = (url, init) => {
    const { signal } = init;
    if (signal === null || signal === undefined || listenedTo.has(signal)) return server.fetch(url, init);
    listenedTo.add(signal);
    for (const kind of fetchListeners) {
      signal.addEventListener('abort', (event) => {
        if (kind === 'stops') event.stopImmediatePropagation();
        else throw new Error(LISTENER_FAILURE);
      });
    }
    return server.fetch(url, init);
  };
  const options: PostJsonRpcOptions = {
    fetch,
    headers,
    timeoutMs: input.timeoutMs,
    maxBytes: input.maxBytes,
    redirect: input.redirect,
    resume: input.resume,
    signal: input.signal.kind === 'none' ? undefined : given.signal,
    onMessage: input.onMessage.kind === 'none' ? undefined : onMessage,
  };

  const timers = countTimers();
  let abortTimer: ReturnType<typeof setTimeout> | undefined;
  let hard: ReturnType<typeof setTimeout> | undefined;
  let settlements = 0;
  let result: Result | undefined;
  let settledAt = 0;
  const started = performance.now();
  let liveAtSettle: string[] = [];
  let callsAtSettle = 0;
  let messagesAtSettle = 0;
  try {
    const exchange = postJsonRpc(input.url, message, options).then(
      (value) => {
        settlements++;
        settledAt = performance.now();
        result = { ok: true, value };
      },
      (error: unknown) => {
        settlements++;
        settledAt = performance.now();
        result = { ok: false, error };
      },
    );
    // Exchanges alongside on the same signal, each answered at once: nothing may pile up on it.
    const others = Array.from({ length: options.signal === undefined ? 0 : input.alongside }, (_, i) =>
      postJsonRpc(input.url, { jsonrpc: '2.0', id: `other-${i}`, method: 'ping' }, { signal: options.signal, timeoutMs: input.timeoutMs, fetch: answering }).then(
        () => undefined,
        () => undefined,
      ),
    );
    const { signal } = input;
    if (signal.kind === 'at') abortTimer = realSetTimeout(() => abortCaller(signal.reason), signal.ms);
    const late = new Promise<'late'>((resolve) => {
      hard = realSetTimeout(() => resolve('late'), input.timeoutMs + HARD_MS);
    });
    if ((await Promise.race([exchange.then(() => 'settled' as const), late])) === 'late') {
      throw new Late(`postJsonRpc did not settle within ${input.timeoutMs + HARD_MS} ms (deadline ${input.timeoutMs} ms; ${server.calls.length} calls)`);
    }
    if ((await Promise.race([Promise.all(others).then(() => 'settled' as const), late])) === 'late') {
      throw new Late(`an exchange alongside did not settle within ${input.timeoutMs + HARD_MS} ms`);
    }
    liveAtSettle = [...timers.live.values()];
    callsAtSettle = server.calls.length;
    messagesAtSettle = received.length;
    // Everything still pending ends now: planned delays, hung calls (each gets a late Response).
    server.flush();
    for (let i = 0; i < 5; i++) await turn();
  } finally {
    timers.restore();
    realClearTimeout(abortTimer);
    realClearTimeout(hard);
    server.dispose();
  }
  const r = result!;
  const elapsed = settledAt - started;
  const { calls } = server;
  const what = (): string => `${describeResult(r)} after ${elapsed.toFixed(1)} ms, ${calls.length} calls (${calls.map(describeCall).join('; ')})`;

  // Nothing the caller gave is changed.
  ensure(JSON.stringify(message) === JSON.stringify(messageOf(input)), () => `the message was changed: ${show(message)}`);
  ensure(JSON.stringify(headers) === JSON.stringify(headersOf(input)), () => `the caller's headers were changed: ${show(headers)}`);

  // Settles once, in time, and nothing runs on after it.
  ensure(settlements === 1, () => `settled ${settlements} times`);
  if (elapsed > input.timeoutMs + SLACK_MS) throw new Late(`settled ${elapsed.toFixed(1)} ms after the call, past its deadline of ${input.timeoutMs} ms: ${what()}`);
  if (abortedAt !== undefined && abortedAt < settledAt) {
    if (settledAt - abortedAt > SLACK_MS) throw new Late(`settled ${(settledAt - abortedAt).toFixed(1)} ms after the caller's signal aborted: ${what()}`);
  }
  ensure(calls.length === callsAtSettle, () => `${calls.length - callsAtSettle} requests after the exchange settled`);
  ensure(received.length === messagesAtSettle, 'onMessage was called after the exchange settled');

  // Nothing left behind.
  ensure(liveAtSettle.length === 0, () => `${liveAtSettle.length} timers left when the exchange settled, armed at ${liveAtSettle[0]}`);
  ensure(timers.live.size === 0, () => `${timers.live.size} timers left after the exchange settled, armed at ${[...timers.live.values()][0]}`);
  for (const signal of new Set([caller.signal, given.signal])) {
    const left = getEventListeners(signal, 'abort').length - given.listeners(signal);
    ensure(left === 0, () => `${left} abort listeners of ours left on the caller's signal`);
  }
  calls.forEach((call, i) => {
    if (call.signal === undefined) return;
    // The fetch's own listeners are the caller's; any beyond them is the exchange's.
    const left = getEventListeners(call.signal, 'abort').length - fetchListeners.length;
    ensure(left === 0, () => `${left} abort listeners of ours left on the signal given to call ${i}`);
  });
  server.sources.forEach((source, i) => {
    ensure(source.cancelled || source.closed || source.errored, () => `body ${i} (of ${source.call === -1 ? 'a late response' : `call ${source.call}`}) was neither cancelled, nor read to its end, nor errored: ${what()}`);
  });
  calls.forEach((call, i) => {
    const body = call.response?.body;
    ensure(body === null || body === undefined || !body.locked || server.sources.some((s) => s.call === i && (s.closed || s.cancelled || s.errored)), () => `the body of call ${i} is still locked`);
  });
  const since = sinceMark(mark);
  ensure(since.rejections.length === 0, () => `an unhandled rejection: ${show(String(since.rejections.at(-1)))}`);
  ensure(since.warnings.length === 0, () => `${since.warnings.at(-1)?.message ?? ''}`);

  // Every request went where the caller said, as the rules allow.
  const origin = new URL(input.url).origin;
  ensure(input.signal.kind === 'pre-aborted' ? calls.length === 0 : calls.length > 0, () => `${calls.length} requests with a caller signal ${input.signal.kind}`);
  calls.forEach((call, i) => {
    const where = resolveUrl(call.url, input.url);
    ensure(where !== undefined && where.origin === origin, () => `call ${i} went to ${show(call.url)}, not ${origin}: ${what()}`);
    ensure(call.redirect === 'manual', () => `call ${i} let fetch follow redirects (${show(call.redirect)})`);
    ensure(call.signal !== undefined, () => `call ${i} was given no signal`);
    ensure(call.headers.get('x-api-key') === 'k-1', () => `call ${i} lost the caller's header`);
    ensure(call.headers.get('mcp-session-id') === (modern ? null : input.sessionId), () => `call ${i} sent mcp-session-id ${show(call.headers.get('mcp-session-id'))}`);
    if (call.method === 'POST') {
      ensure(call.body === JSON.stringify(message), () => `call ${i} posted another body: ${show(call.body)}`);
      ensure(call.headers.get('accept') === ACCEPT && call.headers.get('content-type') === 'application/json', () => `call ${i} posted with accept ${show(call.headers.get('accept'))}`);
      if (modern) ensure(call.headers.get('mcp-method') === message['method'] && call.headers.get('mcp-protocol-version') === '2026-07-28', () => `call ${i} sent mcp-method ${show(call.headers.get('mcp-method'))}, mcp-protocol-version ${show(call.headers.get('mcp-protocol-version'))}`);
    } else {
      ensure(call.method === 'GET', () => `call ${i} is a ${call.method}`);
      ensure(!modern && isRequest && input.resume !== false, () => `call ${i} resumes a ${input.era} ${input.kind} with resume ${show(input.resume)}`);
      ensure(call.body === null || call.body === undefined, () => `the GET of call ${i} has a body`);
      ensure(call.headers.get('accept') === 'text/event-stream', () => `the GET of call ${i} accepts ${show(call.headers.get('accept'))}`);
      const id = call.headers.get('last-event-id');
      const ids = calls.slice(0, i).flatMap((c) => c.served?.ids ?? []);
      ensure(id !== null && ids.some((served) => asHeaderBytes(served) === id), () => `the GET of call ${i} sent Last-Event-ID ${show(id)}, not an id the server sent (${show(ids)})`);
    }
    if (i === 0) ensure(call.method === 'POST' && where!.href === new URL(input.url).href, () => `the first call is a ${call.method} of ${show(call.url)}`);
    // A call after a redirect follows it: only a 307/308 within the origin, a few in a row, the same request.
    const before = calls[i - 1];
    if (i > 0 && before!.response !== undefined && isRedirectStatus(before!.response.status)) {
      const status = before!.response.status;
      const location = before!.response.headers.get('location');
      const next = location === null ? undefined : resolveUrl(location, before!.url);
      ensure(input.redirect !== 'error', () => `a ${status} was followed with redirect: 'error'`);
      ensure(status === 307 || status === 308, () => `a ${status} was followed (to ${show(call.url)})`);
      ensure(next !== undefined && next.href === where!.href, () => `a ${status} to ${show(location)} was followed to ${show(call.url)}`);
      ensure(call.method === before!.method && call.body === before!.body && call.headers.get('last-event-id') === before!.headers.get('last-event-id'), () => `a ${status} was followed with another request`);
      let run = 0;
      for (let j = i - 1; j >= 0 && calls[j]!.response !== undefined && isRedirectStatus(calls[j]!.response!.status); j--) run++;
      ensure(run <= 5, () => `${run} redirects followed in a row`);
    }
  });

  const outcome = outcomeOf(r, thrown);
  // What onMessage throws ends the exchange as it is, and nothing is sent after it; an abort from it wins.
  if (threwAtCall !== undefined) {
    ensure(!r.ok && r.error === thrown, () => `onMessage threw, yet ${what()}`);
    ensure(calls.length === threwAtCall, () => `${calls.length - threwAtCall!} requests after onMessage threw`);
    return outcome;
  }
  if (abortedByOnMessage) ensure(!r.ok && isAnswerError(r.error) && ['aborted', 'timeout'].includes(r.error.code) && r.error.cause === caller.signal.reason, () => `onMessage aborted the caller's signal, yet ${what()}`);
  // The outcome: an answer the server sent, or a documented code that the last reply explains.
  const callerReason: unknown = caller.signal.reason;
  if (r.ok) {
    const value = r.value as { answer: unknown; status: number; headers: Headers };
    const post = [...calls].reverse().find((c) => c.method === 'POST')!;
    ensure(post.response !== undefined && value.status === post.response.status && value.headers === post.response.headers, () => `resolved with status ${value.status}, but the POST's last response is ${post.response?.status}`);
    ensure(value.status >= 200 && value.status <= 299, () => `resolved with status ${value.status}`);
    if (!isRequest) {
      ensure(value.answer === undefined, () => `a notification resolved with an answer ${show(value.answer)}`);
      ensure(server.sources.every((s) => s.pulls === 0), "a notification's response body was read");
    } else {
      const served = calls.filter((c) => c.response !== undefined && c.response.status >= 200 && c.response.status <= 299).flatMap((c) => c.served?.messages ?? []);
      const from = served.find((s) => jsonDifference(value.answer, s.message) === undefined);
      ensure(from !== undefined, () => `resolved with ${show(value.answer)}, which no 2xx body sent`);
      ensure(jsonDifference((value.answer as { id?: unknown }).id, input.requestId) === undefined, () => `resolved with the answer to another id: ${show(value.answer)}`);
    }
    return outcome;
  }
  const error = r.error;
  ensure(isAnswerError(error), () => `${what()}: not an AnswerError`);
  ensure(CODES.includes(error.code), () => `an undocumented code: ${what()}`);
  ensure(error.detail.maxBytes === (input.maxBytes ?? DEFAULT_MAX_BYTES), () => `detail.maxBytes is ${error.detail.maxBytes}`);
  ensure(error.message.length <= 4096, () => `an error message of ${error.message.length} characters`);
  if (error.code === 'malformed_answer') ensure(error.reason !== undefined, 'malformed_answer without a reason');
  if (error.code === 'stream_failed') {
    ensure(error.detail.reissue === (modern && isRequest ? true : undefined), () => `stream_failed in a ${input.era} ${input.kind} with detail.reissue ${show(error.detail.reissue)}: ${what()}`);
  }
  // A connection never made never reached the server: sending it again is safe in either era.
  if (error.code === 'connect_failed') ensure(error.detail.reissue === true, () => `connect_failed with detail.reissue ${show(error.detail.reissue)}: ${what()}`);
  if (error.code === 'aborted') {
    ensure(abortedAt !== undefined && abortedAt <= settledAt && !isTimeoutReason(callerReason), () => `aborted, but the caller's signal did not abort (or with a TimeoutError): ${what()}`);
    ensure(error.cause === callerReason, () => `aborted with another cause than the caller's reason: ${show(String(error.cause))}`);
    return outcome;
  }
  if (error.code === 'timeout') {
    const callerTimeout = abortedAt !== undefined && abortedAt <= settledAt && isTimeoutReason(callerReason) && error.cause === callerReason;
    // The exchange's own deadline, by its reason (a timer may fire a little early by the clock read here).
    const deadline = isTimeoutReason(error.cause) && (error.cause as DOMException).message.includes(`within ${input.timeoutMs} ms`);
    ensure(callerTimeout || deadline, () => `timeout after ${elapsed.toFixed(1)} ms of a ${input.timeoutMs} ms deadline, the caller's signal ${abortedAt === undefined ? 'not aborted' : 'aborted'}: ${what()}`);
    return outcome;
  }
  ensure(input.signal.kind !== 'pre-aborted', () => `a pre-aborted exchange ended as ${error.code}`);

  // Not stopped: the last call's reply says what the exchange must have made of it.
  const last = calls[calls.length - 1]!;
  const response = last.response;
  const reply = last.reply;
  // A fetch that resolves with a plain Response, or an object with all the exchange reads of one, has given a response.
  const junk = reply.kind === 'junk' && reply.value !== 'bare-response' && reply.value !== 'response-like';
  if (reply.kind === 'throw' || reply.kind === 'reject' || junk) {
    // The fake server's rejection is a refused connection (ECONNREFUSED); a throw or junk is no response at all.
    const expected = reply.kind === 'reject' ? 'connect_failed' : 'stream_failed';
    if (last.method === 'POST') ensure(error.code === expected, () => `a POST whose fetch ${reply.kind === 'junk' ? `returned junk (${reply.value})` : reply.kind === 'throw' ? 'threw' : 'rejected'}: ${what()}`);
    return outcome;
  }
  ensure(response !== undefined, () => `the last call got no response, yet ${what()}`);
  const { status } = response;
  if (isRedirectStatus(status)) {
    ensure(error.code === 'http_status' && error.detail.status === status && error.detail.location === (response.headers.get('location') ?? undefined), () => `the last reply was a ${status} to ${show(response.headers.get('location'))}: ${what()}`);
    return outcome;
  }
  const whole = wholeAnswerOf(last, input);
  // 202 is documented as no answer, whatever its body.
  ensure(whole === undefined || status < 200 || status > 299 || status === 202, () => `a ${status} ${last.method} reply held the whole answer ${show(whole)}, yet ${what()}`);
  if (last.method !== 'POST') {
    // A refused resumption ends with the error that started it; only a 401 or 403 is the GET's own (a credential to fix).
    ensure(error.code !== 'http_status' || ((status === 401 || status === 403) && error.detail.status === status), () => `a refused resumption ended as http_status: ${what()}`);
    return outcome;
  }
  if (status < 200 || status > 299) {
    ensure(error.code === 'http_status' && error.detail.status === status, () => `the POST got ${status}: ${what()}`);
    // The JSON-RPC error a refusal carries whole is handed over in detail.answer.
    if (whole !== undefined && Object.prototype.hasOwnProperty.call(whole, 'error')) {
      const d = jsonDifference(error.detail.answer, whole);
      ensure(d === undefined, () => `a ${status} carried the whole error ${show(whole)}, detail.answer ${show(error.detail.answer)}: ${d}`);
    }
    return outcome;
  }
  ensure(isRequest, () => `a notification accepted with ${status} rejected: ${what()}`);
  if ([202, 204, 205].includes(status) || response.body === null) {
    ensure(error.code === 'malformed_answer' && error.reason === 'no_message', () => `a request accepted with ${status}${response.body === null ? ', no body' : ''}: ${what()}`);
    return outcome;
  }
  ensure(error.code !== 'http_status', () => `a 2xx with a body: ${what()}`);
  return outcome;
}

/**
 * The response to the request that `call`'s reply holds whole — a body of its declared type, not
 * cut, not broken, under no cap — or `undefined` when it holds none, or may not be read whole.
 */
function wholeAnswerOf(call: Call, input: ExchangeInput): unknown {
  const reply = call.reply;
  if (reply.kind !== 'respond' || reply.body === null || call.served === undefined || input.kind !== 'request') return undefined;
  const { body } = reply;
  // A resumption is read only as an event stream.
  if (call.method === 'GET' && body.plan.format === 'json') return undefined;
  const types = body.plan.format === 'json' ? JSON_TYPES : SSE_TYPES;
  if (reply.contentType === null || !types.includes(reply.contentType)) return undefined;
  if (body.keep < 1000 || (body.fault.kind !== 'none' && body.fault.kind !== 'endless')) return undefined;
  if (input.maxBytes !== undefined && input.maxBytes !== Infinity) return undefined;
  return call.served.messages.find((m) => {
    const { id, method } = m.message as { id?: unknown; method?: unknown };
    return method === undefined && jsonDifference(id, input.requestId) === undefined;
  })?.message;
}

function isRedirectStatus(status: number): boolean {
  return status >= 300 && status <= 399;
}

function describeCall(call: Call): string {
  const reply = call.reply;
  const r =
    reply.kind === 'respond'
      ? `${reply.status}${reply.location === null ? '' : ` → ${show(reply.location)}`} ${show(reply.contentType)}${reply.body === null ? '' : ` ${reply.body.plan.format}${reply.body.fault.kind === 'none' ? '' : ` ${reply.body.fault.kind}`}`}`
      : reply.kind === 'junk'
        ? `junk ${reply.value}`
        : reply.kind;
  return `${call.method} ${call.url}: ${r}`;
}
