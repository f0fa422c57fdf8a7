/**
 * The shape of `sse-answer probe`'s report, the one JSON object it prints (the CLI guide
 * documents its fields), and how a handshake's answer is named in it.
 * @module
 */

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
  /** The method or header at stake (`DELETE`, `Mcp-Method`, `Mcp-Session-Id`), for the kinds about one. */
  readonly name?: string;
  /** For `preflight_refused`: the status the preflight was answered with. */
  readonly status?: number;
  /** The requests it concerns, as a page's client sends them: `POST server/discover`, `DELETE (ends the session)`. */
  readonly requests: readonly string[];
  /** What the server must answer instead: `Access-Control-Allow-Headers: Mcp-Method` (all kinds but `request_failed`). */
  readonly fix?: string;
  /** For `request_failed`: how the request failed, as the page's client would have failed. */
  readonly error?: string;
}

/** The `cors` section of the report, with `--origin`. */
export interface CorsReport {
  /** The page's origin the server was asked about. */
  readonly origin: string;
  /** The eras whose requests were checked: those the server speaks. */
  readonly eras: readonly McpEra[];
  /** Empty for a server a page at the origin can use in every era it speaks. */
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
  /** With `--origin`: what a page at that origin would meet. */
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
