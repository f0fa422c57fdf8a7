/**
 * What every exchange of one CLI command shares: the endpoint, the caller's headers, the deadline
 * of each exchange, the byte cap, where passed-over messages go, and the client's own name.
 * @module
 */

import type { EndSessionOptions } from '../client/end-session.js';
import type { AuthProvider, FetchFunction, JsonRpcMessage, JsonValue, PostJsonRpcOptions } from '../index.js';

/** The settings of the exchanges one command makes. */
export interface ExchangeSettings {
  readonly url: URL;
  /** The caller's `--header`s; never changed (each step copies them). */
  readonly headers: Headers;
  readonly timeoutMs: number | undefined;
  readonly maxBytes: number | undefined;
  /** Where passed-over messages go; none for exchanges whose messages are not the user's. */
  readonly onMessage?: ((message: JsonRpcMessage) => void) | undefined;
  /** The `fetch` to use; the global one when absent. */
  readonly fetch?: FetchFunction | undefined;
  /** `--bearer-token-env`: the token on every request, the DELETE too. */
  readonly authProvider?: AuthProvider | undefined;
  /** The CLI's version, sent in its client info. */
  readonly clientVersion: string;
}

/** The client info the CLI sends: in `initialize` (2025) and in every request's `_meta` (2026). */
export function clientInfo(settings: ExchangeSettings): { name: string; version: string } {
  return { name: 'sse-answer', version: settings.clientVersion };
}

/** The options of one `postJsonRpc` with these settings and `headers`. */
export function postOptions(settings: ExchangeSettings, headers: Headers): PostJsonRpcOptions {
  const { timeoutMs, maxBytes, onMessage, fetch, authProvider } = settings;
  return { headers, timeoutMs, maxBytes, onMessage, fetch, authProvider };
}

/**
 * {@link postOptions} for a step the user did not ask for (`server/discover`, `tools/list`): the
 * messages passed over on its way are not theirs, so none are printed.
 */
export function stepOptions(settings: ExchangeSettings, headers: Headers): PostJsonRpcOptions {
  return { ...postOptions(settings, headers), onMessage: undefined };
}

/** The options of the DELETE that ends a session with these settings. */
export function deleteOptions(settings: ExchangeSettings, headers: Headers): EndSessionOptions {
  const { timeoutMs, fetch, authProvider } = settings;
  return { headers, timeoutMs, fetch, authProvider };
}

/** `value` as an object whose own fields can be read, or `undefined`. */
export function objectOf(value: JsonValue | undefined): { readonly [key: string]: JsonValue } | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
}
