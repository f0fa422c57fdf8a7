/** The Fetch standard's CORS checks as a browser applies them, for `probe --origin`: a page sends no credentials across origins here, so `*` counts, but not for `Authorization`. @module */

/** What a check found wrong: each one a thing the page's browser would refuse or hide. */
export type CorsProblem =
  | { readonly kind: 'origin_not_allowed' }
  | { readonly kind: 'preflight_refused'; readonly status: number }
  | { readonly kind: 'method_not_allowed'; readonly name: string }
  | { readonly kind: 'header_not_allowed'; readonly name: string }
  | { readonly kind: 'header_not_exposed'; readonly name: string };

/** The methods a page sends with no preflight of their own: no server need list them. */
const SAFELISTED_METHODS = new Set(['GET', 'HEAD', 'POST']);

/** The response headers a page always reads (CORS-safelisted response-header names). */
const SAFELISTED_RESPONSE_HEADERS = new Set(['cache-control', 'content-language', 'content-length', 'content-type', 'expires', 'last-modified', 'pragma']);

/** Whether a request needs a preflight: a method other than GET, HEAD, POST, or a header outside the safelist. */
export function needsPreflight(method: string, preflighted: readonly string[]): boolean {
  return !SAFELISTED_METHODS.has(method) || preflighted.length > 0;
}

/** The preflight a browser at `origin` sends before `method` with the headers `preflighted`: `Access-Control-Request-Headers` lower case, sorted, comma-joined. */
export function preflightHeaders(origin: string, method: string, preflighted: readonly string[]): Headers {
  const headers = new Headers({ origin, 'access-control-request-method': method });
  const names = [...new Set(preflighted.map((name) => name.toLowerCase()))].sort();
  if (names.length > 0) headers.set('access-control-request-headers', names.join(','));
  return headers;
}

/** Whether a response lets a page at `origin` read it: `Access-Control-Allow-Origin` is that origin exactly, or `*` (several values, or `null`: no page). */
export function originAllowed(origin: string, headers: Headers): boolean {
  const allowed = headers.get('access-control-allow-origin');
  return allowed === '*' || allowed === origin;
}

/** What a preflight's answer refuses of `method` with the headers `preflighted`, for a page at `origin`. */
export function preflightProblems(origin: string, method: string, preflighted: readonly string[], response: { readonly status: number; readonly headers: Headers }): CorsProblem[] {
  if (!originAllowed(origin, response.headers)) return [{ kind: 'origin_not_allowed' }];
  if (response.status < 200 || response.status > 299) return [{ kind: 'preflight_refused', status: response.status }];
  const problems: CorsProblem[] = [];
  const methods = listOf(response.headers.get('access-control-allow-methods')) ?? [];
  if (!SAFELISTED_METHODS.has(method) && !methods.includes(method) && !methods.includes('*')) problems.push({ kind: 'method_not_allowed', name: method });
  const allowed = (listOf(response.headers.get('access-control-allow-headers')) ?? []).map((name) => name.toLowerCase());
  for (const name of preflighted) {
    const lower = name.toLowerCase();
    const byWildcard = allowed.includes('*') && lower !== 'authorization';
    if (!allowed.includes(lower) && !byWildcard) problems.push({ kind: 'header_not_allowed', name });
  }
  return problems;
}

/** Whether a page reads the response header `name`: safelisted, or in `Access-Control-Expose-Headers` (or `*`). */
export function exposed(name: string, headers: Headers): boolean {
  const lower = name.toLowerCase();
  if (SAFELISTED_RESPONSE_HEADERS.has(lower)) return true;
  const list = (listOf(headers.get('access-control-expose-headers')) ?? []).map((item) => item.toLowerCase());
  return list.includes(lower) || list.includes('*');
}

function listOf(value: string | null): string[] | null {
  if (value === null) return null;
  return value.split(',').map((item) => item.trim()).filter((item) => item !== '');
}
