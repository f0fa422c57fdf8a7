/** Ending an MCP session: a DELETE carrying `Mcp-Session-Id`, under its own deadline, as a value. @module */

import { abortReason, isAborted } from '../drivers/abort-watch.js';
import { nothingRead, stopped, type Failure } from '../vocabulary/failure.js';
import { sendAuthorized } from './authorized-request.js';
import { startDeadline } from './deadline.js';
import { withoutCallerSignal, type ExchangeSettings } from './exchange-options.js';
import { refusal } from './refusal.js';
import { release } from './send-request.js';

/** What a DELETE came to: the status that ended the session (2xx, or 405: the server lets no client end one), or the failure. */
export type SessionEnd = { readonly kind: 'ended'; readonly status: number } | { readonly kind: 'failed'; readonly failure: Failure };

/** Sends the DELETE that ends `sessionId` and releases its body; any status but 2xx and 405, a redirect, the deadline or a signal is the failure. */
export async function endSession(
  url: string | URL,
  settings: ExchangeSettings,
  sessionId: string,
  version: string | undefined,
  signals: readonly (AbortSignal | undefined)[] = [],
): Promise<SessionEnd> {
  const deadline = startDeadline(settings.timeoutMs, settings.signal, ...signals);
  const detail = nothingRead(0);
  try {
    if (isAborted(deadline.signal)) return { kind: 'failed', failure: stopped(abortReason(deadline.signal), detail, 'the exchange') };
    const headers = new Headers(settings.headers);
    headers.set('mcp-session-id', sessionId);
    if (version !== undefined) headers.set('mcp-protocol-version', version);
    const route = { fetch: settings.fetch, url, signal: deadline.signal, redirect: settings.redirect, detail, authProvider: settings.authProvider, secrets: settings.secrets };
    const sent = await sendAuthorized(route, { method: 'DELETE', headers });
    if (sent.kind !== 'response') return { kind: 'failed', failure: sent.failure };
    const { response } = sent;
    release(route, response);
    if (response.ok || response.status === 405) return { kind: 'ended', status: response.status };
    return { kind: 'failed', failure: refusal(response, nothingRead(0, response.headers.get('content-type')), undefined) };
  } finally {
    deadline.dispose();
  }
}

/** Ends a session nobody will use (a failed handshake's, a replaced one), best effort, under its own deadline alone: the abort that failed the exchange must not keep it open. */
export function endAbandonedSession(url: string | URL, settings: ExchangeSettings, sessionId: string, version: string | undefined): Promise<SessionEnd> {
  return endSession(url, withoutCallerSignal(settings), sessionId, version);
}
