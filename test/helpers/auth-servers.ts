/**
 * An OAuth-protected MCP server on 127.0.0.1 for the auth tests, in two processes' worth of
 * servers (two origins):
 *
 * - the authorization server, written here: its RFC 8414 metadata and a token endpoint that
 *   issues client-credentials tokens (`client_secret_basic` or `client_secret_post`), each with a
 *   lifetime, every one of them recorded; and an `/authorize` that approves at once (a 302 to the
 *   redirect URI with a code), whose code the token endpoint trades under PKCE (S256);
 * - the resource server: the v2 SDK server (`@modelcontextprotocol/server` 2.4.0 through
 *   `@modelcontextprotocol/node`) behind the SDK's own `requireBearerAuth`, with its protected
 *   resource metadata served by the SDK's `oauthMetadataResponse`. `/mcp` needs a valid token;
 *   `/scoped` needs the `admin` scope as well (a 403 `insufficient_scope` otherwise); `/moved`
 *   redirects (307) to `/mcp`, `/elsewhere` to a third origin, which records what reaches it.
 *
 * Every request each server sees is recorded with its path and `Authorization`.
 */

import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport, toNodeHandler, type NodeIncomingMessageLike } from '@modelcontextprotocol/node';
import {
  createMcpHandler,
  getOAuthProtectedResourceMetadataUrl,
  McpServer,
  OAuthError,
  OAuthErrorCode,
  oauthMetadataResponse,
  requireBearerAuth,
  type AuthInfo,
  type AuthMetadataOptions,
} from '@modelcontextprotocol/server';
import { registerSdkTools } from './era-server-sdk.js';
import { toolCounters } from './era-tools.js';

/** One request as a server saw it. */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | undefined;
  /** The JSON-RPC method of a POST to the MCP server, or the `grant_type` of a token request. */
  readonly what: string | undefined;
}

/** The registered client of the authorization server. */
export const CLIENT_ID = 'sse-answer-tests';
/** Its secret. */
export const CLIENT_SECRET = 'a-secret-of-the-tests';

/** The servers, running. */
export interface AuthServers {
  /** The MCP endpoint, `http://127.0.0.1:P/mcp`. */
  readonly mcpUrl: string;
  /** The origin of the resource server. */
  readonly resourceOrigin: string;
  /** The authorization server's issuer, `http://127.0.0.1:Q/`. */
  readonly issuer: string;
  /** The origin `/elsewhere` redirects to. */
  readonly otherOrigin: string;
  /** Every request to the resource server. */
  readonly resourceRequests: SeenRequest[];
  /** Every request to the authorization server. */
  readonly authRequests: SeenRequest[];
  /** Every request to the other origin. */
  readonly otherRequests: SeenRequest[];
  /** The access tokens issued, in order. */
  readonly issued: string[];
  /** Issues a token directly (no request), valid for `seconds`, with `scopes`. */
  issue(seconds?: number, scopes?: string[]): string;
  /** Makes every token issued so far expired. */
  expireAll(): void;
  /** Stops all three servers. */
  stop(): Promise<void>;
}

/** How the resource server serves MCP. */
export interface AuthServersOptions {
  /** `both` (default): the stateless v2 handler, both eras; `stateful`: 2025-era sessions (a DELETE to end one). */
  readonly mode?: 'both' | 'stateful';
  /** Seconds a token issued by the token endpoint lives: default 3600. */
  readonly tokenLifetime?: number;
}

interface IssuedToken {
  expiresAt: number;
  readonly scopes: string[];
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function webHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

async function writeWeb(res: ServerResponse, response: Response): Promise<void> {
  const head: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    head[name] = value;
  });
  res.writeHead(response.status, head);
  res.end(await response.text());
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** Starts the authorization server, the resource server and the other origin. */
export async function startAuthServers(options: AuthServersOptions = {}): Promise<AuthServers> {
  const lifetime = options.tokenLifetime ?? 3600;
  const tokens = new Map<string, IssuedToken>();
  const issued: string[] = [];
  const resourceRequests: SeenRequest[] = [];
  const authRequests: SeenRequest[] = [];
  const otherRequests: SeenRequest[] = [];
  const codes = new Map<string, { challenge: string; redirectUri: string }>();

  const issue = (seconds = lifetime, scopes = ['mcp']): string => {
    const token = `at-${issued.length + 1}-${randomUUID()}`;
    tokens.set(token, { expiresAt: Math.floor(Date.now() / 1000) + seconds, scopes });
    issued.push(token);
    return token;
  };

  // The authorization server.
  let issuer = '';
  const authServer = createServer((req, res) => {
    void (async () => {
      const text = await readBody(req);
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const form = new URLSearchParams(text);
      authRequests.push({ method: req.method ?? '', path, authorization: req.headers.authorization, what: form.get('grant_type') ?? undefined });
      if (req.method === 'GET' && path === '/.well-known/oauth-authorization-server') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(authorizationServerMetadata(issuer)));
        return;
      }
      if (req.method === 'GET' && path === '/authorize') {
        // The user approves at once: back to the client with a code bound to its PKCE challenge.
        const query = new URL(req.url ?? '/', issuer).searchParams;
        const redirectUri = query.get('redirect_uri');
        const challenge = query.get('code_challenge');
        if (query.get('client_id') !== CLIENT_ID || redirectUri === null || challenge === null || query.get('code_challenge_method') !== 'S256') {
          return void res.writeHead(400).end();
        }
        const code = randomUUID();
        codes.set(code, { challenge, redirectUri });
        const back = new URL(redirectUri);
        back.searchParams.set('code', code);
        const state = query.get('state');
        if (state !== null) back.searchParams.set('state', state);
        return void res.writeHead(302, { location: back.href }).end();
      }
      if (req.method === 'POST' && path === '/token') {
        const tokenError = (status: number, error: string): void => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error }));
        };
        if (!clientAuthenticated(req.headers.authorization, form)) return tokenError(401, 'invalid_client');
        const grant = form.get('grant_type');
        if (grant === 'authorization_code') {
          const bound = codes.get(form.get('code') ?? '');
          codes.delete(form.get('code') ?? '');
          const verifier = form.get('code_verifier') ?? '';
          const proof = createHash('sha256').update(verifier).digest('base64url');
          if (bound === undefined || bound.challenge !== proof || bound.redirectUri !== form.get('redirect_uri')) return tokenError(400, 'invalid_grant');
        } else if (grant !== 'client_credentials') {
          return tokenError(400, 'unsupported_grant_type');
        }
        const scopes = (form.get('scope') ?? 'mcp').split(' ').filter((scope) => scope !== '');
        const token = issue(lifetime, scopes);
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        res.end(JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: lifetime, scope: scopes.join(' ') }));
        return;
      }
      res.writeHead(404).end();
    })().catch(() => res.destroy());
  });
  issuer = `${await listen(authServer)}/`;

  // The other origin: records, and answers nothing useful.
  const otherServer = createServer((req, res) => {
    otherRequests.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization, what: undefined });
    res.writeHead(404).end();
  });
  const otherOrigin = await listen(otherServer);

  // The resource server: the v2 SDK server behind its bearer gate.
  let resourceOrigin = '';
  let metadata: AuthMetadataOptions | undefined;
  const verifier = {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      const known = tokens.get(token);
      if (known === undefined) throw new OAuthError(OAuthErrorCode.InvalidToken, 'unknown token');
      return { token, clientId: CLIENT_ID, scopes: known.scopes, expiresAt: known.expiresAt };
    },
  };
  let gate: ((request: Request) => Promise<AuthInfo | Response>) | undefined;
  let scopedGate: ((request: Request) => Promise<AuthInfo | Response>) | undefined;
  const mcp = mcpServing(options.mode ?? 'both');

  const resourceServer = createServer((req, res) => {
    void (async () => {
      const text = await readBody(req);
      const url = new URL(req.url ?? '/', resourceOrigin);
      const body = parseJson(text);
      const rpcMethod = (body as { method?: unknown } | undefined)?.method;
      resourceRequests.push({
        method: req.method ?? '',
        path: url.pathname,
        authorization: req.headers.authorization,
        what: typeof rpcMethod === 'string' ? rpcMethod : undefined,
      });
      const request = new Request(url, { method: req.method ?? 'GET', headers: webHeaders(req) });
      const discovery = metadata === undefined ? undefined : oauthMetadataResponse(request, metadata);
      if (discovery !== undefined) return writeWeb(res, discovery);
      if (url.pathname === '/moved') return void res.writeHead(307, { location: '/mcp' }).end();
      if (url.pathname === '/elsewhere') return void res.writeHead(307, { location: `${otherOrigin}/mcp` }).end();
      const checked = url.pathname === '/mcp' ? gate : url.pathname === '/scoped' ? scopedGate : undefined;
      if (checked === undefined) return void res.writeHead(404).end();
      const auth = await checked(request);
      if (auth instanceof Response) return writeWeb(res, auth);
      await mcp.handle(req, res, body);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  });
  resourceOrigin = await listen(resourceServer);
  const mcpUrl = `${resourceOrigin}/mcp`;
  metadata = {
    oauthMetadata: authorizationServerMetadata(issuer),
    resourceServerUrl: new URL(mcpUrl),
    scopesSupported: ['mcp', 'admin'],
    dangerouslyAllowInsecureIssuerUrl: true,
  };
  const resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(new URL(mcpUrl));
  gate = requireBearerAuth({ verifier, resourceMetadataUrl });
  scopedGate = requireBearerAuth({ verifier, resourceMetadataUrl, requiredScopes: ['admin'] });

  return {
    mcpUrl,
    resourceOrigin,
    issuer,
    otherOrigin,
    resourceRequests,
    authRequests,
    otherRequests,
    issued,
    issue,
    expireAll() {
      for (const token of tokens.values()) token.expiresAt = Math.floor(Date.now() / 1000) - 60;
    },
    async stop() {
      await mcp.close();
      await Promise.all([stop(resourceServer), stop(authServer), stop(otherServer)]);
    },
  };
}

/** RFC 8414 metadata, as the SDK's `auth()` reads it. */
function authorizationServerMetadata(issuer: string) {
  return {
    issuer,
    authorization_endpoint: `${issuer}authorize`,
    token_endpoint: `${issuer}token`,
    response_types_supported: ['code'],
    grant_types_supported: ['client_credentials', 'authorization_code'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    code_challenge_methods_supported: ['S256'],
    scopes_supported: ['mcp', 'admin'],
  };
}

function clientAuthenticated(authorization: string | undefined, form: URLSearchParams): boolean {
  if (authorization?.startsWith('Basic ') === true) {
    const [id, secret] = Buffer.from(authorization.slice(6), 'base64').toString('utf8').split(':').map(decodeURIComponent);
    return id === CLIENT_ID && secret === CLIENT_SECRET;
  }
  return form.get('client_id') === CLIENT_ID && form.get('client_secret') === CLIENT_SECRET;
}

interface McpServing {
  handle(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void>;
  close(): Promise<void>;
}

function sdkServer(): McpServer {
  const server = new McpServer({ name: 'sse-answer-auth-sdk', version: '1.0.0' }, { capabilities: { logging: {} } });
  registerSdkTools(server, toolCounters());
  return server;
}

function mcpServing(mode: 'both' | 'stateful'): McpServing {
  if (mode === 'both') {
    const handler = createMcpHandler(() => sdkServer());
    const node = toNodeHandler(handler);
    return { handle: (req, res, body) => node(req as NodeIncomingMessageLike, res, body), close: () => handler.close() };
  }
  const sessions = new Map<string, NodeStreamableHTTPServerTransport>();
  return {
    async handle(req, res, body) {
      const sessionId = req.headers['mcp-session-id'];
      const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
      if (existing !== undefined) return existing.handleRequest(req, res, body);
      if (sessionId === undefined && (body as { method?: unknown } | undefined)?.method === 'initialize') {
        const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => void sessions.set(id, transport),
          onsessionclosed: (id) => void sessions.delete(id),
        });
        await sdkServer().connect(transport);
        return transport.handleRequest(req, res, body);
      }
      res.writeHead(sessionId === undefined ? 400 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'no valid session' } }));
    },
    async close() {
      for (const transport of sessions.values()) await transport.close();
      sessions.clear();
    },
  };
}
