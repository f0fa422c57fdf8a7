/** One exchange with an MCP server as a value: a message planned once, then the POST, the status, the answer read (in 2025, resumed), under one deadline and one cap. @module */

import { abortReason, isAborted } from '../drivers/abort-watch.js';
import { ACCEPT, readAnswerOutcome, type ReadOutcome } from '../drivers/read-answer.js';
import type { AnswerFormat, AnswerProgress } from '../reducers/answer.js';
import { checkRequestId, invalid } from '../vocabulary/check-argument.js';
import { nothingRead, restated, said, stopKind, stopped, type Failure } from '../vocabulary/failure.js';
import { isRecord, type JsonRpcMessage, type JsonRpcRequestId, type JsonRpcResponse } from '../vocabulary/json-rpc.js';
import { writtenJson } from '../vocabulary/json-tree.js';
import { checkNoAuthorization } from './auth-provider.js';
import { sendAuthorized, type AuthorizedRoute } from './authorized-request.js';
import { startDeadline } from './deadline.js';
import { eraOf, type McpEra } from './era.js';
import type { ExchangeSettings } from './exchange-options.js';
import { mcpRequestHeaders } from './mcp-request-headers.js';
import { refusal } from './refusal.js';
import { endedEarly, readResumable } from './resume.js';
import type { RequestObject } from './request-message.js';
import { refusedFor } from './session.js';
import type { SessionKeeper } from './session-keeper.js';
import { release, type Sent } from './send-request.js';

/** One JSON-RPC message as an exchange sends it: everything about it decided once. */
export interface PlannedMessage {
  readonly message: object;
  readonly body: string;
  /** A request's id; `undefined` for a notification or a response, which get no answer. */
  readonly requestId: JsonRpcRequestId | undefined;
  readonly method: string | undefined;
  readonly era: McpEra;
  readonly version: string | undefined;
  /** The 2025 session it carries; never one in 2026-07-28. */
  readonly sessionId: string | undefined;
  readonly headers: Headers;
  /** A resumption GET's headers (2025): the caller's, the session, the version. */
  readonly streamHeaders: Headers;
}

/** A request planned: it has an id, and its exchange comes to a {@link RequestOutcome}. */
export interface PlannedRequest extends PlannedMessage {
  readonly requestId: JsonRpcRequestId;
  readonly method: string;
}

/** How a message is to be sent, decided once by its sender: the message is not read for it again. */
export interface MessagePlan {
  /** The protocol version it is sent in, which decides its era (none: 2025, with no version header). */
  readonly version?: string | undefined;
  /** A 2025 session to carry (ignored in 2026-07-28, which has none). */
  readonly sessionId?: string | undefined;
  /** Headers for this message alone (a tool's `Mcp-Param-*`), over the caller's. */
  readonly headers?: Headers | undefined;
}

/**
 * Decides how `message` is sent: its era (from the plan's version), the session it carries, its headers.
 * @throws TypeError for no JSON-RPC message object, a bad request id (RangeError: no integer), or 2026 metadata headers that cannot be derived.
 */
export function planMessage(message: RequestObject, settings: ExchangeSettings, plan?: MessagePlan): PlannedRequest;
export function planMessage(message: unknown, settings: ExchangeSettings, plan?: MessagePlan): PlannedMessage;
export function planMessage(message: unknown, settings: ExchangeSettings, plan: MessagePlan = {}): PlannedMessage {
  if (!isRecord(message)) throw invalid('message', 'a JSON-RPC message object', message);
  const { method, id } = message as { method?: unknown; id?: unknown };
  const isCall = typeof method === 'string';
  const requestId = isCall && Object.hasOwn(message, 'id') ? checkRequestId('message.id', id) : undefined;
  const { version } = plan;
  const era = eraOf(version);
  const sessionId = era === 'legacy' ? plan.sessionId : undefined;

  const headers = new Headers(settings.headers);
  if (plan.headers !== undefined) {
    checkNoAuthorization(plan.headers, settings.authProvider, "the message's headers");
    settings.secrets.addHeaders(plan.headers);
    plan.headers.forEach((value, name) => headers.set(name, value));
  }
  const streamHeaders = new Headers(headers);
  if (era === 'modern') {
    headers.delete('mcp-session-id');
    // Only requests and notifications have metadata to mirror; a client sends nothing else in this era.
    if (isCall) mcpRequestHeaders(message, version === undefined ? {} : { protocolVersion: version }).forEach((value, name) => headers.set(name, value));
  } else {
    for (const target of [headers, streamHeaders]) {
      if (sessionId !== undefined) target.set('mcp-session-id', sessionId);
      if (version !== undefined) target.set('mcp-protocol-version', version);
    }
  }
  headers.set('accept', ACCEPT);
  headers.set('content-type', 'application/json');
  return { message, body: writtenJson(message, 'message'), requestId, method: isCall ? method : undefined, era, version, sessionId, headers, streamHeaders };
}

/** What an exchange came to. */
export type ExchangeOutcome =
  /** The answer to a request (2xx): exactly as parsed, with how it was read. */
  | {
      readonly kind: 'answered';
      readonly answer: JsonRpcResponse;
      readonly status: number;
      readonly headers: Headers;
      readonly format: AnswerFormat;
      readonly progress: AnswerProgress;
    }
  /** A notification or a response the server accepted (2xx). */
  | { readonly kind: 'accepted'; readonly status: number; readonly headers: Headers }
  /** A status outside 2xx: `answer` is the JSON-RPC error the server sent with it, if any; `failure` its `http_status`. */
  | { readonly kind: 'refused'; readonly status: number; readonly headers: Headers; readonly answer: JsonRpcResponse | undefined; readonly failure: Failure }
  /** No answer: `headers` are the POST's response's, when one came before the failure. */
  | { readonly kind: 'failed'; readonly failure: Failure; readonly headers: Headers | undefined };

/** What a request's exchange comes to: never `accepted` (a request answered with none is `noAnswer`'s failure). */
export type RequestOutcome = Exclude<ExchangeOutcome, { kind: 'accepted' }>;

/** What else an exchange is given. */
export interface ExchangeExtras {
  /** The session state the exchange reports to: an `initialize`'s sessions, a refusal. */
  readonly session: SessionKeeper;
  /** Signals beside the settings' own, each of which ends the exchange (a send's, a request's). */
  readonly signals?: readonly (AbortSignal | undefined)[] | undefined;
  /** Called with every message passed over, in order; what it throws goes up as it is. */
  readonly onMessage?: ((message: JsonRpcMessage) => void) | undefined;
}

/**
 * Sends `planned` to `url` and reads what comes back, holding no stream afterwards; what the session
 * state must know goes to `extras.session`. Throws only what `onMessage` throws (given a checked `url`).
 */
export function runExchange(url: string | URL, settings: ExchangeSettings, planned: PlannedRequest, extras: ExchangeExtras): Promise<RequestOutcome>;
export function runExchange(url: string | URL, settings: ExchangeSettings, planned: PlannedMessage, extras: ExchangeExtras): Promise<ExchangeOutcome>;
export async function runExchange(url: string | URL, settings: ExchangeSettings, planned: PlannedMessage, extras: ExchangeExtras): Promise<ExchangeOutcome> {
  const deadline = startDeadline(settings.timeoutMs, settings.signal, ...(extras.signals ?? []));
  const report = new SessionReport(planned, extras.session);
  let outcome: ExchangeOutcome | undefined;
  try {
    outcome = await exchange(url, settings, planned, deadline.signal, report, extras.onMessage);
    if (outcome.kind !== 'refused') return outcome;
    const failure = refusedFor(extras.session.state, outcome.failure, url, outcome.status, planned);
    return { ...outcome, failure };
  } finally {
    deadline.dispose();
    report.settle(outcome);
  }
}

async function exchange(
  url: string | URL,
  settings: ExchangeSettings,
  planned: PlannedMessage,
  signal: AbortSignal,
  report: SessionReport,
  onMessage: ((message: JsonRpcMessage) => void) | undefined,
): Promise<ExchangeOutcome> {
  const { maxBytes, secrets } = settings;
  const route: AuthorizedRoute = {
    fetch: settings.fetch,
    url,
    signal,
    redirect: settings.redirect,
    detail: nothingRead(maxBytes),
    authProvider: settings.authProvider,
    secrets,
    onRelease: (released) => report.released(released.headers),
  };
  // 2026-07-28 has no resumption: whatever ends a request's connection or response early has lost the request.
  const lostInEra = planned.era === 'modern' && planned.requestId !== undefined;
  if (isAborted(signal)) return { kind: 'failed', failure: stopped(abortReason(signal), route.detail, 'the exchange'), headers: undefined };
  const sent = await sendAuthorized(route, { method: 'POST', headers: planned.headers, body: planned.body });
  if (sent.kind === 'unanswered') return { kind: 'failed', failure: unanswered(sent, lostInEra), headers: undefined };
  if (sent.kind === 'failed') return { kind: 'failed', failure: sent.failure, headers: undefined };
  const { response } = sent;
  const { status, headers } = response;
  report.responded(headers);
  if (status < 200 || status > 299) return await refused(response, planned.requestId, route);
  // 202, 204 and 205 carry no answer by definition; neither does a response without a body.
  if (planned.requestId === undefined || status === 202 || status === 204 || status === 205 || response.body === null) {
    release(route, response);
    if (planned.requestId === undefined) return { kind: 'accepted', status, headers };
    return { kind: 'failed', failure: noAnswer(status, headers, maxBytes), headers };
  }
  const read: ReadOutcome = await readResumable(response, {
    route,
    headers: planned.streamHeaders,
    requestId: planned.requestId,
    maxBytes,
    onMessage,
    resume: settings.resume && planned.era === 'legacy',
  });
  if (read.kind === 'answer') return { kind: 'answered', answer: read.answer, status, headers, format: read.format, progress: read.progress };
  const { failure } = read;
  return { kind: 'failed', failure: lostInEra && endedEarly(read) ? lostRequest(failure) : failure, headers };
}

/** What an exchange tells its session state (`session.ts` decides): an `initialize`'s sessions once its outcome is known (its own first: one released may be the same), a refusal. */
class SessionReport {
  readonly #planned: PlannedMessage;
  readonly #session: SessionKeeper;
  readonly #initialize: boolean;
  #own: string | undefined;
  #settled = false;
  readonly #aside: string[] = [];

  constructor(planned: PlannedMessage, session: SessionKeeper) {
    this.#planned = planned;
    this.#session = session;
    this.#initialize = planned.method === 'initialize';
  }

  /** A response released unread (a redirect, a 401 answered, one after the abort, its own), now or after the exchange. */
  released(headers: Headers): void {
    const id = this.#initialize ? headers.get('mcp-session-id') : null;
    if (id === null) return;
    if (this.#settled) this.#passedOver(id);
    else this.#aside.push(id);
  }

  responded(headers: Headers): void {
    this.#own = headers.get('mcp-session-id') ?? undefined;
  }

  settle(outcome: ExchangeOutcome | undefined): void {
    this.#settled = true;
    if (outcome?.kind === 'refused') void this.#session.apply({ type: 'refused', status: outcome.status, carried: this.#planned.sessionId });
    if (!this.#initialize) return;
    void this.#session.apply({ type: 'issued', sessionId: this.#own, answered: outcome?.kind === 'answered', seen: outcome !== undefined });
    for (const id of this.#aside) this.#passedOver(id);
  }

  /** Its own response's session is `issued`'s to judge, once. */
  #passedOver(id: string): void {
    if (id !== this.#own) void this.#session.apply({ type: 'passed-over', sessionId: id, carried: this.#planned.sessionId });
  }
}

/** The JSON-RPC response an outcome carries: its answer, or the error a refusal came with. */
export function answerOf(outcome: ExchangeOutcome): JsonRpcResponse | undefined {
  return outcome.kind === 'answered' || outcome.kind === 'refused' ? outcome.answer : undefined;
}

/** A request the server accepted as if it were a notification: 2xx, and no answer. */
export function noAnswer(status: number, headers: Headers, maxBytes: number): Failure {
  return {
    code: 'malformed_answer',
    message: said`the server accepted the request with HTTP ${status} and sent no answer`,
    detail: nothingRead(maxBytes, headers.get('content-type')),
    reason: 'no_message',
  };
}

async function refused(response: Response, requestId: JsonRpcRequestId | undefined, route: AuthorizedRoute): Promise<ExchangeOutcome> {
  const { status, headers } = response;
  const contentType = headers.get('content-type');
  const read = await readAnswerOutcome(response, { requestId, maxBytes: route.detail.maxBytes, signal: route.signal, onMessage: undefined });
  if (read.kind === 'answer') {
    const answer = Object.hasOwn(read.answer, 'error') ? read.answer : undefined;
    const failure = refusal(response, { ...nothingRead(route.detail.maxBytes, contentType), bytesRead: read.progress.bytesRead }, answer);
    return { kind: 'refused', status, headers, answer, failure };
  }
  const { detail, cause } = read.failure;
  if (stopKind(read.failure) !== undefined) return { kind: 'failed', failure: read.failure, headers };
  return { kind: 'refused', status, headers, answer: undefined, failure: refusal(response, detail, undefined, [], read.failure.hasCause === true ? cause : undefined) };
}

/** A request that got no response: `reissue` where sending it again is safe (it never reached the server, or a 2026 server dropped it). */
function unanswered({ failure, unsent }: Extract<Sent, { kind: 'unanswered' }>, lostInEra: boolean): Failure {
  if (!unsent && !lostInEra) return failure;
  // One that never reached the server says so already.
  const message = unsent ? failure.message : said`${failure.message}; it may be re-issued with a new id`;
  return restated(failure, { message, detail: { ...failure.detail, reissue: true } });
}

/** 2026-07-28: a request whose response broke or ended before the answer is lost with its stream, and nothing resumes it (SEP-2575). */
function lostRequest(failure: Failure): Failure {
  const message = said`${failure.message}; the server dropped the request with its stream: re-issue it with a new id`;
  return restated(failure, { code: 'stream_failed', message, detail: { ...failure.detail, reissue: true } });
}
