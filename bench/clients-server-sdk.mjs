// The v2 MCP SDK server (@modelcontextprotocol/server, served from node:http by
// @modelcontextprotocol/node) for the client benchmark (clients.bench.mjs), in its own process
// on a free loopback port, printed as the first line of stdout (it exits when its stdin ends).
// Both eras, one path each, wired as the SDK's examples (and examples/demo.mjs) wire them:
//   /modern: 2026-07-28 only, stateless (createMcpHandler, legacy 'reject')
//   /legacy: 2025-11-25 with sessions (one NodeStreamableHTTPServerTransport and McpServer a session)
// Tools: `echo {text}`, which sends one log message and then answers the text back (an
// event-stream answer after one notification, as clients-server-instant.mjs answers).
// GET /requests answers the requests seen since the last such GET, "POST tools/call" and the like.
import { createServer } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { sdkSessions } from '../examples/sdk-sessions.mjs';

function mcpServer() {
  const server = new McpServer({ name: 'bench-sdk-server', version: '1.0.0' }, { capabilities: { logging: {} } });
  server.registerTool('echo', { description: 'Says it back, after a log message', inputSchema: z.object({ text: z.string() }) }, async ({ text }, ctx) => {
    // notify, not ctx.mcpReq.log: log filters on a level the client never set on 2026-07-28.
    await ctx.mcpReq.notify({ method: 'notifications/message', params: { level: 'info', data: 'echoing' } });
    return { content: [{ type: 'text', text }] };
  });
  return server;
}

const modern = createMcpHandler(mcpServer, { legacy: 'reject' });
const modernNode = toNodeHandler(modern);

const legacy = sdkSessions(mcpServer).handle;

async function bodyOf(req) {
  const parts = [];
  for await (const part of req) parts.push(part);
  return parts.length > 0 ? JSON.parse(Buffer.concat(parts).toString('utf8')) : undefined;
}

let seen = [];
const http = createServer(async (req, res) => {
  try {
    const body = req.method === 'POST' ? await bodyOf(req) : undefined;
    if (req.url === '/requests') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(seen));
      seen = [];
      return;
    }
    seen.push(`${req.method}${body?.method === undefined ? '' : ` ${body.method}`}`);
    if (req.url === '/modern') await modernNode(req, res, body);
    else if (req.url === '/legacy') await legacy(req, res, body);
    else res.writeHead(404).end();
  } catch (error) {
    if (!res.headersSent) res.writeHead(500).end(String(error));
    else res.destroy();
  }
});

// Idle connections stay open: the bench pauses between its measures (the memory processes), and
// a pooled connection the server closed meanwhile would fail the next request that reuses it.
http.keepAliveTimeout = 0;
http.listen(0, '127.0.0.1', () => console.log(http.address().port));
// The bench holds this process's stdin: when the bench ends, however it ends, so does the server.
process.stdin.on('end', () => process.exit()).resume();
