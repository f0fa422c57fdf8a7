/** The `authProvider` of an exchange: the v2 MCP SDK's `AuthProvider` contract, matched structurally, and the checks an exchange makes of it. @module */

import { checkType, invalid } from '../vocabulary/check-argument.js';

/** What `onUnauthorized` is given: the same fields as the v2 SDK's `UnauthorizedContext`. */
export interface UnauthorizedContext {
  /** The 401 response, for its `WWW-Authenticate`; the exchange releases its body once `onUnauthorized` settles. */
  readonly response: Response;
  /** The MCP server's URL, as the exchange was given it: for `auth()` or discovery helpers. */
  readonly serverUrl: URL;
  /** The exchange's `fetch`, for the provider's own requests, with nothing of the exchange on it; a request without a `signal` ends at the exchange's deadline. */
  readonly fetchFn: (url: string | URL, init?: RequestInit) => Promise<Response>;
}

/** Bearer authentication for an exchange, the v2 SDK's `AuthProvider` shape (`{ token: async () => apiKey }` is one); what the exchange does with it: the auth guide. */
export interface AuthProvider {
  /** The current bearer token, or `undefined` for none. Called before every request. */
  token(): Promise<string | undefined>;
  /** Called on a 401 to refresh or obtain credentials; the exchange awaits it (within its deadline), then retries once. */
  onUnauthorized?(context: UnauthorizedContext): Promise<void>;
}

/** Checks an `authProvider` option: `undefined`, or an object with a `token` method (and maybe `onUnauthorized`), kept as it is. */
export function checkAuthProvider(authProvider: unknown): AuthProvider | undefined {
  if (authProvider === undefined) return undefined;
  if (typeof authProvider !== 'object' || authProvider === null) throw invalid('authProvider', 'an object with a token() method', authProvider);
  const { token, onUnauthorized, tokens, clientInformation } = authProvider as Record<string, unknown>;
  if (typeof token !== 'function') {
    // The SDK's transports accept an OAuthClientProvider too; this package takes the adapted shape.
    const oauth = typeof tokens === 'function' && typeof clientInformation === 'function';
    const hint = oauth ? ' (an OAuthClientProvider? adapt it to { token }: see the auth guide)' : '';
    throw new TypeError(`authProvider must have a token() method${hint}`);
  }
  if (onUnauthorized !== undefined) checkType('authProvider.onUnauthorized', onUnauthorized, 'function');
  return authProvider as AuthProvider;
}

/** Refuses a caller's own `Authorization` beside an `authProvider`: which should win is not this package's guess. */
export function checkNoAuthorization(headers: Headers, authProvider: AuthProvider | undefined, where: string): void {
  if (authProvider !== undefined && headers.has('authorization')) {
    throw new TypeError(`${where} has an Authorization header and authProvider is set: pass one or the other`);
  }
}
