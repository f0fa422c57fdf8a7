/** Which era and version a client speaks, by the 2026-07-28 revision's Backward Compatibility rules: `server/discover` first and the `initialize` fallback, `initialize` alone, or a version pinned. @module */

import type { AnswerFormat, AnswerProgress } from '../reducers/answer.js';
import { barePart, said, quotedPart, stopKind, written, type Failure } from '../vocabulary/failure.js';
import { objectOf, type JsonObject, type JsonRpcResponse, type JsonValue } from '../vocabulary/json-rpc.js';
import { discoverOutcome, negotiationFailed, type DiscoverOutcome } from './discover-outcome.js';
import { eraOf, isProtocolVersion, LEGACY_PROTOCOL_VERSION, MODERN_PROTOCOL_VERSION, type McpEra } from './era.js';
import type { ExchangeSettings } from './exchange-options.js';
import { answerOf, planMessage, runExchange, type ExchangeOutcome } from './exchange.js';
import { requestMessage, type ClientIdentity } from './request-message.js';
import type { SessionKeeper } from './session-keeper.js';

/** How a client settles its era: `'auto'` (probe, then fall back to `initialize`), `'legacy'` (`initialize` alone), or `{ pin }` (one version; a 2026 one with no handshake). */
export type VersionNegotiation =
  | 'auto'
  | 'legacy'
  | {
      /** The one protocol version to speak (`YYYY-MM-DD`). */
      readonly pin: string;
    };

/** How the era was settled, for a caller that says so. */
export type NegotiatedBy =
  | {
      /** `server/discover` answered with a version in common. */
      readonly by: 'discover';
    }
  | {
      /** `initialize` settled it. */
      readonly by: 'initialize';
      /** What `server/discover` answered when `'auto'` fell back (the server's text quoted); `undefined` for `'legacy'`. */
      readonly refusal: string | undefined;
    }
  | {
      /** The pinned version. */
      readonly by: 'pin';
      /** Whether through `initialize` (a 2025 version), or with no handshake at all (a 2026 one). */
      readonly initialize: boolean;
    }
  | {
      /** No handshake was asked for (`handshake: false`). */
      readonly by: 'none';
    };

/** What a handshake's answer was, as it came: for a caller that reports how the server answers. */
export interface HandshakeAnswer {
  /** The HTTP status of the handshake's POST. */
  readonly status: number;
  /** Its response headers (`Content-Type`, `Mcp-Session-Id`, …). */
  readonly headers: Headers;
  /** How the answer was framed: `application/json` or `text/event-stream`. */
  readonly format: AnswerFormat;
  /** What its body held besides the answer: events, messages passed over, the last event id. */
  readonly progress: AnswerProgress;
}

/** The era settled, and what the server said of itself (a session is the session state's). */
export interface Negotiated {
  readonly era: McpEra;
  readonly protocolVersion: string | undefined;
  readonly supportedVersions: readonly string[];
  readonly serverInfo: JsonObject | undefined;
  readonly capabilities: JsonObject | undefined;
  readonly instructions: string | undefined;
  readonly negotiatedBy: NegotiatedBy;
  readonly handshake: HandshakeAnswer | undefined;
}

/** Settled, or the failure: the handshake's own, or `negotiation_failed`. */
export type Negotiation = { readonly ok: true; readonly negotiated: Negotiated } | { readonly ok: false; readonly failure: Failure };

/** The id of the handshake's requests (`server/discover`, then `initialize`): a client numbers its own from 1. */
const HANDSHAKE_ID = 0;

/** What a handshake is given: where, with what settings, as whom, and the session state it settles. */
export interface Handshake {
  readonly url: string | URL;
  readonly settings: ExchangeSettings;
  readonly identity: ClientIdentity;
  readonly session: SessionKeeper;
  /** Signals that end the handshake besides the settings' own (a renewal ends when the client closes). */
  readonly signals?: readonly (AbortSignal | undefined)[] | undefined;
}

/** Settles the era with the server at `url`, into `on.session`. With `handshake: false` nothing is sent (the era is the pin's, else the caller's `MCP-Protocol-Version`'s, else 2025). */
export async function negotiate(on: Handshake, negotiation: VersionNegotiation, handshake: boolean): Promise<Negotiation> {
  const { url, settings, identity, session } = on;
  const pin = typeof negotiation === 'object' ? negotiation.pin : undefined;
  if (!handshake || (pin !== undefined && eraOf(pin) === 'modern')) {
    const version = pin ?? settings.headers.get('mcp-protocol-version') ?? undefined;
    return settled(session, eraOf(version), version, pin === undefined ? { by: 'none' } : { by: 'pin', initialize: false });
  }
  if (pin !== undefined) return initialize(on, pin, true, { by: 'pin', initialize: true });
  if (negotiation === 'legacy') return initialize(on, LEGACY_PROTOCOL_VERSION, false, { by: 'initialize', refusal: undefined });

  let version = MODERN_PROTOCOL_VERSION;
  for (let retried = false; ; retried = true) {
    const probe = requestMessage(retried ? 'server/discover-retry' : HANDSHAKE_ID, 'server/discover', undefined, 'modern', version, identity);
    const outcome = await runExchange(url, settings, planMessage(probe, settings, { version }), { session, signals: on.signals });
    const found = discoverOutcome(outcome);
    // Refused in the version asked, with one listed this package speaks: asked once more in it.
    if (found.kind === 'retry' && !retried) {
      version = found.version;
      continue;
    }
    return discovered(on, outcome, found);
  }
}

function discovered(on: Handshake, outcome: ExchangeOutcome, found: DiscoverOutcome): Promise<Negotiation> | Negotiation {
  const { settings, session } = on;
  switch (found.kind) {
    case 'retry':
      return { ok: false, failure: negotiationFailed(said`server/discover was refused with UnsupportedProtocolVersion (-32022) in ${found.version}, a version it lists as supported`, answerOf(outcome)) };
    case 'failed':
      return { ok: false, failure: found.failure };
    case 'legacy':
      return initialize(on, LEGACY_PROTOCOL_VERSION, false, { by: 'initialize', refusal: written(found.reason, settings.secrets) });
    case 'modern': {
      const others = found.supported.filter((version) => version !== found.version);
      const serverInfo = objectOf(found.result['_meta'])?.['io.modelcontextprotocol/serverInfo'];
      return settled(session, 'modern', found.version, { by: 'discover' }, { outcome, result: found.result, serverInfo, supported: [found.version, ...others] });
    }
  }
}


interface Handshook {
  readonly outcome: ExchangeOutcome;
  readonly result: JsonObject;
  readonly serverInfo: JsonValue | undefined;
  /** The versions the server said it supports; by default the one settled. */
  readonly supported?: readonly string[] | undefined;
}

function settled(session: SessionKeeper, era: McpEra, version: string | undefined, how: NegotiatedBy, handshook?: Handshook): Negotiation {
  void session.apply({ type: 'settled', era, protocolVersion: version });
  const result = handshook?.result;
  const negotiated: Negotiated = {
    era,
    protocolVersion: version,
    supportedVersions: handshook?.supported ?? (version === undefined ? [] : [version]),
    serverInfo: objectOf(handshook?.serverInfo),
    capabilities: objectOf(result?.['capabilities']),
    instructions: stringOf(result?.['instructions']),
    negotiatedBy: how,
    handshake: handshook && handshakeAnswer(handshook.outcome),
  };
  return { ok: true, negotiated };
}

/** The 2025 handshake: `initialize` asking for `version`, then `notifications/initialized`; with `exact` (a pin, a renewal), an answer in another version fails. A failed one's session is ended. */
async function initialize(on: Handshake, version: string, exact: boolean, how: NegotiatedBy): Promise<Negotiation> {
  const { url, settings, identity, session } = on;
  const message = requestMessage(HANDSHAKE_ID, 'initialize', { protocolVersion: version, capabilities: identity.capabilities, clientInfo: { ...identity.clientInfo } }, 'legacy', undefined, identity);
  const outcome = await runExchange(url, settings, planMessage(message, settings), { session, signals: on.signals });
  const failed = async (failure: Failure, answered?: string): Promise<Negotiation> => {
    // The DELETE carries the version the server answered in, when it answered in one.
    if (answered !== undefined) void session.apply({ type: 'settled', era: 'legacy', protocolVersion: answered });
    void session.apply({ type: 'handshake-failed' });
    // A stopped handshake fails at once, as an abort must; its session is ended in the background.
    if (stopKind(failure) === undefined) await session.endsSettled();
    return { ok: false, failure };
  };
  if (outcome.kind !== 'answered') return failed(outcome.failure);
  const result = objectOf(outcome.answer['result']);
  const answered = result?.['protocolVersion'];
  if (result === undefined || typeof answered !== 'string') return failed(notAccepted(outcome.answer, settings));
  // Only a 2025 version (a date before 2026-07-28) is accepted: it goes back in a header, which no other text could be.
  if (!isProtocolVersion(answered) || eraOf(answered) !== 'legacy') {
    const message = said`the server answered initialize with protocol version ${quotedPart(answered)}, which is no 2025-era version`;
    return failed(negotiationFailed(message, outcome.answer, settings.maxBytes));
  }
  if (exact && answered !== version) {
    return failed(negotiationFailed(said`the server answered initialize with protocol version ${barePart(answered)}, not the pinned ${version}`, outcome.answer), answered);
  }
  const initialized = planMessage({ jsonrpc: '2.0', method: 'notifications/initialized' }, settings, { version: answered, sessionId: session.state.sessionId });
  const notified = await runExchange(url, settings, initialized, { session, signals: on.signals });
  if (notified.kind === 'refused' || notified.kind === 'failed') return failed(notified.failure, answered);
  return settled(session, 'legacy', answered, how, { outcome, result, serverInfo: result['serverInfo'] });
}

/** A 2025 session the server forgot, renewed by the handshake again in `version`: `undefined` once a new one is held, else the failure. */
export async function renewSession(on: Handshake, version: string): Promise<Failure | undefined> {
  const renewed = await initialize(on, version, true, { by: 'pin', initialize: true });
  return renewed.ok ? undefined : renewed.failure;
}

function notAccepted(answer: JsonRpcResponse, settings: ExchangeSettings): Failure {
  // The whole answer is the server's text, quoted short: a 1 MiB answer stays a line.
  return negotiationFailed(said`the server did not accept initialize: ${quotedPart(JSON.stringify(answer))}`, answer, settings.maxBytes);
}

/** How the handshake was answered: the outcome but its kind and answer (the rest of `Negotiated` says what the answer held). */
function handshakeAnswer(outcome: ExchangeOutcome): HandshakeAnswer | undefined {
  if (outcome.kind !== 'answered') return undefined;
  const { kind, answer, ...how } = outcome;
  return how;
}


function stringOf(value: JsonValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
