/**
 * The v2 SDK server (`@modelcontextprotocol/server` 2.4.0, served from node:http through
 * `@modelcontextprotocol/node` 2.1.2) as an era test server, in three modes:
 *
 * - `modern`: `createMcpHandler(factory, { legacy: 'reject' })`, 2026-07-28 only, stateless.
 * - `both`: `createMcpHandler(factory)`, whose default `legacy: 'stateless'` also serves 2025-era
 *   traffic (each legacy request by a fresh instance, no sessions); what negotiation `'auto'`
 *   is for.
 * - `stateful`: the 2025-era sessionful wiring, one `NodeStreamableHTTPServerTransport` (with a
 *   `sessionIdGenerator`) and one `McpServer` a session, created by `initialize`, as the SDK's
 *   examples write it.
 *
 * `registerSdkTools` is shared with mcp-handler, which builds on this package's `McpServer`.
 *
 * Options (`SdkServerOptions`), none by default: `cacheHints` (2026-07-28's `ttlMs` on lists and
 * reads), the `catalog` of `era-tools.ts` (a resource, a template, a prompt, `fails`, `changes`),
 * and, stateful, the status a request gets for a session the server does not hold. A stateful
 * server can forget its sessions, as a restarted one would (`forgetSessions()`).
 */

import { randomUUID } from 'node:crypto';
import { NodeStreamableHTTPServerTransport, toNodeHandler, type NodeIncomingMessageLike } from '@modelcontextprotocol/node';
import { acceptedContent, createMcpHandler, inputRequired, McpServer, ResourceTemplate, type ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { startRecordingServer, type RecordedHandler } from './era-http.js';
import {
  CATALOG,
  ELICIT_KEY,
  ELICIT_SCHEMA,
  PROGRESS_LOG,
  REGION_HEADER,
  runningEraServer,
  toolCounters,
  type RunningEraServer,
  type ToolCounters,
} from './era-tools.js';

/** The v2 SDK server's modes. */
export type SdkServerMode = 'modern' | 'both' | 'stateful';

/** The cache hints a v2 `McpServer` takes: `ttlMs` and `cacheScope` by method, on 2026-07-28 results only. */
export type SdkCacheHints = NonNullable<NonNullable<ConstructorParameters<typeof McpServer>[1]>['cacheHints']>;

/** How a v2 SDK server runs beyond its mode. Nothing set: as it always ran. */
export interface SdkServerOptions {
  /** `McpServer`'s `cacheHints`: the `ttlMs` of each cacheable method's 2026-07-28 result (else `ttlMs: 0`). */
  readonly cacheHints?: SdkCacheHints | undefined;
  /** Registers `era-tools.ts`'s `CATALOG` (a resource, a template, a prompt, `fails`, `changes`) besides the tools. */
  readonly catalog?: boolean | undefined;
  /**
   * `stateful`: the status of a request that carries a session the server does not hold. 400 (the
   * default) is what the SDK's examples answer, with "No valid session ID provided"; 404 is what
   * the 2025-11-25 transport says a server MUST answer for a session it ended.
   */
  readonly unknownSession?: 400 | 404 | undefined;
}

/** A running v2 SDK server. */
export interface RunningSdkServer extends RunningEraServer {
  /** `stateful`: forgets every session, as a restarted server would (a stateless mode holds none). */
  forgetSessions(): void;
}

async function progressTo(ctx: ServerContext, progress: number, total: number): Promise<void> {
  const progressToken = ctx.mcpReq._meta?.progressToken;
  if (progressToken === undefined) return;
  await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress, total } });
}

/** Registers the era tools (see `era-tools.ts`) on a v2 SDK `McpServer`. */
export function registerSdkTools(server: McpServer, counters: ToolCounters): void {
  server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({ content: [{ type: 'text', text }] }));
  server.registerTool('progress', { inputSchema: z.object({ steps: z.number() }) }, async ({ steps }, ctx) => {
    // notify, not ctx.mcpReq.log: log filters on a level the client never set on 2026-07-28.
    await ctx.mcpReq.notify({ method: 'notifications/message', params: { level: 'info', data: PROGRESS_LOG } });
    for (let step = 1; step <= steps; step += 1) await progressTo(ctx, step, steps);
    return { content: [{ type: 'text', text: 'done' }] };
  });
  server.registerTool('big', { inputSchema: z.object({ bytes: z.number() }) }, ({ bytes }) => ({ content: [{ type: 'text', text: 'x'.repeat(bytes) }] }));
  server.registerTool('never', {}, async (ctx) => {
    const how = await counters.waitForCancel('never', ctx.mcpReq.signal);
    return { content: [{ type: 'text', text: how }] };
  });
  server.registerTool(
    'tagged',
    { inputSchema: z.object({ region: z.string().meta({ 'x-mcp-header': REGION_HEADER }), text: z.string() }) },
    ({ region, text }) => ({ content: [{ type: 'text', text: `${region}:${text}` }] }),
  );
  server.registerTool('elicit', {}, (ctx) => {
    const answer = acceptedContent(ctx.mcpReq.inputResponses, ELICIT_KEY);
    const name = answer?.['name'];
    if (typeof name === 'string') return { content: [{ type: 'text', text: `hello ${name}` }] };
    return inputRequired({
      inputRequests: { [ELICIT_KEY]: inputRequired.elicit({ message: 'Your name?', requestedSchema: ELICIT_SCHEMA }) },
    });
  });
  server.registerTool('breaks', {}, async (ctx) => {
    await progressTo(ctx, 1, 2);
    const how = await counters.waitForCancel('breaks', ctx.mcpReq.signal);
    return { content: [{ type: 'text', text: how }] };
  });
}

/** Registers `CATALOG` on a v2 SDK `McpServer`; `reads` counts the reads of the resource over every instance. */
function registerSdkCatalog(server: McpServer, reads: { count: number }): void {
  server.registerResource(CATALOG.resourceName, CATALOG.resource, { mimeType: 'text/plain' }, (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: `read ${(reads.count += 1)}` }],
  }));
  server.registerResource(CATALOG.templateName, new ResourceTemplate(CATALOG.template, { list: undefined }), { mimeType: 'text/plain' }, (uri, { n }) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: `page ${String(n)}` }],
  }));
  server.registerPrompt(CATALOG.prompt, { argsSchema: z.object({ who: z.string() }) }, ({ who }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `hello ${who}` } }],
  }));
  server.registerTool(CATALOG.failing, {}, () => ({ content: [{ type: 'text', text: 'it failed' }], isError: true }));
  server.registerTool(CATALOG.changing, { inputSchema: z.object({ uri: z.string() }) }, async ({ uri }, ctx) => {
    await ctx.mcpReq.notify({ method: 'notifications/tools/list_changed' });
    await ctx.mcpReq.notify({ method: 'notifications/resources/updated', params: { uri } });
    return { content: [{ type: 'text', text: 'changed' }] };
  });
}

function sdkServer(counters: ToolCounters, options: SdkServerOptions, reads: { count: number }): McpServer {
  const server = new McpServer(
    { name: 'sse-answer-era-sdk', version: '1.0.0' },
    { capabilities: { logging: {} }, ...(options.cacheHints === undefined ? {} : { cacheHints: options.cacheHints }) },
  );
  registerSdkTools(server, counters);
  if (options.catalog === true) registerSdkCatalog(server, reads);
  return server;
}

/** Starts the v2 SDK server in `mode` on a free loopback port. */
export async function startSdkServer(mode: SdkServerMode, options: SdkServerOptions = {}): Promise<RunningSdkServer> {
  const counters = toolCounters();
  const name = `sdk-${mode}`;
  const reads = { count: 0 };
  if (mode === 'stateful') return startStateful(name, counters, () => sdkServer(counters, options, reads), options.unknownSession ?? 400);
  const handler = createMcpHandler(() => sdkServer(counters, options, reads), { legacy: mode === 'modern' ? 'reject' : 'stateless' });
  const node = toNodeHandler(handler);
  // The recording layer has read the body, so it is handed over parsed.
  // IncomingMessage's `method?: string | undefined` misses the duck type's `method?: string`
  // only under exactOptionalPropertyTypes.
  const recording = await startRecordingServer((req, res, body) => node(req as NodeIncomingMessageLike, res, body));
  const running = runningEraServer(
    { name, eras: mode === 'modern' ? ['modern'] : ['legacy', 'modern'] },
    recording,
    counters,
    () => handler.close(),
  );
  return { ...running, forgetSessions: () => undefined };
}

async function startStateful(name: string, counters: ToolCounters, newServer: () => McpServer, unknownSession: 400 | 404): Promise<RunningSdkServer> {
  const sessions = new Map<string, NodeStreamableHTTPServerTransport>();
  /** Sessions forgotten: no request reaches them again, and the server's stop closes them. */
  const forgotten = new Set<NodeStreamableHTTPServerTransport>();
  const handle: RecordedHandler = async (req, res, body) => {
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (existing !== undefined) {
      await existing.handleRequest(req, res, body);
      return;
    }
    if (sessionId === undefined && typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'initialize') {
      const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          sessions.set(id, transport);
        },
        onsessionclosed: (id) => {
          sessions.delete(id);
        },
      });
      await newServer().connect(transport);
      await transport.handleRequest(req, res, body);
      return;
    }
    if (typeof sessionId === 'string' && unknownSession === 404) {
      // The 2025-11-25 transport: a session the server ended MUST be answered 404.
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }));
      return;
    }
    // The SDK examples' answer to anything else without a known session.
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: No valid session ID provided' } }));
  };
  const recording = await startRecordingServer(handle);
  const running = runningEraServer({ name, eras: ['legacy'] }, recording, counters, async () => {
    for (const transport of [...sessions.values(), ...forgotten]) await transport.close();
    sessions.clear();
    forgotten.clear();
  });
  return {
    ...running,
    forgetSessions() {
      for (const transport of sessions.values()) forgotten.add(transport);
      sessions.clear();
    },
  };
}
