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
 */

import { randomUUID } from 'node:crypto';
import { NodeStreamableHTTPServerTransport, toNodeHandler, type NodeIncomingMessageLike } from '@modelcontextprotocol/node';
import { acceptedContent, createMcpHandler, inputRequired, McpServer, type ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { startRecordingServer, type RecordedHandler } from './era-http.js';
import {
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

function sdkServer(counters: ToolCounters): McpServer {
  const server = new McpServer({ name: 'sse-answer-era-sdk', version: '1.0.0' }, { capabilities: { logging: {} } });
  registerSdkTools(server, counters);
  return server;
}

/** Starts the v2 SDK server in `mode` on a free loopback port. */
export async function startSdkServer(mode: SdkServerMode): Promise<RunningEraServer> {
  const counters = toolCounters();
  const name = `sdk-${mode}`;
  if (mode === 'stateful') return startStateful(name, counters);
  const handler = createMcpHandler(() => sdkServer(counters), { legacy: mode === 'modern' ? 'reject' : 'stateless' });
  const node = toNodeHandler(handler);
  // The recording layer has read the body, so it is handed over parsed.
  // IncomingMessage's `method?: string | undefined` misses the duck type's `method?: string`
  // only under exactOptionalPropertyTypes.
  const recording = await startRecordingServer((req, res, body) => node(req as NodeIncomingMessageLike, res, body));
  return runningEraServer(
    { name, eras: mode === 'modern' ? ['modern'] : ['legacy', 'modern'] },
    recording,
    counters,
    () => handler.close(),
  );
}

async function startStateful(name: string, counters: ToolCounters): Promise<RunningEraServer> {
  const sessions = new Map<string, NodeStreamableHTTPServerTransport>();
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
      await sdkServer(counters).connect(transport);
      await transport.handleRequest(req, res, body);
      return;
    }
    // The SDK examples' answer to anything else without a known session.
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: No valid session ID provided' } }));
  };
  const recording = await startRecordingServer(handle);
  return runningEraServer({ name, eras: ['legacy'] }, recording, counters, async () => {
    for (const transport of sessions.values()) await transport.close();
    sessions.clear();
  });
}
