/**
 * The 2025-era handshake: `initialize`, then `notifications/initialized`, then the session id
 * and the negotiated version on every request; and the DELETE that ends the session.
 * @module
 */

import { endSession } from '../client/end-session.js';
import { postJsonRpc, type JsonValue } from '../index.js';
import { CommandFailed } from './command-failed.js';
import { clientInfo, deleteOptions, objectOf, postOptions, type ExchangeSettings } from './exchange-settings.js';

/** The newest 2025-era version, which the CLI asks for unless a version is pinned. */
export const LEGACY_PROTOCOL_VERSION = '2025-11-25';

/** A session the handshake opened (or a server that opened none). */
export interface LegacySession {
  /** The version the server answered with. */
  readonly version: string;
  /** The `Mcp-Session-Id` it issued, or `null`. */
  readonly sessionId: string | null;
  /** The headers for the requests of the session: the caller's, the session id, the version. */
  readonly headers: Headers;
  /** The `InitializeResult`. */
  readonly result: { readonly [key: string]: JsonValue };
  /** The `Content-Type` of the answer to `initialize`. */
  readonly contentType: string | null;
}

/**
 * Initializes a session asking for `version`. With `exact`, an answer in another version is a
 * failure (a pinned version). Any session opened is ended before a failure is thrown.
 * @throws the exchange's `AnswerError`; {@link CommandFailed} when the server did not accept.
 */
export async function initialize(settings: ExchangeSettings, version: string, exact: boolean): Promise<LegacySession> {
  const init = await postJsonRpc(settings.url, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: version, capabilities: {}, clientInfo: clientInfo(settings) },
  }, postOptions(settings, new Headers(settings.headers)));
  const sessionId = init.headers.get('mcp-session-id');
  const headers = new Headers(settings.headers);
  if (sessionId !== null) headers.set('mcp-session-id', sessionId);
  const result = objectOf(init.answer?.['result']);
  const answered = result?.['protocolVersion'];
  try {
    if (result === undefined || typeof answered !== 'string') throw new CommandFailed(`the server did not accept initialize: ${JSON.stringify(init.answer)}`);
    if (exact && answered !== version) throw new CommandFailed(`the server answered initialize with protocol version ${answered}, not the pinned ${version}`);
    headers.set('mcp-protocol-version', answered);
    await postJsonRpc(settings.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, postOptions(settings, headers));
    return { version: answered, sessionId, headers, result, contentType: init.headers.get('content-type') };
  } catch (error) {
    if (sessionId !== null) await endLegacySession(settings, headers);
    throw error;
  }
}

/**
 * Ends a session with its DELETE; a failure is reported on stderr, not thrown, since the
 * command's own outcome is what the user asked for.
 * @returns The DELETE's status, or `undefined` when it failed.
 */
export async function endLegacySession(settings: ExchangeSettings, headers: Headers, report: (text: string) => void = () => undefined): Promise<number | undefined> {
  try {
    return await endSession(settings.url, deleteOptions(settings, headers));
  } catch (error) {
    report(`ending the session failed: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}
