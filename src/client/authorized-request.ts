/**
 * One request of an exchange with its `authProvider`: the bearer token on it, and on a 401 the
 * provider's `onUnauthorized` awaited and the request sent once more — all within the exchange's
 * deadline. The token is set here and nowhere else, and never written into an error.
 * @module
 */

import { AnswerError } from '../vocabulary/errors.js';
import { describeValue } from '../vocabulary/describe-value.js';
import type { AuthProvider } from './auth-provider.js';
import { emptyDetail, httpStatusError } from './exchange-errors.js';
import { release, sendRequest, untilAborted, type FetchFunction, type OutgoingRequest, type RedirectPolicy } from './send-request.js';

/** What a request of an exchange needs to be sent. */
export interface RequestRoute {
  readonly fetch: FetchFunction;
  readonly url: string | URL;
  readonly signal: AbortSignal;
  readonly redirect: RedirectPolicy;
  readonly maxBytes: number;
  readonly authProvider: AuthProvider | undefined;
}

/** Visible ASCII: what a bearer token may hold (RFC 6750 `b64token` is a subset), so no header refuses it. */
const TOKEN_CHARS = /^[\x21-\x7e]+$/;

/**
 * Sends `request` as `sendRequest` does, with `Authorization: Bearer <token>` when there is an
 * `authProvider`. A 401 is answered once: `onUnauthorized` is awaited, the 401's body released,
 * and the request sent again with a fresh token. What comes back then (a second 401 too) is the
 * caller's to read.
 * @throws the signal's reason once it aborts (a hanging provider ends at the deadline);
 *   `stream_failed` when `token()` fails (the request was not sent); `http_status` when
 *   `onUnauthorized` fails; whatever `sendRequest` throws.
 */
export async function sendAuthorized(route: RequestRoute, request: OutgoingRequest): Promise<Response> {
  const { authProvider, signal } = route;
  const send = (headers: Headers): Promise<Response> =>
    sendRequest(route.fetch, route.url, { ...request, headers }, signal, route.redirect, route.maxBytes);
  if (authProvider === undefined) return send(request.headers);

  for (let retried = false; ; retried = true) {
    const headers = new Headers(request.headers);
    const token = await bearerToken(authProvider, request.method, route);
    if (token !== undefined) headers.set('authorization', `Bearer ${token}`);
    const response = await send(headers);
    if (response.status !== 401 || retried || authProvider.onUnauthorized === undefined) return response;
    await unauthorized(authProvider, response, route);
  }
}

/** The token `token()` resolves with, checked; `undefined` for none. */
async function bearerToken(authProvider: AuthProvider, method: string, route: RequestRoute): Promise<string | undefined> {
  let token: unknown;
  try {
    token = await untilAborted(called(() => authProvider.token()), route.signal);
  } catch (error) {
    if (route.signal.aborted) throw error;
    throw notSent(method, `authProvider.token() failed: ${describeValue(error)}`, route, error);
  }
  if (token === undefined || token === '') return undefined;
  // Checked here so that a bad token is never quoted: a header that refuses it names it.
  if (typeof token !== 'string' || !TOKEN_CHARS.test(token)) {
    const got = typeof token === 'string' ? `${token.length} characters a header cannot carry` : describeValue(token);
    throw notSent(method, `authProvider.token() must resolve with a bearer token (visible ASCII) or undefined, got ${got}`, route, undefined);
  }
  return token;
}

/** Awaits `onUnauthorized` for `response`, then releases its body whatever happened. */
async function unauthorized(authProvider: AuthProvider, response: Response, route: RequestRoute): Promise<void> {
  const { signal } = route;
  const fetchFn = (url: string | URL, init?: RequestInit): Promise<Response> => route.fetch(url, { ...init, signal: init?.signal ?? signal });
  const context = { response, serverUrl: new URL(route.url), fetchFn };
  try {
    await untilAborted(called(() => authProvider.onUnauthorized?.(context)), signal);
  } catch (error) {
    if (signal.aborted) throw error;
    const detail = emptyDetail(route.maxBytes, response.headers.get('content-type'));
    throw httpStatusError(response, detail, undefined, error, `, and authProvider.onUnauthorized failed: ${describeValue(error)}`);
  } finally {
    release(response); // the provider may have read it, or hold it still: a refused cancel is fine
  }
}

function notSent(method: string, why: string, route: RequestRoute, cause: unknown): AnswerError {
  return new AnswerError('stream_failed', `the ${method} request was not sent: ${why}`, emptyDetail(route.maxBytes), cause === undefined ? {} : { cause });
}

/** What `call()` returns, as a promise: a provider method that throws is a rejection. */
function called<T>(call: () => T | Promise<T>): Promise<T> {
  return new Promise<T>((resolve) => resolve(call()));
}
