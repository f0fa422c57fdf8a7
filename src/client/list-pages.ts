/** A paginated list read to its end as a pure step a page: the items, the next cursor, the page bound and a looping cursor refused, and how long it stays fresh (its least fresh page's `ttlMs`). @module */

import { nothingRead, said, quotedPart, type Failure } from '../vocabulary/failure.js';
import type { JsonObject, JsonValue } from '../vocabulary/json-rpc.js';
import { freshUntil } from './result-cache.js';

/** Pages of one list read before giving up, by a typed list and by the `tools/list` a 2026 call reads for its headers: a server whose cursors never end stops here. */
export const MAX_LIST_PAGES = 100;

/** A list read so far. Plain data: each page makes a new one. */
export interface ListState {
  readonly method: string;
  /** The result field that holds the items: `tools`, `prompts`, `resources`, `resourceTemplates`. */
  readonly field: string;
  readonly items: readonly JsonValue[];
  readonly cursors: ReadonlySet<string>;
  readonly pages: number;
  /** Until when every page read is fresh; `undefined` once a page was not to be kept. */
  readonly until: number | undefined;
}

/** Where a page leaves the list: read on at `cursor`, done, or failed (the server's list is not one). */
export type ListStep =
  | { readonly kind: 'next'; readonly state: ListState; readonly cursor: string }
  | { readonly kind: 'done'; readonly state: ListState }
  | { readonly kind: 'failed'; readonly failure: Failure };

/** A list of `method`, its items under `field`, with nothing read. */
export function listStart(method: string, field: string): ListState {
  return { method, field, items: [], cursors: new Set(), pages: 0, until: Infinity };
}

/** The step one page's `result`, read at `now`, makes. */
export function listPage(state: ListState, result: JsonObject, now: number): ListStep {
  const items = result[state.field];
  if (!Array.isArray(items)) return invalid(said`a page of ${state.method} has no ${state.field} list`);
  const pages = state.pages + 1;
  const fresh = freshUntil(result, now);
  const until = fresh === undefined || state.until === undefined ? undefined : Math.min(state.until, fresh);
  const next: ListState = { ...state, items: [...state.items, ...items], pages, until };
  const cursor = result['nextCursor'];
  if (typeof cursor !== 'string') return { kind: 'done', state: next };
  if (state.cursors.has(cursor)) return invalid(said`${state.method} gave the cursor ${quotedPart(cursor)} twice: its pages loop`);
  if (pages >= MAX_LIST_PAGES) return invalid(said`${state.method} went on past ${MAX_LIST_PAGES} pages`);
  return { kind: 'next', state: { ...next, cursors: new Set(state.cursors).add(cursor) }, cursor };
}

function invalid(message: Failure['message']): ListStep {
  return { kind: 'failed', failure: { code: 'malformed_answer', reason: 'invalid_result', message, detail: nothingRead(0) } };
}
