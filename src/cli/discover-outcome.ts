/**
 * What the answer to a `server/discover` probe says about the server's era, by the 2026-07-28
 * revision's Backward Compatibility rules (basic/versioning, Streamable HTTP): a recognised
 * modern JSON-RPC error means a modern server (never fall back); anything else a 4xx or a
 * JSON-RPC error can say means a legacy one (fall back to `initialize`).
 * @module
 */

import { eraOf, isAnswerError, MODERN_PROTOCOL_VERSION, type JsonRpcResponse, type JsonValue } from '../index.js';
import { CommandFailed } from './command-failed.js';
import { objectOf } from './exchange-settings.js';

/**
 * The errors the revision defines (basic/index, "Error Codes"): `HeaderMismatch`,
 * `MissingRequiredClientCapability`, `UnsupportedProtocolVersion`. Only a modern server sends
 * them, since the range -32020..-32099 was reserved by that revision.
 */
export const MODERN_ERROR_CODES: ReadonlyMap<number, string> = new Map([
  [-32020, 'HeaderMismatch'],
  [-32021, 'MissingRequiredClientCapability'],
  [-32022, 'UnsupportedProtocolVersion'],
]);

/** The one modern version the CLI speaks. */
export const MODERN_VERSIONS: readonly string[] = [MODERN_PROTOCOL_VERSION];

/** What the probe found. */
export type DiscoverOutcome =
  /** A modern server that speaks `version`; `result` is its `DiscoverResult`. */
  | { readonly kind: 'modern'; readonly version: string; readonly result: { readonly [key: string]: JsonValue }; readonly supported: readonly string[] }
  /** Not a modern answer: fall back to `initialize`; `reason` says what the server answered. */
  | { readonly kind: 'legacy'; readonly reason: string }
  /** A modern server the CLI cannot talk to, or a failure that says nothing about the era. */
  | { readonly kind: 'failed'; readonly error: unknown };

/** The outcome of an answer (a 2xx): a `DiscoverResult`, or a JSON-RPC error. */
export function discoverAnswered(answer: JsonRpcResponse | undefined, status: number): DiscoverOutcome {
  const error = objectOf(answer?.['error']);
  if (error !== undefined) return rpcErrorOutcome(error, `HTTP ${status}`, undefined);
  const result = objectOf(answer?.['result']);
  const supported = result === undefined ? undefined : versionList(result['supportedVersions']);
  // A legacy server has no server/discover; a result without supportedVersions is not one.
  if (result === undefined || supported === undefined) return { kind: 'legacy', reason: `HTTP ${status} without a DiscoverResult` };
  const version = MODERN_VERSIONS.find((known) => supported.includes(known));
  if (version !== undefined) return { kind: 'modern', version, result, supported };
  if (supported.some((listed) => eraOf(listed) === 'legacy')) return { kind: 'legacy', reason: `it supports only ${supported.join(', ')}` };
  return { kind: 'failed', error: noCommonVersion(supported) };
}

/** The outcome of a failed exchange: an `http_status` may be a legacy server's refusal. */
export function discoverFailed(error: unknown): DiscoverOutcome {
  if (!isAnswerError(error) || error.code !== 'http_status') return { kind: 'failed', error };
  const status = error.detail.status ?? 0;
  const rpcError = objectOf(error.detail.answer?.['error']);
  if (rpcError !== undefined && MODERN_ERROR_CODES.has(Number(rpcError['code']))) return rpcErrorOutcome(rpcError, `HTTP ${status}`, error);
  // 401/403 would refuse initialize too, a 5xx is a broken server and a redirect not followed
  // leads elsewhere: none says the server is legacy, so none is retried as if it did.
  if (status < 400 || status > 499 || status === 401 || status === 403) return { kind: 'failed', error };
  const code = rpcError === undefined ? '' : `, JSON-RPC ${String(rpcError['code'])}`;
  return { kind: 'legacy', reason: `HTTP ${status}${code}` };
}

/** A JSON-RPC error to the probe: modern when its code is one of the revision's. */
function rpcErrorOutcome(error: { readonly [key: string]: JsonValue }, how: string, failure: unknown): DiscoverOutcome {
  const code = error['code'];
  const name = typeof code === 'number' ? MODERN_ERROR_CODES.get(code) : undefined;
  if (name === undefined) return { kind: 'legacy', reason: `${how}, JSON-RPC ${String(code)}` };
  if (name === 'UnsupportedProtocolVersion') {
    const supported = versionList(objectOf(error['data'])?.['supported']) ?? [];
    // A server that lists only legacy versions is answered in one, by its handshake.
    if (supported.length > 0 && supported.every((listed) => eraOf(listed) === 'legacy')) {
      return { kind: 'legacy', reason: `${how}, UnsupportedProtocolVersion, it supports ${supported.join(', ')}` };
    }
    return { kind: 'failed', error: failure ?? noCommonVersion(supported) };
  }
  return { kind: 'failed', error: failure ?? new CommandFailed(`server/discover was refused with ${name} (${String(code)}): ${String(error['message'])}`) };
}

function noCommonVersion(supported: readonly string[]): CommandFailed {
  return new CommandFailed(`the server supports ${supported.length === 0 ? 'no version it names' : supported.join(', ')}; sse-answer speaks ${MODERN_VERSIONS.join(', ')} and 2025-11-25 or earlier`);
}

function versionList(value: JsonValue | undefined): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? (value as string[]) : undefined;
}
