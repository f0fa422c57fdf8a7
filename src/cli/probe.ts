/**
 * `sse-answer probe URL`: what a person debugging a server wants at a glance, as one JSON object
 * on stdout — the era `call` would speak and its version, the versions the server supports, its
 * `serverInfo` and capabilities, whether it answers in JSON or an event stream, and in the 2025
 * era whether it issues sessions, primes its streams for resumption and accepts DELETE.
 * @module
 */

import { endSession } from '../client/end-session.js';
import { mimeEssence } from '../vocabulary/content-type.js';
import { isAnswerError, type JsonValue, type McpEra } from '../index.js';
import { deleteOptions, objectOf, type ExchangeSettings } from './exchange-settings.js';
import { endLegacySession, initialize, LEGACY_PROTOCOL_VERSION, type LegacySession } from './legacy-handshake.js';
import { discover } from './negotiate.js';
import { printJson } from './output.js';
import { watchResponses } from './response-watch.js';

/**
 * The 2025-era versions of Streamable HTTP, newest first (2024-11-05 had the HTTP+SSE transport):
 * each is asked for, since a 2025 server names only the one it chose.
 */
export const LEGACY_VERSIONS: readonly string[] = [LEGACY_PROTOCOL_VERSION, '2025-06-18', '2025-03-26'];

/** How a server answers: the essence of its `Content-Type`, short for the two MCP allows. */
export type AnswerFormat = 'json' | 'event-stream' | string | null;

/** What the server said to one era. */
export type EraReport<Supported> = ({ readonly supported: true } & Supported) | { readonly supported: false; readonly refusal: string };

/** What a modern server said to `server/discover`. */
export interface ModernFindings {
  readonly supportedVersions: readonly string[];
  readonly answers: AnswerFormat;
  readonly serverInfo: JsonValue | null;
  readonly capabilities: JsonValue | null;
}

/** What a 2025-era server said to `initialize`, and did with its session. */
export interface LegacyFindings {
  /** The version it answered `initialize` with (asked for {@link LEGACY_PROTOCOL_VERSION}). */
  readonly protocolVersion: string;
  /** The versions of {@link LEGACY_VERSIONS} it accepted as asked, and the one it answered with. */
  readonly supportedVersions: readonly string[];
  readonly answers: AnswerFormat;
  readonly serverInfo: JsonValue | null;
  readonly capabilities: JsonValue | null;
  /** It sent `Mcp-Session-Id`. */
  readonly sessions: boolean;
  /** An event with an id and empty data came before the answer. */
  readonly primesStreams: boolean;
  /** The DELETE of the session was answered 2xx; `null` without a session to end. */
  readonly acceptsDelete: boolean | null;
}

/** The probe's report: the era `call` would speak, with that era's findings on top. */
export interface ProbeReport {
  readonly url: string;
  readonly era: McpEra;
  readonly protocolVersion: string;
  readonly supportedVersions: readonly string[];
  readonly serverInfo: JsonValue | null;
  readonly capabilities: JsonValue | null;
  readonly answers: AnswerFormat;
  readonly modern: EraReport<ModernFindings>;
  readonly legacy: EraReport<LegacyFindings>;
}

/** Probes the server and prints the report; leaves no session open. */
export async function probe(settings: ExchangeSettings): Promise<void> {
  printJson(await probeReport(settings));
}

/**
 * The report. Refusals in the era the server does not speak are findings; a failure in the one it
 * speaks (or of both) is thrown, with the exit codes of `call`.
 */
export async function probeReport(settings: ExchangeSettings): Promise<ProbeReport> {
  const modern = await probeModern(settings);
  if (!modern.supported) {
    // Not a modern server: the 2025 handshake is the fallback, and its failure is the probe's.
    const legacy = await probeLegacy(settings);
    return { ...summary(settings, 'legacy', legacy.protocolVersion, legacy, legacy.supportedVersions), modern, legacy };
  }
  const legacy = await probeLegacy(settings).catch((error: unknown): EraReport<LegacyFindings> => ({ supported: false, refusal: describe(error) }));
  const versions = [...modern.supportedVersions, ...(legacy.supported ? legacy.supportedVersions : [])];
  return { ...summary(settings, 'modern', modern.supportedVersions[0] ?? '', modern, versions), modern, legacy };
}

/** The top of the report: the era `call` would speak, and that era's findings. */
function summary(
  settings: ExchangeSettings,
  era: McpEra,
  protocolVersion: string,
  findings: ModernFindings | LegacyFindings,
  supportedVersions: readonly string[],
): Omit<ProbeReport, 'modern' | 'legacy'> {
  return {
    url: settings.url.href,
    era,
    protocolVersion,
    supportedVersions,
    serverInfo: findings.serverInfo,
    capabilities: findings.capabilities,
    answers: findings.answers,
  };
}

/** `server/discover`: a modern server's findings, a legacy server's refusal, or the failure `call` would have. */
async function probeModern(settings: ExchangeSettings): Promise<EraReport<ModernFindings>> {
  const watch = watchResponses(settings.fetch);
  const outcome = await discover({ ...settings, fetch: watch.fetch });
  if (outcome.kind === 'failed') throw outcome.error;
  if (outcome.kind === 'legacy') return { supported: false, refusal: `server/discover: ${outcome.reason}` };
  const meta = objectOf(outcome.result['_meta']);
  // The version call speaks first, then the others the server lists.
  const others = outcome.supported.filter((version) => version !== outcome.version);
  return {
    supported: true,
    supportedVersions: [outcome.version, ...others],
    answers: format(watch.contentType()),
    serverInfo: meta?.['io.modelcontextprotocol/serverInfo'] ?? null,
    capabilities: outcome.result['capabilities'] ?? null,
  };
}

/** `initialize` in each 2025 version; the first one's session is examined and ended. */
async function probeLegacy(settings: ExchangeSettings): Promise<{ readonly supported: true } & LegacyFindings> {
  const watch = watchResponses(settings.fetch);
  const watched = { ...settings, fetch: watch.fetch };
  const session = await initialize(watched, LEGACY_PROTOCOL_VERSION, false);
  const primesStreams = watch.primed();
  const acceptsDelete = session.sessionId === null ? null : await deleteAccepted(settings, session);
  const supportedVersions = [session.version];
  for (const version of LEGACY_VERSIONS) {
    if (supportedVersions.includes(version)) continue;
    if (await accepts(settings, version)) supportedVersions.push(version);
  }
  return {
    supported: true,
    protocolVersion: session.version,
    supportedVersions: supportedVersions.sort().reverse(),
    answers: format(session.contentType),
    serverInfo: session.result['serverInfo'] ?? null,
    capabilities: session.result['capabilities'] ?? null,
    sessions: session.sessionId !== null,
    primesStreams,
    acceptsDelete,
  };
}

/** Whether `initialize` asking for `version` is answered in it; the session it opens is ended. */
async function accepts(settings: ExchangeSettings, version: string): Promise<boolean> {
  let session: LegacySession;
  try {
    session = await initialize(settings, version, true);
  } catch {
    return false;
  }
  if (session.sessionId !== null) await endLegacySession(settings, session.headers);
  return true;
}

/** Ends the session: 2xx is accepted; a 405 or another refusal is not. */
async function deleteAccepted(settings: ExchangeSettings, session: LegacySession): Promise<boolean> {
  try {
    const status = await endSession(settings.url, deleteOptions(settings, session.headers));
    return status >= 200 && status <= 299;
  } catch (error) {
    if (isAnswerError(error) && error.code === 'http_status') return false;
    throw error;
  }
}

function format(contentType: string | null): AnswerFormat {
  const essence = mimeEssence(contentType);
  if (essence === 'application/json') return 'json';
  if (essence === 'text/event-stream') return 'event-stream';
  return essence ?? null;
}

function describe(error: unknown): string {
  if (isAnswerError(error)) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
