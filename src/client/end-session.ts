/**
 * Ending an MCP session: a DELETE carrying `Mcp-Session-Id`, under its own deadline.
 * @module
 */

import { checkTimeoutMs, startDeadline } from './deadline.js';
import { abortedError, emptyDetail, httpStatusError, requestFailedError } from './exchange-errors.js';
import { globalFetch, type FetchFunction } from './post-json-rpc.js';

/** What {@link endSession} needs besides the URL. */
export interface EndSessionOptions {
  /** The `fetch` to use; default the global `fetch`. */
  readonly fetch?: FetchFunction | undefined;
  /** Headers to send: the session id and protocol version among them. */
  readonly headers: Headers;
  /** The deadline for the DELETE, as `postJsonRpc`'s `timeoutMs` (default 30 000). */
  readonly timeoutMs?: number | undefined;
}

/**
 * Sends the DELETE that ends a session and releases its body. A 2xx ends the session; a 405 says
 * the server does not let clients end sessions, which is fine too.
 * @returns The status.
 * @throws AnswerError `http_status` for any other status, `timeout`, or `stream_failed`.
 */
export async function endSession(url: string | URL, options: EndSessionOptions): Promise<number> {
  const deadline = startDeadline(checkTimeoutMs(options.timeoutMs), undefined);
  try {
    let response: Response;
    try {
      const send = options.fetch ?? globalFetch; // called unbound, as a browser's fetch must be
      response = await send(url, { method: 'DELETE', headers: options.headers, signal: deadline.signal });
    } catch (error) {
      if (deadline.signal.aborted) throw abortedError(deadline.signal, emptyDetail(0));
      throw requestFailedError('DELETE', error, emptyDetail(0));
    }
    void response.body?.cancel().catch(() => undefined);
    if (response.ok || response.status === 405) return response.status;
    throw httpStatusError(response, emptyDetail(0, response.headers.get('content-type')), undefined);
  } finally {
    deadline.dispose();
  }
}
