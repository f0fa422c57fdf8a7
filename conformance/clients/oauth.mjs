// OAuth for the conformance clients, as a user of this package wires it (docs/guides/auth.md,
// recipe 2): the v2 SDK's OAuth providers and its `auth()`, adapted to the package's
// `authProvider` (`token()`, `onUnauthorized()`), and the 403 step-up the package leaves to its
// caller ("authorize again with that scope, then send again"). The package never sees more than
// a bearer token and a 401 or 403 to report.
//
// The one part a real application does differently is the user: here the authorization URL is
// fetched headlessly and the code read from its redirect, where an app would open a browser and
// wait for its redirect URI to be called.
import {
  auth,
  ClientCredentialsProvider,
  computeScopeUnion,
  CrossAppAccessProvider,
  DpopSession,
  extractWWWAuthenticateParams,
  isStrictScopeSuperset,
  PrivateKeyJwtProvider,
  requestJwtAuthorizationGrant,
  UnauthorizedError,
  withDpopFromProvider,
} from '@modelcontextprotocol/client';
import { isAnswerError } from 'sse-answer';
import { contextString } from './scenario.mjs';

/** The client id metadata document URL the suite's CIMD scenarios expect (a fixed name, never fetched). */
export const CIMD_CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
/** Where the authorization server sends the user back; nothing listens there, the redirect is read instead. */
const REDIRECT_URL = 'http://localhost:3000/callback';
/** Step-ups per request after a 403 `insufficient_scope`: the SDK's own transport allows one. */
const STEP_UPS = 1;
/** RFC 7523's grant: a JWT the client holds (here a workload's identity token) traded for an access token. */
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/**
 * An authorization-code `OAuthClientProvider` kept in memory, whose "user" approves at once: the
 * authorization URL is fetched without following its redirect, and the code (and RFC 9207 `iss`)
 * read from the `Location` it answers with.
 */
export class HeadlessAuthorizationCodeProvider {
  #client;
  #tokens;
  #verifier;
  #discovery;
  /** The code and `iss` of the last authorization, until they are traded. */
  callback;

  #dpop;

  /**
   * @param {{ clientName: string, clientMetadataUrl?: string, client?: object, dpop?: boolean }} options
   *   `clientMetadataUrl` offers a URL-based client id (CIMD); `client` is a pre-registered client;
   *   `dpop` asks for DPoP-bound tokens (RFC 9449), with one key for the client's lifetime.
   */
  constructor({ clientName, clientMetadataUrl, client, dpop = false }) {
    this.clientMetadata = { client_name: clientName, redirect_uris: [REDIRECT_URL] };
    this.clientMetadataUrl = clientMetadataUrl;
    this.#client = client;
    if (dpop) this.dpop = () => (this.#dpop ??= DpopSession.create({ alg: 'ES256' }));
  }

  get redirectUrl() {
    return REDIRECT_URL;
  }
  clientInformation() {
    return this.#client;
  }
  saveClientInformation(client) {
    this.#client = client;
  }
  tokens() {
    return this.#tokens;
  }
  saveTokens(tokens) {
    this.#tokens = tokens;
  }
  saveCodeVerifier(verifier) {
    this.#verifier = verifier;
  }
  codeVerifier() {
    if (this.#verifier === undefined) throw new Error('no code verifier saved');
    return this.#verifier;
  }
  saveDiscoveryState(state) {
    this.#discovery = state;
  }
  discoveryState() {
    return this.#discovery;
  }
  invalidateCredentials(scope) {
    if (scope === 'all' || scope === 'client') this.#client = undefined;
    if (scope === 'all' || scope === 'tokens') this.#tokens = undefined;
    if (scope === 'all' || scope === 'verifier') this.#verifier = undefined;
    if (scope === 'all' || scope === 'discovery') this.#discovery = undefined;
  }

  /** The user approves: the authorization server's redirect carries the code. */
  async redirectToAuthorization(authorizationUrl) {
    const response = await fetch(authorizationUrl, { redirect: 'manual' });
    await response.body?.cancel();
    const location = response.headers.get('location');
    if (location === null) throw new Error(`the authorization endpoint answered ${response.status} with no redirect`);
    const redirect = new URL(location);
    const code = redirect.searchParams.get('code');
    if (code === null) throw new Error(`the authorization redirect carries no code (error: ${redirect.searchParams.get('error') ?? 'none'})`);
    this.callback = { code, iss: redirect.searchParams.get('iss') ?? undefined };
  }
}

/**
 * A workload's identity (SEP-1933): its identity token, issued for the authorization server,
 * traded for an access token with RFC 7523's JWT-bearer grant — a non-interactive provider of
 * the SDK's shape, as its `ClientCredentialsProvider` is.
 */
class WorkloadIdentityProvider {
  #tokens;

  /** @param {{ clientId: string, assertion: string }} options */
  constructor({ clientId, assertion }) {
    this.clientMetadata = { client_name: clientId, redirect_uris: [], grant_types: [JWT_BEARER], token_endpoint_auth_method: 'none' };
    this.client = { client_id: clientId };
    this.assertion = assertion;
  }
  get redirectUrl() {
    return undefined;
  }
  clientInformation() {
    return this.client;
  }
  tokens() {
    return this.#tokens;
  }
  saveTokens(tokens) {
    this.#tokens = tokens;
  }
  redirectToAuthorization() {
    throw new Error('a workload has no user to send to authorize');
  }
  saveCodeVerifier() {}
  codeVerifier() {
    throw new Error('a workload has no code verifier');
  }
  prepareTokenRequest(scope) {
    const params = new URLSearchParams({ grant_type: JWT_BEARER, assertion: this.assertion });
    if (scope) params.set('scope', scope);
    return params;
  }
}

/**
 * An OAuth provider as this package's `authProvider`, with the caller's step-up after a 403.
 * `authProvider` is auth.md's recipe 2, with the redirect handler's part (trading the code) done
 * as soon as the headless user came back.
 */
export class OAuthSession {
  #provider;
  #scope;

  /** @param {object} provider an `OAuthClientProvider` of the v2 SDK */
  constructor(provider) {
    this.#provider = provider;
    /**
     * The `fetch` to give the package where tokens are DPoP-bound: the SDK's wrapper, innermost,
     * turns the `Bearer` the package sends into `DPoP` with a proof for each request, and answers
     * a resource server's nonce challenge (what the SDK's own transports compose).
     */
    this.fetch = typeof provider.dpop === 'function' ? withDpopFromProvider(provider)(fetch) : undefined;
    /** The `AuthProvider` to give `AnswerClient.connect` or `new AnswerTransport`. */
    this.authProvider = {
      token: async () => (await provider.tokens())?.access_token,
      onUnauthorized: async ({ response, serverUrl, fetchFn }) => {
        // A 401 to a token we hold: it no longer opens the resource, whose authorization server
        // may have changed (SEP-2352); discover again rather than trust what was cached.
        if ((await provider.tokens()) !== undefined) provider.invalidateCredentials?.('discovery');
        const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
        if (scope !== undefined) this.#scope = scope;
        await this.#authorize({ serverUrl, fetchFn, resourceMetadataUrl, scope });
      },
    };
  }

  /**
   * Runs `send`, and once more after authorizing again with the scope a 403 `insufficient_scope`
   * asked for, joined with the scope held (SEP-2350), as often as {@link STEP_UPS} allows.
   * @template T
   * @param {string | URL} serverUrl
   * @param {() => Promise<T>} send
   * @returns {Promise<T>}
   */
  async withStepUp(serverUrl, send) {
    for (let stepUps = 0; ; stepUps += 1) {
      try {
        return await send();
      } catch (error) {
        const challenge = insufficientScope(error);
        if (challenge === undefined || stepUps >= STEP_UPS) throw error;
        const held = (await this.#provider.tokens())?.scope;
        const scope = computeScopeUnion(this.#scope, held, challenge.scope);
        this.#scope = scope;
        const resourceMetadataUrl = challenge.resourceMetadata === undefined ? undefined : new URL(challenge.resourceMetadata);
        const fetchFn = this.fetch; // as the package's own onUnauthorized is given: its `fetch`, or the platform's
        await this.#authorize({ serverUrl: new URL(serverUrl), fetchFn, resourceMetadataUrl, scope, forceReauthorization: isStrictScopeSuperset(scope, held) });
      }
    }
  }

  /** `auth()`, and when it sent the user to authorize, the code they came back with traded. */
  async #authorize(options) {
    const provider = this.#provider;
    let result = await auth(provider, options);
    if (result === 'REDIRECT' && provider.callback !== undefined) {
      const { code, iss } = provider.callback;
      provider.callback = undefined;
      result = await auth(provider, { ...options, forceReauthorization: undefined, authorizationCode: code, iss });
    }
    if (result !== 'AUTHORIZED') throw new UnauthorizedError(`authorization did not complete (${result})`);
  }
}

/** The challenge of a 403 `insufficient_scope` this package reported, wherever it is in `error`'s causes. */
function insufficientScope(error) {
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 5; current = current.cause, depth += 1) {
    if (isAnswerError(current) && current.code === 'http_status' && current.detail?.status === 403 && current.detail.challenge?.error === 'insufficient_scope') {
      return current.detail.challenge;
    }
  }
  return undefined;
}

/**
 * The OAuth session a scenario calls for: the machine-to-machine providers of the SDK where the
 * suite gives credentials, else the authorization-code flow (a pre-registered client where it
 * gives one, a CIMD client id offered otherwise, dynamic registration where that is refused).
 * @param {string} scenario
 * @param {Record<string, unknown>} context
 * @param {string} clientName
 */
export function oauthSessionFor(scenario, context, clientName) {
  switch (scenario) {
    case 'auth/client-credentials-basic':
      return new OAuthSession(new ClientCredentialsProvider({ clientId: contextString(context, 'client_id'), clientSecret: contextString(context, 'client_secret') }));
    case 'auth/client-credentials-jwt':
      return new OAuthSession(
        new PrivateKeyJwtProvider({
          clientId: contextString(context, 'client_id'),
          privateKey: contextString(context, 'private_key_pem'),
          algorithm: typeof context['signing_algorithm'] === 'string' ? context['signing_algorithm'] : 'ES256',
        }),
      );
    case 'auth/cross-app-access-complete-flow':
    case 'auth/enterprise-managed-authorization':
      return new OAuthSession(
        new CrossAppAccessProvider({
          clientId: contextString(context, 'client_id'),
          clientSecret: contextString(context, 'client_secret'),
          // The enterprise IdP trades the user's ID token for an ID-JAG for this resource.
          assertion: async ({ authorizationServerUrl, resourceUrl, fetchFn }) =>
            (
              await requestJwtAuthorizationGrant({
                tokenEndpoint: contextString(context, 'idp_token_endpoint'),
                audience: authorizationServerUrl,
                resource: resourceUrl,
                idToken: contextString(context, 'idp_id_token'),
                clientId: contextString(context, 'idp_client_id'),
                fetchFn,
              })
            ).jwtAuthGrant,
        }),
      );
    case 'auth/wif-jwt-bearer':
      return new OAuthSession(new WorkloadIdentityProvider({ clientId: contextString(context, 'client_id'), assertion: contextString(context, 'valid_jwt') }));
    case 'auth/dpop':
    case 'auth/dpop-nonce':
      return new OAuthSession(new HeadlessAuthorizationCodeProvider({ clientName, dpop: true }));
    case 'auth/pre-registration':
      return new OAuthSession(
        new HeadlessAuthorizationCodeProvider({
          clientName,
          client: { client_id: contextString(context, 'client_id'), client_secret: contextString(context, 'client_secret'), redirect_uris: [REDIRECT_URL] },
        }),
      );
    default:
      return new OAuthSession(new HeadlessAuthorizationCodeProvider({ clientName, clientMetadataUrl: CIMD_CLIENT_METADATA_URL }));
  }
}
