// The servers behind the browser example: the v2 MCP SDK server (@modelcontextprotocol/server,
// served from node:http by @modelcontextprotocol/node) in either era on loopback, with the CORS
// headers a page on another origin needs, and the server of the page itself. `npm run
// demo:browser` (demo.mjs) and the Chromium test (test/browser-page.test.ts) both start them here.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, getOAuthProtectedResourceMetadataUrl, McpServer, OAuthError, OAuthErrorCode, requireBearerAuth } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { sdkSessions } from '../sdk-sessions.mjs';

/** The `x-mcp-header` of `tagged`'s `region`: a 2026-07-28 call carries it as `Mcp-Param-Region`. */
export const REGION_HEADER = 'Region';

/** What a server tells a browser (see docs/guides/browser.md): each field one piece of CORS. */
export const CORS = Object.freeze({
  /** Whether the preflight (`OPTIONS`) is answered. */
  preflight: true,
  allowMethods: Object.freeze(['GET', 'POST', 'DELETE']),
  // None of the Mcp-* headers, nor `Content-Type: application/json`, is CORS-safelisted.
  allowHeaders: Object.freeze([
    'Content-Type', 'Accept', 'Authorization', 'MCP-Protocol-Version', 'Mcp-Session-Id',
    'Mcp-Method', 'Mcp-Name', 'Last-Event-ID', `Mcp-Param-${REGION_HEADER}`,
  ]),
  exposeHeaders: Object.freeze(['Mcp-Session-Id', 'WWW-Authenticate']),
  /** How long a browser may keep a preflight's answer. */
  maxAgeSeconds: 600,
});

/** The MCP server: three tools, as the SDK's examples write them. */
function mcpServer(stepMs) {
  const server = new McpServer({ name: 'sse-answer-browser-demo', version: '1.0.0' }, { capabilities: { logging: {} } });
  server.registerTool(
    'countdown',
    { description: 'Counts down: a log message, then a progress notification each step', inputSchema: z.object({ from: z.number().int().min(0).max(100) }) },
    async ({ from }, ctx) => {
      await ctx.mcpReq.notify({ method: 'notifications/message', params: { level: 'info', data: `counting down from ${from}` } });
      const progressToken = ctx.mcpReq._meta?.progressToken;
      for (let n = 1; n <= from; n += 1) {
        if (stepMs > 0) await sleep(stepMs, undefined, { signal: ctx.mcpReq.signal });
        if (progressToken !== undefined) {
          await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress: n, total: from, message: `${from - n} to go` } });
        }
      }
      return { content: [{ type: 'text', text: 'liftoff' }] };
    },
  );
  server.registerTool('echo', { description: 'Says the text back', inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  server.registerTool(
    'tagged',
    {
      description: `Says the text back after its region, which a 2026-07-28 call also sends as Mcp-Param-${REGION_HEADER}`,
      inputSchema: z.object({ region: z.string().meta({ 'x-mcp-header': REGION_HEADER, examples: ['us-west1'] }), text: z.string() }),
    },
    ({ region, text }) => ({ content: [{ type: 'text', text: `${region}: ${text}` }] }),
  );
  return server;
}

/** 2026-07-28: stateless, every request its own POST, answered by a fresh McpServer. */
function modernServing(stepMs) {
  const handler = createMcpHandler(() => mcpServer(stepMs), { legacy: 'reject' });
  return { handle: toNodeHandler(handler), close: () => handler.close() };
}

/** 2025-11-25: stateful, `initialize` creates a session (a transport and an McpServer); DELETE ends it. */
function legacyServing(stepMs, endedSessions) {
  return sdkSessions(() => mcpServer(stepMs), (id) => endedSessions.push(id));
}

/** The SDK's bearer gate, accepting the one `token`; its refusal carries the `WWW-Authenticate` challenge. */
function bearerGate(token, url) {
  const verifier = {
    async verifyAccessToken(given) {
      if (given !== token) throw new OAuthError(OAuthErrorCode.InvalidToken, 'unknown token');
      return { token: given, clientId: 'browser-demo', scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 3600 };
    },
  };
  return requireBearerAuth({ verifier, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(new URL(url)) });
}

function webRequest(req) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const one of Array.isArray(value) ? value : [value]) if (one !== undefined) headers.append(name, one);
  }
  return new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`, { method: req.method ?? 'GET', headers });
}

async function readJson(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  try {
    return chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

async function listen(server, host, port = 0) {
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return server.address().port;
}

async function stopServer(server) {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(() => resolve()));
}

/**
 * Starts the v2 SDK server in `era` on a free port of 127.0.0.1, behind `cors` for the page
 * `origins` (a request from any other origin is refused, 403, as the spec asks of a server).
 */
export async function startMcpServer({ era, origins, cors = CORS, token, stepMs = 0, onRequest }) {
  const endedSessions = [];
  const serving = era === 'modern' ? modernServing(stepMs) : legacyServing(stepMs, endedSessions);
  const requests = [];
  const open = new Set();
  let gate;

  async function serve(req, res, body) {
    const origin = req.headers.origin;
    res.setHeader('Vary', 'Origin');
    if (origin !== undefined && !origins.includes(origin)) {
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: `Forbidden: origin ${origin} is not allowed` } }));
      return;
    }
    if (origin !== undefined) res.setHeader('Access-Control-Allow-Origin', origin);
    if (req.method === 'OPTIONS' && cors.preflight) {
      // Before the bearer gate: a preflight never carries the Authorization it asks about.
      res.writeHead(204, {
        'Access-Control-Allow-Methods': cors.allowMethods.join(', '),
        'Access-Control-Allow-Headers': cors.allowHeaders.join(', '),
        'Access-Control-Max-Age': String(cors.maxAgeSeconds),
      });
      res.end();
      return;
    }
    if (origin !== undefined && cors.exposeHeaders.length > 0) res.setHeader('Access-Control-Expose-Headers', cors.exposeHeaders.join(', '));
    if (gate !== undefined) {
      const auth = await gate(webRequest(req));
      if (auth instanceof Response) {
        res.writeHead(auth.status, Object.fromEntries(auth.headers));
        res.end(await auth.text());
        return;
      }
    }
    await serving.handle(req, res, body);
  }

  const http = createServer(async (req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    const body = await readJson(req);
    const seen = { method: req.method ?? '', rpc: typeof body?.method === 'string' ? body.method : undefined, headers: req.headers, status: undefined };
    requests.push(seen);
    res.on('finish', () => {
      seen.status = res.statusCode;
      onRequest?.(seen);
    });
    await serve(req, res, body).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  });
  const url = `http://127.0.0.1:${await listen(http, '127.0.0.1')}/mcp`;
  if (token !== undefined) gate = bearerGate(token, url);
  return {
    url,
    era,
    requests,
    endedSessions,
    openResponses: () => open.size,
    async stop() {
      await serving.close();
      await stopServer(http);
    },
  };
}

const ROOT = new URL('../../', import.meta.url);
const PAGE_FILES = new Map([
  ['/', ['examples/browser/index.html', 'text/html; charset=utf-8']],
  ['/page.js', ['examples/browser/page.js', 'text/javascript; charset=utf-8']],
]);
/** The built package: its ES module entry, its chunks and their source maps; nothing else of the repository. */
const DIST_FILE = /^\/dist\/[\w.-]+\.js(\.map)?$/;

/**
 * Starts the page's own server on 127.0.0.1 (`port` 0: a free one): the page, its module script
 * and the built package, which the page imports as `sse-answer` through its import map.
 */
export async function startPageServer({ port = 0 } = {}) {
  const http = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://page').pathname;
    const [file, type] = PAGE_FILES.get(path) ?? (DIST_FILE.test(path) ? [path.slice(1), 'text/javascript; charset=utf-8'] : []);
    const body = file === undefined || req.method !== 'GET' ? undefined : await readFile(new URL(file, ROOT)).catch(() => undefined);
    if (body === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(file?.startsWith('dist/') === true ? 'not built: run `npm run build`\n' : 'not found\n');
      return;
    }
    res.writeHead(200, { 'content-type': path.endsWith('.map') ? 'application/json' : type, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    res.end(body);
  });
  const bound = await listen(http, '127.0.0.1', port);
  const origin = `http://127.0.0.1:${bound}`;
  return {
    origin,
    // The same page by the name localhost is another origin: the servers allow both.
    origins: [origin, `http://localhost:${bound}`],
    pageUrl: (serverUrl) => `${origin}/?${new URLSearchParams({ url: serverUrl })}`,
    stop: () => stopServer(http),
  };
}
