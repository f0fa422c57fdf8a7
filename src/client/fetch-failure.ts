/** What a rejected `fetch` says happened, in the caller's terms: no connection could be made, or it broke before any response. Node, Deno and Bun say which in codes and words; a browser, neither. @module */

import { valuePart, said, withCause, type Failure, type MessagePart } from '../vocabulary/failure.js';
import type { AnswerDetail } from '../vocabulary/errors.js';
import { crossOriginPage, inPage, preflightNote } from './page-cors.js';

interface Unreachable {
  readonly why: string;
  readonly check: string;
}

const REFUSED: Unreachable = { why: 'the connection was refused', check: 'is the server running?' };
const NO_HOST: Unreachable = { why: 'no such host', check: 'is the host name right?' };
const BAD_PORT: Unreachable = { why: 'fetch refuses to connect to this port ("bad port")', check: 'serve it on another port' };
const TLS: Unreachable = { why: 'the TLS handshake failed', check: 'does the server speak https on this port, with a certificate this client trusts?' };
const NO_ROUTE: Unreachable = { why: 'the host cannot be reached', check: 'is the network up, and the address right?' };
const TIMED_OUT: Unreachable = { why: 'the connection timed out', check: 'is the server running, and reachable from here?' };

/** The runtimes' codes (Node's and undici's; Bun's are Node's) for a connection never made. */
const UNREACHABLE_CODES: ReadonlyMap<string, Unreachable> = /* @__PURE__ */ new Map([
  ['ECONNREFUSED', REFUSED],
  ['ENOTFOUND', NO_HOST],
  ['EAI_NONAME', NO_HOST],
  ['EAI_AGAIN', { why: 'the host name could not be looked up', check: 'is the resolver reachable?' }],
  ['EHOSTUNREACH', NO_ROUTE],
  ['ENETUNREACH', NO_ROUTE],
  ['EHOSTDOWN', NO_ROUTE],
  ['EADDRNOTAVAIL', NO_ROUTE],
  ['ETIMEDOUT', TIMED_OUT],
  ['UND_ERR_CONNECT_TIMEOUT', TIMED_OUT],
]);

/** Deno says it in words only. */
const UNREACHABLE_WORDS: readonly (readonly [RegExp, Unreachable])[] = [
  [/connection refused|\bECONNREFUSED\b/i, REFUSED],
  [/dns error|failed to lookup address/i, NO_HOST],
  [/^bad port$|port \d+ (?:is|are) blocked/i, BAD_PORT],
];

const TLS_CODE = /^(?:ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|EPROTO$)/;
const TLS_WORDS = /\bTLS\b|\bSSL\b|certificate/i;

const BROKEN_CODE = /^(?:ECONNRESET|EPIPE|ECONNABORTED|UND_ERR_SOCKET|UND_ERR_CLOSED|HPE_\w+)$/;
const BROKEN_WORDS = /connection (?:reset|closed)|other side closed|socket hang up/i;

/** What the package reads of a rejection: its own code and message, and its cause's. Never throws. */
function clues(error: unknown): { readonly codes: readonly string[]; readonly words: readonly string[] } {
  const codes: string[] = [];
  const words: string[] = [];
  try {
    for (let value = error, depth = 0; typeof value === 'object' && value !== null && depth < 3; depth += 1) {
      const { code, message, cause } = value as { code?: unknown; message?: unknown; cause?: unknown };
      if (typeof code === 'string') codes.push(code);
      if (typeof message === 'string') words.push(message);
      value = cause;
    }
  } catch {
    // A hostile getter: what was read so far is all there is to go on.
  }
  return { codes, words };
}

function unreachable(codes: readonly string[], words: readonly string[]): Unreachable | undefined {
  if (codes.some((code) => TLS_CODE.test(code)) || words.some((text) => TLS_WORDS.test(text))) return TLS;
  for (const code of codes) {
    const found = UNREACHABLE_CODES.get(code);
    if (found !== undefined) return found;
  }
  for (const [pattern, found] of UNREACHABLE_WORDS) if (words.some((text) => pattern.test(text))) return found;
  return undefined;
}

/** Where a request went, as a message names it: the host and the port, the scheme's default included. */
export function hostAndPort(url: string | URL): string {
  const { hostname, port, protocol } = new URL(url);
  return `${hostname}:${port === '' ? (protocol === 'https:' ? '443' : '80') : port}`;
}

/** What a rejected `fetch` of a request comes to: `failure`, and whether the request surely never reached the server. */
export interface FetchRejected {
  readonly failure: Failure;
  /** `true` when no connection was made, so the server never saw the request: sending it again is safe. */
  readonly unsent: boolean;
}

/** The failure of a request whose `fetch` rejected: `connect_failed` when no connection was made (in a page, when no reason is given), else `stream_failed`. */
export function fetchRejected(error: unknown, url: string | URL, method: string, headers: Headers, detail: AnswerDetail): FetchRejected {
  const where = hostAndPort(url);
  const { codes, words } = clues(error);
  const code = codes.find((one) => UNREACHABLE_CODES.has(one) || TLS_CODE.test(one) || BROKEN_CODE.test(one));
  const named = code === undefined ? said`` : said` (${code})`;
  const cut = unreachable(codes, words);
  if (cut !== undefined) {
    return { failure: withCause({ code: 'connect_failed', message: said`could not connect to ${where}: ${cut.why}${named}; ${cut.check}`, detail }, error), unsent: true };
  }
  if (codes.some((one) => BROKEN_CODE.test(one)) || words.some((text) => BROKEN_WORDS.test(text))) {
    const message = said`the connection to ${where} broke before the server responded to the ${method}: ${valuePart(error)}${causeText(error)}`;
    return { failure: withCause({ code: 'stream_failed', message, detail }, error), unsent: false };
  }
  if (codes.length === 0 && inPage()) {
    // A browser's fetch rejects with a bare TypeError for a refused connection and a CORS refusal alike.
    const origin = crossOriginPage(url);
    const why: readonly MessagePart[] = origin === undefined ? said`is the server running?` : said`${preflightNote(origin, method, headers)}; else, is the server running?`;
    const message = said`could not connect to ${where}, or the browser refused the response; it gives no reason (${valuePart(error)}): ${why}`;
    return { failure: withCause({ code: 'connect_failed', message, detail }, error), unsent: false };
  }
  return { failure: withCause({ code: 'stream_failed', message: said`the ${method} request got no response: ${valuePart(error)}${causeText(error)}`, detail }, error), unsent: false };
}

/** ` (cause)`: a rejection's cause, which says what happened (undici's `fetch failed` does not). */
function causeText(error: unknown): readonly MessagePart[] {
  try {
    const cause: unknown = error instanceof Error ? error.cause : undefined;
    return cause instanceof Error ? said` (${valuePart(cause)})` : said``;
  } catch {
    return said``;
  }
}
