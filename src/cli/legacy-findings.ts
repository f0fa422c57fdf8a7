/** What `probe` finds in the 2025 era: a client connected by `initialize`, its session examined and ended, and each other 2025 version of Streamable HTTP asked for. @module */

import { AnswerClient, isAnswerError, LEGACY_PROTOCOL_VERSION, type HandshakeAnswer } from '../index.js';
import type { ClientSettings } from './client-options.js';
import { answerFormat, type LegacyFindings } from './probe-report.js';

/** The 2025-era versions of Streamable HTTP, newest first (2024-11-05 had HTTP+SSE): each is asked for, as a server names only the one it chose. */
export const LEGACY_VERSIONS: readonly string[] = [LEGACY_PROTOCOL_VERSION, '2025-06-18', '2025-03-26'];

/** The findings of a client connected by `initialize`: its session examined and ended, then each other 2025 version asked for. */
export async function legacyFindings(settings: ClientSettings, client: AnswerClient): Promise<{ readonly supported: true } & LegacyFindings> {
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
    answers: answerFormat(client.handshake),
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

/** Ends the session: 2xx is accepted; a 405, another refusal or a failed DELETE is not, a finding of the era and not the probe's failure. */
async function deleteAccepted(client: AnswerClient): Promise<boolean> {
  try {
    const status = await client.close();
    return status !== undefined && status >= 200 && status <= 299;
  } catch (error) {
    if (isAnswerError(error)) return false;
    throw error;
  }
}

/** Whether the handshake's stream primed: an event id came, and more events than messages, non-messages and the answer — 2025-11-25's priming event of empty data ("Resumability"). */
function primed(handshake: HandshakeAnswer | undefined): boolean {
  if (handshake === undefined || handshake.format !== 'event-stream') return false;
  const { events, messages, ignored, lastEventId } = handshake.progress;
  return lastEventId !== '' && events > messages + ignored + 1;
}
