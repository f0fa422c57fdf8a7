/**
 * The shape of `sse-answer probe`'s report, the one JSON object it prints (the CLI guide
 * documents its fields), and how a handshake's answer is named in it.
 * @module
 */

import type { HandshakeAnswer, JsonValue, McpEra } from '../index.js';

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
  /** The version it answered `initialize` with (asked for `LEGACY_PROTOCOL_VERSION`). */
  readonly protocolVersion: string;
  /** The versions of `LEGACY_VERSIONS` (`legacy-findings.ts`) it accepted as asked, and the one it answered with. */
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

/** How the server answered a handshake: `null` where there was none. */
export function answerFormat(handshake: HandshakeAnswer | undefined): AnswerFormat {
  return handshake?.format ?? null;
}
