/**
 * The recipes of docs/guides/auth.md, as code that is type-checked with the tests and run by
 * test/auth-servers.test.ts against a real OAuth-protected server: what the guide shows is what
 * compiles and works. (The guide imports from 'sse-answer'; this file from the source.)
 */

// #region static
import { AnswerTransport, type AuthProvider } from '../../src/index.js';

/** Recipe 1: a static bearer token or API key. `token()` is called before every request. */
export function staticToken(token: string): AuthProvider {
  return { token: async () => token };
}

/** Any provider goes on the transport (or on `postJsonRpc`) the same way. */
export function transportWith(url: string, authProvider: AuthProvider): AnswerTransport {
  return new AnswerTransport(url, { authProvider });
}
// #endregion static

// #region v2
import {
  auth,
  extractWWWAuthenticateParams,
  UnauthorizedError,
  type OAuthClientProvider,
} from '@modelcontextprotocol/client';

/**
 * Recipe 2: any OAuth provider of the v2 SDK (`ClientCredentialsProvider`,
 * `PrivateKeyJwtProvider`, an authorization-code provider of your own) as an `AuthProvider`: what
 * the SDK's `adaptOAuthProvider` does inside its own transports, in its exported parts.
 */
export function fromOAuthProvider(provider: OAuthClientProvider): AuthProvider {
  return {
    token: async () => (await provider.tokens())?.access_token,
    async onUnauthorized({ response, serverUrl, fetchFn }) {
      // The challenge's resourceMetadataUrl and scope tell auth() where to discover and what to ask.
      const result = await auth(provider, { serverUrl, fetchFn, ...extractWWWAuthenticateParams(response) });
      // 'REDIRECT': the user was sent to authorize (an authorization-code provider); the send fails.
      if (result !== 'AUTHORIZED') throw new UnauthorizedError('authorization needed: the user was redirected');
    },
  };
}
// #endregion v2

// #region v2-code
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthDiscoveryState, OAuthTokens } from '@modelcontextprotocol/client';

/**
 * Recipe 2, interactive: an authorization-code provider kept in memory. `redirectToAuthorization`
 * receives the URL to send the user to; the app's redirect handler then calls
 * `finishAuthorization` with the code, and the next send goes through.
 */
export class InMemoryAuthorizationCodeProvider implements OAuthClientProvider {
  #client: OAuthClientInformationMixed | undefined;
  #tokens: OAuthTokens | undefined;
  #verifier = '';
  #discovery: OAuthDiscoveryState | undefined;

  constructor(
    readonly redirectUrl: string,
    readonly clientMetadata: OAuthClientMetadata,
    private readonly onRedirect: (authorizationUrl: URL) => void,
    client?: OAuthClientInformationMixed,
  ) {
    this.#client = client;
  }
  clientInformation() {
    return this.#client;
  }
  saveClientInformation(client: OAuthClientInformationMixed) {
    this.#client = client;
  }
  tokens() {
    return this.#tokens;
  }
  saveTokens(tokens: OAuthTokens) {
    this.#tokens = tokens;
  }
  redirectToAuthorization(authorizationUrl: URL) {
    this.onRedirect(authorizationUrl);
  }
  saveCodeVerifier(verifier: string) {
    this.#verifier = verifier;
  }
  codeVerifier() {
    return this.#verifier;
  }
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.#discovery = state;
  }
  discoveryState() {
    return this.#discovery;
  }
}

/** The redirect handler's part: trade the code for tokens. */
export async function finishAuthorization(provider: OAuthClientProvider, serverUrl: string | URL, code: string, iss?: string): Promise<void> {
  const result = await auth(provider, { serverUrl, authorizationCode: code, ...(iss === undefined ? {} : { iss }) });
  if (result !== 'AUTHORIZED') throw new UnauthorizedError('the authorization code was not accepted');
}
// #endregion v2-code

// #region v1
import {
  auth as authV1,
  extractWWWAuthenticateParams as challengeV1,
  UnauthorizedError as UnauthorizedErrorV1,
  type OAuthClientProvider as OAuthClientProviderV1,
} from '@modelcontextprotocol/sdk/client/auth.js';

/** Recipe 3: an OAuth provider of the v1 SDK, through its `auth()`, in the same shape. */
export function fromOAuthProviderV1(provider: OAuthClientProviderV1): AuthProvider {
  return {
    token: async () => (await provider.tokens())?.access_token,
    async onUnauthorized({ response, serverUrl, fetchFn }) {
      const result = await authV1(provider, { serverUrl, fetchFn, ...challengeV1(response) });
      if (result !== 'AUTHORIZED') throw new UnauthorizedErrorV1('authorization needed: the user was redirected');
    },
  };
}
// #endregion v1
