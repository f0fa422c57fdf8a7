/**
 * The options every exchange takes — `postJsonRpc`'s, `AnswerTransport`'s and `AnswerClient`'s
 * alike — documented once here, and checked once: each read once, into the settings an exchange
 * runs with.
 * @module
 */

import { checkSignal } from '../drivers/abort-watch.js';
import { checkMaxBytes } from '../reducers/budget.js';
import { checkType, invalid, optionsObject } from '../vocabulary/check-argument.js';
import { Secrets } from '../vocabulary/secrets.js';
import { checkAuthProvider, checkNoAuthorization, type AuthProvider } from './auth-provider.js';
import { checkTimeoutMs } from './deadline.js';
import type { FetchFunction, RedirectPolicy } from './send-request.js';

/** The options of an exchange with an MCP server. */
export interface ExchangeOptions {
  /** The `fetch` to use; default the global `fetch`, looked up at each request. */
  readonly fetch?: FetchFunction | undefined;
  /**
   * Headers sent with every request: the POST, any GET that resumes it, the DELETE. `Accept`
   * and `Content-Type` are the exchange's; so are, in a 2026-07-28 request, `MCP-Protocol-Version`,
   * `Mcp-Method` and `Mcp-Name` (derived from the message), and an `Mcp-Session-Id` is not sent
   * there (that era has no sessions).
   */
  readonly headers?: HeadersInit | undefined;
  /**
   * The deadline of each exchange — connecting, headers, body, any resumption — in milliseconds:
   * default 30 000; `Infinity` for none. When it passes the error is `timeout`.
   */
  readonly timeoutMs?: number | undefined;
  /** The cap on the body bytes of each answer, over all its resumed bodies: default 16 MiB; `Infinity` for none. */
  readonly maxBytes?: number | undefined;
  /**
   * Ends every exchange made with these options when it aborts: `aborted`, or `timeout` when its
   * reason is a `TimeoutError`. It is followed however many exchanges share it, and whatever else
   * listens to it; nothing is left on it.
   */
  readonly signal?: AbortSignal | undefined;
  /**
   * Which redirects are followed, for every request: `'same-origin'` (the default) follows a 307
   * or 308 within the origin of the URL, at most five; `'error'` follows none. Any redirect not
   * followed is `http_status`, with `detail.status` and `detail.location`.
   */
  readonly redirect?: RedirectPolicy | undefined;
  /**
   * Bearer authentication, the shape of the MCP SDK v2's `AuthProvider`: `token()` before every
   * request, sent as `Authorization: Bearer <token>`; on a 401, `onUnauthorized` awaited and the
   * request retried once, within the same deadline and byte cap. A second 401, or one with no
   * `onUnauthorized`, is `http_status` with `detail.challenge`. An `Authorization` in `headers`
   * as well is a `TypeError`.
   */
  readonly authProvider?: AuthProvider | undefined;
  /**
   * Whether a 2025-era event stream that ends without the answer after an event id is resumed
   * with a GET carrying `Last-Event-ID`. Default `true`. A 2026-07-28 exchange never resumes.
   */
  readonly resume?: boolean | undefined;
  /**
   * Names of the headers whose values are secret, beside `Authorization`, `Proxy-Authorization`
   * and `Cookie` (always secret) and the `authProvider`'s tokens. No error repeats a secret the
   * exchange sent: where a server reflects one into text an error quotes or carries — a
   * JSON-RPC error, a `Location`, a `WWW-Authenticate` — it reads `[redacted]`.
   */
  readonly secretHeaders?: readonly string[] | undefined;
}

/** The options after their check: what an exchange runs with. */
export interface ExchangeSettings {
  readonly fetch: FetchFunction;
  /** The caller's headers, copied once; never changed. */
  readonly headers: Headers;
  readonly timeoutMs: number;
  readonly maxBytes: number;
  readonly signal: AbortSignal | undefined;
  readonly redirect: RedirectPolicy;
  readonly authProvider: AuthProvider | undefined;
  readonly resume: boolean;
  /** The secrets every exchange with these settings redacts; the provider's tokens join as they are sent. */
  readonly secrets: Secrets;
}

/**
 * The global `fetch`, called as a plain function (browsers refuse it as another object's
 * method), and looked up at each call: the default of every exchange.
 */
export const globalFetch: FetchFunction = (input, init) => globalThis.fetch(input, init);

/**
 * Checks every option of `options` (any object with the fields of {@link ExchangeOptions}; other
 * fields are the caller's to check) and returns the settings.
 * @throws TypeError naming the option for a value of the wrong type, a header `fetch` would
 *   refuse, or an `Authorization` header beside an `authProvider`; RangeError for a number out of range.
 */
export function checkExchangeOptions(options: unknown): ExchangeSettings {
  const { fetch, headers, timeoutMs, maxBytes, signal, redirect, authProvider, resume, secretHeaders } = optionsObject(options) as ExchangeOptions;
  if (fetch !== undefined) checkType('fetch', fetch, 'function');
  if (fetch === undefined && typeof globalThis.fetch !== 'function') throw new TypeError('there is no global fetch; pass options.fetch');
  checkSignal('signal', signal);
  if (resume !== undefined) checkType('resume', resume, 'boolean');
  const checkedAuth = checkAuthProvider(authProvider);
  const copied = new Headers(headers); // a TypeError for a header fetch would refuse
  checkNoAuthorization(copied, checkedAuth, 'options.headers');
  const secrets = new Secrets();
  secrets.addHeaders(copied, checkSecretHeaders(secretHeaders));
  return {
    fetch: fetch ?? globalFetch,
    headers: copied,
    timeoutMs: checkTimeoutMs(timeoutMs),
    maxBytes: checkMaxBytes(maxBytes),
    signal,
    redirect: checkRedirect(redirect),
    authProvider: checkedAuth,
    resume: resume ?? true,
    secrets,
  };
}

/**
 * `settings` for a cleanup the caller's signal must not cut short — a session's DELETE, a 2025
 * request's cancellation — since that signal's abort may be the very thing it follows: the
 * settings' own deadline (`timeoutMs`) alone bounds it.
 */
export function withoutCallerSignal(settings: ExchangeSettings): ExchangeSettings {
  return { ...settings, signal: undefined };
}

/** Checks a `redirect` option; `undefined` is the default, `'same-origin'`. */
function checkRedirect(redirect: unknown): RedirectPolicy {
  if (redirect === undefined) return 'same-origin';
  if (redirect === 'same-origin' || redirect === 'error') return redirect;
  throw invalid('redirect', '"same-origin" or "error"', redirect);
}

/** Checks `secretHeaders`: header names, lowercased as `Headers` keeps them. */
function checkSecretHeaders(names: unknown): string[] {
  if (names === undefined) return [];
  if (!Array.isArray(names) || !names.every((name) => typeof name === 'string')) throw invalid('secretHeaders', 'an array of header names', names);
  return names.map((name: string) => name.toLowerCase());
}

