/**
 * The one error type of the answer path, with a code a caller can switch on and the detail an
 * operator needs to tell a slow server from a broken one.
 * @module
 */

import type { JsonRpcResponse } from './json-rpc.js';
import type { AuthChallenge } from './www-authenticate.js';

/** Why a finished input has no answer: no message at all, or messages but no response to the request. */
export type NoAnswerReason = 'no_message' | 'no_response';

/**
 * Why an answer is malformed. `invalid_json` is only for an `application/json` body;
 * `invalid_result` (`AnswerClient`'s typed calls) for an answer whose result is not of its
 * method's shape: not an object, a list that is no array, pages that loop or never end.
 */
export type MalformedReason = NoAnswerReason | 'invalid_json' | 'invalid_result';

/**
 * Why reading an answer failed. More codes may be added in minor releases: a caller's `switch`
 * needs a `default`.
 * - `unsupported_content_type`: neither `application/json` nor `text/event-stream`; the body was not read.
 * - `malformed_answer`: the body ended without an answer; see {@link AnswerError.reason}.
 * - `budget_exceeded`: the body went past `maxBytes` before the answer was complete.
 * - `aborted` / `timeout`: the `signal` aborted; `timeout` when its reason is a `TimeoutError`.
 * - `connect_failed`: no connection could be made — refused, no such host, a port `fetch` refuses,
 *   TLS — or, in a browser, the request failed with no reason given (a server that is down, or
 *   CORS); `fetch`'s error is the `cause`.
 * - `stream_failed`: the connection broke before any response, or the response's body broke while
 *   being read, or (2026-07-28) its event stream ended before the answer; the stream's or fetch's
 *   error is the `cause`; see {@link AnswerDetail.reissue}.
 * - `http_status`: the server answered a request with a status outside 2xx; see
 *   {@link AnswerDetail.status} and {@link AnswerDetail.answer}.
 * - `unsupported_request`: (`AnswerTransport`, `AnswerClient`) a request this package does not
 *   send, refused before anything is sent: `subscriptions/listen` opens a standing stream, which
 *   it never holds.
 * - `invalid_tool`: (`AnswerClient`) a 2026-07-28 `tools/call` of a tool whose `x-mcp-header`
 *   annotations are invalid: a client excludes such a tool and never calls it, so it is refused
 *   before anything is sent.
 * - `rpc_error`: (`AnswerClient`'s typed calls) the server answered with a JSON-RPC error;
 *   `detail.answer` is its error response, and the message quotes its message and code.
 * - `input_required`: (`AnswerClient`'s typed calls) the server asked for input (2026-07-28's
 *   `input_required`) that no `onInputRequired` gave within `maxInputRounds`; `detail.answer` is
 *   the response that asked.
 * - `session_expired`: (`AnswerClient`, 2025) the server forgot the session (a 404), and no new
 *   one could be had: the handshake that renews it failed (its failure is the `cause`), or the
 *   server refused the new one too.
 * - `negotiation_failed`: (`AnswerClient.connect`) no era to speak: the server offers no protocol
 *   version in common, refused `server/discover` with a 2026-07-28 error, or answered
 *   `initialize` without accepting it (or in another version than the one pinned);
 *   `detail.answer` holds what it answered, if it was a JSON-RPC response.
 */
export type AnswerErrorCode =
  | 'unsupported_content_type'
  | 'malformed_answer'
  | 'budget_exceeded'
  | 'aborted'
  | 'timeout'
  | 'connect_failed'
  | 'stream_failed'
  | 'http_status'
  | 'unsupported_request'
  | 'invalid_tool'
  | 'rpc_error'
  | 'input_required'
  | 'session_expired'
  | 'negotiation_failed';

/** What had been read when the error happened. */
export interface AnswerDetail {
  /** The response's `Content-Type` header as received, or `null` when it had none. */
  readonly contentType: string | null;
  /** Body bytes delivered so far, counting any past the cap in the last chunk. */
  readonly bytesRead: number;
  /** The cap in force (`Infinity` for none). */
  readonly maxBytes: number;
  /** SSE events dispatched (0 for a JSON body). */
  readonly events: number;
  /** Messages passed over: notifications, server requests, responses to other requests. */
  readonly messages: number;
  /** Events, batch elements or bodies that were not JSON, or JSON that is not a message. */
  readonly ignored: number;
  /** The stream's last event id ('' when none), for a caller that resumes the stream. */
  readonly lastEventId: string;
  /** The last valid `retry` the stream set, in milliseconds. */
  readonly retry: number | undefined;
  /** For `http_status`: the HTTP status the server answered with. */
  readonly status?: number | undefined;
  /** For `http_status` of a redirect that was not followed: the `Location` it named, as sent. */
  readonly location?: string | undefined;
  /**
   * For `http_status`: the JSON-RPC error response the server sent with that status, if any; for
   * `negotiation_failed`: the server's answer to the handshake, if any.
   */
  readonly answer?: JsonRpcResponse | undefined;
  /**
   * `true` where sending the request again is safe: no connection was made, so the server never
   * saw it (`connect_failed`); or, in a 2026-07-28 (stateless) exchange, the connection or the
   * response broke, or the response ended before the answer, and the server dropped the request
   * with it — re-issue it as a new request with a new id. (That era has no resumption.)
   */
  readonly reissue?: boolean | undefined;
  /**
   * For `http_status` of a 401 or 403: the server's authentication challenge, parsed from its
   * `WWW-Authenticate` (the `Bearer` one when it offers several), so that a caller can start its
   * own flow from `resourceMetadata`, `scope` and `error` (`insufficient_scope` on a 403).
   */
  readonly challenge?: AuthChallenge | undefined;
}

/**
 * The brand that identifies an AnswerError across copies of this package (ESM and CJS): an own,
 * non-enumerable property of each.
 */
const BRAND: unique symbol = /* @__PURE__ */ Symbol.for('sse-answer.AnswerError') as never;

/** Options for the {@link AnswerError} constructor. */
export interface AnswerErrorOptions {
  /** For `malformed_answer`: why. */
  readonly reason?: MalformedReason | undefined;
  /** The underlying error: the stream's, the abort reason, or JSON.parse's. */
  readonly cause?: unknown;
}

/** Reading an answer failed. Check {@link AnswerError.code}; {@link isAnswerError} tells one apart. */
export class AnswerError extends Error {
  /** What went wrong; see {@link AnswerErrorCode}. */
  readonly code: AnswerErrorCode;
  /** For `malformed_answer` only: `no_message`, `no_response` or `invalid_json`. */
  declare readonly reason?: MalformedReason;
  /** What had been read. */
  readonly detail: AnswerDetail;

  /** Creates an error; the message should say what happened in words an operator can act on. */
  constructor(code: AnswerErrorCode, message: string, detail: AnswerDetail, options: AnswerErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AnswerError';
    this.code = code;
    if (options.reason !== undefined) this.reason = options.reason;
    this.detail = detail;
    // Set here, not as a class member: a computed member would keep the class in every bundle
    // of the package, used or not.
    Object.defineProperty(this, BRAND, { value: true });
  }
}

/**
 * Whether `value` is an {@link AnswerError} — also one from another copy of this package (the
 * ESM and the CJS build loaded side by side), where `instanceof` would say no.
 */
export function isAnswerError(value: unknown): value is AnswerError {
  return typeof value === 'object' && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true;
}
