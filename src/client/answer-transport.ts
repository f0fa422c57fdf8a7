/**
 * `AnswerTransport`: the MCP TypeScript SDK's client `Transport`, built on `postJsonRpc`, holding
 * no stream. It matches the SDK's interface structurally and imports nothing from the SDK, so the
 * package stays free of dependencies.
 * @module
 */

import { checkMaxBytes } from '../reducers/budget.js';
import { invalid, optionsObject } from '../vocabulary/check-argument.js';
import { checkTimeoutMs } from './deadline.js';
import { endSession } from './end-session.js';
import { isAnswerError } from '../vocabulary/errors.js';
import type { JsonRpcMessage } from '../vocabulary/json-rpc.js';
import { postJsonRpc, type FetchFunction } from './post-json-rpc.js';

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
 * The options the SDK passes to `send`. `relatedRequestId` concerns servers; resumption tokens
 * are not used, since every exchange resumes its own stream.
 */
export interface AnswerTransportSendOptions {
  /** Ignored: it ties a server's message to a request. */
  readonly relatedRequestId?: string | number | undefined;
  /** Ignored. */
  readonly resumptionToken?: string | undefined;
  /** Never called. */
  readonly onresumptiontoken?: ((token: string) => void) | undefined;
}

/**
 * An MCP client transport over Streamable HTTP that holds no stream between requests:
 * `client.connect(new AnswerTransport(url))`.
 *
 * - Each `send` is one {@link postJsonRpc}. The messages passed over before the answer
 *   (notifications, server requests) reach `onmessage` in order, then the answer does. A server
 *   request's reply is sent by the SDK as its own POST while the first read goes on.
 * - `sessionId` comes from the `initialize` response's `Mcp-Session-Id` and goes with every later
 *   request; after `setProtocolVersion`, so does `MCP-Protocol-Version`.
 * - A 404 to a request that carried the session clears `sessionId` and rejects that send with
 *   `http_status`; connect a new client to start a new session.
 * - `close()` aborts the sends in flight, ends the session with a DELETE, and calls `onclose` once.
 *
 * What it does not do: open the standalone GET stream, so server messages not tied to a request
 * (list-changed notifications, say) are not received.
 */
export class AnswerTransport {
  /**
   * Receives every message from the server: the passed-over ones, then each answer. (Generic, as
   * the SDK's `Transport.onmessage` is, so that either can be assigned to the other.)
   */
  onmessage?: (<T extends TransportMessage>(message: T) => void) | undefined;
  /** Receives errors not tied to a `send`: a throwing `onmessage`, a failed DELETE on close. */
  onerror?: ((error: Error) => void) | undefined;
  /** Called once, when the transport closes. */
  onclose?: (() => void) | undefined;
  /** The session id the server assigned at `initialize`, if it did. */
  sessionId?: string | undefined;

  readonly #url: string | URL;
  readonly #options: AnswerTransportOptions;
  readonly #closing = new AbortController();
  #protocolVersion: string | undefined;
  #closed = false;

  /** A transport for the MCP endpoint at `url`. Nothing is sent until the first `send`. */
  constructor(url: string | URL, options: AnswerTransportOptions = {}) {
    if (typeof url !== 'string' && !(url instanceof URL)) throw invalid('url', 'a string or a URL', url);
    // Checked here, each read once, so that a bad option fails at construction, not at the first send.
    const { fetch, headers, timeoutMs, maxBytes, resume } = optionsObject(options) as AnswerTransportOptions;
    if (fetch !== undefined && typeof fetch !== 'function') throw invalid('fetch', 'a function', fetch);
    if (resume !== undefined && typeof resume !== 'boolean') throw invalid('resume', 'a boolean', resume);
    new Headers(headers); // throws TypeError for headers fetch would refuse
    this.#url = url;
    this.#options = { fetch, headers, timeoutMs: checkTimeoutMs(timeoutMs), maxBytes: checkMaxBytes(maxBytes), resume };
  }

  /** The protocol version set by {@link AnswerTransport.setProtocolVersion}, if any. */
  get protocolVersion(): string | undefined {
    return this.#protocolVersion;
  }

  /** Nothing to connect: each request is its own exchange. Rejects once the transport is closed. */
  async start(): Promise<void> {
    if (this.#closed) throw new Error('AnswerTransport: the transport is closed');
  }

  /**
   * Sends one message and delivers what the server sends back to `onmessage`. Resolves once the
   * answer is delivered (a request) or the server accepted the message (a notification or a
   * response).
   * @throws `AnswerError` for a failed exchange (`aborted` when `close()` ended it); an
   *   `Error` once the transport is closed.
   */
  async send(message: object, _options?: AnswerTransportSendOptions): Promise<void> {
    if (this.#closed) throw new Error('AnswerTransport: the transport is closed');
    const sentSession = this.sessionId;
    let result;
    try {
      result = await postJsonRpc(this.#url, message, {
        fetch: this.#options.fetch,
        headers: this.#headers(),
        timeoutMs: this.#options.timeoutMs,
        maxBytes: this.#options.maxBytes,
        resume: this.#options.resume,
        signal: this.#closing.signal,
        onMessage: (passedOver) => this.#deliver(passedOver),
      });
    } catch (error) {
      // The server no longer knows the session: forget it, so the next client starts anew.
      if (sentSession !== undefined && this.sessionId === sentSession && isAnswerError(error) && error.code === 'http_status' && error.detail.status === 404) {
        this.sessionId = undefined;
      }
      throw error;
    }
    if ((message as { method?: unknown }).method === 'initialize') {
      const sessionId = result.headers.get('mcp-session-id');
      if (sessionId !== null) this.sessionId = sessionId;
    }
    if (result.answer !== undefined) this.#deliver(result.answer);
  }

  /** Every later request carries `MCP-Protocol-Version: version`. The SDK calls this after `initialize`. */
  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
  }

  /**
   * Aborts the sends in flight, ends the session with a DELETE (a 405 is fine; a failure goes to
   * `onerror`), and calls `onclose`. Later calls do nothing.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#closing.abort(new Error('AnswerTransport: closed'));
    if (this.sessionId !== undefined) {
      try {
        await endSession(this.#url, {
          fetch: this.#options.fetch,
          headers: this.#headers(),
          timeoutMs: this.#options.timeoutMs,
        });
      } catch (error) {
        this.#report(error);
      }
      this.sessionId = undefined;
    }
    this.onclose?.();
  }

  /** The headers of the next request: the caller's, the session, the protocol version. */
  #headers(): Headers {
    const headers = new Headers(this.#options.headers);
    if (this.sessionId !== undefined) headers.set('mcp-session-id', this.sessionId);
    if (this.#protocolVersion !== undefined) headers.set('mcp-protocol-version', this.#protocolVersion);
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
