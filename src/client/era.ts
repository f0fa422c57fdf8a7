/**
 * The two eras of MCP over Streamable HTTP, and which one an exchange is in. Legacy (2025-11-25
 * and before): an `initialize` handshake, sessions, server requests on a response stream,
 * resumption by `Last-Event-ID`. Modern (2026-07-28 on): every request stands alone, declares
 * its version in `_meta` and mirrors its metadata into headers; a broken stream loses the request.
 * @module
 */

import { isRecord, ownValue } from '../vocabulary/json-rpc.js';

/** The first protocol version of the modern, stateless era. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** The newest version of the legacy era, which a client asks for in `initialize` unless one is pinned. */
export const LEGACY_PROTOCOL_VERSION = '2025-11-25';

/** The `_meta` key under which a modern request declares its protocol version. */
export const PROTOCOL_VERSION_META = 'io.modelcontextprotocol/protocolVersion';

/** The MCP era a protocol version belongs to. */
export type McpEra = 'legacy' | 'modern';

/**
 * The protocol version a message declares in `params._meta` (a modern request always does), or
 * `undefined` (for anything that is not a message object too). Read through own properties only:
 * a message is the caller's plain data.
 */
export function declaredProtocolVersion(message: unknown): string | undefined {
  const params = isRecord(message) ? ownValue(message, 'params') : undefined;
  const meta = isRecord(params) ? ownValue(params, '_meta') : undefined;
  const version = isRecord(meta) ? ownValue(meta, PROTOCOL_VERSION_META) : undefined;
  return typeof version === 'string' ? version : undefined;
}

/**
 * The era of `version`: modern for a dated version (`YYYY-MM-DD`) on or after
 * {@link MODERN_PROTOCOL_VERSION}; legacy for an older one, none, or one not of that form.
 * Versions are dates, so their order is the strings' order (basic/versioning).
 */
export function eraOf(version: string | null | undefined): McpEra {
  return isProtocolVersion(version) && version >= MODERN_PROTOCOL_VERSION ? 'modern' : 'legacy';
}

/** Whether `value` is a protocol version in form: a date, `YYYY-MM-DD`. */
export function isProtocolVersion(value: unknown): value is string {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value);
}
