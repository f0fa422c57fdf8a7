/** The options every exchange takes (`postJsonRpc`, `AnswerTransport`, `AnswerClient`), documented and checked once. @module */

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
  /** Headers sent with every request (the POST, a resumption GET, the DELETE), under the exchange's own: `Accept`, `Content-Type`, and in 2026-07-28 the message's, with no `Mcp-Session-Id`. */
  readonly headers?: HeadersInit | undefined;
  /** Each exchange's deadline in milliseconds (connecting, headers, body, resumptions): default 30 000, `Infinity` for none; past it, `timeout`. */
  readonly timeoutMs?: number | undefined;
  /** The cap on the body bytes of each answer, over all its resumed bodies: default 16 MiB; `Infinity` for none. */
  readonly maxBytes?: number | undefined;
  /** Ends every exchange made with these options: `aborted`, or `timeout` for a `TimeoutError` reason. However many share it, nothing is left on it. */
  readonly signal?: AbortSignal | undefined;
  /** `'same-origin'` (the default) follows a 307 or 308 within the URL's origin, at most five; `'error'`, none. One not followed is `http_status`, with `detail.location`. */
  readonly redirect?: RedirectPolicy | undefined;
  /** Bearer authentication, the v2 MCP SDK's `AuthProvider`: `token()` before every request, a 401 answered once by `onUnauthorized` (the auth guide); not with an `Authorization` in `headers`. */
  readonly authProvider?: AuthProvider | undefined;
  /** Whether a 2025 event stream that ends early after an event id is resumed (`Last-Event-ID`). Default `true`; 2026-07-28 never resumes. */
  readonly resume?: boolean | undefined;
  /** Headers whose values no error repeats (`[redacted]` wherever a server reflects one), beside `Authorization`, `Proxy-Authorization`, `Cookie` and the `authProvider`'s tokens. */
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

/** The global `fetch`, looked up at each call and called as a plain function (browsers refuse it as another object's method). */
export const globalFetch: FetchFunction = (input, init) => globalThis.fetch(input, init);

/**
 * Checks the {@link ExchangeOptions} fields of `options` (the others are the caller's) and returns the settings.
 * @throws TypeError naming the option (a header `fetch` would refuse, an `Authorization` beside an `authProvider`); RangeError for a number out of range.
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

/** `settings` for a cleanup (a session's DELETE, a 2025 cancellation) the caller's signal must not cut short, its abort being what it may follow: `timeoutMs` alone bounds it. */
export function withoutCallerSignal(settings: ExchangeSettings): ExchangeSettings {
  return { ...settings, signal: undefined };
}

function checkRedirect(redirect: unknown): RedirectPolicy {
  if (redirect === undefined) return 'same-origin';
  if (redirect === 'same-origin' || redirect === 'error') return redirect;
  throw invalid('redirect', '"same-origin" or "error"', redirect);
}

function checkSecretHeaders(names: unknown): string[] {
  if (names === undefined) return [];
  if (!Array.isArray(names) || !names.every((name) => typeof name === 'string')) throw invalid('secretHeaders', 'an array of header names', names);
  return names.map((name: string) => name.toLowerCase());
}

