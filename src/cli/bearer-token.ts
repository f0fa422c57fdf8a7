/** `--bearer-token-env NAME`: a command's token from the environment (never the command line, which shell history keeps), as its `authProvider`; never printed. @module */

import { isBearerToken, quoteText, type AuthProvider } from '../index.js';
import { checkSecretLength } from './options.js';
import { UsageError } from './usage-error.js';

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The `authProvider` for `--bearer-token-env NAME` and its token (for the output never to show), or
 * `undefined` without the option; read once, so that a bad token is bad usage before anything is sent.
 * @throws UsageError for a bad name, an unset or empty variable, a value that is not a token, or an `Authorization` given with `--header` as well.
 */
export function bearerTokenFromEnv(
  name: string | undefined,
  headers: Headers,
  env: NodeJS.ProcessEnv = process.env,
): { readonly authProvider: AuthProvider; readonly token: string } | undefined {
  if (name === undefined) return undefined;
  if (!NAME.test(name)) throw new UsageError(`--bearer-token-env takes the name of an environment variable (letters, digits, _), got ${quoteText(name)}`);
  if (headers.has('authorization')) throw new UsageError('--bearer-token-env and --header Authorization: give one or the other');
  const token = env[name];
  if (token === undefined || token === '') throw new UsageError(`--bearer-token-env: the environment variable ${name} is not set, or empty`);
  if (!isBearerToken(token)) {
    const hint = /^bearer\s/i.test(token) ? ': set the token alone, without "Bearer "' : ' (visible ASCII characters, no spaces)';
    throw new UsageError(`--bearer-token-env: the environment variable ${name} does not hold a bearer token${hint}`);
  }
  checkSecretLength(token, `--bearer-token-env: the token in ${name}`);
  return { authProvider: { token: async () => token }, token };
}
