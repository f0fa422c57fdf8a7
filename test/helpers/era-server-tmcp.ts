/**
 * tmcp 1.20.0 with `@tmcp/transport-http` 0.9.0 and `@tmcp/adapter-zod` 0.1.7 as an era test
 * server. One `HttpTransport` serves both eras on one endpoint: a request carrying the
 * per-request `_meta` envelope (or a 2026 `MCP-Protocol-Version`) is served statelessly as
 * 2026-07-28, with the transport's own `Mcp-Param-*` validation; anything else joins an
 * `initialize`d session. `respond` is a Web `Request → Response` handler; `serveWeb` bridges it.
 */

import { ZodJsonSchemaAdapter } from '@tmcp/adapter-zod';
import { HttpTransport } from '@tmcp/transport-http';
import { McpServer } from 'tmcp';
import { z } from 'zod';
import { serveWeb, startRecordingServer } from './era-http.js';
import { ELICIT_KEY, PROGRESS_LOG, REGION_HEADER, runningEraServer, toolCounters, type RunningEraServer } from './era-tools.js';

/** Starts tmcp on a free loopback port. */
export async function startTmcpServer(): Promise<RunningEraServer> {
  const counters = toolCounters();
  const server = new McpServer(
    { name: 'sse-answer-era-tmcp', version: '1.0.0', description: 'era test server' },
    { adapter: new ZodJsonSchemaAdapter(), capabilities: { tools: {}, logging: {} } },
  );
  server.tool({ name: 'echo', description: 'echo', schema: z.object({ text: z.string() }) }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  server.tool({ name: 'progress', description: 'progress', schema: z.object({ steps: z.number() }) }, ({ steps }) => {
    // tmcp filters by level, and a stateless request has one only if its envelope names it.
    server.log('info', PROGRESS_LOG);
    for (let step = 1; step <= steps; step += 1) server.progress(step, steps);
    return { content: [{ type: 'text', text: 'done' }] };
  });
  server.tool({ name: 'big', description: 'big', schema: z.object({ bytes: z.number() }) }, ({ bytes }) => ({
    content: [{ type: 'text', text: 'x'.repeat(bytes) }],
  }));
  server.tool({ name: 'never', description: 'never' }, async () => {
    const how = await counters.waitForCancel('never', server.ctx.signal);
    return { content: [{ type: 'text', text: how }] };
  });
  server.tool(
    {
      name: 'tagged',
      description: 'tagged',
      schema: z.object({ region: z.string().meta({ 'x-mcp-header': REGION_HEADER }), text: z.string() }),
    },
    ({ region, text }) => ({ content: [{ type: 'text', text: `${region}:${text}` }] }),
  );
  // Stateless elicitation is a multi round-trip request: the handler runs again from the start
  // on the retry, so tmcp wants it declared replayable.
  server.tool({ name: 'elicit', description: 'elicit', replayable: true }, async () => {
    const answer = await server.elicitation('Your name?', z.object({ name: z.string() }), { key: ELICIT_KEY });
    return { content: [{ type: 'text', text: `hello ${answer.content?.name ?? ''}` }] };
  });
  server.tool({ name: 'breaks', description: 'breaks' }, async () => {
    server.progress(1, 2);
    const how = await counters.waitForCancel('breaks', server.ctx.signal);
    return { content: [{ type: 'text', text: how }] };
  });
  const transport = new HttpTransport(server, { path: '/mcp', allowedOrigins: [] });
  const recording = await startRecordingServer((req, res, _body, text) => serveWeb((request) => transport.respond(request), req, res, text));
  return runningEraServer({ name: 'tmcp', eras: ['legacy', 'modern'] }, recording, counters, () => transport.close());
}
