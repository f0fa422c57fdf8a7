/** The shape of `sse-answer probe`'s JSON report (the CLI guide documents its fields), and how a handshake's answer is named in it. @module */

import { isAnswerError, type HandshakeAnswer, type JsonValue, type McpEra } from '../index.js';

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
  readonly protocolVersion: string;
  readonly supportedVersions: readonly string[];
  readonly answers: AnswerFormat;
  readonly serverInfo: JsonValue | null;
  readonly capabilities: JsonValue | null;
  readonly sessions: boolean;
  readonly primesStreams: boolean;
  readonly acceptsDelete: boolean | null;
}

/** What a page at another origin would meet, one thing a finding. */
export type CorsFindingKind =
  | 'origin_not_allowed'
  | 'preflight_refused'
  | 'method_not_allowed'
  | 'header_not_allowed'
  | 'header_not_exposed'
  | 'request_failed';

/** One thing the server's CORS refuses or hides from a page at the origin, in one era. */
export interface CorsFinding {
  readonly era: McpEra;
  readonly kind: CorsFindingKind;
  readonly name?: string;
  readonly status?: number;
  readonly requests: readonly string[];
  readonly fix?: string;
  readonly error?: string;
}

/** The `cors` section of the report, with `--origin`. */
export interface CorsReport {
  readonly origin: string;
  readonly eras: readonly McpEra[];
  readonly findings: readonly CorsFinding[];
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
  readonly cors?: CorsReport;
}

/** How the server answered a handshake: `null` where there was none. */
export function answerFormat(handshake: HandshakeAnswer | undefined): AnswerFormat {
  return handshake?.format ?? null;
}

/** A failure as the report says it: an `AnswerError` by its code and message, anything else by its message. */
export function describeFailure(error: unknown): string {
  if (isAnswerError(error)) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
