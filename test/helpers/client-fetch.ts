/**
 * A scripted fake `fetch` for the unit tests of `src/client/`: every request it is given is
 * recorded (method, URL, headers, the JSON body parsed, the signal), and answered by the script.
 * Responses are built over a recording source body (`bodies.ts`), so a test can see whether a
 * body was read or released.
 */

import type { FetchFunction } from '../../src/index.js';
import { checkExchangeOptions, type ExchangeOptions, type ExchangeSettings } from '../../src/client/exchange-options.js';
import { sourceBody, type SourceBody, type SourceOptions } from './bodies.js';

/** One request as the fake fetch saw it. */
export interface SentRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  /** The body parsed as JSON; `undefined` when there was none. */
  readonly body: Record<string, unknown> | undefined;
  /** The JSON-RPC method of a POST's body, if any. */
  readonly rpc: string | undefined;
  readonly signal: AbortSignal | undefined;
  /** The init as given (for what the exchange asks of fetch: `redirect`, …). */
  readonly init: RequestInit;
}

/** Answers the `index`-th request (from 0). */
export type Script = (sent: SentRequest, index: number) => Response | Promise<Response>;

/** A fetch that records each request and answers it with `script`. */
export function scriptedFetch(script: Script): { readonly fetch: FetchFunction; readonly sent: SentRequest[] } {
  const sent: SentRequest[] = [];
  const fetch: FetchFunction = async (input, init) => {
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
    const request: SentRequest = {
      url: String(input),
      method: init.method ?? 'GET',
      headers: new Headers(init.headers),
      body,
      rpc: typeof body?.['method'] === 'string' ? body['method'] : undefined,
      signal: init.signal ?? undefined,
      init,
    };
    sent.push(request);
    return script(request, sent.length - 1);
  };
  return { fetch, sent };
}

/** What a list of sent requests was, one word each: `POST tools/list`, `GET`, `DELETE`. */
export function trail(sent: readonly SentRequest[]): string[] {
  return sent.map((request) => (request.rpc === undefined ? request.method : `${request.method} ${request.rpc}`));
}

/** Options for {@link respond}. */
export interface RespondOptions extends SourceOptions {
  readonly status?: number;
  /** `null` for no Content-Type. Default `application/json`. */
  readonly contentType?: string | null;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A response over a recording source body of `chunks`, with the status and headers given. */
export function respond(chunks: readonly (string | Uint8Array)[], options: RespondOptions = {}): { readonly response: Response; readonly source: SourceBody } {
  const source = sourceBody(chunks, options);
  const headers = new Headers(options.headers);
  const contentType = options.contentType === undefined ? 'application/json' : options.contentType;
  if (contentType !== null) headers.set('content-type', contentType);
  return { response: new Response(source.body, { status: options.status ?? 200, headers }), source };
}

/** A JSON response whose body is `value`. */
export function json(value: unknown, options: Omit<RespondOptions, 'contentType'> = {}): Response {
  return respond([JSON.stringify(value)], options).response;
}

/** An event-stream response over `events` (see `sseEvent`). */
export function sse(events: readonly string[], options: Omit<RespondOptions, 'contentType'> = {}): Response {
  return respond(events, { ...options, contentType: 'text/event-stream' }).response;
}

/** A response with no body at all. */
export function empty(status: number, headers: Readonly<Record<string, string>> = {}): Response {
  return new Response(null, { status, headers });
}

/** The result response to a sent request: its id, `result`. */
export function resultFor(sent: SentRequest, result: unknown): { jsonrpc: '2.0'; id: unknown; result: unknown } {
  return { jsonrpc: '2.0', id: sent.body?.['id'], result };
}

/** The settings an exchange runs with, from `options` (checked as every public API checks them). */
export function settingsOf(options: ExchangeOptions): ExchangeSettings {
  return checkExchangeOptions(options);
}

/** A promise that never settles: a fetch that hangs. */
export function never<T>(): Promise<T> {
  return new Promise<T>(() => {});
}

/** Every header by its lowercase name, in the order `Headers` keeps them (sorted). */
export function headersObject(headers: Headers): Record<string, string> {
  const entries: Record<string, string> = {};
  headers.forEach((value, name) => (entries[name] = value));
  return entries;
}
