/**
 * The value encoding of MCP 2026-07-28's mirrored headers (Streamable HTTP, "Value Encoding"):
 * a string that is a plain header value is sent as it is, any other in the Base64 sentinel
 * `=?base64?{Base64 of its UTF-8}?=`; and the decoding a server applies before it compares.
 * @module
 */

import { checkType, invalid } from '../vocabulary/check-argument.js';

const PREFIX = '=?base64?';
const SUFFIX = '?=';

/**
 * A plain value: visible ASCII and interior spaces only. Tab is allowed in a field value but the
 * revision names control characters among what must be encoded, so it is encoded too.
 */
const PLAIN = /^(?:[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?)?$/;

/** A lone surrogate: a string holding one has no UTF-8 form, so no Base64 of it exists. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What a field value may hold on the wire (RFC 9110 §5.5, without obs-text): what a decoder accepts as plain. */
const FIELD_VALUE = /^[\t\x20-\x7e]*$/;

/** Canonical, padded Base64: the only payload the decoder accepts (re-encoding checks the unused bits). */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Bytes per `String.fromCharCode` call: far below any engine's argument limit. */
const CHUNK = 0x8000;

/**
 * The header value of `value` under the revision's Value Encoding rule: `value` itself when it is
 * visible ASCII with no leading or trailing whitespace and does not look like the sentinel (starts
 * with `=?base64?` and ends with `?=`); else `=?base64?…?=` over its UTF-8 bytes.
 *
 * The result only ever holds visible ASCII and interior spaces, so `new Headers` keeps it as it is.
 *
 * @throws TypeError for a non-string, or a string holding a lone surrogate (it has no UTF-8 form:
 *   any header sent for it would not match the body's value).
 */
export function encodeMcpHeaderValue(value: string): string {
  return encodeValue('value', value);
}

/**
 * `value` as the value of a header that has no encoded form (`MCP-Protocol-Version`,
 * `Mcp-Method`): it must already be plain and not empty, since a server reads it as it is.
 * @throws TypeError naming the value as `name` otherwise.
 */
export function plainValue(name: string, value: string): string {
  if (value !== '' && PLAIN.test(value)) return value;
  throw invalid(name, 'visible ASCII, not empty, without leading or trailing spaces (this header has no encoded form)', value);
}

/** {@link encodeMcpHeaderValue}, naming the value in its error as `name`. */
export function encodeValue(name: string, value: unknown): string {
  checkType(name, value, 'string');
  if (PLAIN.test(value) && !looksEncoded(value)) return value;
  if (LONE_SURROGATE.test(value)) throw invalid(name, 'a string without lone surrogates (one has no UTF-8 form)', value);
  return `${PREFIX}${base64(new TextEncoder().encode(value))}${SUFFIX}`;
}

/**
 * The original value of a received `Mcp-Name` or `Mcp-Param-{Name}` header value: the UTF-8 text
 * of the Base64 payload for a value in the sentinel form (`=?base64?…?=`, markers lowercase, as the
 * revision requires), the value itself otherwise.
 *
 * Returns `undefined` for a value no conforming client sends: a sentinel whose payload is not
 * canonical padded Base64 or not valid UTF-8, or a value with characters outside a field value
 * (control characters other than tab, non-ASCII). A server rejects such a header
 * (`HeaderMismatch`, -32020) instead of comparing it.
 *
 * @throws TypeError for a non-string.
 */
export function decodeMcpHeaderValue(value: string): string | undefined {
  checkType('value', value, 'string');
  if (!FIELD_VALUE.test(value)) return undefined;
  if (value.length < PREFIX.length + SUFFIX.length || !looksEncoded(value)) return value;
  const payload = value.slice(PREFIX.length, value.length - SUFFIX.length);
  if (!BASE64.test(payload)) return undefined;
  const binary = atob(payload);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  if (base64(bytes) !== payload) return undefined; // nonzero unused bits: not what an encoder makes
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The revision's sentinel pattern, as it words it: starts with the prefix and ends with the suffix. */
function looksEncoded(value: string): boolean {
  return value.startsWith(PREFIX) && value.endsWith(SUFFIX);
}

/** Base64 of any number of bytes with web globals only: `btoa` over a binary string built in chunks. */
function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += CHUNK) binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(binary);
}
