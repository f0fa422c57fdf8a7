/**
 * `AnswerTransport`: an MCP client transport — the MCP TypeScript SDK's `Transport` and the AI
 * SDK's `MCPTransport` — built on the exchange, holding no stream. It matches those interfaces
 * structurally and imports nothing from either SDK, so the package stays free of dependencies.
 * Each `send` is one exchange, planned with the transport's version and session; its outcome is
 * delivered or thrown here, at the edge.
 * @module
 */

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

/**
 * Options for {@link AnswerTransport}: an exchange's options, for every request it sends (each
 * send, its resumptions, the closing DELETE). Its `signal` ends them all, `close()`'s DELETE
 * included; an OAuth provider is adapted to `authProvider` first (see the auth guide).
 */
export interface AnswerTransportOptions extends ExchangeOptions {}

/** Why a send or a start fails once the transport is closed. */
const CLOSED = 'AnswerTransport: the transport is closed';

/**
 * A JSON-RPC message as `onmessage` sees it: what the server sent, exactly as parsed (a
 * {@link JsonRpcMessage}). Its fields are typed loosely so that the SDK's own message type fits.
 */
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

/**
 * The options an MCP client passes to `send`: the MCP SDK's (v1 and v2) and the AI SDK's
 * (`MCPTransportSendOptions`). `relatedRequestId` concerns servers; resumption tokens are not
 * used, since every exchange resumes its own stream.
 */
export interface AnswerTransportSendOptions {
  /** Ignored: it ties a server's message to a request. */
  readonly relatedRequestId?: string | number | undefined;
  /** Ignored. */
  readonly resumptionToken?: string | undefined;
  /** Never called. */
  readonly onresumptiontoken?: ((token: string) => void) | undefined;
  /**
   * Ends this message's exchange when aborted — the response stream is closed, which in the
   * 2026-07-28 era is the cancellation of the request — without closing the transport.
   */
  readonly requestSignal?: AbortSignal | undefined;
  /** The AI SDK's name for {@link AnswerTransportSendOptions.requestSignal}: either, or both, end the exchange. */
  readonly signal?: AbortSignal | undefined;
  /**
   * Called when this request's exchange ends without its answer for any reason but an abort of
   * `requestSignal` or `close()`: the stream ended or broke, the server refused it.
   */
  readonly onRequestStreamEnd?: (() => void) | undefined;
  /** Headers for this message's POST alone (the `Mcp-Param-*` a client computes from a tool's definition), sent as given. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

/**
 * An MCP client transport over Streamable HTTP that holds no stream between requests:
 * `client.connect(new AnswerTransport(url))` with the v2 SDK's `Client` or the v1 one, or
 * `createMCPClient({ transport: new AnswerTransport(url) })` with the AI SDK's.
 *
 * - Each `send` is one exchange, as {@link postJsonRpc} makes it. The messages passed over before
 *   the answer (notifications, server requests) reach `onmessage` in order, then the answer does.
 *   A server request's reply is sent by the client as its own POST while the first read goes on.
 * - The era follows the protocol version: a message that declares 2026-07-28 or later in its
 *   `_meta`, or any message after `setProtocolVersion` with such a version, is sent statelessly
 *   with the request metadata headers; an older version, with the session.
 * - 2025-11-25 and earlier: `sessionId` comes from the `initialize` response's `Mcp-Session-Id`
 *   (whatever became of its body: `close()` ends it) and goes with every later request; after
 *   `setProtocolVersion`, so does `MCP-Protocol-Version`. A later `initialize` answered with
 *   another session id replaces it, and the replaced session is ended with a DELETE (as is one
 *   issued after `close()`); its failure goes to `onerror`, not to the send. A 404 to a request
 *   that carried the session clears `sessionId` and rejects that send with `http_status`;
 *   connect a new client to start a new session.
 * - A 400 whose body is a JSON-RPC error response to the request is that request's answer: it
 *   reaches `onmessage` and the send resolves, as with the SDKs' own transports (so a client's
 *   era negotiation reads the server's error code). A `server/discover` refused with any 4xx or
 *   5xx but a 401 reaches `onmessage` as a JSON-RPC error too: the one the server sent, else a
 *   `-32601` whose `data.httpStatus` is the status. The client then falls back to `initialize`,
 *   as the AI SDK's does over its own transport (the v2 SDK's `Client` falls back too, where
 *   over its own transport it stops at a 403 or a 5xx). A 401 (after the `authProvider`'s
 *   retry) and any other status outside 2xx reject the send with `http_status`.
 * - Each request has its own response stream (`hasPerRequestStream`): its `requestSignal` (the AI
 *   SDK's `signal`) ends that exchange alone, which is the 2026-07-28 cancellation.
 * - `close()` aborts the sends in flight, ends a session with a DELETE, and calls `onclose` once.
 * - With an `authProvider`, every request carries its bearer token, and a 401 is answered by its
 *   `onUnauthorized` and one retry (see {@link AuthProvider}); a refusal rejects the send with
 *   `http_status`, the server's challenge in `detail.challenge`. No error repeats a token sent.
 *
 * What it does not do: hold a standing stream — neither the 2025 standalone GET stream nor
 * 2026's `subscriptions/listen`, which `send` refuses (`unsupported_request`) — so server messages
 * not tied to a request (list-changed notifications, say) are not received.
 */
export class AnswerTransport {
  /**
   * Receives every message from the server: the passed-over ones, then each answer. (Generic, as
   * the SDK's `Transport.onmessage` is, so that either can be assigned to the other.)
   */
  onmessage?: <T extends TransportMessage>(message: T) => void;
  /** Receives errors not tied to a `send`: a throwing `onmessage`, a failed DELETE on close. */
  onerror?: (error: Error) => void;
  /** Called once, when the transport closes. */
  onclose?: () => void;
  /**
   * The session id the server assigned at `initialize`, if it did (2025-11-25 and earlier).
   * Assigned by a caller, it is held as given: the session of a client resumed elsewhere.
   */
  get sessionId(): string | undefined {
    return this.#session.state.sessionId;
  }

  set sessionId(sessionId: string | undefined) {
    if (sessionId !== undefined) checkType('sessionId', sessionId, 'string');
    void this.#session.apply({ type: 'set', sessionId });
  }

  /**
   * The protocol version the client negotiated, which every later request carries as
   * `MCP-Protocol-Version` and which picks the era of a message that declares none. Set by
   * {@link AnswerTransport.setProtocolVersion}, or directly (as the AI SDK does where a transport
   * has no setter).
   */
  protocolVersion?: string;

  /**
   * `true`: every request is its own POST with its own response stream, so the SDK's `Client`
   * cancels a 2026-07-28 request by aborting its `requestSignal` (closing that stream), not by
   * sending `notifications/cancelled`.
   */
  readonly hasPerRequestStream = true;
  /**
   * `true`: the AI SDK's `createMCPClient` probes with `server/discover` (2026-07-28) before it
   * falls back to `initialize`, as it does over its own HTTP transport.
   */
  readonly supportsProtocolVersionDiscovery = true;
  /**
   * `true`: every request is answered or refused by the server, so the AI SDK waits for the
   * probe's answer rather than taking a slow modern server for a legacy one.
   */
  readonly waitsForProtocolVersionDiscovery = true;
  /**
   * `true`: the AI SDK computes a 2026 `tools/call`'s `Mcp-Param-*` from the tool's
   * `x-mcp-header` annotations and passes them as the send's `headers`, which go on its POST.
   */
  readonly supportsMcpToolParameterHeaders = true;

  readonly #url: string | URL;
  readonly #settings: ExchangeSettings;
  /** The era, the version and the session, with their rules; `close()` ends every send in flight through it. */
  readonly #session: SessionKeeper;

  /** A transport for the MCP endpoint at `url`. Nothing is sent until the first `send`. */
  constructor(url: string | URL, options: AnswerTransportOptions = {}) {
    checkUrl(url);
    // Checked here, each read once, so that a bad option fails at construction, not at the first send.
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
   * Sends one message and delivers what the server sends back to `onmessage`. Resolves once the
   * answer is delivered (a request) or the server accepted the message (a notification or a
   * response), and the DELETE of any session it let go of has settled.
   * @throws `AnswerError` for a failed exchange (`aborted` when `close()` or `requestSignal` ended
   *   it; `unsupported_request` for `subscriptions/listen`); an `Error` once the transport is closed.
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
      // The send settles once the DELETE of a session it let go of has, so that a caller who
      // awaits it has nothing of this send left running; that DELETE never rejects.
      await this.#session.endsSettled();
    }
  }

  /** Every later request carries `MCP-Protocol-Version: version`. A client calls this once the version is agreed. */
  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  /**
   * Part of the SDK's `Transport`: the versions a server validates request headers against. A
   * client transport validates none, and the version each request declares decides its era.
   */
  setSupportedProtocolVersions(_versions: string[]): void {}

  /**
   * Aborts the sends in flight, ends the session with a DELETE (a 405 is fine; a failure goes to
   * `onerror`), and calls `onclose`. Later calls do nothing.
   * @param options.signal Ends the DELETE early when aborted (the AI SDK's `close({ signal })`),
   *   as the transport's own `signal` does; `onclose` is still called.
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
 * A refusal the client must read as an answer, given to `onmessage` as any error response is:
 *
 * - A 400 that carries a JSON-RPC error response to the request is that request's answer — as
 *   the SDK's own transport delivers it. This is how the v2 Client tells a 2025-era server from a
 *   2026 one when it probes with `server/discover`: it reads the error's code (a recognised
 *   modern error, or anything else: fall back to `initialize`). An error with `id: null` (the
 *   server could not read the id) is given the id of the request this POST carried.
 * - A `server/discover` refused with another status (`refusalGoesInBand`) is handed
 *   over in-band too: the JSON-RPC error the server sent with it, or else a `-32601` (the server
 *   has no such method, as far as the client needs to know) whose `data.httpStatus` is the status
 *   — the only message `onmessage` gets that the server did not send. The clients that probe
 *   recognise an HTTP refusal only as their own transports' error classes, and the AI SDK's,
 *   which waits for the probe, rethrows anything else and fails to connect; a JSON-RPC error is
 *   the one form every client reads, and reads as "fall back".
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
