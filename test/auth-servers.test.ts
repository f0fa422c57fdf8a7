// authProvider against a real OAuth-protected MCP server on 127.0.0.1: the v2 SDK server behind
// its own requireBearerAuth, its protected resource metadata served by the SDK, and an
// authorization server written for the tests that issues client-credentials tokens (see
// helpers/auth-servers.ts). The providers are the SDKs' own, adapted by the auth guide's recipes
// (helpers/auth-recipes.ts) and by the v2 SDK's adaptOAuthProvider itself.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  type AuthProvider as V2AuthProvider,
  Client,
  ClientCredentialsProvider,
  InsufficientScopeError,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientProvider,
  type Transport,
} from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ClientCredentialsProvider as V1ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import type { Transport as V1TransportShape } from '@modelcontextprotocol/sdk/shared/transport.js';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { AnswerTransport, postJsonRpc, type AuthProvider } from '../src/index.js';
import { answerError } from './helpers/bodies.js';
import {
  finishAuthorization,
  fromOAuthProvider,
  fromOAuthProviderV1,
  InMemoryAuthorizationCodeProvider,
  staticToken,
  transportWith,
} from './helpers/auth-recipes.js';
import { CLIENT_ID, CLIENT_SECRET, startAuthServers, type AuthServers } from './helpers/auth-servers.js';

const LEGACY = '2025-11-25';
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'auth-test', version: '1' } },
};

// Checked by the type-check: the v2 SDK's AuthProvider and this package's are one shape, both ways.
const fromV2 = (provider: V2AuthProvider): AuthProvider => provider;
const toV2 = (provider: AuthProvider): V2AuthProvider => provider;
void fromV2;
void toV2;

/**
 * The v2 SDK's own `adaptOAuthProvider`, which its transports call and 2.4.0 does not export: read
 * from the chunk its entry imports it from, so that the same function is tested here.
 */
async function sdkAdaptOAuthProvider(): Promise<(provider: OAuthClientProvider) => AuthProvider> {
  const entry = createRequire(import.meta.url).resolve('@modelcontextprotocol/client').replace(/index\.cjs$/, 'index.mjs');
  const source = readFileSync(entry, 'utf8');
  const found = /import \{([^}]*)\} from "(\.\/[^"]+)"/g;
  for (const [, names, chunk] of source.matchAll(found)) {
    const alias = /(?:^|,)\s*(\w+) as adaptOAuthProvider\b/.exec(names ?? '')?.[1];
    if (alias === undefined || chunk === undefined) continue;
    const module = (await import(pathToFileURL(join(dirname(entry), chunk)).href)) as Record<string, unknown>;
    const adapt = module[alias];
    if (typeof adapt === 'function') return adapt as (provider: OAuthClientProvider) => AuthProvider;
  }
  throw new Error('adaptOAuthProvider not found in the SDK entry');
}

function clientCredentials(servers: AuthServers): ClientCredentialsProvider {
  return new ClientCredentialsProvider({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, expectedIssuer: servers.issuer });
}

function textOf(result: unknown): string {
  return (result as { content: { text: string }[] }).content[0]!.text;
}

describe('against the v2 SDK server behind requireBearerAuth (stateless, both eras)', () => {
  let servers: AuthServers;
  beforeAll(async () => {
    servers = await startAuthServers();
  });
  afterAll(() => servers.stop());
  afterEach(() => {
    servers.resourceRequests.length = 0;
    servers.authRequests.length = 0;
    servers.otherRequests.length = 0;
  });

  test('a provider with only token(): the exchange is answered, the token on the request', async () => {
    const token = servers.issue();
    const result = await postJsonRpc(servers.mcpUrl, INITIALIZE, { authProvider: staticToken(token) });
    expect(result.answer).toMatchObject({ id: 0, result: { protocolVersion: LEGACY } });
    expect(servers.resourceRequests.map((one) => [one.method, one.path, one.authorization])).toEqual([['POST', '/mcp', `Bearer ${token}`]]);
  });

  test('no token: http_status 401 with the challenge the SDK server sends, its resource metadata URL parsed', async () => {
    const error = await answerError(postJsonRpc(servers.mcpUrl, INITIALIZE, { authProvider: { token: async () => undefined } }));
    expect(error.code).toBe('http_status');
    expect(error.detail.status).toBe(401);
    expect(error.detail.challenge).toMatchObject({
      scheme: 'Bearer',
      error: 'invalid_token',
      resourceMetadata: `${servers.resourceOrigin}/.well-known/oauth-protected-resource/mcp`,
    });
  });

  test('a second 401 (onUnauthorized fixed nothing): http_status with the parsed challenge, after exactly two POSTs', async () => {
    let calls = 0;
    const authProvider: AuthProvider = {
      token: async () => 'not-a-token-the-server-knows',
      onUnauthorized: async () => {
        calls += 1;
      },
    };
    const error = await answerError(postJsonRpc(servers.mcpUrl, INITIALIZE, { authProvider }));
    expect(error.code).toBe('http_status');
    expect(error.detail.status).toBe(401);
    expect(error.detail.challenge?.error).toBe('invalid_token');
    expect(error.detail.challenge?.resourceMetadata).toBe(`${servers.resourceOrigin}/.well-known/oauth-protected-resource/mcp`);
    expect(error.message).not.toContain('not-a-token-the-server-knows');
    expect(calls).toBe(1);
    expect(servers.resourceRequests.filter((one) => one.path === '/mcp')).toHaveLength(2);
  });

  test.each([
    ['the guide\'s recipe', async () => fromOAuthProvider],
    ['the SDK\'s own adaptOAuthProvider', sdkAdaptOAuthProvider],
  ])('client credentials through %s: 401 → discovery → token → retried and answered; the token goes to the resource server only', async (_name, adapter) => {
    const adapt = await adapter();
    const issuedBefore = servers.issued.length;
    const result = await postJsonRpc(servers.mcpUrl, INITIALIZE, { authProvider: adapt(clientCredentials(servers)) });
    expect(result.answer).toMatchObject({ id: 0, result: { protocolVersion: LEGACY } });
    const token = servers.issued[issuedBefore];
    expect(servers.issued).toHaveLength(issuedBefore + 1);
    const mcp = servers.resourceRequests.filter((one) => one.path === '/mcp');
    expect(mcp.map((one) => one.authorization)).toEqual([undefined, `Bearer ${token}`]);
    const tokenRequests = servers.authRequests.filter((one) => one.path === '/token');
    expect(tokenRequests.map((one) => one.what)).toEqual(['client_credentials']);
    expect(tokenRequests[0]?.authorization).toMatch(/^Basic /);
    // The bearer token never reached the authorization server, nor the metadata documents.
    const elsewhere = [...servers.authRequests, ...servers.resourceRequests.filter((one) => one.path !== '/mcp')];
    expect(elsewhere.every((one) => one.authorization === undefined || one.authorization.startsWith('Basic '))).toBe(true);
  });

  test('an expired token is refreshed once: one 401, one new token, the retry answered', async () => {
    const authProvider = fromOAuthProvider(clientCredentials(servers));
    await postJsonRpc(servers.mcpUrl, INITIALIZE, { authProvider });
    const first = servers.issued.at(-1);
    servers.expireAll();
    servers.resourceRequests.length = 0;
    servers.authRequests.length = 0;

    const result = await postJsonRpc(servers.mcpUrl, INITIALIZE, { authProvider });
    expect(result.answer).toMatchObject({ id: 0 });
    const second = servers.issued.at(-1);
    expect(second).not.toBe(first);
    expect(servers.resourceRequests.filter((one) => one.path === '/mcp').map((one) => one.authorization)).toEqual([`Bearer ${first}`, `Bearer ${second}`]);
    expect(servers.authRequests.filter((one) => one.path === '/token')).toHaveLength(1);
  });

  test('authorization code through the guide\'s recipe: the first send fails with the redirect; after the callback, the next is answered', async () => {
    const redirectUri = 'http://127.0.0.1:9/callback';
    let authorizationUrl: URL | undefined;
    const provider = new InMemoryAuthorizationCodeProvider(
      redirectUri,
      { client_name: 'auth-test', redirect_uris: [redirectUri], grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic' },
      (url) => {
        authorizationUrl = url;
      },
      { client_id: CLIENT_ID, client_secret: CLIENT_SECRET },
    );
    const authProvider = fromOAuthProvider(provider);
    const refused = await answerError(postJsonRpc(servers.mcpUrl, INITIALIZE, { authProvider }));
    expect(refused.code).toBe('http_status');
    expect(refused.detail.status).toBe(401);
    expect(refused.cause).toBeInstanceOf(UnauthorizedError);
    expect(authorizationUrl?.origin).toBe(new URL(servers.issuer).origin);
    expect(authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');

    // The user agent goes to the authorization server and comes back to the redirect URI.
    const approval = await fetch(authorizationUrl!, { redirect: 'manual' });
    const callback = new URL(approval.headers.get('location')!);
    expect(callback.href.startsWith(redirectUri)).toBe(true);
    await finishAuthorization(provider, servers.mcpUrl, callback.searchParams.get('code')!);

    const issued = servers.issued.at(-1);
    const transport = transportWith(servers.mcpUrl, authProvider);
    const client = new Client({ name: 'auth-code', version: '1.0.0' });
    await client.connect(transport as Transport);
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'authorized' } }))).toBe('authorized');
    await client.close();
    expect(servers.resourceRequests.filter((one) => one.path === '/mcp').at(-1)?.authorization).toBe(`Bearer ${issued}`);
    expect(servers.authRequests.filter((one) => one.path === '/token').map((one) => one.what)).toEqual(['authorization_code']);
  });

  test('a token is never sent after a cross-origin redirect; a same-origin one keeps it', async () => {
    const token = servers.issue();
    const error = await answerError(postJsonRpc(`${servers.resourceOrigin}/elsewhere`, INITIALIZE, { authProvider: staticToken(token) }));
    expect(error.code).toBe('http_status');
    expect(error.detail.status).toBe(307);
    expect(error.detail.location).toBe(`${servers.otherOrigin}/mcp`);
    expect(servers.otherRequests).toEqual([]);

    const moved = await postJsonRpc(`${servers.resourceOrigin}/moved`, INITIALIZE, { authProvider: staticToken(token) });
    expect(moved.answer).toMatchObject({ id: 0 });
    expect(servers.resourceRequests.filter((one) => one.path !== '/elsewhere').map((one) => [one.path, one.authorization])).toEqual([
      ['/moved', `Bearer ${token}`],
      ['/mcp', `Bearer ${token}`],
    ]);
    expect(servers.otherRequests).toEqual([]);
  });

  test('403 insufficient_scope: http_status with the scope the server needs, not retried — as the v2 transport treats a provider of this shape', async () => {
    const token = servers.issue(3600, ['mcp']);
    const scopedUrl = `${servers.resourceOrigin}/scoped`;
    let calls = 0;
    const authProvider: AuthProvider = {
      token: async () => token,
      onUnauthorized: async () => {
        calls += 1;
      },
    };
    const error = await answerError(postJsonRpc(scopedUrl, INITIALIZE, { authProvider }));
    expect(error.code).toBe('http_status');
    expect(error.detail.status).toBe(403);
    expect(error.detail.challenge).toMatchObject({ error: 'insufficient_scope', scope: 'admin' });
    expect(calls).toBe(0);
    expect(servers.resourceRequests.filter((one) => one.path === '/scoped')).toHaveLength(1);

    // The SDK's own transport, with the same provider: InsufficientScopeError, the same scope.
    const sdk = new StreamableHTTPClientTransport(new URL(scopedUrl), { authProvider });
    const thrown = await sdk.send(INITIALIZE as never).catch((caught: unknown) => caught);
    expect(thrown).toBeInstanceOf(InsufficientScopeError);
    expect((thrown as InsufficientScopeError).requiredScope).toBe(error.detail.challenge?.scope);
    expect(calls).toBe(0);
  });

  test('onUnauthorized that throws: http_status with its error as the cause', async () => {
    const failure = new Error('the user said no');
    const error = await answerError(
      postJsonRpc(servers.mcpUrl, INITIALIZE, {
        authProvider: {
          token: async () => undefined,
          onUnauthorized: async () => {
            throw failure;
          },
        },
      }),
    );
    expect(error.code).toBe('http_status');
    expect(error.detail.status).toBe(401);
    expect(error.cause).toBe(failure);
  });

  test('onUnauthorized that never settles: timeout at the deadline', async () => {
    const started = Date.now();
    const error = await answerError(
      postJsonRpc(servers.mcpUrl, INITIALIZE, { timeoutMs: 200, authProvider: { token: async () => undefined, onUnauthorized: () => new Promise(() => {}) } }),
    );
    expect(error.code).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  describe.each([
    ['a static token', (s: AuthServers) => staticToken(s.issue())],
    ['v2 client credentials (recipe)', (s: AuthServers) => fromOAuthProvider(clientCredentials(s))],
    [
      'v1 client credentials (recipe)',
      (s: AuthServers) => fromOAuthProviderV1(new V1ClientCredentialsProvider({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, expectedIssuer: s.issuer })),
    ],
  ])('the SDK clients over AnswerTransport with %s', (_name, provider) => {
    test('v2 Client (auto negotiation): connect, call a tool, close', async () => {
      const client = new Client({ name: 'auth-v2', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
      const transport = new AnswerTransport(servers.mcpUrl, { authProvider: provider(servers) });
      await client.connect(transport as Transport);
      const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
      expect(textOf(result)).toBe('hi');
      await client.close();
      const mcp = servers.resourceRequests.filter((one) => one.path === '/mcp');
      expect(mcp.length).toBeGreaterThan(1);
      // Every request that got through carried a token the authorization server issued.
      const tokens = new Set(servers.issued.map((token) => `Bearer ${token}`));
      expect(mcp.filter((one) => one.authorization !== undefined).every((one) => tokens.has(one.authorization!))).toBe(true);
      expect(mcp.at(-1)?.authorization).toBeDefined();
    });

    test('v1 Client: connect, call a tool, close', async () => {
      const client = new V1Client({ name: 'auth-v1', version: '1.0.0' });
      const transport = new AnswerTransport(servers.mcpUrl, { authProvider: provider(servers) });
      await client.connect(transport as V1TransportShape);
      const result = await client.callTool({ name: 'echo', arguments: { text: 'hello' } });
      expect(textOf(result)).toBe('hello');
      await client.close();
      const tokens = new Set(servers.issued.map((token) => `Bearer ${token}`));
      const mcp = servers.resourceRequests.filter((one) => one.path === '/mcp');
      expect(mcp.filter((one) => one.authorization !== undefined).every((one) => tokens.has(one.authorization!))).toBe(true);
    });
  });
});

describe('against the v2 SDK server with sessions (2025-11-25)', () => {
  let servers: AuthServers;
  beforeAll(async () => {
    servers = await startAuthServers({ mode: 'stateful' });
  });
  afterAll(() => servers.stop());

  test('v1 Client with client credentials: every request, the closing DELETE too, carries the token', async () => {
    const client = new V1Client({ name: 'auth-v1-session', version: '1.0.0' });
    const transport = new AnswerTransport(servers.mcpUrl, {
      authProvider: fromOAuthProviderV1(new V1ClientCredentialsProvider({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, expectedIssuer: servers.issuer })),
    });
    const errors: Error[] = [];
    transport.onerror = (error) => errors.push(error);
    await client.connect(transport as V1TransportShape);
    expect(transport.sessionId).toBeDefined();
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'in session' } }))).toBe('in session');
    await client.close();
    expect(errors).toEqual([]);
    const token = `Bearer ${servers.issued[0]}`;
    const mcp = servers.resourceRequests.filter((one) => one.path === '/mcp');
    expect(mcp[0]?.authorization).toBeUndefined(); // the first POST, before any token
    expect(mcp.slice(1).map((one) => one.authorization)).toEqual(mcp.slice(1).map(() => token));
    expect(mcp.at(-1)?.method).toBe('DELETE');
  });
});

test('the auth guide shows the recipes exactly as they are type-checked and run here', () => {
  const recipes = readFileSync(new URL('./helpers/auth-recipes.ts', import.meta.url), 'utf8');
  const guide = readFileSync(new URL('../docs/guides/auth.md', import.meta.url), 'utf8');
  const regions = [...recipes.matchAll(/\/\/ #region (\S+)\n([\s\S]*?)\/\/ #endregion/g)];
  expect(regions.map(([, name]) => name)).toEqual(['static', 'v2', 'v2-code', 'v1']);
  for (const [, name, code] of regions) {
    expect(guide, `the guide's ${name} recipe`).toContain(code!.replace("'../../src/index.js'", "'sse-answer'").trimEnd());
  }
});
