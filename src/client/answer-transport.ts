/** `AnswerTransport`: the MCP SDK's `Transport` and the AI SDK's `MCPTransport`, matched structurally, each `send` one exchange. @module */

import { checkSignal, isAborted } from '../drivers/abort-watch.js';
import { checkType, checkUrl, optionsObject } from '../vocabulary/check-argument.js';
import { descriptionOf } from '../vocabulary/describe-value.js';
import { answerError } from '../vocabulary/failure.js';
import type { JsonRpcMessage } from '../vocabulary/json-rpc.js';
import { refusalGoesInBand } from './discover-outcome.js';
import { declaredProtocolVersion, eraOf } from './era.js';
import { checkExchangeOptions, type ExchangeOptions, type ExchangeSettings } from './exchange-options.js';
import { planMessage, runExchange, type ExchangeOutcome, type PlannedMessage } from './exchange.js';
import { sessionStart } from './session.js';
import { SessionKeeper } from './session-keeper.js';
import { STANDING_STREAM_METHOD, standingStreamRefused } from './standing-stream.js';

/** Options for {@link AnswerTransport}: an exchange's, for every request it sends; its `signal` ends them all, `close()`'s DELETE included. */
export interface AnswerTransportOptions extends ExchangeOptions {}

const CLOSED = 'AnswerTransport: the transport is closed';

/** A JSON-RPC message as `onmessage` gets it, exactly as parsed; typed loosely so that the SDK's message type fits. */
export interface TransportMessage {
  /** `"2.0"` from a well-formed server. */
  readonly jsonrpc?: unknown;
  /** A request's or a response's id. */
  readonly id?: unknown;
  /** A notification's or a server request's method. */
  readonly method?: unknown;
  /** A notification's or a server request's params. */
  readonly params?: unknown;
  /** A result response's result. */
  readonly result?: unknown;
  /** An error response's error. */
  readonly error?: unknown;
}

/** The options an MCP client passes to `send`: the MCP SDK's (v1 and v2) and the AI SDK's. */
export interface AnswerTransportSendOptions {
  /** Ignored: it ties a server's message to a request. */
  readonly relatedRequestId?: string | number | undefined;
  /** Ignored. */
  readonly resumptionToken?: string | undefined;
  /** Never called. */
  readonly onresumptiontoken?: ((token: string) => void) | undefined;
  /** Ends this message's exchange alone (in 2026-07-28, that is its cancellation), not the transport. */
  readonly requestSignal?: AbortSignal | undefined;
  /** The AI SDK's name for {@link AnswerTransportSendOptions.requestSignal}: either, or both, end the exchange. */
  readonly signal?: AbortSignal | undefined;
  /** Called when the exchange ends without its answer for any reason but an abort of its signals or `close()`. */
  readonly onRequestStreamEnd?: (() => void) | undefined;
  /** Headers for this message's POST alone (the `Mcp-Param-*` a client computes from a tool's definition), sent as given. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

/**
 * An MCP client transport over Streamable HTTP that holds no stream between requests, for the MCP
 * SDK's `Client` (v1, v2) and the AI SDK's `createMCPClient`: each `send` one exchange, in the era
 * its message's version says. How it meets each client: the embedding guide, "On `AnswerTransport`".
 */
export class AnswerTransport {
  /** Receives every message from the server, the passed-over ones then each answer (generic, as the SDK's is, so either assigns to the other). */
  onmessage?: <T extends TransportMessage>(message: T) => void;
  /** Receives errors not tied to a `send`: a throwing `onmessage`, a failed DELETE on close. */
  onerror?: (error: Error) => void;
  /** Called once, when the transport closes. */
  onclose?: () => void;
  /** The 2025 session id the server assigned at `initialize`, if any. */
  get sessionId(): string | undefined {
    return this.#session.state.sessionId;
  }

  /** Holds `sessionId` as given (the session of a client resumed elsewhere); `undefined` holds none and ends none. */
  set sessionId(sessionId: string | undefined) {
    if (sessionId !== undefined) checkType('sessionId', sessionId, 'string');
    void this.#session.apply({ type: 'set', sessionId });
  }

  /** The version the client negotiated: sent as `MCP-Protocol-Version`, and the era of a message that declares none. Set by {@link AnswerTransport.setProtocolVersion}, or assigned. */
  protocolVersion?: string;

  /** `true`: each request has its own response stream, so the SDK cancels a 2026 request by aborting its `requestSignal`. */
  readonly hasPerRequestStream = true;
  /** `true`: the AI SDK's `createMCPClient` probes with `server/discover` before it falls back to `initialize`. */
  readonly supportsProtocolVersionDiscovery = true;
  /** `true`: the AI SDK waits for the probe's answer rather than taking a slow server for a 2025 one. */
  readonly waitsForProtocolVersionDiscovery = true;
  /** `true`: the AI SDK passes a 2026 `tools/call`'s `Mcp-Param-*` as the send's `headers`. */
  readonly supportsMcpToolParameterHeaders = true;

  readonly #url: string | URL;
  readonly #settings: ExchangeSettings;
  readonly #session: SessionKeeper;

  /** A transport for the MCP endpoint at `url`. Nothing is sent until the first `send`. */
  constructor(url: string | URL, options: AnswerTransportOptions = {}) {
    checkUrl(url);
    // A bad option fails here, not at the first send.
    const settings = checkExchangeOptions(options);
    this.#settings = settings;
    this.#url = url;
    // A session let go of whose DELETE fails is no send's failure: it goes to onerror.
    this.#session = new SessionKeeper(url, settings, sessionStart('transport', 'legacy', undefined), (failed) =>
      this.#report(failed.kind === 'failed' ? answerError(failed.failure, settings.secrets) : failed.error),
    );
  }

  /** Nothing to connect: each request is its own exchange. Rejects once the transport is closed. */
  async start(): Promise<void> {
    if (this.#session.closed) throw new Error(CLOSED);
  }

  /**
   * Sends one message, what the server sends back going to `onmessage`; resolves once it is answered or accepted and any DELETE it called for has settled.
   * @throws `AnswerError` for a failed exchange (`aborted` by `close()` or a signal; `unsupported_request` for `subscriptions/listen`); an `Error` once closed.
   */
  async send(message: object, options?: AnswerTransportSendOptions): Promise<void> {
    if (this.#session.closed) throw new Error(CLOSED);
    const { requestSignal, signal, onRequestStreamEnd, headers } = optionsObject(options) as AnswerTransportSendOptions;
    checkSignal('requestSignal', requestSignal);
    checkSignal('signal', signal);
    if (onRequestStreamEnd !== undefined) checkType('onRequestStreamEnd', onRequestStreamEnd, 'function');
    const settings = this.#settings;
    this.#settleVersion();
    // The version a message declares decides its era (the MCP client settled it); else the one set.
    const planned = planMessage(message, settings, {
      version: declaredProtocolVersion(message) ?? this.protocolVersion,
      sessionId: this.sessionId,
      headers: headers === undefined ? undefined : new Headers(headers),
    });
    if (planned.method === STANDING_STREAM_METHOD) throw answerError(standingStreamRefused('AnswerTransport'));
    const signals = [this.#session.signal, requestSignal, signal];
    const outcome = await runExchange(this.#url, settings, planned, { session: this.#session, signals, onMessage: (passedOver) => this.#deliver(passedOver) });
    try {
      switch (outcome.kind) {
        case 'answered':
          this.#deliver(outcome.answer);
          return;
        case 'accepted':
          return;
        case 'refused': {
          const answer = inBandRefusal(planned, outcome);
          if (answer !== undefined) {
            this.#deliver(answer);
            return;
          }
          break;
        }
        case 'failed':
          break;
      }
      // The stream ended without the answer, and not because this side ended it.
      if (![...signals, settings.signal].some((one) => one !== undefined && isAborted(one))) onRequestStreamEnd?.();
      throw answerError(outcome.failure, settings.secrets);
    } finally {
      // So that a caller who awaits the send has nothing of it left running; that DELETE never rejects.
      await this.#session.endsSettled();
    }
  }

  /** Every later request carries `MCP-Protocol-Version: version`. A client calls this once the version is agreed. */
  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  /** Part of the SDK's `Transport`, for servers: a client transport validates no version. */
  setSupportedProtocolVersions(_versions: string[]): void {}

  /**
   * Aborts the sends in flight, ends the session with a DELETE (a failure goes to `onerror`), and calls `onclose`; later calls do nothing.
   * @param options.signal Ends the DELETE early (the AI SDK's `close({ signal })`); `onclose` is still called.
   */
  async close(options?: { readonly signal?: AbortSignal | undefined }): Promise<void> {
    const { signal } = optionsObject(options) as { readonly signal?: AbortSignal | undefined };
    checkSignal('signal', signal);
    if (this.#session.closed) return;
    this.#settleVersion();
    const ended = await this.#session.close(new Error('AnswerTransport: closed'), [signal]);
    if (ended?.kind === 'failed') this.#report(answerError(ended.failure, this.#settings.secrets));
    this.onclose?.();
  }

  /** The session state learns the version set: the AI SDK assigns the field, with no call to tell. */
  #settleVersion(): void {
    const version = this.protocolVersion;
    if (version !== this.#session.state.protocolVersion) void this.#session.apply({ type: 'settled', era: eraOf(version), protocolVersion: version });
  }

  /** Gives a message to `onmessage`; a handler that throws must not end the read it came from. */
  #deliver(message: JsonRpcMessage): void {
    try {
      this.onmessage?.(message);
    } catch (error) {
      this.#report(error);
    }
  }

  #report(error: unknown): void {
    // What onmessage threw may be anything, even a value String() cannot convert: descriptionOf never throws.
    this.onerror?.(error instanceof Error ? error : new Error(descriptionOf(error), { cause: error }));
  }
}

/**
 * A refusal the MCP client must read as its answer (the embedding guide): a 400 with a JSON-RPC error
 * (its id made the request's), or a refused `server/discover` (`refusalGoesInBand`), else a `-32601`.
 */
function inBandRefusal(planned: PlannedMessage, refused: Extract<ExchangeOutcome, { kind: 'refused' }>): JsonRpcMessage | undefined {
  const id = planned.requestId;
  if (id === undefined) return undefined;
  const { status, answer } = refused;
  const probe = planned.method === 'server/discover' && refusalGoesInBand(status);
  if (answer !== undefined && (status === 400 || probe)) return answer['id'] === id ? answer : { ...answer, id };
  if (!probe) return undefined;
  return {
    jsonrpc: '2.0',
    id,
    error: { code: -32601, message: `server/discover was refused with HTTP ${status} and no JSON-RPC error`, data: { httpStatus: status } },
  };
}
