/**
 * Which era and protocol version a command speaks with a server, as the 2026-07-28 revision's
 * Backward Compatibility section says: a modern request first (`server/discover`), falling back
 * to the 2025 `initialize` handshake only when the refusal is not a recognised modern error; or
 * one version pinned by `--protocol-version`, with no negotiation.
 * @module
 */

import { eraOf, MODERN_PROTOCOL_VERSION, postJsonRpc } from '../index.js';
import { discoverAnswered, discoverFailed, type DiscoverOutcome } from './discover-outcome.js';
import { stepOptions, type ExchangeSettings } from './exchange-settings.js';
import { initialize, LEGACY_PROTOCOL_VERSION, type LegacySession } from './legacy-handshake.js';
import { modernRequest } from './modern-request.js';

/** How a command is to settle its era. */
export interface NegotiationPlan {
  /** `--protocol-version`: the one version to speak, no negotiation. */
  readonly pinned: string | undefined;
  /** `false` for `--no-initialize`: no `server/discover`, no `initialize`. */
  readonly handshake: boolean;
}

/** What every settled era has. */
interface Settled {
  /** How the version was settled, for the stderr line. */
  readonly how: string;
  /** The headers of the requests that follow: the caller's, with a 2025 session's id and version. */
  readonly headers: Headers;
  /** The 2025 session opened, to be ended; `null` when none was. */
  readonly session: LegacySession | null;
}

/** The era a command settled on, and the protocol version of its requests. */
export type Negotiated =
  | (Settled & { readonly era: 'modern'; readonly version: string })
  /** `version` is `undefined` only for a 2025 request sent alone, unpinned. */
  | (Settled & { readonly era: 'legacy'; readonly version: string | undefined });

/**
 * Settles the era. On a modern answer nothing is left open; on the fallback the session of the
 * handshake is in the result, for the caller to end.
 * @throws the exchange's `AnswerError` or a `CommandFailed` when there is no era to speak.
 */
export async function negotiate(settings: ExchangeSettings, plan: NegotiationPlan): Promise<Negotiated> {
  const base = { headers: new Headers(settings.headers), session: null } as const;
  const { pinned } = plan;
  if (pinned !== undefined && eraOf(pinned) === 'modern') {
    return { ...base, era: 'modern', version: pinned, how: 'pinned by --protocol-version' };
  }
  if (!plan.handshake) {
    // A request sent alone is in the version the caller's own MCP-Protocol-Version names, if any.
    const given = settings.headers.get('mcp-protocol-version') ?? undefined;
    const version = pinned ?? given;
    const how = pinned === undefined ? 'no handshake (--no-initialize)' : 'pinned by --protocol-version, no handshake (--no-initialize)';
    if (version !== undefined && eraOf(version) === 'modern') return { ...base, era: 'modern', version, how };
    const headers = new Headers(settings.headers);
    if (version !== undefined) headers.set('mcp-protocol-version', version);
    return { ...base, headers, era: 'legacy', version, how };
  }
  if (pinned !== undefined) return legacy(await initialize(settings, pinned, true), 'pinned by --protocol-version, initialize');
  const outcome = await discover(settings);
  switch (outcome.kind) {
    case 'modern':
      return { ...base, era: 'modern', version: outcome.version, how: 'negotiated by server/discover' };
    case 'legacy':
      return legacy(await initialize(settings, LEGACY_PROTOCOL_VERSION, false), `server/discover refused (${outcome.reason}), negotiated by initialize`);
    case 'failed':
      throw outcome.error;
  }
}

/** Sends `server/discover` in the modern version and says what its answer means. */
export async function discover(settings: ExchangeSettings): Promise<DiscoverOutcome> {
  const request = modernRequest(settings, 0, 'server/discover', undefined, MODERN_PROTOCOL_VERSION);
  try {
    const { answer, status } = await postJsonRpc(settings.url, request, stepOptions(settings, settings.headers));
    return discoverAnswered(answer, status);
  } catch (error) {
    return discoverFailed(error);
  }
}

function legacy(session: LegacySession, how: string): Negotiated {
  return { era: 'legacy', version: session.version, how, headers: session.headers, session };
}

/** The one stderr line that says what was settled. */
export function negotiatedLine(negotiated: Negotiated): string {
  return `era ${negotiated.era} (${negotiated.version ?? 'no protocol version'}): ${negotiated.how}`;
}
