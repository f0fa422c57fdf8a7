/** The CLI's option values, each parsed in one place: a bad value is a {@link UsageError} that names it. @module */

import { isProtocolVersion, MIN_SECRET_LENGTH, quoteText, type JsonObject, type JsonRpcRequestId, type JsonValue } from '../index.js';
import { UsageError } from './usage-error.js';

/** `--max-bytes N`: a whole number of bytes, or `Infinity`. */
export function parseMaxBytes(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (text === 'Infinity') return Infinity;
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value)) throw new UsageError(`--max-bytes must be a whole number of bytes or Infinity, got ${quoteText(text)}`);
  return value;
}

/** `--timeout MS`: milliseconds, or `Infinity` for none. */
export function parseTimeout(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (text === 'Infinity') return Infinity;
  const value = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !Number.isFinite(value)) throw new UsageError(`--timeout must be a number of milliseconds or Infinity, got ${quoteText(text)}`);
  return value;
}

/** `--request-id ID`: read as JSON when it parses to a string or a number (`1`, `'"1"'`), else the text itself. */
export function parseRequestId(text: string | undefined): JsonRpcRequestId | undefined {
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  if (typeof parsed === 'string' || (typeof parsed === 'number' && Number.isFinite(parsed))) return parsed;
  return text;
}

/** `--header K:V`, any number of times: a header name, a colon, its value. */
export function parseHeaders(texts: readonly string[] | undefined): Headers {
  const headers = new Headers();
  for (const text of texts ?? []) {
    const colon = text.indexOf(':');
    const name = colon < 0 ? '' : text.slice(0, colon).trim();
    if (name === '') throw new UsageError(`--header must be NAME:VALUE, got ${quoteText(text)}`);
    try {
      headers.append(name, text.slice(colon + 1).trim());
    } catch {
      throw new UsageError(`--header ${quoteText(text)} is not a valid HTTP header`);
    }
  }
  return headers;
}

/** `--secret-header NAME`: a header whose value is never printed nor quoted back; it must name a `--header` given (a name that sends nothing protects nothing: a typo). */
export function parseSecretHeaders(names: readonly string[] | undefined, headers: Headers): string[] {
  return (names ?? []).map((text) => {
    const name = text.trim();
    let given: boolean;
    try {
      given = headers.has(name);
    } catch {
      given = false; // not a header name at all
    }
    if (!given) throw new UsageError(`--secret-header ${quoteText(text)} names no --header given`);
    checkSecretLength(headers.get(name)!, `--secret-header ${quoteText(text)}: its value`);
    return name.toLowerCase();
  });
}

/** Refuses a secret shorter than `MIN_SECRET_LENGTH` (`what`: the flag and its value): `Secrets` takes none, so it could not be kept out of what the CLI prints. */
export function checkSecretLength(value: string, what: string): void {
  if (value.length < MIN_SECRET_LENGTH) throw new UsageError(`${what} is shorter than ${MIN_SECRET_LENGTH} characters, too short to keep out of what is printed`);
}

/** `PARAMS_JSON`: a JSON object or array, as JSON-RPC params must be. */
export function parseParams(text: string | undefined): JsonObject | JsonValue[] | undefined {
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`PARAMS_JSON is not JSON: ${quoteText(text)}`);
  }
  if (typeof parsed !== 'object' || parsed === null) throw new UsageError('PARAMS_JSON must be a JSON object or array');
  return parsed as JsonObject | JsonValue[];
}

/** `URL`: an http or https URL; `missing` is the usage line when there is none. */
export function parseUrl(text: string | undefined, missing: string): URL {
  if (text === undefined) throw new UsageError(missing);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`not a URL: ${quoteText(text)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`the URL must be http or https, got ${quoteText(text)}`);
  // fetch refuses such a URL; said here, and without repeating what may be a password.
  if (url.username !== '' || url.password !== '') throw new UsageError('the URL must not carry a user or a password: send credentials with --header or --bearer-token-env');
  return url;
}

/** `--protocol-version V`: an MCP protocol version, which is a date (`YYYY-MM-DD`). */
export function parseProtocolVersion(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  if (!isProtocolVersion(text)) throw new UsageError(`--protocol-version must be a protocol version (YYYY-MM-DD, e.g. 2026-07-28), got ${quoteText(text)}`);
  return text;
}

/** `--origin ORIGIN`: a page's origin (http or https, a host, a port), serialized as a browser sends it (`https://APP.example.com:443/` is `https://app.example.com`). */
export function parseOrigin(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  // Said without repeating what may be a password, as parseUrl does.
  if (url !== undefined && (url.username !== '' || url.password !== '')) throw new UsageError('--origin must be the origin of a page, with no user or password');
  const bare = url !== undefined && url.pathname === '/' && !/[?#]/.test(text);
  if (url === undefined || !bare || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new UsageError(`--origin must be the origin of a page (http or https, a host, a port: e.g. https://app.example.com), got ${quoteText(text)}`);
  }
  return url.origin;
}
