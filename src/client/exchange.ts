/**
 * One exchange with an MCP server, as a value: a message planned once — its era, version,
 * session and headers decided before anything is sent — then the POST, the status, the answer
 * read (and, in the 2025 era, resumed), under one deadline and one byte cap. What it comes to is
 * an {@link ExchangeOutcome}; the public APIs (`postJsonRpc`, `AnswerTransport`, `AnswerClient`)
 * turn it into their results and errors, each at its own edge.
 * @module
 */

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
  /** The message, as given (never changed). */
  readonly message: object;
  /** Its body: `JSON.stringify(message)`. */
  readonly body: string;
  /** A request's id; `undefined` for a notification or a response, which get no answer. */
  readonly requestId: JsonRpcRequestId | undefined;
  /** A request's or a notification's method. */
  readonly method: string | undefined;
  readonly era: McpEra;
  /** The protocol version it is sent in, if one is known. */
  readonly version: string | undefined;
  /** The 2025 session it carries; never one in 2026-07-28. */
  readonly sessionId: string | undefined;
  /** The POST's headers. */
  readonly headers: Headers;
  /** A resumption GET's headers (2025): the caller's, the session, the version. */
  readonly streamHeaders: Headers;
}

/** A request planned: it has an id, and its exchange comes to a {@link RequestOutcome}. */
export interface PlannedRequest extends PlannedMessage {
  readonly requestId: JsonRpcRequestId;
  readonly method: string;
}

/**
 * How a message is to be sent, besides the exchange's settings: decided by the sender, once —
 * the message is not read for them again.
 */
export interface MessagePlan {
  /** The protocol version it is sent in, which decides its era (none: 2025, with no version header). */
  readonly version?: string | undefined;
  /** A 2025 session to carry (ignored in 2026-07-28, which has none). */
  readonly sessionId?: string | undefined;
  /** Headers for this message alone (a tool's `Mcp-Param-*`), over the caller's. */
  readonly headers?: Headers | undefined;
}

/**
 * Decides how `message` is sent: its era (from the plan's version, which its sender decided), the
 * session it carries, and its headers — the caller's, the message's own, and the
 * era's: in 2026-07-28 the request metadata headers mirrored from the body and no session id;
 * in 2025 the session id and `MCP-Protocol-Version`.
 * @throws TypeError for a message that is not a JSON-RPC message object, a request id that
 *   breaks the one rule (RangeError for a number that is no integer), or a 2026 message the
 *   metadata headers cannot be derived from.
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
      /** How the answer was read: its framing, and what its body held (over every resumed body). */
      readonly format: AnswerFormat;
      readonly progress: AnswerProgress;
    }
  /** A notification or a response the server accepted (2xx). */
  | { readonly kind: 'accepted'; readonly status: number; readonly headers: Headers }
  /** A status outside 2xx: `answer` is the JSON-RPC error the server sent with it, if any; `failure` its `http_status`. */
  | { readonly kind: 'refused'; readonly status: number; readonly headers: Headers; readonly answer: JsonRpcResponse | undefined; readonly failure: Failure }
  /** No answer: `headers` are the POST's response's, when one came before the failure. */
  | { readonly kind: 'failed'; readonly failure: Failure; readonly headers: Headers | undefined };

/** What the exchange of a request comes to: never `accepted`, which only a notification's or a response's is (a request answered with none is `noAnswer`'s failure). */
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
 * Sends `planned` to `url` and reads what comes back, holding no stream afterwards.
 *
 * - A request is answered by the response with its id, read as `readAnswer` reads it; a
 *   notification or a response is done once the server accepts it (2xx), its body unread.
 * - A status outside 2xx is `refused`, its body read (within the cap and the deadline) for the
 *   JSON-RPC error the server sent with it.
 * - 2025: an event stream that ends without the answer, after an event id, is resumed.
 * - 2026-07-28: a request whose response broke or ended before the answer is lost — the server
 *   dropped it with its stream — and its failure says to re-issue it (`detail.reissue`), as does
 *   one whose connection broke before any response. An abort closes the response stream, which
 *   is that era's cancellation. A request that could not connect may be sent again in any era.
 * - What the session state must know is reported to `extras.session` (session.ts decides): an
 *   `initialize`'s own session, once its response is known, and those that came with responses
 *   released on the way; a refusal.
 *
 * Throws only what `onMessage` throws (given a `url` that `checkUrl` accepts, as every public API checks).
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

/** The exchange itself: the POST, the status, the answer read and resumed, under `signal`. */
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

/**
 * What an exchange tells its session state: an `initialize`'s own session once its response is
 * known — seen by the caller unless `onMessage` threw, which left no outcome — and after it each
 * session that came with a response released on the way (held back till then: it may be the
 * same one); a refusal. What becomes of each is `session.ts`'s to say.
 */
class SessionReport {
  readonly #planned: PlannedMessage;
  readonly #session: SessionKeeper;
  readonly #initialize: boolean;
  /** The session id of the exchange's own response, once it came. */
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

  /** The exchange's own response came. */
  responded(headers: Headers): void {
    this.#own = headers.get('mcp-session-id') ?? undefined;
  }

  /** The exchange ended with `outcome` (none: `onMessage` threw). */
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

/** A request the server accepted as if it were a notification: 2xx, and no answer. */
export function noAnswer(status: number, headers: Headers, maxBytes: number): Failure {
  return {
    code: 'malformed_answer',
    message: said`the server accepted the request with HTTP ${status} and sent no answer`,
    detail: nothingRead(maxBytes, headers.get('content-type')),
    reason: 'no_message',
  };
}

/** The `refused` outcome of `response`, with the JSON-RPC error its body carries, if any. */
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

/**
 * A request that got no response: `reissue` when sending it again is safe — it never reached the
 * server, or (2026-07-28) the server dropped it with the broken connection.
 */
function unanswered({ failure, unsent }: Extract<Sent, { kind: 'unanswered' }>, lostInEra: boolean): Failure {
  if (!unsent && !lostInEra) return failure;
  // One that never reached the server says so already.
  const message = unsent ? failure.message : said`${failure.message}; it may be re-issued with a new id`;
  return restated(failure, { message, detail: { ...failure.detail, reissue: true } });
}

/**
 * 2026-07-28: a request whose response broke or ended before the answer is lost — the server
 * drops a request with its stream, and nothing resumes it: `stream_failed`, with
 * `detail.reissue` set, so a caller knows to send it again with a new id (SEP-2575).
 */
function lostRequest(failure: Failure): Failure {
  const message = said`${failure.message}; the server dropped the request with its stream: re-issue it with a new id`;
  return restated(failure, { code: 'stream_failed', message, detail: { ...failure.detail, reissue: true } });
}
