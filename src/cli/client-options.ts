/** What every request of one CLI command shares: the endpoint, and the `AnswerClient` options its flags give; the token and secret headers registered never to be printed. @module */

import type { AnswerClientOptions } from '../index.js';
import { bearerTokenFromEnv } from './bearer-token.js';
import { parseHeaders, parseMaxBytes, parseSecretHeaders, parseTimeout } from './options.js';
import { neverPrint } from './output.js';

/** The endpoint, and the options of the client a command connects. */
export interface ClientSettings {
  readonly url: URL;
  readonly options: AnswerClientOptions;
}

/** A flag as `node:util`'s `parseArgs` takes it. */
export type OptionSpec = Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;

/** The flags `call` and `probe` share, which {@link clientSettings} reads. */
export const EXCHANGE_OPTIONS: OptionSpec = {
  header: { type: 'string', multiple: true },
  timeout: { type: 'string' },
  'max-bytes': { type: 'string' },
  'bearer-token-env': { type: 'string' },
  'secret-header': { type: 'string', multiple: true },
};

/** The settings of a command whose parsed flags are `values`, for the endpoint `url`. */
export function clientSettings(values: Record<string, unknown>, url: URL, clientVersion: string): ClientSettings {
  const headers = parseHeaders(values['header'] as string[] | undefined);
  const secretHeaders = parseSecretHeaders(values['secret-header'] as string[] | undefined, headers);
  const bearer = bearerTokenFromEnv(values['bearer-token-env'] as string | undefined, headers);
  neverPrint(headers, secretHeaders, bearer === undefined ? [] : [bearer.token]);
  const options: AnswerClientOptions = {
    headers,
    secretHeaders,
    authProvider: bearer?.authProvider,
    timeoutMs: parseTimeout(values['timeout'] as string | undefined),
    maxBytes: parseMaxBytes(values['max-bytes'] as string | undefined),
    clientInfo: { name: 'sse-answer', version: clientVersion },
  };
  return { url, options };
}
