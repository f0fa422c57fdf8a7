/**
 * One HTTP request of an exchange — the POST, a resumption GET, the DELETE — as the exchange's
 * rules allow it: redirects followed only within the origin the caller named, and never past the
 * deadline, whatever the caller's `fetch` does with its signal.
 * @module
 */

import { AnswerError } from '../vocabulary/errors.js';
import { describeValue } from '../vocabulary/describe-value.js';
import { invalid } from '../vocabulary/check-argument.js';
import { emptyDetail } from './exchange-errors.js';

/** The `fetch` an exchange uses: the global one, or any function with its shape. */
export type FetchFunction = (input: string | URL, init: RequestInit) => Promise<Response>;

/**
 * Which redirects an exchange follows: `'same-origin'` (the default), a 307 or 308 to the same
 * origin, re-sent with the same method, headers and body; `'error'`, none. Any other redirect is
 * refused as `http_status`.
 */
export type RedirectPolicy = 'same-origin' | 'error';

/** Redirects followed for one request before the exchange gives up: a loop ends here. */
export const MAX_REDIRECTS = 5;

/** What one request is. */
export interface OutgoingRequest {
  readonly method: 'POST' | 'GET' | 'DELETE';
  readonly headers: Headers;
  readonly body?: string | undefined;
}

/**
 * Sends `request` to `url` and resolves with the response that is not a followed redirect.
 *
 * - `fetch` is asked not to follow redirects (`redirect: 'manual'`), so that nothing the caller
 *   gave — the body, the headers, a session id, a token — reaches an origin the caller did not
 *   name, and a POST is never turned into a GET (what 301, 302 and 303 do under `fetch`).
 * - The promise settles when the signal aborts, even if `fetch` ignores it; a response that
 *   arrives after that is released.
 * @throws the signal's reason once it aborts; `fetch`'s own error; `AnswerError` `http_status`
 *   for a redirect that is not followed (`detail.location` holds its `Location`).
 */
export async function sendRequest(
  fetch: FetchFunction,
  url: string | URL,
  request: OutgoingRequest,
  signal: AbortSignal,
  redirect: RedirectPolicy,
  maxBytes: number,
): Promise<Response> {
  const origin = new URL(url).origin;
  let target: string | URL = url;
  for (let redirects = 0; ; redirects += 1) {
    let pending: Promise<Response>;
    try {
      // Awaited as `await` would: a plain Response or a thenable works, and a then that throws is a rejection.
      pending = Promise.resolve(fetch(target, { method: request.method, headers: request.headers, body: request.body ?? null, signal, redirect: 'manual' })).then(checkResponse);
    } catch (error) {
      pending = Promise.reject(error); // a fetch that throws instead of rejecting
    }
    const response = await untilAborted(pending, signal, release);
    if (!isRedirect(response)) return response;
    release(response);
    const location = response.headers.get('location');
    const next = location === null ? undefined : resolve(location, target);
    const followed =
      redirect === 'same-origin' &&
      (response.status === 307 || response.status === 308) &&
      next !== undefined &&
      next.origin === origin &&
      redirects < MAX_REDIRECTS;
    if (!followed) throw redirectRefused(request.method, response, location, redirect, redirects, maxBytes);
    target = next;
  }
}

/**
 * `value` if it has what the exchange reads of a `Response` (a numeric status, headers); else a
 * `TypeError`, so that a `fetch` resolving with anything else fails like one that rejects.
 */
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

function redirectRefused(
  method: string,
  response: Response,
  location: string | null,
  policy: RedirectPolicy,
  followed: number,
  maxBytes: number,
): AnswerError {
  const status = response.type === 'opaqueredirect' ? 0 : response.status;
  const why =
    policy === 'error'
      ? 'redirects are refused (redirect: "error")'
      : followed >= MAX_REDIRECTS
        ? `after ${MAX_REDIRECTS} redirects`
        : status === 307 || status === 308
          ? location === null
            ? 'without a Location'
            : 'to another origin'
          : 'that would not keep the method and body (only 307 and 308 are followed)';
  const to = location === null ? '' : ` to ${describeValue(location)}`;
  return new AnswerError(
    'http_status',
    `the server redirected the ${method} with HTTP ${status === 0 ? '3xx' : status}${to}, not followed: ${why}`,
    { ...emptyDetail(maxBytes, response.headers.get('content-type')), status, location: location ?? undefined },
  );
}

/**
 * `pending`, or the signal's reason as soon as it aborts: a `fetch` (or an `authProvider`) that
 * ignores the signal cannot hold the exchange past its deadline. A value that comes after the
 * abort is given to `late` (a response is released there).
 */
export function untilAborted<T>(pending: Promise<T>, signal: AbortSignal, late: (value: T) => void = () => undefined): Promise<T> {
  return new Promise((resolvePromise, reject) => {
    const onAbort = (): void => {
      reject(signal.reason);
      pending.then(late, () => undefined);
    };
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        if (signal.aborted) late(value);
        else resolvePromise(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** Releases a response that is not read. */
export function release(response: Response): void {
  void response.body?.cancel().catch(() => undefined);
}
