/** One request with the exchange's `authProvider`: the bearer token set here and nowhere else (each one sent joins the secrets), a 401 answered once through `onUnauthorized`, within the deadline. @module */

import { isBearerToken } from '../vocabulary/bearer-token.js';
import { abortReason, isAborted, untilAborted } from '../drivers/abort-watch.js';
import { describeValue } from '../vocabulary/describe-value.js';
import { valuePart, said, stopped, withCause, type Failure } from '../vocabulary/failure.js';
import type { Secrets } from '../vocabulary/secrets.js';
import type { AuthProvider } from './auth-provider.js';
import { refusal } from './refusal.js';
import { release, sendRequest, type OutgoingRequest, type RequestRoute, type Sent } from './send-request.js';

/** A route with the exchange's bearer authentication, and the secrets its tokens join. */
export interface AuthorizedRoute extends RequestRoute {
  readonly authProvider: AuthProvider | undefined;
  readonly secrets: Secrets;
}

/**
 * `sendRequest` with `Authorization: Bearer <token>` when there is an `authProvider`. A 401 is
 * answered once (`onUnauthorized`, the body released, a fresh token), and what comes back then is
 * the caller's to read. A failed `token()` is `stream_failed`; a failed `onUnauthorized`, the 401's `http_status`.
 */
export async function sendAuthorized(route: AuthorizedRoute, request: OutgoingRequest): Promise<Sent> {
  const { authProvider } = route;
  if (authProvider === undefined) return sendRequest(route, request);

  for (let retried = false; ; retried = true) {
    const headers = new Headers(request.headers);
    const token = await bearerToken(authProvider, request.method, route);
    if (typeof token !== 'string' && token !== undefined) return { kind: 'failed', failure: token };
    if (token !== undefined) {
      route.secrets.add(token);
      headers.set('authorization', `Bearer ${token}`);
    }
    const sent = await sendRequest(route, { ...request, headers });
    if (sent.kind !== 'response') return sent;
    const { response } = sent;
    if (response.status !== 401 || retried || authProvider.onUnauthorized === undefined) return sent;
    const failed = await unauthorized(authProvider, response, route);
    if (failed !== undefined) return { kind: 'failed', failure: failed };
  }
}

async function bearerToken(authProvider: AuthProvider, method: string, route: AuthorizedRoute): Promise<string | undefined | Failure> {
  let token: unknown;
  try {
    token = await untilAborted(called(() => authProvider.token()), route.signal);
  } catch (error) {
    if (isAborted(route.signal)) return stopped(abortReason(route.signal), route.detail, 'the exchange');
    return notSent(method, said`authProvider.token() failed: ${valuePart(error)}`, route, error);
  }
  if (token === undefined || token === '') return undefined;
  // Checked here so that a bad token is never quoted: a header that refuses it names it.
  if (!isBearerToken(token)) {
    const got = typeof token === 'string' ? `${token.length} characters a header cannot carry` : describeValue(token);
    return notSent(method, said`authProvider.token() must resolve with a bearer token (visible ASCII) or undefined, got ${got}`, route, undefined);
  }
  return token;
}

async function unauthorized(authProvider: AuthProvider, response: Response, route: AuthorizedRoute): Promise<Failure | undefined> {
  const { signal } = route;
  const fetchFn = (url: string | URL, init?: RequestInit): Promise<Response> => route.fetch(url, { ...init, signal: init?.signal ?? signal });
  const context = { response, serverUrl: new URL(route.url), fetchFn };
  try {
    await untilAborted(called(() => authProvider.onUnauthorized?.(context)), signal);
    return undefined;
  } catch (error) {
    if (isAborted(signal)) return stopped(abortReason(signal), route.detail, 'the exchange');
    return refusal(response, route.detail, undefined, said`, and authProvider.onUnauthorized failed: ${valuePart(error)}`, error);
  } finally {
    release(route, response); // the provider may have read it, or hold it still: a refused cancel is fine
  }
}

function notSent(method: string, why: Failure['message'], route: AuthorizedRoute, cause: unknown): Failure {
  const failure = { code: 'stream_failed', message: said`the ${method} request was not sent: ${why}`, detail: route.detail } as const;
  return cause === undefined ? failure : withCause(failure, cause);
}

/** What `call()` returns, as a promise: a provider method that throws is a rejection. */
function called<T>(call: () => T | Promise<T>): Promise<T> {
  return new Promise<T>((resolve) => resolve(call()));
}
