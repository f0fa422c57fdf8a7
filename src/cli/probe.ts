/** `sse-answer probe URL`: one JSON report of what a person debugging a server wants at a glance, every finding from an `AnswerClient`: what its handshake settled, and how it was answered. @module */

import { AnswerClient, type McpEra } from '../index.js';
import type { ClientSettings } from './client-options.js';
import { corsReport } from './cors-findings.js';
import { legacyFindings } from './legacy-findings.js';
import { printJson } from './output.js';
import { answerFormat, describeFailure, type EraReport, type LegacyFindings, type ModernFindings, type ProbeReport } from './probe-report.js';

/** Probes the server and prints the report, leaving no session open; with `origin`, its `cors` section too. */
export async function probe(settings: ClientSettings, origin?: string): Promise<void> {
  const report = await probeReport(settings);
  printJson(origin === undefined ? report : { ...report, cors: await corsReport(settings, origin, report) });
}

/** The report: refusals in an era the server does not speak are findings; a failure in the one it speaks (or both) is thrown. */
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
