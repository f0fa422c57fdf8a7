/**
 * `postJsonRpc`: one JSON-RPC exchange over MCP Streamable HTTP — the POST, the status, the
 * answer (read by `readAnswer`), and its resumption — under one deadline and one byte cap.
 * @module
 */

import { isAbortSignal } from '../drivers/abort-watch.js';
import { checkMaxBytes } from '../reducers/budget.js';
import { invalid, optionsObject } from '../vocabulary/check-argument.js';
import { checkTimeoutMs, startDeadline } from './deadline.js';
import { AnswerError, isAnswerError } from '../vocabulary/errors.js';
import { declaredProtocolVersion, eraOf } from './era.js';
import { abortedError, emptyDetail, endedWithoutAnswer, httpStatusError, lostRequestError, requestFailedError } from './exchange-errors.js';
import { mcpRequestHeaders } from './mcp-request-headers.js';
import type { JsonRpcMessage, JsonRpcRequestId, JsonRpcResponse } from '../vocabulary/json-rpc.js';
import { ACCEPT, readAnswer } from '../drivers/read-answer.js';
import { readResumable } from './resume.js';
import { checkAuthProvider, checkNoAuthorization, type AuthProvider } from './auth-provider.js';
import { sendAuthorized } from './authorized-request.js';
import { release, type FetchFunction, type RedirectPolicy } from './send-request.js';

export type { FetchFunction, RedirectPolicy } from './send-request.js';

/**
 * The global `fetch`, called as a plain function (browsers refuse it as another object's
 * method), and looked up at each call: the default of every exchange.
 */
export const globalFetch: FetchFunction = (input, init) => globalThis.fetch(input, init);

/** Options for {@link postJsonRpc}. */
export interface PostJsonRpcOptions {
  /** The `fetch` to use; default the global `fetch`. */
  readonly fetch?: FetchFunction | undefined;
  /**
   * Headers sent with the POST and with any GET that resumes it: `Mcp-Session-Id`,
   * `MCP-Protocol-Version`, `Authorization`, `Mcp-Param-*`, …. `Accept` and `Content-Type` are
   * set by the exchange; so are, in a 2026-07-28 exchange, `MCP-Protocol-Version`, `Mcp-Method`
   * and `Mcp-Name` (derived from the message), and `Mcp-Session-Id` is not sent there.
   */
  readonly headers?: HeadersInit | undefined;
  /**
   * The deadline for the whole exchange — connecting, headers, body, any resumption — in
   * milliseconds: default 30 000; `Infinity` for none. When it passes the error is `timeout`.
   */
  readonly timeoutMs?: number | undefined;
  /**
   * Ends the exchange when aborted: the error is `aborted` (or `timeout` when the reason is a
   * `TimeoutError`). One listener is added to it for the exchange and removed when it ends.
   */
  readonly signal?: AbortSignal | undefined;
  /**
   * Which redirects are followed, for the POST and any resumption GET: `'same-origin'` (the
   * default) follows a 307 or 308 within the origin of `url`, at most five; `'error'` follows
   * none. Any redirect not followed is `http_status`, with `detail.status` and `detail.location`.
   */
  readonly redirect?: RedirectPolicy | undefined;
  /** The cap on body bytes read, over all resumed bodies: default 16 MiB; `Infinity` for none. */
  readonly maxBytes?: number | undefined;
  /** Called with every message passed over, in order, as `readAnswer`'s `onMessage` is. */
  readonly onMessage?: ((message: JsonRpcMessage) => void) | undefined;
  /**
   * Whether an event stream that ends without the answer after an event id is resumed with a
   * GET carrying `Last-Event-ID` (MCP 2025-11-25). Default `true`. A 2026-07-28 exchange never
   * resumes: that era has no resumption.
   */
  readonly resume?: boolean | undefined;
  /**
   * Bearer authentication, the shape of the MCP SDK v2's `AuthProvider`: `token()` before every
   * request (the POST, each resumption GET), sent as `Authorization: Bearer <token>`; on a 401,
   * `onUnauthorized` awaited and the request retried once, within the same deadline and byte
   * cap. A second 401, or one with no `onUnauthorized`, is `http_status` with
   * `detail.challenge`. An `Authorization` in `headers` as well is a `TypeError`.
   */
  readonly authProvider?: AuthProvider | undefined;
}

/** What {@link postJsonRpc} resolves with. */
export interface PostJsonRpcResult {
  /**
   * The answer to a request, exactly as parsed (a result or an error response); `undefined` for
   * a notification or a response the server accepted.
   */
  readonly answer: JsonRpcResponse | undefined;
  /** The HTTP status of the POST. */
  readonly status: number;
  /** The POST's response headers: `Mcp-Session-Id` is there after an `initialize`. */
  readonly headers: Headers;
}


/**
 * Sends one JSON-RPC message and reads its answer, holding no stream afterwards.
 *
 * - POSTs `message` as JSON with `Accept: application/json, text/event-stream`.
 * - A request (a message with `method` and `id`) is answered by the response with its id, read
 *   as `readAnswer` reads it. A 2xx JSON-RPC error response resolves like any answer.
 * - A notification or a response is done once the server accepts it (2xx); its body is not read.
 * - A status outside 2xx is an `http_status` {@link AnswerError}; `detail.answer` holds the
 *   JSON-RPC error the server sent with it, read within the cap and the deadline.
 * - The era follows the protocol version the exchange carries: the message's
 *   `params._meta["io.modelcontextprotocol/protocolVersion"]`, else the `MCP-Protocol-Version`
 *   of `options.headers`.
 * - 2025-11-25 and earlier: an event stream that ends without the answer, after an event id, is
 *   resumed (see {@link PostJsonRpcOptions.resume}).
 * - 2026-07-28 and later: the request metadata headers are derived from the message
 *   ({@link mcpRequestHeaders}; pass a tool's `Mcp-Param-*` in `options.headers`), no session id is
 *   sent, nothing is resumed, and a response that breaks or ends before the answer is a
 *   `stream_failed` with `detail.reissue` (the server dropped the request). An abort closes the
 *   response stream, which is that era's cancellation of the request.
 *
 * @throws {@link AnswerError} for a failed exchange; `TypeError`/`RangeError` for bad arguments.
 *   Whatever `onMessage` throws is rethrown as it is.
 */
export async function postJsonRpc(url: string | URL, message: object, options: PostJsonRpcOptions = {}): Promise<PostJsonRpcResult> {
  const checked = checkOptions(url, message, options);
  const body = JSON.stringify(message);
  const requestId = requestIdOf(message);
  const callerHeaders = new Headers(checked.headers);
  checkNoAuthorization(callerHeaders, checked.authProvider, 'options.headers');
  const version = declaredProtocolVersion(message) ?? callerHeaders.get('mcp-protocol-version');
  const modern = eraOf(version) === 'modern';
  const headers = modern ? modernHeaders(message, callerHeaders, version) : new Headers(callerHeaders);
  headers.set('accept', ACCEPT);
  headers.set('content-type', 'application/json');
  // 2026-07-28 has no resumption: whatever ends a request's response early has lost the request.
  const lost = (error: AnswerError): AnswerError => (modern && requestId !== undefined ? lostRequestError(error) : error);

  const deadline = startDeadline(checked.timeoutMs, checked.signal);
  const { signal } = deadline;
  try {
    if (signal.aborted) throw abortedError(signal, emptyDetail(checked.maxBytes));
    let response: Response;
    try {
      const route = { fetch: checked.fetch, url, signal, redirect: checked.redirect, maxBytes: checked.maxBytes, authProvider: checked.authProvider };
      response = await sendAuthorized(route, { method: 'POST', headers, body });
    } catch (error) {
      if (signal.aborted) throw abortedError(signal, emptyDetail(checked.maxBytes));
      if (isAnswerError(error)) throw error; // a redirect not followed
      throw lost(requestFailedError('POST', error, emptyDetail(checked.maxBytes)));
    }
    const { status } = response;
    if (status < 200 || status > 299) throw await statusError(response, requestId, checked.maxBytes, signal);
    // 202, 204 and 205 carry no answer by definition; neither does a response without a body.
    if (requestId === undefined || status === 202 || status === 204 || status === 205 || response.body === null) {
      release(response);
      if (requestId !== undefined) {
        throw new AnswerError(
          'malformed_answer',
          `the server accepted the request with HTTP ${status} and sent no answer`,
          emptyDetail(checked.maxBytes, response.headers.get('content-type')),
          { reason: 'no_message' },
        );
      }
      return { answer: undefined, status, headers: response.headers };
    }
    let answer: JsonRpcResponse;
    try {
      answer = await readResumable(response, {
        fetch: checked.fetch,
        url,
        headers: callerHeaders,
        requestId,
        maxBytes: checked.maxBytes,
        signal,
        onMessage: checked.onMessage,
        resume: checked.resume && !modern,
        redirect: checked.redirect,
        authProvider: checked.authProvider,
      });
    } catch (error) {
      if (isAnswerError(error) && (error.code === 'stream_failed' || endedWithoutAnswer(error))) throw lost(error);
      throw error;
    }
    return { answer, status, headers: response.headers };
  } finally {
    deadline.dispose();
  }
}

/**
 * The headers of a 2026-07-28 POST: the caller's (its `Mcp-Param-*` among them), less the
 * session id that era does not have, and the standard ones derived from the message, which must
 * match its body whatever the caller set.
 */
function modernHeaders(message: object, callerHeaders: Headers, version: string | null): Headers {
  const headers = new Headers(callerHeaders);
  headers.delete('mcp-session-id');
  // Only requests and notifications have metadata to mirror; a client sends nothing else in this era.
  if (typeof (message as { method?: unknown }).method !== 'string') return headers;
  mcpRequestHeaders(message, version === null ? {} : { protocolVersion: version }).forEach((value, name) => headers.set(name, value));
  return headers;
}

/** The `http_status` error for `response`, with the JSON-RPC error its body carries, if any. */
async function statusError(
  response: Response,
  requestId: JsonRpcRequestId | undefined,
  maxBytes: number,
  signal: AbortSignal,
): Promise<AnswerError> {
  let bytesRead = 0;
  const counted =
    response.body === null
      ? null
      : response.body.pipeThrough(
          new TransformStream<Uint8Array, Uint8Array>({
            transform(chunk, controller) {
              bytesRead += chunk.byteLength;
              controller.enqueue(chunk);
            },
          }),
        );
  const contentType = response.headers.get('content-type');
  const detail = () => ({ ...emptyDetail(maxBytes, contentType), bytesRead });
  try {
    const answer = await readAnswer(new Response(counted, { headers: response.headers }), { requestId, maxBytes, signal });
    return httpStatusError(response, detail(), Object.prototype.hasOwnProperty.call(answer, 'error') ? answer : undefined);
  } catch (error) {
    if (isAnswerError(error) && (error.code === 'aborted' || error.code === 'timeout')) throw error;
    return httpStatusError(response, isAnswerError(error) ? { ...error.detail, bytesRead } : detail(), undefined, error);
  }
}

/** The id of a request: a message with a string `method` and a string or number `id`. */
function requestIdOf(message: object): JsonRpcRequestId | undefined {
  const { method, id } = message as { method?: unknown; id?: unknown };
  if (typeof method !== 'string') return undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

interface CheckedOptions {
  readonly fetch: FetchFunction;
  readonly headers: HeadersInit | undefined;
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
  readonly maxBytes: number;
  readonly onMessage: ((message: JsonRpcMessage) => void) | undefined;
  readonly resume: boolean;
  readonly redirect: RedirectPolicy;
  readonly authProvider: AuthProvider | undefined;
}

/** Checks a `redirect` option; `undefined` is the default, `'same-origin'`. */
export function checkRedirect(redirect: unknown): RedirectPolicy {
  if (redirect === undefined) return 'same-origin';
  if (redirect === 'same-origin' || redirect === 'error') return redirect;
  throw invalid('redirect', '"same-origin" or "error"', redirect);
}

function checkOptions(url: unknown, message: unknown, options: PostJsonRpcOptions): CheckedOptions {
  if (typeof url !== 'string' && !(url instanceof URL)) throw invalid('url', 'a string or a URL', url);
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    throw invalid('message', 'a JSON-RPC message object', message);
  }
  const { method, id } = message as { method?: unknown; id?: unknown };
  if (typeof method === 'string' && typeof id === 'number' && !Number.isFinite(id)) {
    throw invalid('a request id', 'a string or a finite number', id);
  }
  const { fetch, headers, timeoutMs, signal, maxBytes, onMessage, resume, redirect, authProvider } = optionsObject(options) as PostJsonRpcOptions;
  if (fetch !== undefined && typeof fetch !== 'function') throw invalid('fetch', 'a function', fetch);
  if (fetch === undefined && typeof globalThis.fetch !== 'function') throw new TypeError('there is no global fetch; pass options.fetch');
  // The same rule as readAnswer's: only a real signal, else an abort could be lost.
  if (signal !== undefined && !isAbortSignal(signal)) throw invalid('signal', 'an AbortSignal', signal);
  if (onMessage !== undefined && typeof onMessage !== 'function') throw invalid('onMessage', 'a function', onMessage);
  if (resume !== undefined && typeof resume !== 'boolean') throw invalid('resume', 'a boolean', resume);
  return {
    fetch: fetch ?? globalFetch,
    headers,
    timeoutMs: checkTimeoutMs(timeoutMs),
    signal,
    maxBytes: checkMaxBytes(maxBytes),
    onMessage,
    resume: resume ?? true,
    redirect: checkRedirect(redirect),
    authProvider: checkAuthProvider(authProvider),
  };
}
