/** A 2026 `tools/call`'s `Mcp-Param-*`: `tools/list` read only as far as a call needs, each page kept; an invalid tool refused, an unlisted one called without them. @module */

import { listedParts, nothingRead, said, quotedPart, type Failure } from '../vocabulary/failure.js';
import { objectOf, type JsonObject, type JsonValue } from '../vocabulary/json-rpc.js';
import { mcpRequestHeaders } from './mcp-request-headers.js';
import { checkMcpHeaderParams } from './mcp-param-headers.js';
import { isAborted, untilAborted } from '../drivers/abort-watch.js';
import { Secrets } from '../vocabulary/secrets.js';
import { MAX_LIST_PAGES } from './list-pages.js';

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

  /** Keeps the tools of a `tools/list` result: of the pages read for calls, a name's first definition; a list the caller read (`fresh`) replaces them. */
  learn(result: JsonObject | undefined, fresh = false): void {
    const tools: JsonValue | undefined = result?.['tools'];
    if (!Array.isArray(tools)) return;
    for (const tool of tools.map(objectOf)) {
      const name = tool?.['name'];
      if (typeof name === 'string' && (fresh || !this.#tools.has(name))) this.#tools.set(name, tool!);
    }
  }

  /**
   * The headers a 2026 `tools/call` carries for its tool's parameters (`undefined`: the tool is not listed), or the failure (`invalid_tool`, a page's exchange); pages are read within `signal`.
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
    // Quoted from a copy with the client's secrets redacted first, so that no cut leaves half of one.
    const check = checkMcpHeaderParams(this.#secrets.redactValue(tool));
    const reasons = check.valid ? [] : check.reasons;
    return {
      code: 'invalid_tool',
      message: said`the server's tool ${quotedPart(name)} has invalid x-mcp-header annotations (${listedParts(reasons, '; ', MAX_REASONS)}): a 2026-07-28 client does not call it`,
      detail: nothingRead(0),
    };
  }

  async #find(name: string, signal: AbortSignal | undefined): Promise<{ readonly tool: JsonObject | undefined } | { readonly failure: Failure }> {
    for (;;) {
      const tool = this.#tools.get(name);
      if (tool !== undefined || this.#cursor === null || this.#pages >= MAX_LIST_PAGES) return { tool };
      if (this.#reading !== undefined) {
        // Another call is reading the next page: wait, then look again; an abort of this call's signal ends the wait.
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
