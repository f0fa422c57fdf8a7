/**
 * Ending an MCP session: a DELETE carrying `Mcp-Session-Id`, under its own deadline.
 * @module
 */

import { checkTimeoutMs, startDeadline } from './deadline.js';
import { isAnswerError } from '../vocabulary/errors.js';
import { abortedError, emptyDetail, httpStatusError, requestFailedError } from './exchange-errors.js';
import { globalFetch } from './post-json-rpc.js';
import type { AuthProvider } from './auth-provider.js';
import { sendAuthorized } from './authorized-request.js';
import { release, type FetchFunction, type RedirectPolicy } from './send-request.js';

/** What {@link endSession} needs besides the URL. */
export interface EndSessionOptions {
  /** The `fetch` to use; default the global `fetch`. */
  readonly fetch?: FetchFunction | undefined;
  /** Headers to send: the session id and protocol version among them. */
  readonly headers: Headers;
  /** The deadline for the DELETE, as `postJsonRpc`'s `timeoutMs` (default 30 000). */
  readonly timeoutMs?: number | undefined;
  /** End the DELETE when any aborts (`aborted`, or `timeout` for a `TimeoutError` reason). */
  readonly signals?: readonly (AbortSignal | undefined)[] | undefined;
  /** Which redirects the DELETE follows, as `postJsonRpc`'s `redirect` (default `'same-origin'`). */
  readonly redirect?: RedirectPolicy | undefined;
  /** Bearer authentication for the DELETE, as for the exchanges (a 401 retried once). */
  readonly authProvider?: AuthProvider | undefined;
}

/**
 * Sends the DELETE that ends a session and releases its body. A 2xx ends the session; a 405 says
 * the server does not let clients end sessions, which is fine too.
 * @returns The status.
 * @throws AnswerError `http_status` for any other status (a redirect not followed too), `timeout`, or `stream_failed`.
 */
export async function endSession(url: string | URL, options: EndSessionOptions): Promise<number> {
  const deadline = startDeadline(checkTimeoutMs(options.timeoutMs), ...(options.signals ?? []));
  try {
    if (deadline.signal.aborted) throw abortedError(deadline.signal, emptyDetail(0));
    let response: Response;
    try {
      const route = {
        fetch: options.fetch ?? globalFetch,
        url,
        signal: deadline.signal,
        redirect: options.redirect ?? 'same-origin',
        maxBytes: 0,
        authProvider: options.authProvider,
      } as const;
      response = await sendAuthorized(route, { method: 'DELETE', headers: options.headers });
    } catch (error) {
      if (deadline.signal.aborted) throw abortedError(deadline.signal, emptyDetail(0));
      if (isAnswerError(error)) throw error; // a redirect not followed
      throw requestFailedError('DELETE', error, emptyDetail(0));
    }
    release(response);
    if (response.ok || response.status === 405) return response.status;
    throw httpStatusError(response, emptyDetail(0, response.headers.get('content-type')), undefined);
  } finally {
    deadline.dispose();
  }
}
