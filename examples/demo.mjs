// The main job in one command, in both eras of MCP. The official v2 MCP SDK server
// (@modelcontextprotocol/server, served by @modelcontextprotocol/node) runs in this process on a
// free loopback port, first stateless in the 2026-07-28 era, then stateful with sessions in the
// 2025 era. The same client code talks to each: the SDK's v2 Client, negotiating the era
// (versionNegotiation 'auto'), over AnswerTransport. It lists the tools, calls one that logs and
// reports progress before its result, and holds no stream afterwards: the server's side shows it.
import { createServer } from 'node:http';
import { Client } from '@modelcontextprotocol/client';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { AnswerTransport } from 'sse-answer';
import { sdkSessions } from './sdk-sessions.mjs';

// --- the MCP server: one McpServer with two tools, as the SDK's examples write it -------------
function mcpServer() {
  const server = new McpServer({ name: 'demo-server', version: '1.0.0' }, { capabilities: { logging: {} } });
  server.registerTool('countdown', { description: 'Counts down, reporting progress', inputSchema: z.object({ from: z.number() }) }, async ({ from }, ctx) => {
    await ctx.mcpReq.notify({ method: 'notifications/message', params: { level: 'info', data: `counting down from ${from}` } });
    const progressToken = ctx.mcpReq._meta?.progressToken;
    for (let n = 1; n <= from && progressToken !== undefined; n += 1) {
      await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress: n, total: from } });
    }
    return { content: [{ type: 'text', text: 'liftoff' }] };
  });
  server.registerTool('echo', { description: 'Says it back', inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({ content: [{ type: 'text', text }] }));
  return server;
}

// 2026-07-28: stateless. Every request is its own POST, answered by a fresh McpServer.
function modernHandler() {
  const handler = createMcpHandler(mcpServer, { legacy: 'reject' });
  return { handle: toNodeHandler(handler), close: () => handler.close(), ended: () => undefined };
}

// 2025: stateful. `initialize` creates a session (a transport and an McpServer); DELETE ends it.
function legacyHandler() {
  let endedSession;
  const { handle, close } = sdkSessions(mcpServer, (id) => (endedSession = id));
  return { handle, close, ended: () => endedSession };
}

// node:http in front of either: reads the body once, and keeps what the server saw.
async function listen({ handle }) {
  const seen = []; // "POST tools/call → 200", in arrival order
  const open = new Set(); // responses not yet finished or closed
  const http = createServer(async (req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const line = { method: req.method, rpc: body?.method, headers: req.headers, status: undefined };
    seen.push(line);
    res.on('finish', () => (line.status = res.statusCode));
    await handle(req, res, body);
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  const stop = async () => {
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  };
  return { url: `http://127.0.0.1:${http.address().port}/mcp`, seen, open, stop };
}

// --- the client: the same code for both servers -------------------------------------------------
async function demo(label, { describe, handler }) {
  const say = (who, text) => console.log(`[${label}] ${who}: ${text}`);
  const server = await listen(handler);
  say('server', `${describe} on ${server.url}`);

  const transport = new AnswerTransport(server.url, { timeoutMs: 10_000 });
  const client = new Client({ name: 'demo-client', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(transport);
  const version = client.getNegotiatedProtocolVersion();
  say('client', `connected through AnswerTransport (versionNegotiation 'auto'): protocol ${version}, ${transport.sessionId === undefined ? 'no session' : `session ${transport.sessionId}`}`);
  const sdkOnmessage = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if ('method' in message) say('client', `  passed over: ${message.method} ${JSON.stringify(message.params)}`);
    sdkOnmessage?.(message, extra);
  };

  const { tools } = await client.listTools();
  say('client', `tools: ${tools.map((tool) => tool.name).join(', ')}`);
  say('client', 'calling countdown {from: 3}');
  const progress = [];
  const result = await client.callTool({ name: 'countdown', arguments: { from: 3 } }, {
    onprogress: ({ progress: n, total }) => progress.push(`${n}/${total}`),
  });
  say('client', `onprogress saw ${progress.join(', ')}`);
  say('client', `answer: ${JSON.stringify(result)}`);

  const call = server.seen.find((request) => request.rpc === 'tools/call');
  const header = (name) => call.headers[name] ?? '(none)';
  say('server', `the tools/call POST carried MCP-Protocol-Version ${header('mcp-protocol-version')}, Mcp-Method ${header('mcp-method')}, Mcp-Name ${header('mcp-name')}, Mcp-Session-Id ${header('mcp-session-id')}`);
  // The server learns of the end a moment after the client does: wait for it, up to a second.
  for (let waited = 0; server.open.size > 0 && waited < 1000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
  say('server', `responses still open after the answer: ${server.open.size} — the client holds no stream`);

  await client.close();
  const ended = handler.ended();
  say('server', ended === undefined ? 'nothing to end: no session was issued' : `DELETE ended session ${ended}`);
  say('server', `saw ${server.seen.map((request) => `${request.method}${request.rpc === undefined ? '' : ` ${request.rpc}`} → ${request.status}`).join(', ')}`);
  await handler.close();
  await server.stop();
  return { version, progress, session: transport.sessionId, ended };
}

const modern = await demo('2026-07-28', { describe: 'the v2 MCP SDK server, stateless (createMcpHandler, 2026-07-28 only)', handler: modernHandler() });
const legacy = await demo('2025-11-25', { describe: 'the v2 MCP SDK server, stateful (NodeStreamableHTTPServerTransport, sessions)', handler: legacyHandler() });
const ok = modern.version === '2026-07-28' && modern.progress.length === 3 && modern.ended === undefined
  && legacy.version === '2025-11-25' && legacy.progress.length === 3 && legacy.ended !== undefined;
if (!ok) process.exitCode = 1;
