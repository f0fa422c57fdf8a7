/**
 * `AnswerTransport`: the MCP TypeScript SDK's client `Transport`, built on `postJsonRpc`, holding
 * no stream. It matches the SDK's interface structurally and imports nothing from the SDK, so the
 * package stays free of dependencies.
 * @module
 */

import { followAborts, isAbortSignal, ownController } from '../drivers/abort-watch.js';
import { checkMaxBytes } from '../reducers/budget.js';
import { invalid, optionsObject } from '../vocabulary/check-argument.js';
import { checkTimeoutMs } from './deadline.js';
import { endSession } from './end-session.js';
import { AnswerError, isAnswerError } from '../vocabulary/errors.js';
import { emptyDetail } from './exchange-errors.js';
import { declaredProtocolVersion, eraOf } from './era.js';
import type { JsonRpcMessage } from '../vocabulary/json-rpc.js';
import { checkAuthProvider, checkNoAuthorization, type AuthProvider } from './auth-provider.js';
import { checkRedirect, postJsonRpc } from './post-json-rpc.js';
import type { FetchFunction, RedirectPolicy } from './send-request.js';

/** Options for {@link AnswerTransport}. */
export interface AnswerTransportOptions {
  /** The `fetch` to use; default the global `fetch`. */
  readonly fetch?: FetchFunction | undefined;
  /** Headers sent with every request (`Authorization`, …). */
  readonly headers?: HeadersInit | undefined;
  /** The deadline of each exchange, in milliseconds: default 30 000; `Infinity` for none. */
  readonly timeoutMs?: number | undefined;
  /** The cap on the bytes read for each answer: default 16 MiB; `Infinity` for none. */
  readonly maxBytes?: number | undefined;
  /** Whether an answer's event stream is resumed after the server closes it early. Default `true`. */
  readonly resume?: boolean | undefined;
  /**
   * Ends every exchange of the transport when aborted: the sends in flight, any later send, and
   * the DELETE of `close()` (each as `aborted`, or `timeout` for a `TimeoutError` reason). One
   * listener is added to it while exchanges run, however many there are.
   */
  readonly signal?: AbortSignal | undefined;
  /**
   * Which redirects each request follows: `'same-origin'` (the default), a 307 or 308 within the
   * origin of the URL; `'error'`, none. See `postJsonRpc`'s option of the same name.
   */
  readonly redirect?: RedirectPolicy | undefined;
  /**
   * Bearer authentication for every request (each send, its resumptions, the closing DELETE), the
   * shape of the MCP SDK v2's `AuthProvider`: `token()` before each, `onUnauthorized` awaited on
   * a 401 and the request retried once. An OAuth provider is adapted to it first (see the auth
   * guide). An `Authorization` in `headers` as well is a `TypeError`.
   */
  readonly authProvider?: AuthProvider | undefined;
}

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
 * `client.connect(new AnswerTransport(url))`, with the v2 SDK's `Client` or the v1 one.
 *
 * - Each `send` is one {@link postJsonRpc}. The messages passed over before the answer
 *   (notifications, server requests) reach `onmessage` in order, then the answer does. A server
 *   request's reply is sent by the SDK as its own POST while the first read goes on.
 * - The era follows the protocol version: a message that declares 2026-07-28 or later in its
 *   `_meta`, or any message after `setProtocolVersion` with such a version, is sent statelessly
 *   with the request metadata headers; an older version, with the session.
 * - 2025-11-25 and earlier: `sessionId` comes from the `initialize` response's `Mcp-Session-Id`
 *   and goes with every later request; after `setProtocolVersion`, so does
 *   `MCP-Protocol-Version`. A 404 to a request that carried the session clears `sessionId` and
 *   rejects that send with `http_status`; connect a new client to start a new session.
 * - A 400 whose body is a JSON-RPC error response to the request is that request's answer: it
 *   reaches `onmessage` and the send resolves, as with the SDK's own transport (so the v2
 *   Client's era negotiation reads the server's error code). Any other status outside 2xx
 *   rejects the send with `http_status`.
 * - Each request has its own response stream (`hasPerRequestStream`): its `requestSignal` ends
 *   that exchange alone, which is the 2026-07-28 cancellation.
 * - `close()` aborts the sends in flight, ends a session with a DELETE, and calls `onclose` once.
 * - With an `authProvider`, every request carries its bearer token, and a 401 is answered by its
 *   `onUnauthorized` and one retry (see {@link AuthProvider}); a refusal rejects the send with
 *   `http_status`, the server's challenge in `detail.challenge`.
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
  /** The session id the server assigned at `initialize`, if it did (2025-11-25 and earlier). */
  sessionId?: string | undefined;
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
  readonly #options: AnswerTransportOptions;
  /** The exchanges in flight, each with its own controller: `close()` aborts them all. */
  readonly #inFlight = new Set<AbortController>();
  #closed = false;

  /** A transport for the MCP endpoint at `url`. Nothing is sent until the first `send`. */
  constructor(url: string | URL, options: AnswerTransportOptions = {}) {
    if (typeof url !== 'string' && !(url instanceof URL)) throw invalid('url', 'a string or a URL', url);
    // Checked here, each read once, so that a bad option fails at construction, not at the first send.
    const { fetch, headers, timeoutMs, maxBytes, resume, signal, redirect, authProvider } = optionsObject(options) as AnswerTransportOptions;
    if (fetch !== undefined && typeof fetch !== 'function') throw invalid('fetch', 'a function', fetch);
    checkSignal('signal', signal);
    if (resume !== undefined && typeof resume !== 'boolean') throw invalid('resume', 'a boolean', resume);
    const checkedAuth = checkAuthProvider(authProvider);
    checkNoAuthorization(new Headers(headers), checkedAuth, 'options.headers'); // new Headers throws TypeError for headers fetch would refuse
    this.#url = url;
    this.#options = {
      fetch,
      headers,
      timeoutMs: checkTimeoutMs(timeoutMs),
      maxBytes: checkMaxBytes(maxBytes),
      resume,
      signal,
      redirect: checkRedirect(redirect),
      authProvider: checkedAuth,
    };
  }

  /** Nothing to connect: each request is its own exchange. Rejects once the transport is closed. */
  async start(): Promise<void> {
    if (this.#closed) throw new Error('AnswerTransport: the transport is closed');
  }

  /**
   * Sends one message and delivers what the server sends back to `onmessage`. Resolves once the
   * answer is delivered (a request) or the server accepted the message (a notification or a
   * response).
   * @throws `AnswerError` for a failed exchange (`aborted` when `close()` or `requestSignal` ended
   *   it; `unsupported_request` for `subscriptions/listen`); an `Error` once the transport is closed.
   */
  async send(message: object, options?: AnswerTransportSendOptions): Promise<void> {
    if (this.#closed) throw new Error('AnswerTransport: the transport is closed');
    const { requestSignal, signal, onRequestStreamEnd, headers } = options ?? {};
    checkSignal('requestSignal', requestSignal);
    checkSignal('signal', signal);
    if ((message as { method?: unknown }).method === 'subscriptions/listen') throw standingStreamRefused();
    // A 2026-07-28 request carries no session: only a 2025 one can learn that the session is gone.
    const sentSession = eraOf(declaredProtocolVersion(message) ?? this.protocolVersion) === 'legacy' ? this.sessionId : undefined;
    const exchange = ownController();
    const unfollow = followAborts(exchange, [requestSignal, signal, this.#options.signal]);
    this.#inFlight.add(exchange);
    let result;
    try {
      result = await postJsonRpc(this.#url, message, {
        fetch: this.#options.fetch,
        headers: this.#headers(sentSession, headers),
        timeoutMs: this.#options.timeoutMs,
        maxBytes: this.#options.maxBytes,
        resume: this.#options.resume,
        redirect: this.#options.redirect,
        authProvider: this.#options.authProvider,
        signal: exchange.signal,
        onMessage: (passedOver) => this.#deliver(passedOver),
      });
    } catch (error) {
      // The server no longer knows the session: forget it, so the next client starts anew.
      if (sentSession !== undefined && this.sessionId === sentSession && isAnswerError(error) && error.code === 'http_status' && error.detail.status === 404) {
        this.sessionId = undefined;
      }
      const refusal = inBandRefusal(message, error);
      if (refusal !== undefined) {
        this.#deliver(refusal);
        return;
      }
      // The stream ended without the answer, and not because this side ended it.
      if (!exchange.signal.aborted) onRequestStreamEnd?.();
      throw error;
    } finally {
      unfollow();
      this.#inFlight.delete(exchange);
    }
    if ((message as { method?: unknown }).method === 'initialize') {
      const sessionId = result.headers.get('mcp-session-id');
      if (sessionId !== null) this.sessionId = sessionId;
    }
    if (result.answer !== undefined) this.#deliver(result.answer);
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
    if (this.#closed) return;
    checkSignal('signal', options?.signal);
    this.#closed = true;
    const reason = new Error('AnswerTransport: closed');
    for (const exchange of this.#inFlight) exchange.abort(reason);
    if (this.sessionId !== undefined) {
      try {
        await endSession(this.#url, {
          fetch: this.#options.fetch,
          headers: this.#headers(this.sessionId),
          timeoutMs: this.#options.timeoutMs,
          signals: [this.#options.signal, options?.signal],
          redirect: this.#options.redirect,
          authProvider: this.#options.authProvider,
        });
      } catch (error) {
        this.#report(error);
      }
      this.sessionId = undefined;
    }
    this.onclose?.();
  }

  /** The headers of the next request: the caller's, the send's own, the session it carries, the protocol version. */
  #headers(sessionId: string | undefined, sendHeaders?: Readonly<Record<string, string>>): Headers {
    const headers = new Headers(this.#options.headers);
    if (sendHeaders !== undefined) for (const [name, value] of Object.entries(sendHeaders)) headers.set(name, value);
    if (sessionId !== undefined) headers.set('mcp-session-id', sessionId);
    if (this.protocolVersion !== undefined) headers.set('mcp-protocol-version', this.protocolVersion);
    return headers;
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
    this.onerror?.(error instanceof Error ? error : new Error(String(error), { cause: error }));
  }
}

/** Refuses a signal that is not a real `AbortSignal`: its abort could never be seen. */
function checkSignal(name: string, signal: unknown): void {
  if (signal !== undefined && !isAbortSignal(signal)) throw invalid(name, 'an AbortSignal', signal);
}

/** `subscriptions/listen` opens a standing stream, which this package never holds: refused before anything is sent. */
function standingStreamRefused(): AnswerError {
  return new AnswerError(
    'unsupported_request',
    'AnswerTransport does not send subscriptions/listen: its response is a standing stream, and this transport holds none (read one with scanEvents over your own fetch)',
    emptyDetail(0),
  );
}

/**
 * A refusal the client must read as an answer, given to `onmessage` as any error response is:
 *
 * - A 400 that carries a JSON-RPC error response to the request is that request's answer — as
 *   the SDK's own transport delivers it. This is how the v2 Client tells a 2025-era server from a
 *   2026 one when it probes with `server/discover`: it reads the error's code (a recognised
 *   modern error, or anything else: fall back to `initialize`). An error with `id: null` (the
 *   server could not read the id) is given the id of the request this POST carried.
 * - A `server/discover` refused with another 4xx and no JSON-RPC error (401 and 403 aside: a
 *   credential to fix, which `initialize` would meet too) is, by the 2026-07-28 revision's
 *   backward-compatibility rule for Streamable HTTP, a server without 2026-07-28. The clients
 *   that probe (the v2 SDK's, the AI SDK's) recognise such an HTTP refusal only as their own
 *   transports' error classes, so the transport says it the one way every client reads: a
 *   JSON-RPC error, `-32601` (the server has no such method), whose `data.httpStatus` is the
 *   status. It is the only message `onmessage` gets that the server did not send.
 */
function inBandRefusal(message: object, error: unknown): JsonRpcMessage | undefined {
  if (!isAnswerError(error) || error.code !== 'http_status') return undefined;
  const { status = 0, answer } = error.detail;
  const { id, method } = message as { id?: unknown; method?: unknown };
  if (typeof id !== 'string' && typeof id !== 'number') return undefined;
  if (status === 400 && answer !== undefined) return answer['id'] === id ? answer : { ...answer, id };
  if (method !== 'server/discover' || status < 400 || status > 499 || status === 401 || status === 403) return undefined;
  if (answer !== undefined) return answer['id'] === id ? answer : { ...answer, id };
  return {
    jsonrpc: '2.0',
    id,
    error: { code: -32601, message: `server/discover was refused with HTTP ${status} and no JSON-RPC error: the server does not speak 2026-07-28`, data: { httpStatus: status } },
  };
}
