/**
 * The `authProvider` of an exchange: the MCP TypeScript SDK v2's `AuthProvider` contract, matched
 * structurally (nothing is imported from the SDK), and the checks an exchange makes of it.
 * @module
 */

import { checkType, invalid } from '../vocabulary/check-argument.js';

/** What `onUnauthorized` is given: the same fields as the v2 SDK's `UnauthorizedContext`. */
export interface UnauthorizedContext {
  /**
   * The 401 response: read its `WWW-Authenticate` (resource metadata, scope). Its body is
   * released by the exchange once `onUnauthorized` settles.
   */
  readonly response: Response;
  /** The MCP server's URL, as the exchange was given it: for `auth()` or discovery helpers. */
  readonly serverUrl: URL;
  /**
   * The exchange's `fetch`, for the provider's own requests (discovery, the token endpoint). It
   * adds nothing of the exchange (no headers, no token); a request without its own `signal` ends
   * at the exchange's deadline.
   */
  readonly fetchFn: (url: string | URL, init?: RequestInit) => Promise<Response>;
}

/**
 * Bearer authentication for an exchange — the same shape as the v2 SDK's `AuthProvider`, so one
 * written for the SDK's transport (or an OAuth provider adapted to it) works here unchanged.
 *
 * - `token()` is called before every request the exchange makes (the POST, each resumption GET,
 *   the DELETE); a string is sent as `Authorization: Bearer <token>`; `undefined` (or `''`) sends
 *   no `Authorization`.
 * - On a 401, `onUnauthorized` (if present) is awaited and the request is sent once more with a
 *   fresh `token()`, under the same deadline and byte cap. A second 401, or a 401 with no
 *   `onUnauthorized`, is an `http_status` {@link AnswerError} with `detail.challenge`.
 * - A 403 (`insufficient_scope` among them) is not retried: it is `http_status`, its challenge in
 *   `detail.challenge`, as the SDK's transport treats it for a provider of this shape.
 *
 * @example
 * ```ts
 * const authProvider: AuthProvider = { token: async () => apiKey };
 * ```
 */
export interface AuthProvider {
  /** The current bearer token, or `undefined` for none. Called before every request. */
  token(): Promise<string | undefined>;
  /**
   * Called on a 401: refresh or obtain credentials so that the next `token()` is accepted. The
   * exchange awaits it (within its deadline), then retries the request once.
   */
  onUnauthorized?(context: UnauthorizedContext): Promise<void>;
}

/**
 * Checks an `authProvider` option: `undefined`, or an object with a `token` method and, if any,
 * an `onUnauthorized` method. The object itself is kept, its methods called on it.
 */
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

/**
 * Refuses a caller's own `Authorization` header next to an `authProvider`: which one should win
 * is not this package's guess to make.
 */
export function checkNoAuthorization(headers: Headers, authProvider: AuthProvider | undefined, where: string): void {
  if (authProvider !== undefined && headers.has('authorization')) {
    throw new TypeError(`${where} has an Authorization header and authProvider is set: pass one or the other`);
  }
}
