/** The two eras of MCP over Streamable HTTP — legacy (2025-11-25 and before: sessions, resumption), modern (2026-07-28 on: stateless) — and the era of a version. @module */

import { isRecord, ownValue } from '../vocabulary/json-rpc.js';

/** The first protocol version of the modern, stateless era. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** The newest version of the legacy era, which a client asks for in `initialize` unless one is pinned. */
export const LEGACY_PROTOCOL_VERSION = '2025-11-25';

/** The `_meta` key under which a modern request declares its protocol version. */
export const PROTOCOL_VERSION_META = 'io.modelcontextprotocol/protocolVersion';

/** The MCP era a protocol version belongs to. */
export type McpEra = 'legacy' | 'modern';

/** The protocol version a message declares in `params._meta`, read through own properties only (the caller's plain data), or `undefined`. */
export function declaredProtocolVersion(message: unknown): string | undefined {
  const params = isRecord(message) ? ownValue(message, 'params') : undefined;
  const meta = isRecord(params) ? ownValue(params, '_meta') : undefined;
  const version = isRecord(meta) ? ownValue(meta, PROTOCOL_VERSION_META) : undefined;
  return typeof version === 'string' ? version : undefined;
}

/** The era of `version`: modern for a `YYYY-MM-DD` version on or after {@link MODERN_PROTOCOL_VERSION} (dates order as strings), legacy for any other or none. */
export function eraOf(version: string | null | undefined): McpEra {
  return isProtocolVersion(version) && version >= MODERN_PROTOCOL_VERSION ? 'modern' : 'legacy';
}

/** Whether `value` is a protocol version in form: a date, `YYYY-MM-DD`. */
export function isProtocolVersion(value: unknown): value is string {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value);
}
