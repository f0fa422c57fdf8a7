/**
 * The errors an exchange makes itself, around the ones `readAnswer` makes from a body: an abort
 * or timeout before a body is read, a request that failed to send, a status outside 2xx, and
 * totals over the bodies of a resumed answer.
 * @module
 */

import { mimeEssence } from '../vocabulary/content-type.js';
import { describeValue } from '../vocabulary/describe-value.js';
import { abortError, AnswerError, type AnswerDetail } from '../vocabulary/errors.js';
import type { JsonRpcResponse } from '../vocabulary/json-rpc.js';
import { authChallenge, type AuthChallenge } from '../vocabulary/www-authenticate.js';

/** What had been read before any body: nothing. */
export function emptyDetail(maxBytes: number, contentType: string | null = null): AnswerDetail {
  return { contentType, bytesRead: 0, maxBytes, events: 0, messages: 0, ignored: 0, lastEventId: '', retry: undefined };
}

/** The error for an exchange stopped by its deadline or the caller's signal (the rule is `abortError`'s). */
export function abortedError(signal: AbortSignal, detail: AnswerDetail): AnswerError {
  return abortError(signal.reason, detail, 'the exchange');
}

/** A request that could not be sent or whose response never came (refused, reset, DNS): `stream_failed`. */
export function requestFailedError(method: string, error: unknown, detail: AnswerDetail): AnswerError {
  return new AnswerError('stream_failed', `the ${method} request failed: ${describeFailure(error)}`, detail, { cause: error });
}

/**
 * Whether `error` says an event stream ended without the answer — the case a 2025-era stream is
 * resumed from, and a 2026-era one has lost its request in.
 */
export function endedWithoutAnswer(error: AnswerError): boolean {
  return (
    error.code === 'malformed_answer' &&
    (error.reason === 'no_message' || error.reason === 'no_response') &&
    mimeEssence(error.detail.contentType) === 'text/event-stream'
  );
}

/**
 * 2026-07-28: a request whose response broke, ended before the answer or never came is lost —
 * the server drops a request with its stream, and nothing resumes it. `stream_failed`, with
 * `detail.reissue` set, so a caller knows to send it again with a new id (changelog, SEP-2575).
 */
export function lostRequestError(error: AnswerError): AnswerError {
  const cause = error.code === 'stream_failed' ? error.cause : error;
  return new AnswerError(
    'stream_failed',
    `${error.message}; the server dropped the request with its stream: re-issue it as a new request with a new id`,
    { ...error.detail, reissue: true },
    { cause },
  );
}

/**
 * `http_status`: the server answered outside 2xx; `answer` is the JSON-RPC error it sent, if any.
 * A 401 or 403 carries its parsed `WWW-Authenticate` challenge in `detail.challenge`, and the
 * message names its `error` (and `scope` for `insufficient_scope`).
 */
export function httpStatusError(
  response: Response,
  detail: AnswerDetail,
  answer: JsonRpcResponse | undefined,
  cause?: unknown,
  note = '',
): AnswerError {
  const text = response.statusText === '' ? '' : ` ${response.statusText}`;
  const said = answer === undefined ? '' : `: ${describeRpcError(answer['error'])}`;
  const challenge = response.status === 401 || response.status === 403 ? authChallenge(response.headers.get('www-authenticate')) : undefined;
  return new AnswerError(
    'http_status',
    `the server answered HTTP ${response.status}${text}${describeChallenge(challenge)}${said}${note}`,
    { ...detail, status: response.status, answer, ...(challenge === undefined ? {} : { challenge }) },
    cause === undefined ? {} : { cause },
  );
}

/** ` (Bearer error "insufficient_scope", scope "…")`: what a challenge says, quoted short. */
function describeChallenge(challenge: AuthChallenge | undefined): string {
  if (challenge?.error === undefined) return '';
  const scope = challenge.error === 'insufficient_scope' && challenge.scope !== undefined ? `, scope ${describeValue(challenge.scope)}` : '';
  return ` (${challenge.scheme.slice(0, 32)} error ${describeValue(challenge.error)}${scope})`;
}

/** The counts of the bodies read so far for one answer. */
export interface BodyTotals {
  /** Bytes read. */
  readonly bytesRead: number;
  /** Events dispatched. */
  readonly events: number;
  /** Messages passed over. */
  readonly messages: number;
  /** Events that were not messages. */
  readonly ignored: number;
}

/** No body read yet. */
export const NO_BODIES: BodyTotals = { bytesRead: 0, events: 0, messages: 0, ignored: 0 };

/** The totals with one more body's detail added. */
export function addBody(totals: BodyTotals, detail: AnswerDetail): BodyTotals {
  return {
    bytesRead: totals.bytesRead + detail.bytesRead,
    events: totals.events + detail.events,
    messages: totals.messages + detail.messages,
    ignored: totals.ignored + detail.ignored,
  };
}

/**
 * An error from the last of several bodies, restated over all of them: counts summed, the cap
 * the caller set, and for `malformed_answer` the reason over every body (`no_response` once any
 * message came). `note` says how the resumption ended.
 */
export function overBodies(error: AnswerError, totals: BodyTotals, maxBytes: number, note: string): AnswerError {
  const detail: AnswerDetail = { ...error.detail, ...totals, maxBytes };
  const reason = error.reason === 'no_message' && totals.messages > 0 ? 'no_response' : error.reason;
  const base =
    error.code === 'budget_exceeded'
      ? `the answer's bodies went past maxBytes (${maxBytes} bytes) before the answer was complete`
      : error.message;
  return new AnswerError(error.code, `${base} (${note})`, detail, { reason, cause: error.cause });
}

function describeRpcError(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (typeof message === 'string') {
      return typeof code === 'number' ? `${describeValue(message)} (JSON-RPC error ${code})` : describeValue(message);
    }
  }
  return 'a JSON-RPC error';
}

/** A failed request for a message: fetch's own error, and its cause (ECONNREFUSED, …), which says what happened. */
function describeFailure(value: unknown): string {
  const cause: unknown = value instanceof Error ? value.cause : undefined;
  return cause instanceof Error ? `${describeValue(value)} (${describeValue(cause)})` : describeValue(value);
}
