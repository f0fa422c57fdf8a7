/** What CORS hides from a page calling a server of another origin, named where the package can know it; outside a page, nothing. @module */

import { said, type MessagePart } from '../vocabulary/failure.js';

/** The origin of the page (or browser worker) this code runs in when `url` is of another origin, where CORS applies; else `undefined`. */
export function crossOriginPage(url: string | URL): string | undefined {
  try {
    if (!inPage()) return undefined;
    const origin = (globalThis as { location?: { origin?: unknown } }).location?.origin;
    if (typeof origin !== 'string' || origin === 'null') return undefined;
    return new URL(url).origin === origin ? undefined : origin;
  } catch {
    return undefined;
  }
}

/** Whether this runs in a browser page or worker (held to CORS): Deno may have a `location` and workerd a `WorkerGlobalScope`, but neither both nor a `document`. */
export function inPage(): boolean {
  const scope = globalThis as { document?: unknown; WorkerGlobalScope?: unknown; location?: unknown; Deno?: unknown };
  if (typeof scope.document === 'object') return true;
  return typeof scope.WorkerGlobalScope === 'function' && typeof scope.location === 'object' && scope.Deno === undefined;
}

/** The request headers a browser never preflights (the Fetch standard's CORS-safelisted names, but `Content-Type`). */
const SAFELISTED = /* @__PURE__ */ new Set(['accept', 'accept-language', 'content-language']);

/** Header names as the MCP revisions write them, for a message a server author reads. */
const SPELLED: ReadonlyMap<string, string> = /* @__PURE__ */ new Map([
  ['content-type', 'Content-Type'],
  ['authorization', 'Authorization'],
  ['last-event-id', 'Last-Event-ID'],
  ['mcp-protocol-version', 'MCP-Protocol-Version'],
  ['mcp-session-id', 'Mcp-Session-Id'],
  ['mcp-method', 'Mcp-Method'],
  ['mcp-name', 'Mcp-Name'],
]);

/** The headers of a request a preflight must allow (`Access-Control-Allow-Headers`), as the revisions spell them. */
export function preflightedHeaders(headers: Headers): string[] {
  const names: string[] = [];
  headers.forEach((_, name) => {
    if (!SAFELISTED.has(name)) names.push(SPELLED.get(name) ?? name);
  });
  return names;
}

/** Why a page's request may have failed with no reason given: CORS, the preflight for `origin` not answered or not allowing the method or headers. */
export function preflightNote(origin: string, method: string, headers: Headers): readonly MessagePart[] {
  const methods = method === 'DELETE' ? said`, Access-Control-Allow-Methods: DELETE` : said``;
  const allowed = preflightedHeaders(headers).join(', ');
  return said`from a page at ${origin}, that is most often CORS: the server must answer the preflight (OPTIONS) with Access-Control-Allow-Origin: ${origin}${methods} and Access-Control-Allow-Headers: ${allowed}`;
}

/** The note on a 2025 request refused after an `initialize` with no session a cross-origin page could see: one may be there, not exposed. */
export function hiddenSessionNote(url: string | URL): readonly MessagePart[] {
  if (crossOriginPage(url) === undefined) return said``;
  return said`; the initialize response carried no Mcp-Session-Id this page could see: if the server issues sessions, it must expose the header (Access-Control-Expose-Headers: Mcp-Session-Id)`;
}

/** The note on a 401 with no `WWW-Authenticate` a cross-origin page could see: one may be there, not exposed. */
export function hiddenChallengeNote(response: Response): readonly MessagePart[] {
  if (response.status !== 401 || response.headers.has('www-authenticate') || response.url === '' || crossOriginPage(response.url) === undefined) return said``;
  return said`; no WWW-Authenticate was visible to this page: if the server sent one, it must expose it (Access-Control-Expose-Headers: WWW-Authenticate)`;
}
