/** `AnswerClient`: an MCP client in both eras with no SDK; its outcomes become results or `AnswerError`s here, at the edge. @module */

import { abortReason, checkSignal, followAborts, isAborted, ownController, untilAborted, type OwnController } from '../drivers/abort-watch.js';
import { checkType, checkUrl, invalid, optionsObject } from '../vocabulary/check-argument.js';
import { answerError, nothingRead, said, stopKind, stopped, type Failure } from '../vocabulary/failure.js';
import { writtenJson } from '../vocabulary/json-tree.js';
import { objectOf, type JsonObject, type JsonRpcMessage, type JsonRpcRequestId, type JsonRpcResponse, type JsonValue } from '../vocabulary/json-rpc.js';
import { negotiationFailed, noCommonVersion, versionRefusal } from './discover-outcome.js';
import { isProtocolVersion, LEGACY_PROTOCOL_VERSION, type McpEra } from './era.js';
import { checkExchangeOptions, withoutCallerSignal, type ExchangeOptions } from './exchange-options.js';
import { answerOf, planMessage, runExchange, type PlannedMessage, type PlannedRequest, type RequestOutcome } from './exchange.js';
import {
  answerInputRequests,
  INPUT_REQUIRED_METHODS,
  inputRequired,
  replyTo,
  retryParams,
  serverRequest,
  type InputRequest,
  type InputRequestHandler,
} from './input-required.js';
import { negotiate, renewSession, type Handshake, type HandshakeAnswer, type Negotiated, type NegotiatedBy, type VersionNegotiation } from './negotiate.js';
import { listPage, listStart } from './list-pages.js';
import type { CallToolResult, GetPromptResult, Prompt, ReadResourceResult, Resource, ResourceTemplate, Tool } from './mcp-results.js';
import { DEFAULT_CLIENT_INFO, requestMessage, withMeta, type ClientInfo, type RequestObject } from './request-message.js';
import { freshUntil, frozen, resourceKey, ResultCache } from './result-cache.js';
import { sessionExpired, sessionStart } from './session.js';
import { SessionKeeper } from './session-keeper.js';
import { STANDING_STREAM_METHOD, standingStreamRefused } from './standing-stream.js';
import { ToolHeaders } from './tool-headers.js';
import { typedResult } from './typed-results.js';

/** Options for {@link AnswerClient.connect}: an exchange's options, and the client's own. */
export interface AnswerClientOptions extends ExchangeOptions {
  /** `'auto'` (the default) probes with `server/discover` and falls back to `initialize`; `'legacy'` sends `initialize` alone; `{ pin }` speaks one version (the client guide, "How it negotiates"). */
  readonly versionNegotiation?: VersionNegotiation | undefined;
  /** `false`: no handshake; requests go out at once, in the pinned version's era, else that of the `MCP-Protocol-Version` in `headers`, else 2025. Default `true`. */
  readonly handshake?: boolean | undefined;
  /** Who the client is, in `initialize` (2025) and every request's `_meta` (2026). Default `{ name: 'sse-answer', version }`. */
  readonly clientInfo?: ClientInfo | undefined;
  /** The capabilities the client declares: declare what `onInputRequired` answers (`{ elicitation: {} }`, …), as a server asks for nothing else. Default `{}`. */
  readonly capabilities?: JsonObject | undefined;
  /** Answers the server's requests for input in both eras (the client guide); without it, an `input_required` comes back as it is and a 2025 server request is answered `-32601`. */
  readonly onInputRequired?: InputRequestHandler | undefined;
  /** The most times a request is re-issued with input before its `input_required` result comes back as it is. Default 10. */
  readonly maxInputRounds?: number | undefined;
  /** `false`: keep no result. By default a list or a resource read whose result carries `ttlMs` is reused while fresh (the client guide, "Cached lists"). */
  readonly cache?: boolean | undefined;
  /** `false`: a 2025 session the server forgot (a 404) is the caller's to replace. By default the client runs its handshake again and resends the request (the client guide, "Sessions and `close()`"). */
  readonly renewSession?: boolean | undefined;
}

/** Options for one {@link AnswerClient.request}, and for each typed call. */
export interface AnswerClientRequestOptions {
  /** Ends this request as `aborted`: its response stream is closed (the 2026-07-28 cancellation); a 2025 request is sent `notifications/cancelled` too. */
  readonly signal?: AbortSignal | undefined;
  /** Called with every message passed over before the answer, in order: notifications, server requests. */
  readonly onMessage?: ((message: JsonRpcMessage) => void) | undefined;
  /** Merged into the request's `params._meta` (a trace context, `io.modelcontextprotocol/logLevel`, …); the client's own keys there are a `TypeError`. */
  readonly meta?: JsonObject | undefined;
}

/** Options for a list (`listTools`, …) or a resource read. */
export interface AnswerClientCachedOptions extends AnswerClientRequestOptions {
  /** `true`: ask the server, whatever is kept (and keep what it answers). Default `false`. */
  readonly fresh?: boolean | undefined;
}

const CLOSED = 'AnswerClient: the client is closed';

/** The rounds of input a request takes by default, as the AI SDK's client allows. */
const DEFAULT_INPUT_ROUNDS = 10;

/**
 * An MCP client over Streamable HTTP that holds no stream between requests. How it behaves in each era: the client guide.
 *
 * ```ts
 * const client = await AnswerClient.connect('https://example.com/mcp');
 * const result = await client.callTool('search', { q: 'sse' });
 * await client.close();
 * ```
 */
export class AnswerClient {
  /** The versions the server said it supports (its `DiscoverResult`), else the one spoken. */
  readonly supportedVersions: readonly string[];
  /** The server's `Implementation` (name, version), as it said it; `undefined` when it said none. */
  readonly serverInfo: JsonObject | undefined;
  /** The server's capabilities, as it said them; `undefined` when no handshake said them. */
  readonly capabilities: JsonObject | undefined;
  /** The server's instructions, if it gave any. */
  readonly instructions: string | undefined;
  /** How the era was settled. */
  readonly negotiatedBy: NegotiatedBy;
  /** The answer to the handshake request, as it came: its status, headers and how it was read. */
  readonly handshake: HandshakeAnswer | undefined;

  readonly #on: Handshake;
  readonly #onInputRequired: InputRequestHandler | undefined;
  readonly #maxInputRounds: number;
  readonly #tools: ToolHeaders;
  readonly #session: SessionKeeper;
  readonly #cache: ResultCache | undefined;
  /** Whether a session the server forgot is renewed: a 2025 client that did the handshake, unless told not to. */
  readonly #renews: boolean;
  #renewing: Promise<Failure | undefined> | undefined;
  #nextId = 1;
  #toolPages = 0;

  private constructor(on: Handshake, negotiated: Negotiated, settings: ClientSettings) {
    this.#on = on;
    this.#session = on.session;
    this.#onInputRequired = settings.onInputRequired;
    this.#maxInputRounds = settings.maxInputRounds;
    this.#cache = settings.cache ? new ResultCache() : undefined;
    const how = negotiated.negotiatedBy;
    this.#renews = settings.renewSession && (how.by === 'initialize' || (how.by === 'pin' && how.initialize));
    this.supportedVersions = negotiated.supportedVersions;
    this.serverInfo = negotiated.serverInfo;
    this.capabilities = negotiated.capabilities;
    this.instructions = negotiated.instructions;
    this.negotiatedBy = how;
    this.handshake = negotiated.handshake;
    this.#tools = new ToolHeaders(async (cursor, signal) => {
      // Its own ids, apart from the caller's requests, which are numbered 1, 2, … as they are made.
      const { outcome } = await this.#send('tools/list', cursor === undefined ? undefined : { cursor }, signal, undefined, () => `tools/list-${(this.#toolPages += 1)}`);
      if (outcome.kind === 'answered') return { ok: true, result: objectOf(outcome.answer['result']) };
      return { ok: false, failure: outcome.failure };
    }, on.settings.secrets);
  }

  /**
   * Connects to the MCP endpoint at `url`: checks the options, then settles the era.
   * @throws {@link AnswerError} when the handshake fails (`negotiation_failed`: no era to speak), any session it opened ended; `TypeError`/`RangeError` for bad options.
   */
  static async connect(url: string | URL, options: AnswerClientOptions = {}): Promise<AnswerClient> {
    checkUrl(url);
    const settings = checkExchangeOptions(options);
    const { versionNegotiation = 'auto', handshake = true, clientInfo = DEFAULT_CLIENT_INFO, capabilities = {}, onInputRequired, maxInputRounds = DEFAULT_INPUT_ROUNDS } = options;
    const { cache = true, renewSession = true } = options;
    checkNegotiation(versionNegotiation);
    checkType('handshake', handshake, 'boolean');
    checkType('cache', cache, 'boolean');
    checkType('renewSession', renewSession, 'boolean');
    const info = objectOf(clientInfo as unknown as JsonValue);
    if (typeof info?.['name'] !== 'string' || typeof info['version'] !== 'string') throw invalid('clientInfo', 'an object with a string name and version', clientInfo);
    if (objectOf(capabilities) === undefined) throw invalid('capabilities', 'an object', capabilities);
    if (onInputRequired !== undefined) checkType('onInputRequired', onInputRequired, 'function');
    if (typeof maxInputRounds !== 'number') throw invalid('maxInputRounds', 'a number', maxInputRounds);
    if (!Number.isSafeInteger(maxInputRounds) || maxInputRounds < 0) throw invalid('maxInputRounds', 'a whole number', maxInputRounds, RangeError);
    const on: Handshake = { url, settings, identity: { clientInfo, capabilities }, session: new SessionKeeper(url, settings, sessionStart('client', 'legacy', undefined)) };
    const negotiation = await negotiate(on, versionNegotiation, handshake);
    if (!negotiation.ok) throw answerError(negotiation.failure, settings.secrets);
    return new AnswerClient(on, negotiation.negotiated, { onInputRequired, maxInputRounds, cache, renewSession });
  }

  /** The era the client speaks. */
  get era(): McpEra {
    return this.#session.state.era;
  }

  /** The version its requests are sent in (`undefined` only for 2025 requests with no handshake and no version). */
  get protocolVersion(): string | undefined {
    return this.#session.state.protocolVersion;
  }

  /** The 2025 session the client holds, if the server issued one and has not ended it. */
  get sessionId(): string | undefined {
    return this.#session.state.sessionId;
  }

  /**
   * Sends the request `method` and returns its answer exactly as parsed, a result or a JSON-RPC error response (`params`: an object; in 2025, an array too).
   * A 2026 `input_required` result is answered by `onInputRequired`, and the request re-issued with the answers.
   * @throws {@link AnswerError} for a failed exchange; `TypeError` for bad arguments; whatever `onMessage` or `onInputRequired` throws.
   */
  async request(method: string, params?: JsonObject | JsonValue[], options?: AnswerClientRequestOptions): Promise<JsonRpcResponse> {
    checkType('method', method, 'string');
    return this.#call(method, params, requestOptions(options));
  }

  /**
   * Every tool the server lists, across its pages; kept while fresh (`ttlMs`), `{ fresh: true }` asks anew.
   * @throws {@link AnswerError}: `rpc_error`, `malformed_answer` (`invalid_result`: pages that are no list, or loop), any exchange's.
   */
  listTools(options?: AnswerClientCachedOptions): Promise<readonly Tool[]> {
    return this.#list('tools/list', 'tools', options) as Promise<readonly Tool[]>;
  }

  /** Every prompt the server lists, across its pages; as {@link AnswerClient.listTools}. */
  listPrompts(options?: AnswerClientCachedOptions): Promise<readonly Prompt[]> {
    return this.#list('prompts/list', 'prompts', options) as Promise<readonly Prompt[]>;
  }

  /** Every resource the server lists, across its pages; as {@link AnswerClient.listTools}. */
  listResources(options?: AnswerClientCachedOptions): Promise<readonly Resource[]> {
    return this.#list('resources/list', 'resources', options) as Promise<readonly Resource[]>;
  }

  /** Every resource template the server lists, across its pages; as {@link AnswerClient.listTools}. */
  listResourceTemplates(options?: AnswerClientCachedOptions): Promise<readonly ResourceTemplate[]> {
    return this.#list('resources/templates/list', 'resourceTemplates', options) as Promise<readonly ResourceTemplate[]>;
  }

  /**
   * Calls the tool `name` with `args`; a result with `isError: true` is a result: the tool failed, and says how.
   * @throws {@link AnswerError}: `rpc_error`, `input_required` (no `onInputRequired` gave it), `invalid_tool`, any exchange's; `TypeError` for bad arguments.
   */
  async callTool(name: string, args?: JsonObject, options?: AnswerClientRequestOptions): Promise<CallToolResult> {
    checkType('name', name, 'string');
    if (args !== undefined && objectOf(args) === undefined) throw invalid('args', 'an object', args);
    return (await this.#result('tools/call', args === undefined ? { name } : { name, arguments: args }, requestOptions(options))) as CallToolResult;
  }

  /**
   * Reads the resource `uri`. Kept while fresh (`ttlMs`); `{ fresh: true }` reads anew.
   * @throws {@link AnswerError} as {@link AnswerClient.callTool} does.
   */
  async readResource(uri: string, options?: AnswerClientCachedOptions): Promise<ReadResourceResult> {
    checkType('uri', uri, 'string');
    const { fresh, ...call } = cachedOptions(options);
    return (await this.#cached(resourceKey(uri), fresh, call.signal, async () => {
      const result = await this.#result('resources/read', { uri }, call);
      return { value: result, until: freshUntil(result, Date.now()) };
    })) as ReadResourceResult;
  }

  /**
   * Gets the prompt `name`, filled with `args`.
   * @throws {@link AnswerError} as {@link AnswerClient.callTool} does.
   */
  async getPrompt(name: string, args?: Readonly<Record<string, string>>, options?: AnswerClientRequestOptions): Promise<GetPromptResult> {
    checkType('name', name, 'string');
    if (args !== undefined && !(objectOf(args as JsonObject) !== undefined && Object.values(args).every((value) => typeof value === 'string'))) {
      throw invalid('args', 'an object of strings', args);
    }
    return (await this.#result('prompts/get', args === undefined ? { name } : { name, arguments: { ...args } }, requestOptions(options))) as GetPromptResult;
  }

  /**
   * Sends the notification `method` with `params`; resolves once the server accepted it.
   * @throws {@link AnswerError} for a failed exchange.
   */
  async notify(method: string, params?: JsonObject | JsonValue[], options?: Pick<AnswerClientRequestOptions, 'signal'>): Promise<void> {
    checkType('method', method, 'string');
    const signal = signalOption(options);
    this.#checkOpen();
    const message = requestMessage(undefined, method, params, this.era, this.protocolVersion, this.#on.identity);
    const outcome = await runExchange(this.#on.url, this.#on.settings, this.#plan(message), { session: this.#session, signals: [this.#session.signal, signal] });
    if (outcome.kind === 'refused' || outcome.kind === 'failed') throw this.#error(outcome.failure);
  }

  /**
   * Closes the client: requests in flight end as `aborted`, a 2025 session with a DELETE; later calls do nothing.
   * @returns The DELETE's status (2xx, or 405: no client may end sessions), or `undefined` with no session to end.
   * @throws {@link AnswerError} when the DELETE failed; the client is closed all the same.
   */
  async close(options?: Pick<AnswerClientRequestOptions, 'signal'>): Promise<number | undefined> {
    const signal = signalOption(options);
    const ended = await this.#session.close(new Error(CLOSED), [signal]);
    if (ended?.kind === 'failed') throw this.#error(ended.failure);
    return ended?.status;
  }

  async #call(method: string, params: JsonObject | JsonValue[] | undefined, call: RequestCall): Promise<JsonRpcResponse> {
    this.#checkOpen();
    if (method === STANDING_STREAM_METHOD) throw answerError(standingStreamRefused('AnswerClient'));
    const { signal, onMessage } = call;
    // Stopped before it began: nothing is sent, and there is nothing to cancel on the server.
    if (signal !== undefined && isAborted(signal)) throw this.#stopped(signal);
    let current = withMeta(params, call.meta);
    writtenJson(current, 'params'); // a part JSON cannot write is refused before a tools/call reads tools/list
    for (let round = 0; ; round += 1) {
      const { outcome, id } = await this.#send(method, current, signal, onMessage);
      if (outcome.kind !== 'answered') throw this.#failed(outcome, id);
      if (method === 'tools/list' && this.era === 'modern') this.#tools.learn(objectOf(outcome.answer['result']), true);
      const asked = this.era === 'modern' && INPUT_REQUIRED_METHODS.has(method) ? inputRequired(outcome.answer) : undefined;
      const handler = this.#onInputRequired;
      if (asked === undefined || handler === undefined || round >= this.#maxInputRounds) return outcome.answer;
      const during = ownController();
      const unfollow = followAborts(during, [signal, this.#session.signal]);
      try {
        // A handler that ignores its signal cannot hold the request past its abort or close(); only a 2026 request (params an object) is re-issued.
        current = retryParams(objectOf(current), await untilAborted(answerInputRequests(asked, handler, during.signal), during.signal), asked);
      } catch (error) {
        throw isAborted(during.signal) ? this.#stopped(during.signal) : error;
      } finally {
        unfollow();
      }
    }
  }

  async #result(method: string, params: JsonObject, call: RequestCall): Promise<JsonObject> {
    const typed = typedResult(method, await this.#call(method, params, call));
    if (!typed.ok) throw this.#error(typed.failure);
    return typed.result;
  }

  async #list(method: string, field: string, options: AnswerClientCachedOptions | undefined): Promise<readonly JsonValue[]> {
    const { fresh, ...call } = cachedOptions(options);
    return this.#cached(method, fresh, call.signal, async () => {
      let state = listStart(method, field);
      for (let cursor: string | undefined; ; ) {
        const step = listPage(state, await this.#result(method, cursor === undefined ? {} : { cursor }, call), Date.now());
        if (step.kind === 'failed') throw this.#error(step.failure);
        state = step.state;
        if (step.kind === 'done') return { value: frozen([...state.items]), until: state.until };
        cursor = step.cursor;
      }
    });
  }

  /** What `read` reads, through the cache unless there is none (`cache: false`); a signal already aborted stops a kept result too, as it stops a request. */
  async #cached<T extends JsonValue>(key: string, fresh: boolean, signal: AbortSignal | undefined, read: () => Promise<{ readonly value: T; readonly until: number | undefined }>): Promise<T> {
    this.#checkOpen();
    if (signal !== undefined && isAborted(signal)) throw this.#stopped(signal);
    return this.#cache === undefined ? (await read()).value : this.#cache.through(key, fresh, read);
  }

  /** One request's exchange, sent once more, as a new request, where the server says so: in a version it lists (2026), or in a renewed session (2025). */
  async #send(method: string, params: JsonObject | JsonValue[] | undefined, signal: AbortSignal | undefined, onMessage: OnMessage, nextId: () => JsonRpcRequestId = () => this.#nextId++): Promise<Sent> {
    // A session the server forgot, and none held since (its renewal failed, or is under way): renewed first.
    if (this.#renews && this.#session.lost) {
      const renewal = await this.#renewal(signal);
      if (renewal !== undefined) throw this.#error(stopKind(renewal) === undefined ? sessionExpired({ renewal, detail: nothingRead(this.#on.settings.maxBytes) }) : renewal);
    }
    const sent = await this.#exchange(method, params, signal, onMessage, nextId());
    const refusal = this.era === 'modern' ? versionRefusal(answerOf(sent.outcome)) : undefined;
    if (refusal !== undefined) {
      const refused = sent.outcome.kind === 'refused' ? sent.outcome.failure : undefined;
      if (refusal.retry === undefined) return failedWith(sent, noCommonVersion(refusal.supported, answerOf(sent.outcome), refused));
      void this.#session.apply({ type: 'settled', era: 'modern', protocolVersion: refusal.retry });
      const again = await this.#exchange(method, params, signal, onMessage, nextId());
      if (versionRefusal(answerOf(again.outcome)) === undefined) return again;
      const message = said`the server refused ${method} with UnsupportedProtocolVersion (-32022) in ${refusal.retry}, a version it lists as supported`;
      return failedWith(again, negotiationFailed(message, answerOf(again.outcome)));
    }
    if (!this.#renews || sent.outcome.kind !== 'refused' || !this.#session.forgot(sent.carried)) return sent;
    // A session already renewed by another request is used as it is.
    const renewal = this.sessionId === undefined ? await this.#renewal(signal) : undefined;
    if (renewal !== undefined) return failedWith(sent, stopKind(renewal) === undefined ? sessionExpired({ renewal, detail: sent.outcome.failure.detail }) : renewal);
    const again = await this.#exchange(method, params, signal, onMessage, nextId());
    return again.outcome.kind === 'refused' && this.#session.forgot(again.carried) ? failedWith(again, sessionExpired({ refused: again.outcome.failure })) : again;
  }

  /** The renewal of a forgotten session: one for every request that waits, each within its own signal. */
  async #renewal(signal: AbortSignal | undefined): Promise<Failure | undefined> {
    const version = this.protocolVersion ?? LEGACY_PROTOCOL_VERSION;
    const renewing = (this.#renewing ??= renewSession({ ...this.#on, signals: [this.#session.signal] }, version).finally(() => (this.#renewing = undefined)));
    try {
      return signal === undefined ? await renewing : await untilAborted(renewing, signal);
    } catch (error) {
      if (signal === undefined || !isAborted(signal)) throw error;
      return stopped(abortReason(signal), nothingRead(this.#on.settings.maxBytes), 'the exchange');
    }
  }

  #stopped(signal: AbortSignal): Error {
    return this.#error(stopped(abortReason(signal), nothingRead(this.#on.settings.maxBytes), 'the exchange'));
  }

  #error(failure: Failure): Error {
    return answerError(failure, this.#on.settings.secrets);
  }

  #checkOpen(): void {
    if (this.#session.closed) throw new Error(CLOSED);
  }

  async #exchange(method: string, params: JsonObject | JsonValue[] | undefined, signal: AbortSignal | undefined, onMessage: OnMessage, id: JsonRpcRequestId): Promise<Sent> {
    const message = requestMessage(id, method, params, this.era, this.protocolVersion, this.#on.identity);
    let headers: Headers | undefined;
    if (this.era === 'modern' && method === 'tools/call') {
      const found = await this.#tools.headersFor(message, signal);
      if (found !== undefined && !(found instanceof Headers)) return { outcome: { kind: 'failed', failure: found, headers: undefined }, id, carried: undefined };
      headers = found;
    }
    // A 2025 server request's handler gives up when the request ends; made for the first one only,
    // as an abort costs a DOMException (6% of a 2026 call's time in Node 24).
    let replies: OwnController | undefined;
    const planned = this.#plan(message, headers);
    // What the caller's onMessage throws ends the exchange and goes up as it is.
    try {
      const outcome = await runExchange(this.#on.url, this.#on.settings, planned, {
        session: this.#session,
        signals: [this.#session.signal, signal],
        onMessage: (passedOver) => {
          this.#cache?.notice(passedOver);
          onMessage?.(passedOver);
          const asked = this.era === 'legacy' ? serverRequest(passedOver) : undefined;
          if (asked !== undefined) void this.#reply(asked.id, asked.request, (replies ??= ownController()).signal);
        },
      });
      return { outcome, id, carried: planned.sessionId };
    } finally {
      replies?.abort();
    }
  }

  #plan(message: RequestObject, headers?: Headers): PlannedRequest;
  #plan(message: JsonObject, headers?: Headers): PlannedMessage;
  #plan(message: JsonObject, headers?: Headers): PlannedMessage {
    return planMessage(message, this.#on.settings, { version: this.protocolVersion, sessionId: this.sessionId, headers });
  }

  /** Answers a 2025 server request, and POSTs the reply while the read goes on; a reply that fails is the server's to notice. */
  async #reply(id: JsonRpcRequestId, request: InputRequest, signal: AbortSignal): Promise<void> {
    const reply = await replyTo(id, request, this.#onInputRequired, signal);
    await runExchange(this.#on.url, this.#on.settings, this.#plan(reply), { session: this.#session, signals: [this.#session.signal] });
  }

  /** The error of a request with no answer; a stopped 2025 request is also cancelled on the server (`notifications/cancelled`, not awaited). */
  #failed(outcome: Exclude<RequestOutcome, { kind: 'answered' }>, id: JsonRpcRequestId): Error {
    const stop = stopKind(outcome.failure);
    if (stop !== undefined && this.era === 'legacy' && !this.#session.closed) this.#cancel(id, stop);
    return this.#error(outcome.failure);
  }

  /** Tells a 2025 server a request was cancelled; best effort, not under the client's signal, whose abort it may report. */
  #cancel(requestId: JsonRpcRequestId, stop: 'timeout' | 'aborted'): void {
    const reason = stop === 'timeout' ? 'timed out' : 'aborted by the client';
    const message = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason } };
    void runExchange(this.#on.url, withoutCallerSignal(this.#on.settings), this.#plan(message), { session: this.#session }); // never rejects: there is no onMessage
  }
}

interface RequestCall {
  readonly signal: AbortSignal | undefined;
  readonly onMessage: OnMessage;
  readonly meta: JsonObject | undefined;
}

type OnMessage = ((message: JsonRpcMessage) => void) | undefined;

interface Sent {
  readonly outcome: RequestOutcome;
  readonly id: JsonRpcRequestId;
  readonly carried: string | undefined;
}

interface ClientSettings {
  readonly onInputRequired: InputRequestHandler | undefined;
  readonly maxInputRounds: number;
  readonly cache: boolean;
  readonly renewSession: boolean;
}

function failedWith(sent: Sent, failure: Failure): Sent {
  return { ...sent, outcome: { kind: 'failed', failure, headers: sent.outcome.headers } };
}


function requestOptions(options: unknown): RequestCall {
  const signal = signalOption(options);
  const { onMessage, meta } = (options ?? {}) as AnswerClientRequestOptions;
  if (onMessage !== undefined) checkType('onMessage', onMessage, 'function');
  withMeta(undefined, meta); // checked before anything is sent
  return { signal, onMessage, meta };
}

function cachedOptions(options: unknown): RequestCall & { readonly fresh: boolean } {
  const call = requestOptions(options);
  const { fresh = false } = (options ?? {}) as AnswerClientCachedOptions;
  checkType('fresh', fresh, 'boolean');
  return { ...call, fresh };
}

function signalOption(options: unknown): AbortSignal | undefined {
  return checkSignal('signal', (optionsObject(options) as AnswerClientRequestOptions).signal);
}

function checkNegotiation(negotiation: unknown): void {
  if (negotiation === 'auto' || negotiation === 'legacy' || isProtocolVersion(objectOf(negotiation as JsonValue)?.['pin'])) return;
  throw invalid('versionNegotiation', '"auto", "legacy" or { pin: "YYYY-MM-DD" }', negotiation);
}
