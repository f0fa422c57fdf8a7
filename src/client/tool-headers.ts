/**
 * The `Mcp-Param-*` headers of a 2026-07-28 `tools/call`: a conforming client mirrors a tool's
 * `x-mcp-header` parameters into headers, so it needs the tool's definition from `tools/list`.
 * The list is read page by page only as far as a call needs, and every page read is kept: a
 * server's tools are read once for the client's lifetime, unless the caller lists them again. A
 * tool whose annotations are invalid is refused, as the revision says a client excludes it; a
 * tool the server does not list is called without them, and the server's answer says what it
 * thinks of that.
 * @module
 */

import { listedParts, nothingRead, said, quotedPart, type Failure } from '../vocabulary/failure.js';
import { objectOf, type JsonObject, type JsonValue } from '../vocabulary/json-rpc.js';
import { mcpRequestHeaders } from './mcp-request-headers.js';
import { checkMcpHeaderParams } from './mcp-param-headers.js';
import { isAborted, untilAborted } from '../drivers/abort-watch.js';
import { Secrets } from '../vocabulary/secrets.js';

/** Pages of `tools/list` read before giving up: a cursor that never ends stops here. */
export const MAX_TOOL_PAGES = 100;

/** The reasons an `invalid_tool` message names; the count of the rest follows them. */
export const MAX_REASONS = 4;

/** One page of `tools/list` fetched: its result, or the failure of the exchange. */
export type ToolPage = { readonly ok: true; readonly result: JsonObject | undefined } | { readonly ok: false; readonly failure: Failure };

/** Fetches the page of `tools/list` at `cursor` (none: the first), within the call's `signal`. */
export type ToolPageFetch = (cursor: string | undefined, signal: AbortSignal | undefined) => Promise<ToolPage>;

/** The tools a client has read, and where the list goes on. */
export class ToolHeaders {
  readonly #tools = new Map<string, JsonObject>();
  /** The cursor of the next page; `null` once the list has ended (or failed to read as a list). */
  #cursor: string | undefined | null = undefined;
  #pages = 0;
  /** The page being read, if one is: concurrent calls wait for it rather than read it again. */
  #reading: Promise<ToolPage> | undefined;
  readonly #fetchPage: ToolPageFetch;
  readonly #secrets: Secrets;

  /** Reads pages with `fetchPage` (a `tools/list` request with that cursor); `secrets` are the client's. */
  constructor(fetchPage: ToolPageFetch, secrets: Secrets = new Secrets()) {
    this.#fetchPage = fetchPage;
    this.#secrets = secrets;
  }

  /**
   * Keeps the tools of a `tools/list` result: a later call needs no page for them. Within the
   * pages read for calls, the first definition of a name is kept; a list the caller read itself
   * (`fresh`) is the server's newest word, and its definitions replace those kept.
   */
  learn(result: JsonObject | undefined, fresh = false): void {
    const tools: JsonValue | undefined = result?.['tools'];
    if (!Array.isArray(tools)) return;
    for (const tool of tools.map(objectOf)) {
      const name = tool?.['name'];
      if (typeof name === 'string' && (fresh || !this.#tools.has(name))) this.#tools.set(name, tool!);
    }
  }

  /**
   * The headers `request` (a 2026 `tools/call`) carries for its tool's parameters — `undefined`
   * when the tool is not listedParts — or the failure: `invalid_tool`, or a page's exchange failing.
   * The pages are read within the call's `signal`.
   * @throws TypeError for an argument of another type than its parameter's (the caller's).
   */
  async headersFor(request: JsonObject, signal: AbortSignal | undefined): Promise<Headers | undefined | Failure> {
    const name = objectOf(request['params'])?.['name'];
    if (typeof name !== 'string') return undefined;
    const found = await this.#find(name, signal);
    if ('failure' in found) return found.failure;
    const { tool } = found;
    if (tool === undefined) return undefined;
    if (checkMcpHeaderParams(tool).valid) return mcpRequestHeaders(request, { tool });
    // Each reason quotes the tool's own text, escaped and cut short where it was written, from
    // a copy with the client's secrets already redacted, so that no cut leaves half of one.
    const check = checkMcpHeaderParams(this.#secrets.redactValue(tool));
    const reasons = check.valid ? [] : check.reasons;
    return {
      code: 'invalid_tool',
      message: said`the server's tool ${quotedPart(name)} has invalid x-mcp-header annotations (${listedParts(reasons, '; ', MAX_REASONS)}): a 2026-07-28 client does not call it`,
      detail: nothingRead(0),
    };
  }

  /** The definition of the tool `name` (`undefined`: not listedParts), read as far as needed; or the failure of a page. */
  async #find(name: string, signal: AbortSignal | undefined): Promise<{ readonly tool: JsonObject | undefined } | { readonly failure: Failure }> {
    for (;;) {
      const tool = this.#tools.get(name);
      if (tool !== undefined || this.#cursor === null || this.#pages >= MAX_TOOL_PAGES) return { tool };
      if (this.#reading !== undefined) {
        // Another call is reading the next page: wait for it, then look again. Its failure is its
        // own. An abort of this call's signal ends the wait, and the call goes on without headers
        // to end as an aborted exchange does, before anything is sent.
        await (signal === undefined ? this.#reading : untilAborted(this.#reading, signal)).catch(() => undefined);
        if (signal !== undefined && isAborted(signal)) return { tool: undefined };
        continue;
      }
      const reading = this.#fetchPage(this.#cursor, signal);
      this.#reading = reading;
      let page: ToolPage;
      try {
        page = await reading;
      } finally {
        this.#reading = undefined;
      }
      if (!page.ok) return { failure: page.failure };
      this.#pages += 1;
      if (!Array.isArray(page.result?.['tools'])) {
        this.#cursor = null; // an error answer, or no list: the call goes without headers
        continue;
      }
      this.learn(page.result);
      const next = page.result?.['nextCursor'];
      this.#cursor = typeof next === 'string' ? next : null;
    }
  }
}
