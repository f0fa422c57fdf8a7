/** The value encoding of 2026-07-28's mirrored headers (plain, or `=?base64?…?=`), and the decoding a server applies before it compares. @module */

import { checkType, invalid } from '../vocabulary/check-argument.js';

const PREFIX = '=?base64?';
const SUFFIX = '?=';

/** A plain value: visible ASCII and interior spaces. Tab is a field-value character, but the revision has control characters encoded. */
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
 * `value` as a header value by the revision's Value Encoding: itself when plain and not like the sentinel, else `=?base64?…?=` of its UTF-8 (the request-headers guide).
 * @throws TypeError for a non-string, or a string with a lone surrogate (it has no UTF-8 form).
 */
export function encodeMcpHeaderValue(value: string): string {
  return encodeValue('value', value);
}

/**
 * `value` for a header with no encoded form (`MCP-Protocol-Version`, `Mcp-Method`), which a server reads as it is.
 * @throws TypeError naming it `name` unless it is plain and not empty.
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
 * The original of a received `Mcp-Name` or `Mcp-Param-*` value (a sentinel's payload decoded, else the value itself); `undefined` for one no conforming client sends.
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

function looksEncoded(value: string): boolean {
  return value.startsWith(PREFIX) && value.endsWith(SUFFIX);
}

/** Base64 of any number of bytes with web globals only: `btoa` over a binary string built in chunks. */
function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += CHUNK) binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(binary);
}
