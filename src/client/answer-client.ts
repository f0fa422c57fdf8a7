/**
 * `AnswerClient`: an MCP client in both eras with no SDK — the era negotiated, a 2025 session
 * held (or none), requests answered and their streams let go, tool parameter headers mirrored,
 * the server's requests for input answered. Every exchange is the one `postJsonRpc` makes; its
 * outcome becomes a result or an `AnswerError` here, at the edge.
 * @module
 */

import { checkSignal, followAborts, ownController, untilAborted } from '../drivers/abort-watch.js';
import { checkType, checkUrl, invalid, optionsObject } from '../vocabulary/check-argument.js';
import { answerError, nothingRead, stopped, type Failure } from '../vocabulary/failure.js';
import { objectOf, type JsonObject, type JsonRpcMessage, type JsonRpcRequestId, type JsonRpcResponse, type JsonValue } from '../vocabulary/json-rpc.js';
import { endAbandonedSession, endSession, sessionAfterRefusal, sessionIssued } from './end-session.js';
import { isProtocolVersion, type McpEra } from './era.js';
import { checkExchangeOptions, withoutCallerSignal, type ExchangeOptions, type ExchangeSettings } from './exchange-options.js';
import { planMessage, runExchange, type RequestOutcome } from './exchange.js';
import {
  answerInputRequests,
  INPUT_REQUIRED_METHODS,
  inputRequired,
  replyTo,
  retryParams,
  serverRequest,
  type InputRequestHandler,
} from './input-required.js';
import { negotiate, type HandshakeAnswer, type Negotiated, type NegotiatedBy, type VersionNegotiation } from './negotiate.js';
import { DEFAULT_CLIENT_INFO, requestMessage, type ClientIdentity, type ClientInfo } from './request-message.js';
import { STANDING_STREAM_METHOD, standingStreamRefused } from './standing-stream.js';
import { ToolHeaders } from './tool-headers.js';

/** Options for {@link AnswerClient.connect}: an exchange's options, and the client's own. */
export interface AnswerClientOptions extends ExchangeOptions {
  /**
   * How the era is settled: `'auto'` (the default) sends `server/discover` and falls back to
   * `initialize` when the server's answer says it is a 2025 server — a 4xx other than 401 and
   * 403 without a 2026-07-28 error, or a result that is no `DiscoverResult` (a 401, a 403, a 5xx,
   * a redirect or no response fails the connect); `'legacy'` sends
   * `initialize` alone; `{ pin: version }` speaks that one version — a 2026 one with no
   * handshake, a 2025 one through an `initialize` the server must answer in it.
   */
  readonly versionNegotiation?: VersionNegotiation | undefined;
  /**
   * `false`: no handshake at all — requests go out at once, in the pinned version's era, else in
   * the era of the `MCP-Protocol-Version` in `headers`, else in 2025 with no session. Default `true`.
   */
  readonly handshake?: boolean | undefined;
  /** Who the client is, in `initialize` (2025) and every request's `_meta` (2026). Default `{ name: 'sse-answer', version }`. */
  readonly clientInfo?: ClientInfo | undefined;
  /**
   * The capabilities the client declares, as the era declares them. Declare what
   * `onInputRequired` answers (`{ elicitation: {} }`, …): a server asks for nothing else. Default `{}`.
   */
  readonly capabilities?: JsonObject | undefined;
  /**
   * Answers the server's requests for input: each `inputRequests` entry of a 2026 `input_required`
   * result (the request is then re-issued with the answers, as a new request), and each server
   * request on a 2025 answer's stream (the reply is POSTed while the read goes on). Without it, an
   * `input_required` result comes back as it is, and a 2025 server request is answered `-32601`.
   */
  readonly onInputRequired?: InputRequestHandler | undefined;
  /** The most times a request is re-issued with input before its `input_required` result comes back as it is. Default 10. */
  readonly maxInputRounds?: number | undefined;
}

/** Options for one {@link AnswerClient.request}. */
export interface AnswerClientRequestOptions {
  /**
   * Ends this request when it aborts, as `aborted`: its response stream is closed, which in
   * 2026-07-28 cancels it; a 2025 request is cancelled with `notifications/cancelled` as well.
   */
  readonly signal?: AbortSignal | undefined;
  /** Called with every message passed over before the answer, in order: notifications, server requests. */
  readonly onMessage?: ((message: JsonRpcMessage) => void) | undefined;
}

/** Why a request fails once the client is closed, and the reason its close aborts those in flight with. */
const CLOSED = 'AnswerClient: the client is closed';

/** The rounds of input a request takes by default, as the AI SDK's client allows. */
const DEFAULT_INPUT_ROUNDS = 10;

/**
 * An MCP client over Streamable HTTP that holds no stream between requests.
 *
 * ```ts
 * const client = await AnswerClient.connect('https://example.com/mcp');
 * const answer = await client.request('tools/call', { name: 'search', arguments: { q: 'sse' } });
 * await client.close();
 * ```
 *
 * - {@link AnswerClient.connect} negotiates the era (see {@link AnswerClientOptions.versionNegotiation})
 *   and says what it settled: {@link AnswerClient.era}, {@link AnswerClient.protocolVersion},
 *   {@link AnswerClient.sessionId}, and what the server said of itself.
 * - {@link AnswerClient.request} returns the answer, a result or a JSON-RPC error response,
 *   exactly as parsed; a status outside 2xx is `http_status` (`detail.answer` the server's
 *   JSON-RPC error), and any other failure its `AnswerError`, with no secret the exchange sent.
 * - 2026-07-28: a `tools/call` carries the tool's `Mcp-Param-*` headers (from `tools/list`, read
 *   once); a tool with invalid `x-mcp-header` annotations is refused (`invalid_tool`).
 * - 2025: a 404 to a request that carried the session means the server ended it:
 *   {@link AnswerClient.sessionId} is cleared; connect again for a new one.
 * - {@link AnswerClient.close} ends a 2025 session with a DELETE.
 */
export class AnswerClient {
  /** The era the client speaks. */
  declare readonly era: McpEra;
  /** The version its requests are sent in (`undefined` only for 2025 requests with no handshake and no version). */
  declare readonly protocolVersion: string | undefined;
  /** The versions the server said it supports (its `DiscoverResult`), else the one spoken. */
  declare readonly supportedVersions: readonly string[];
  /** The server's `Implementation` (name, version), as it said it; `undefined` when it said none. */
  declare readonly serverInfo: JsonObject | undefined;
  /** The server's capabilities, as it said them; `undefined` when no handshake said them. */
  declare readonly capabilities: JsonObject | undefined;
  /** The server's instructions, if it gave any. */
  declare readonly instructions: string | undefined;
  /** How the era was settled. */
  declare readonly negotiatedBy: NegotiatedBy;
  /** The answer to the handshake request, as it came: its status, headers and how it was read. */
  declare readonly handshake: HandshakeAnswer | undefined;

  readonly #url: string | URL;
  readonly #settings: ExchangeSettings;
  readonly #identity: ClientIdentity;
  readonly #onInputRequired: InputRequestHandler | undefined;
  readonly #maxInputRounds: number;
  readonly #tools: ToolHeaders;
  /** Aborted by `close()`: every request in flight ends with it. */
  readonly #closing = ownController();
  #sessionId: string | undefined;
  #nextId = 1;
  #toolPages = 0;
  #closed = false;

  private constructor(url: string | URL, settings: ExchangeSettings, identity: ClientIdentity, negotiated: Negotiated, handler: InputRequestHandler | undefined, rounds: number) {
    this.#url = url;
    this.#settings = settings;
    this.#identity = identity;
    this.#onInputRequired = handler;
    this.#maxInputRounds = rounds;
    // What was settled is said as negotiate() found it: each field of Negotiated but the session.
    const { sessionId, ...settled } = negotiated;
    Object.assign(this, settled);
    this.#sessionId = sessionId;
    this.#tools = new ToolHeaders(async (cursor, signal) => {
      // Its own ids, apart from the caller's requests, which are numbered 1, 2, … as they are made.
      const { outcome } = await this.#exchange('tools/list', cursor === undefined ? undefined : { cursor }, signal, undefined, `tools/list-${(this.#toolPages += 1)}`);
      if (outcome.kind === 'answered') return { ok: true, result: objectOf(outcome.answer['result']) };
      return { ok: false, failure: outcome.failure };
    }, settings.secrets);
  }

  /**
   * Connects to the MCP endpoint at `url`: checks the options, then settles the era.
   * @throws {@link AnswerError} when the handshake fails (`negotiation_failed` when there is no
   *   era to speak), any session it opened ended; `TypeError`/`RangeError` for bad options.
   */
  static async connect(url: string | URL, options: AnswerClientOptions = {}): Promise<AnswerClient> {
    checkUrl(url);
    const settings = checkExchangeOptions(options);
    const { versionNegotiation = 'auto', handshake = true, clientInfo = DEFAULT_CLIENT_INFO, capabilities = {}, onInputRequired, maxInputRounds = DEFAULT_INPUT_ROUNDS } = options;
    checkNegotiation(versionNegotiation);
    checkType('handshake', handshake, 'boolean');
    const info = objectOf(clientInfo as unknown as JsonValue);
    if (typeof info?.['name'] !== 'string' || typeof info['version'] !== 'string') throw invalid('clientInfo', 'an object with a string name and version', clientInfo);
    if (objectOf(capabilities) === undefined) throw invalid('capabilities', 'an object', capabilities);
    if (onInputRequired !== undefined) checkType('onInputRequired', onInputRequired, 'function');
    if (!Number.isSafeInteger(maxInputRounds) || maxInputRounds < 0) throw invalid('maxInputRounds', 'a whole number', maxInputRounds, RangeError);
    const identity = { clientInfo, capabilities };
    const negotiation = await negotiate(url, settings, identity, versionNegotiation, handshake);
    if (!negotiation.ok) throw answerError(negotiation.failure, settings.secrets);
    return new AnswerClient(url, settings, identity, negotiation.negotiated, onInputRequired, maxInputRounds);
  }

  /** The 2025 session the client holds, if the server issued one and has not ended it. */
  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  /**
   * Sends the request `method` with `params` and returns its answer, exactly as parsed: a
   * result or a JSON-RPC error response. Messages passed over before it go to `onMessage`. An
   * `input_required` result is answered by `onInputRequired` and the request re-issued (2026).
   * @param params An object; in 2026-07-28 the request's `_meta` goes there. A 2025 request may carry an array.
   * @throws {@link AnswerError} for a failed exchange (`invalid_tool`, `http_status`, …);
   *   `TypeError` for bad arguments (params must be an object in 2026-07-28); whatever
   *   `onMessage` or `onInputRequired` throws, as it is.
   */
  async request(method: string, params?: JsonObject | JsonValue[], options?: AnswerClientRequestOptions): Promise<JsonRpcResponse> {
    checkType('method', method, 'string');
    const signal = signalOption(options);
    const onMessage = options?.onMessage; // options is an object, or none: signalOption checked it
    if (onMessage !== undefined) checkType('onMessage', onMessage, 'function');
    this.#checkOpen();
    if (method === STANDING_STREAM_METHOD) throw answerError(standingStreamRefused('AnswerClient'));
    // Stopped before it began: nothing is sent, and there is nothing to cancel on the server.
    if (signal?.aborted === true) throw this.#stopped(signal);
    let current = params;
    for (let round = 0; ; round += 1) {
      const { outcome, id } = await this.#exchange(method, current, signal, onMessage);
      if (outcome.kind !== 'answered') throw this.#failed(outcome, id);
      if (method === 'tools/list' && this.era === 'modern') this.#tools.learn(objectOf(outcome.answer['result']), true);
      const asked = this.era === 'modern' && INPUT_REQUIRED_METHODS.has(method) ? inputRequired(outcome.answer) : undefined;
      const handler = this.#onInputRequired;
      if (asked === undefined || handler === undefined || round >= this.#maxInputRounds) return outcome.answer;
      // The handler gives up when the request is stopped, or the client closed.
      const during = ownController();
      const unfollow = followAborts(during, [signal, this.#closing.signal]);
      try {
        // A handler that ignores its signal cannot hold the request past its abort, nor past close().
        // Only a 2026 request is re-issued, and its params are an object (an array is refused there).
        current = retryParams(objectOf(current), await untilAborted(answerInputRequests(asked, handler, during.signal), during.signal), asked);
      } catch (error) {
        throw during.signal.aborted ? this.#stopped(during.signal) : error;
      } finally {
        unfollow();
      }
    }
  }

  /**
   * Sends the notification `method` with `params`; resolves once the server accepted it.
   * @throws {@link AnswerError} for a failed exchange.
   */
  async notify(method: string, params?: JsonObject | JsonValue[], options?: Pick<AnswerClientRequestOptions, 'signal'>): Promise<void> {
    checkType('method', method, 'string');
    const signal = signalOption(options);
    this.#checkOpen();
    const message = requestMessage(undefined, method, params, this.era, this.protocolVersion, this.#identity);
    const outcome = await runExchange(this.#url, this.#settings, this.#plan(message), { signals: [this.#closing.signal, signal] });
    if (outcome.kind === 'refused' || outcome.kind === 'failed') throw answerError(outcome.failure, this.#settings.secrets);
  }

  /**
   * Closes the client: requests in flight end as `aborted`, and a 2025 session is ended with a
   * DELETE. Later calls do nothing.
   * @returns The DELETE's status (2xx, or 405: the server lets no client end sessions), or
   *   `undefined` when there was no session to end.
   * @throws {@link AnswerError} when the DELETE failed; the client is closed all the same.
   */
  async close(options?: Pick<AnswerClientRequestOptions, 'signal'>): Promise<number | undefined> {
    const signal = signalOption(options);
    if (this.#closed) return undefined;
    this.#closed = true;
    this.#closing.abort(new Error(CLOSED));
    const sessionId = this.#sessionId;
    if (sessionId === undefined) return undefined;
    this.#sessionId = undefined;
    const ended = await endSession(this.#url, this.#settings, sessionId, this.protocolVersion, [signal]);
    if (ended.kind === 'failed') throw answerError(ended.failure, this.#settings.secrets);
    return ended.status;
  }

  /** The error of a request its signal (or `close()`) stopped where no exchange was running. */
  #stopped(signal: AbortSignal): Error {
    return answerError(stopped(signal.reason, nothingRead(this.#settings.maxBytes), 'the exchange'), this.#settings.secrets);
  }

  #checkOpen(): void {
    if (this.#closed) throw new Error(CLOSED);
  }

  /** One exchange of a request: its id (the next of the caller's, unless given), its tool headers (2026 `tools/call`), its era's plan. */
  async #exchange(
    method: string,
    params: JsonObject | JsonValue[] | undefined,
    signal: AbortSignal | undefined,
    onMessage: ((message: JsonRpcMessage) => void) | undefined,
    given?: string,
  ): Promise<{ readonly outcome: RequestOutcome; readonly id: JsonRpcRequestId }> {
    const id = given ?? this.#nextId++;
    const message = requestMessage(id, method, params, this.era, this.protocolVersion, this.#identity);
    let headers: Headers | undefined;
    if (this.era === 'modern' && method === 'tools/call') {
      const found = await this.#tools.headersFor(message, signal);
      if (found !== undefined && !(found instanceof Headers)) return { outcome: { kind: 'failed', failure: found, headers: undefined }, id };
      headers = found;
    }
    const request = ownController(); // a 2025 server request's handler gives up with it
    const planned = this.#plan(message, headers);
    // What the caller's onMessage throws ends the exchange and goes up as it is (the exchange
    // ends the session an `initialize` of the caller's was given).
    try {
      const outcome = await runExchange(this.#url, this.#settings, planned, {
        signals: [this.#closing.signal, signal, request.signal],
        onMessage: (passedOver) => {
          onMessage?.(passedOver);
          const asked = this.era === 'legacy' ? serverRequest(passedOver) : undefined;
          if (asked !== undefined) void this.#reply(asked.id, asked.request, request.signal);
        },
      });
      if (outcome.kind === 'refused') this.#sessionId = sessionAfterRefusal(this.#sessionId, planned.sessionId, outcome.status);
      if (method === 'initialize') {
        // The session of an `initialize` the caller sent itself (with no handshake): held when the
        // answer came, so that `close()` ends it, the one it replaces ended; ended at once when the
        // exchange failed or the client closed. (The 2025 revision has a server assign a session
        // on the response to initialize; an id on another response is not one the client took.)
        const [held, ended] = sessionIssued(this.#sessionId, outcome.headers?.get('mcp-session-id'), outcome.kind === 'answered' && !this.#closed);
        this.#sessionId = held;
        if (ended !== undefined) void endAbandonedSession(this.#url, this.#settings, ended, this.protocolVersion);
      }
      return { outcome: outcome as RequestOutcome, id };
    } finally {
      request.abort();
    }
  }

  #plan(message: JsonObject, headers?: Headers): ReturnType<typeof planMessage> {
    return planMessage(message, this.#settings, { version: this.protocolVersion, sessionId: this.#sessionId, headers });
  }

  /** Answers a 2025 server request, and POSTs the reply while the read goes on; a reply that fails is the server's to notice. */
  async #reply(id: string | number, request: Parameters<typeof replyTo>[1], signal: AbortSignal): Promise<void> {
    const reply = await replyTo(id, request, this.#onInputRequired, signal);
    await runExchange(this.#url, this.#settings, this.#plan(reply), { signals: [this.#closing.signal] });
  }

  /**
   * The error of a request that has no answer. A 2025 request stopped by a signal or its
   * deadline is cancelled on the server too (`notifications/cancelled`, not awaited).
   */
  #failed(outcome: Exclude<RequestOutcome, { kind: 'answered' }>, id: JsonRpcRequestId): Error {
    const stopped = outcome.failure.code === 'aborted' || outcome.failure.code === 'timeout';
    if (stopped && this.era === 'legacy' && !this.#closed) this.#cancel(id, outcome.failure);
    return answerError(outcome.failure, this.#settings.secrets);
  }

  /** Tells a 2025 server a request was cancelled; best effort, not under the client's signal, whose abort it may report. */
  #cancel(requestId: JsonRpcRequestId, failure: Failure): void {
    const reason = failure.code === 'timeout' ? 'timed out' : 'aborted by the client';
    const message = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason } };
    void runExchange(this.#url, withoutCallerSignal(this.#settings), this.#plan(message)); // never rejects: there is no onMessage
  }
}

/** The `signal` of a method's options, checked, with the options (an object, or none). */
function signalOption(options: unknown): AbortSignal | undefined {
  return checkSignal('signal', (optionsObject(options) as AnswerClientRequestOptions).signal);
}

function checkNegotiation(negotiation: unknown): void {
  if (negotiation === 'auto' || negotiation === 'legacy' || isProtocolVersion(objectOf(negotiation as JsonValue)?.['pin'])) return;
  throw invalid('versionNegotiation', '"auto", "legacy" or { pin: "YYYY-MM-DD" }', negotiation);
}
