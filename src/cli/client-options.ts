/**
 * What every request of one CLI command shares — the endpoint and the `AnswerClient` options its
 * flags give: `--header`, `--timeout` (each exchange's deadline), `--max-bytes`,
 * `--bearer-token-env`, and the CLI's own name in its client info.
 * @module
 */

import type { AnswerClientOptions, FetchFunction } from '../index.js';

/** The endpoint, and the options of the client a command connects. */
export interface ClientSettings {
  readonly url: URL;
  readonly options: AnswerClientOptions;
}

/** The options of a client with these flags. */
export function clientOptions(flags: {
  readonly headers: Headers;
  readonly timeoutMs: number | undefined;
  readonly maxBytes: number | undefined;
  readonly authProvider: AnswerClientOptions['authProvider'];
  readonly clientVersion: string;
  readonly fetch?: FetchFunction | undefined;
}): AnswerClientOptions {
  const { headers, timeoutMs, maxBytes, authProvider, clientVersion, fetch } = flags;
  return { headers, timeoutMs, maxBytes, authProvider, fetch, clientInfo: { name: 'sse-answer', version: clientVersion } };
}
