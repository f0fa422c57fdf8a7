/** One HTTP request of an exchange: redirects only within the caller's origin, never past the deadline; whatever keeps it from a response is a failure here, and only here. @module */

import { abortReason, isAborted, untilAborted } from '../drivers/abort-watch.js';
import type { AnswerDetail } from '../vocabulary/errors.js';
import { said, quotedPart, stopped, type Failure } from '../vocabulary/failure.js';
import { fetchRejected } from './fetch-failure.js';
import { invalid } from '../vocabulary/check-argument.js';

/** The `fetch` an exchange uses: the global one, or any function with its shape. */
export type FetchFunction = (input: string | URL, init: RequestInit) => Promise<Response>;

/** Which redirects an exchange follows: `'same-origin'` (the default) a 307 or 308 within the origin, re-sent as it was; `'error'` none. Any other is `http_status`. */
export type RedirectPolicy = 'same-origin' | 'error';

/** Redirects followed for one request before the exchange gives up: a loop ends here. */
export const MAX_REDIRECTS = 5;

/** What one request is. */
export interface OutgoingRequest {
  readonly method: 'POST' | 'GET' | 'DELETE';
  readonly headers: Headers;
  readonly body?: string | undefined;
}

/** Where and how a request of an exchange goes. */
export interface RequestRoute {
  readonly fetch: FetchFunction;
  readonly url: string | URL;
  readonly signal: AbortSignal;
  readonly redirect: RedirectPolicy;
  /** What had been read before this request (the cap, and a resumed answer's totals), for a failure's detail. */
  readonly detail: AnswerDetail;
  /** Shown each response released unread (a redirect, a 401 answered, one after the abort): its headers may carry a session to end. */
  readonly onRelease?: ((response: Response) => void) | undefined;
}

/** A request's end: the response; `unanswered` when `fetch` rejected (`unsent`: the server surely never saw it); `failed` by the exchange's own rules (deadline, redirect, `authProvider`). */
export type Sent =
  | { readonly kind: 'response'; readonly response: Response }
  | { readonly kind: 'unanswered'; readonly failure: Failure; readonly unsent: boolean }
  | { readonly kind: 'failed'; readonly failure: Failure };

/** Sends `request`: the response that is no followed redirect, or the failure. Redirects are followed here, never to another origin nor a POST made a GET; the deadline settles it whatever `fetch` does. */
export async function sendRequest(route: RequestRoute, request: OutgoingRequest): Promise<Sent> {
  const { signal } = route;
  const origin = new URL(route.url).origin;
  let target: string | URL = route.url;
  for (let redirects = 0; ; redirects += 1) {
    let pending: Promise<Response>;
    try {
      // Awaited as `await` would: a plain Response or a thenable works, and a then that throws is a rejection.
      const init = { method: request.method, headers: request.headers, body: request.body ?? null, signal, redirect: 'manual' } as const;
      pending = Promise.resolve(route.fetch(target, init)).then(checkResponse);
    } catch (error) {
      pending = Promise.reject(error); // a fetch that throws instead of rejecting
    }
    let response: Response;
    try {
      response = await untilAborted(pending, signal, (late) => release(route, late));
    } catch (error) {
      if (isAborted(signal)) return { kind: 'failed', failure: stopped(abortReason(signal), route.detail, 'the exchange') };
      return { kind: 'unanswered', ...fetchRejected(error, target, request.method, request.headers, route.detail) };
    }
    if (!isRedirect(response)) return { kind: 'response', response };
    release(route, response);
    const location = response.headers.get('location');
    const next = location === null ? undefined : resolve(location, target);
    const followed =
      route.redirect === 'same-origin' &&
      (response.status === 307 || response.status === 308) &&
      next !== undefined &&
      next.origin === origin &&
      redirects < MAX_REDIRECTS;
    if (!followed) return { kind: 'failed', failure: redirectRefused(request.method, response, location, route, redirects) };
    target = next;
  }
}

/** `value` if it has what the exchange reads of a `Response`, else a `TypeError`: a `fetch` resolving with anything else fails like one that rejects. */
function checkResponse(value: unknown): Response {
  const response = value as Response | null | undefined;
  if (typeof response?.status === 'number' && typeof response.headers?.get === 'function') return response;
  throw invalid('what fetch resolved with', 'a Response', value);
}

/** A 3xx, or what a browser gives for a redirect under `redirect: 'manual'` (no status, no headers). */
function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status <= 399);
}

function resolve(location: string, base: string | URL): URL | undefined {
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}

function redirectRefused(method: OutgoingRequest['method'], response: Response, location: string | null, route: RequestRoute, followed: number): Failure {
  const status = response.type === 'opaqueredirect' ? 0 : response.status;
  const why =
    route.redirect === 'error'
      ? 'redirects are refused (redirect: "error")'
      : followed >= MAX_REDIRECTS
        ? `after ${MAX_REDIRECTS} redirects`
        : status === 307 || status === 308
          ? location === null
            ? 'without a Location'
            : 'to another origin'
          : 'that would not keep the method and body (only 307 and 308 are followed)';
  const to = location === null ? said`` : said` to ${quotedPart(location)}`;
  return {
    code: 'http_status',
    message: said`the server redirected the ${method} with HTTP ${status === 0 ? '3xx' : String(status)}${to}, not followed: ${why}`,
    detail: { ...route.detail, contentType: response.headers.get('content-type'), status, location: location ?? undefined },
  };
}

/** Releases a response that is not read, once `route` has been shown it (`onRelease`). */
export function release(route: RequestRoute, response: Response): void {
  route.onRelease?.(response);
  void response.body?.cancel().catch(() => undefined);
}
