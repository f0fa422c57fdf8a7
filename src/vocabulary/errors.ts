/** The one error type of the package: a code to switch on, and the detail that tells a slow server from a broken one. @module */

import type { JsonRpcResponse } from './json-rpc.js';
import type { AuthChallenge } from './www-authenticate.js';

/** Why a finished input has no answer: no message at all, or messages but no response to the request. */
export type NoAnswerReason = 'no_message' | 'no_response';

/** Why an answer is malformed: no answer (`no_message`, `no_response`), an `application/json` body that is not JSON, or (typed calls) a result not of its method's shape. */
export type MalformedReason = NoAnswerReason | 'invalid_json' | 'invalid_result';

/**
 * Why reading an answer failed. Codes may be added in minor releases: a `switch` needs a `default`.
 * When each happens, and what to look at: the client guide, "Errors".
 * - `unsupported_content_type`: neither JSON nor an event stream; the body was not read.
 * - `malformed_answer`: no answer in the body; see {@link AnswerError.reason}.
 * - `budget_exceeded`: the body went past `maxBytes` before the answer was complete.
 * - `aborted` / `timeout`: the signal aborted; `timeout` when its reason is a `TimeoutError`.
 * - `connect_failed`: no connection (refused, no such host, a refused port, TLS; in a browser, no reason given).
 * - `stream_failed`: the connection or the body broke, or (2026-07-28) the stream ended before the answer.
 * - `http_status`: a status outside 2xx; see {@link AnswerDetail.status} and {@link AnswerDetail.answer}.
 * - `unsupported_request`: `subscriptions/listen`, refused before anything is sent.
 * - `invalid_tool`: a 2026 `tools/call` of a tool whose `x-mcp-header` annotations are invalid.
 * - `rpc_error`: a typed call answered with a JSON-RPC error (`detail.answer`).
 * - `input_required`: a typed call's request for input that no `onInputRequired` answered.
 * - `session_expired`: the server forgot the 2025 session, and it could not be renewed (the `cause` says why).
 * - `negotiation_failed`: no era to speak with the server (`detail.answer`: what it answered).
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
  /** For `http_status`: the JSON-RPC error sent with the status; for `negotiation_failed`: the server's answer; if any. */
  readonly answer?: JsonRpcResponse | undefined;
  /** `true` where sending the request again, with a new id, is safe: the server never saw it, or (2026-07-28) dropped it with its stream. */
  readonly reissue?: boolean | undefined;
  /** For `http_status` of a 401 or 403: its `WWW-Authenticate` challenge, parsed (the `Bearer` one of several), to start the caller's own auth flow. */
  readonly challenge?: AuthChallenge | undefined;
}

/** What tells an AnswerError across copies of the package (ESM beside CJS): an own, non-enumerable property. */
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
  /** For `malformed_answer` only: why ({@link MalformedReason}). */
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
    // Not a class member: a computed one would keep the class in every bundle, used or not.
    Object.defineProperty(this, BRAND, { value: true });
  }
}

/** Whether `value` is an {@link AnswerError}, also one from another copy of the package (ESM beside CJS), where `instanceof` says no. */
export function isAnswerError(value: unknown): value is AnswerError {
  return typeof value === 'object' && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true;
}
