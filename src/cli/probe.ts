/**
 * `sse-answer probe URL`: what a person debugging a server wants at a glance, as one JSON object
 * on stdout — the era `call` would speak and its version, the versions the server supports, its
 * `serverInfo` and capabilities, whether it answers in JSON or an event stream, and in the 2025
 * era whether it issues sessions, primes its streams for resumption and accepts DELETE. Every
 * finding comes from an `AnswerClient`: what its handshake settled, and how it was answered.
 * @module
 */

import { AnswerClient, isAnswerError, LEGACY_PROTOCOL_VERSION, type HandshakeAnswer, type JsonValue, type McpEra } from '../index.js';
import type { ClientSettings } from './client-options.js';
import { printJson } from './output.js';

/**
 * The 2025-era versions of Streamable HTTP, newest first (2024-11-05 had the HTTP+SSE transport):
 * each is asked for, since a 2025 server names only the one it chose.
 */
export const LEGACY_VERSIONS: readonly string[] = [LEGACY_PROTOCOL_VERSION, '2025-06-18', '2025-03-26'];

/** How a server answers: `json` or `event-stream`, the two MCP allows. */
export type AnswerFormat = 'json' | 'event-stream' | null;

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
export async function probe(settings: ClientSettings): Promise<void> {
  printJson(await probeReport(settings));
}

/**
 * The report. Refusals in the era the server does not speak are findings; a failure in the one it
 * speaks (or of both) is thrown, with the exit codes of `call`.
 */
export async function probeReport(settings: ClientSettings): Promise<ProbeReport> {
  // What `call` does: server/discover, and initialize when the refusal says the server is 2025's.
  const client = await AnswerClient.connect(settings.url, settings.options);
  if (client.era === 'legacy') {
    const refusal = client.negotiatedBy.by === 'initialize' ? client.negotiatedBy.refusal : undefined;
    const legacy = await legacyFindings(settings, client);
    const modern: EraReport<ModernFindings> = { supported: false, refusal: `server/discover: ${refusal ?? 'not asked'}` };
    return { ...summary(settings, 'legacy', legacy.protocolVersion, legacy, legacy.supportedVersions), modern, legacy };
  }
  const modern: ModernFindings & { readonly supported: true } = {
    supported: true,
    supportedVersions: client.supportedVersions,
    answers: format(client.handshake),
    serverInfo: client.serverInfo ?? null,
    capabilities: client.capabilities ?? null,
  };
  await client.close();
  const legacy = await AnswerClient.connect(settings.url, { ...settings.options, versionNegotiation: 'legacy' }).then(
    (handshake) => legacyFindings(settings, handshake),
    (error: unknown): EraReport<LegacyFindings> => ({ supported: false, refusal: describe(error) }),
  );
  const versions = [...modern.supportedVersions, ...(legacy.supported ? legacy.supportedVersions : [])];
  return { ...summary(settings, 'modern', modern.supportedVersions[0] ?? '', modern, versions), modern, legacy };
}

/** The top of the report: the era `call` would speak, and that era's findings. */
function summary(
  settings: ClientSettings,
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

/** The findings of a client connected by `initialize`: its session examined and ended, then each other 2025 version asked for. */
async function legacyFindings(settings: ClientSettings, client: AnswerClient): Promise<{ readonly supported: true } & LegacyFindings> {
  const protocolVersion = client.protocolVersion ?? LEGACY_PROTOCOL_VERSION;
  const sessions = client.sessionId !== undefined;
  const acceptsDelete = sessions ? await deleteAccepted(client) : (await client.close(), null);
  const supportedVersions = [protocolVersion];
  for (const version of LEGACY_VERSIONS) {
    if (!supportedVersions.includes(version) && (await accepts(settings, version))) supportedVersions.push(version);
  }
  return {
    supported: true,
    protocolVersion,
    supportedVersions: supportedVersions.sort().reverse(),
    answers: format(client.handshake),
    serverInfo: client.serverInfo ?? null,
    capabilities: client.capabilities ?? null,
    sessions,
    primesStreams: primed(client.handshake),
    acceptsDelete,
  };
}

/** Whether `initialize` pinned to `version` is answered in it; the session it opens is ended. */
async function accepts(settings: ClientSettings, version: string): Promise<boolean> {
  let client: AnswerClient;
  try {
    client = await AnswerClient.connect(settings.url, { ...settings.options, versionNegotiation: { pin: version } });
  } catch {
    return false;
  }
  await client.close().catch(() => undefined);
  return true;
}

/** Ends the session: 2xx is accepted; a 405 or another refusal is not. */
async function deleteAccepted(client: AnswerClient): Promise<boolean> {
  try {
    const status = await client.close();
    return status !== undefined && status >= 200 && status <= 299;
  } catch (error) {
    if (isAnswerError(error) && error.code === 'http_status') return false;
    throw error;
  }
}

function format(handshake: HandshakeAnswer | undefined): AnswerFormat {
  return handshake?.format ?? null;
}

/**
 * Whether the handshake's stream primed: an event id came, and more events than the messages,
 * the events that were not messages and the answer itself — an event of empty data, the priming
 * event of 2025-11-25 ("Resumability"), which a reader of messages passes over.
 */
function primed(handshake: HandshakeAnswer | undefined): boolean {
  if (handshake === undefined || handshake.format !== 'event-stream') return false;
  const { events, messages, ignored, lastEventId } = handshake.progress;
  return lastEventId !== '' && events > messages + ignored + 1;
}

function describe(error: unknown): string {
  if (isAnswerError(error)) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
