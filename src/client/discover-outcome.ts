/** What the answer to `server/discover` says of the era, by the 2026-07-28 Backward Compatibility rules: the one place they live, for `AnswerClient` and `AnswerTransport`. @module */

import { barePart, nothingRead, said, barePartList, type Failure, type MessagePart } from '../vocabulary/failure.js';
import { objectOf, type JsonObject, type JsonRpcResponse, type JsonValue } from '../vocabulary/json-rpc.js';
import { eraOf, MODERN_PROTOCOL_VERSION } from './era.js';
import type { RequestOutcome } from './exchange.js';

/** The errors the 2026-07-28 revision defines; it reserved -32020..-32099, so only a modern server sends them. */
export const MODERN_ERROR_CODES: ReadonlyMap<number, string> = new Map([
  [-32020, 'HeaderMismatch'],
  [-32021, 'MissingRequiredClientCapability'],
  [-32022, 'UnsupportedProtocolVersion'],
]);

/** The modern versions this package speaks. */
export const MODERN_VERSIONS: readonly string[] = [MODERN_PROTOCOL_VERSION];

/** What the probe found. */
export type DiscoverOutcome =
  /** A modern server that speaks `version`; `result` is its `DiscoverResult`, `supported` its versions. */
  | { readonly kind: 'modern'; readonly version: string; readonly result: JsonObject; readonly supported: readonly string[] }
  /** `UnsupportedProtocolVersion`, listing `version`, a modern one this package speaks: ask once more in it (SEP-2575). */
  | { readonly kind: 'retry'; readonly version: string }
  /** Not a modern answer: fall back to `initialize`; `reason` says what the server answered (its text quoted when written). */
  | { readonly kind: 'legacy'; readonly reason: readonly MessagePart[] }
  /** A modern server this package cannot talk to, or a failure that says nothing about the era. */
  | { readonly kind: 'failed'; readonly failure: Failure };

/** Whether a probe refused with no modern error says a 2025 server: any 4xx but 401 and 403 (a credential to fix, which `initialize` would meet too). */
export function refusalSaysLegacy(status: number): boolean {
  return status >= 400 && status <= 499 && status !== 401 && status !== 403;
}

/** Whether `AnswerTransport` hands a refused `server/discover` to its MCP client as a JSON-RPC error: any 4xx or 5xx but 401, as the AI SDK's own transport falls back on them. */
export function refusalGoesInBand(status: number): boolean {
  return status >= 400 && status <= 599 && status !== 401;
}

/** What an exchange of `server/discover` says about the server's era. */
export function discoverOutcome(outcome: RequestOutcome): DiscoverOutcome {
  switch (outcome.kind) {
    case 'answered':
      return answered(outcome.answer, outcome.status);
    case 'refused': {
      const rpcError = objectOf(outcome.answer?.['error']);
      const how = said`HTTP ${outcome.status}`;
      const legacy = refusalSaysLegacy(outcome.status);
      // A modern error decides, whatever the status; any other says legacy where the status does.
      if (rpcError !== undefined && (legacy || MODERN_ERROR_CODES.has(rpcError['code'] as number))) return rpcErrorOutcome(rpcError, how, outcome.failure, outcome.answer);
      return legacy ? { kind: 'legacy', reason: how } : { kind: 'failed', failure: outcome.failure };
    }
    case 'failed':
      return { kind: 'failed', failure: outcome.failure };
  }
}

function answered(answer: JsonRpcResponse, status: number): DiscoverOutcome {
  const error = objectOf(answer['error']);
  if (error !== undefined) return rpcErrorOutcome(error, said`HTTP ${status}`, undefined, answer);
  const result = objectOf(answer['result']);
  const supported = result === undefined ? undefined : versionList(result['supportedVersions']);
  // A legacy server has no server/discover; a result without supportedVersions is not one.
  if (result === undefined || supported === undefined) return { kind: 'legacy', reason: said`HTTP ${status} without a DiscoverResult` };
  const version = MODERN_VERSIONS.find((known) => supported.includes(known));
  if (version !== undefined) return { kind: 'modern', version, result, supported };
  if (supported.some((listed) => eraOf(listed) === 'legacy')) return { kind: 'legacy', reason: said`it supports only ${versionsText(supported)}` };
  return { kind: 'failed', failure: noCommonVersion(supported, answer) };
}

function rpcErrorOutcome(error: JsonObject, how: readonly MessagePart[], refused: Failure | undefined, answer: JsonRpcResponse | undefined): DiscoverOutcome {
  const code = error['code'];
  const name = MODERN_ERROR_CODES.get(code as number);
  if (name === undefined) return { kind: 'legacy', reason: said`${how}, JSON-RPC ${codeText(code)}` };
  if (name === 'UnsupportedProtocolVersion') {
    const { supported, retry } = versionRefusal(answer)!;
    if (retry !== undefined) return { kind: 'retry', version: retry };
    // A server that lists only legacy versions is answered in one, by its handshake.
    if (supported.length > 0 && supported.every((listed) => eraOf(listed) === 'legacy')) {
      return { kind: 'legacy', reason: said`${how}, UnsupportedProtocolVersion, it supports ${versionsText(supported)}` };
    }
    return { kind: 'failed', failure: noCommonVersion(supported, answer, refused) };
  }
  const message = typeof error['message'] === 'string' ? said`: ${barePart(error['message'])}` : said``;
  return { kind: 'failed', failure: refused ?? negotiationFailed(said`server/discover was refused with ${name} (${code as number})${message}`, answer) };
}

/** What a refusal with `UnsupportedProtocolVersion` (-32022) says: the versions the server lists, and the one to retry in, once (SEP-2575); else `undefined`. */
export function versionRefusal(answer: JsonRpcResponse | undefined): { readonly supported: readonly string[]; readonly retry: string | undefined } | undefined {
  const error = objectOf(answer?.['error']);
  if (error?.['code'] !== -32022) return undefined;
  const supported = versionList(objectOf(error['data'])?.['supported']) ?? [];
  return { supported, retry: MODERN_VERSIONS.find((known) => supported.includes(known)) };
}

/** The version to send a request again in, once, by {@link versionRefusal}. */
export function retryVersion(answer: JsonRpcResponse | undefined): string | undefined {
  return versionRefusal(answer)?.retry;
}

/** The failure of a server that speaks no version this package speaks; with the detail of the HTTP refusal that said so, if one did. */
export function noCommonVersion(supported: readonly string[], answer: JsonRpcResponse | undefined, refused?: Failure): Failure {
  const offered = supported.length === 0 ? said`no version it names` : versionsText(supported);
  const failure = negotiationFailed(said`the server supports ${offered}; this client speaks ${MODERN_VERSIONS.join(', ')} and 2025-11-25 or earlier`, answer);
  return refused === undefined ? failure : { ...failure, detail: { ...refused.detail, answer } };
}

/** A `negotiation_failed` failure: `message`, and the server's `answer` in its detail. */
export function negotiationFailed(message: readonly MessagePart[], answer: JsonRpcResponse | undefined, maxBytes = 0): Failure {
  return { code: 'negotiation_failed', message, detail: { ...nothingRead(maxBytes), answer } };
}

function versionsText(versions: readonly string[]): readonly MessagePart[] {
  return barePartList(versions, ', ', 8);
}

/** A JSON-RPC error code as a message shows it: a number as it is, anything else as the server's text. */
function codeText(code: JsonValue | undefined): string | MessagePart {
  return typeof code === 'number' ? String(code) : barePart(JSON.stringify(code) ?? 'none');
}

function versionList(value: JsonValue | undefined): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? (value as string[]) : undefined;
}
