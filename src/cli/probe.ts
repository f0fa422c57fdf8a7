/**
 * `sse-answer probe URL`: what a person debugging a server wants at a glance, as one JSON object
 * on stdout — the era `call` would speak and its version, the versions the server supports, its
 * `serverInfo` and capabilities, whether it answers in JSON or an event stream, and in the 2025
 * era whether it issues sessions, primes its streams for resumption and accepts DELETE. Every
 * finding comes from an `AnswerClient`: what its handshake settled, and how it was answered.
 * @module
 */

import { AnswerClient, type McpEra } from '../index.js';
import type { ClientSettings } from './client-options.js';
import { corsReport } from './cors-findings.js';
import { legacyFindings } from './legacy-findings.js';
import { printJson } from './output.js';
import { answerFormat, describeFailure, type EraReport, type LegacyFindings, type ModernFindings, type ProbeReport } from './probe-report.js';

/**
 * Probes the server and prints the report; leaves no session open. With `origin`, the report has
 * a `cors` section: what a page at that origin would meet in each era the server speaks.
 */
export async function probe(settings: ClientSettings, origin?: string): Promise<void> {
  const report = await probeReport(settings);
  printJson(origin === undefined ? report : { ...report, cors: await corsReport(settings, origin, report) });
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
    answers: answerFormat(client.handshake),
    serverInfo: client.serverInfo ?? null,
    capabilities: client.capabilities ?? null,
  };
  await client.close();
  const legacy = await AnswerClient.connect(settings.url, { ...settings.options, versionNegotiation: 'legacy' }).then(
    (handshake) => legacyFindings(settings, handshake),
    (error: unknown): EraReport<LegacyFindings> => ({ supported: false, refusal: describeFailure(error) }),
  );
  // (A failure after that handshake — of its DELETE, of another version asked for — is a finding of legacyFindings'.)
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
