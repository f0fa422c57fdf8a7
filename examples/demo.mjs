// The main job in one command: the official MCP server (McpServer + StreamableHTTPServerTransport
// from @modelcontextprotocol/sdk) runs in this process on a free loopback port; the SDK's own
// Client talks to it through AnswerTransport, calls a tool that streams progress before its
// result, and holds no stream afterwards — the server's side shows it.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { AnswerTransport } from 'sse-answer';

// --- the server: one McpServer and transport a session, as the SDK's examples run it --------
const sessions = new Map();
const open = new Set(); // responses the server has not finished or seen closed
let endedSession;

function newSession() {
  const server = new McpServer({ name: 'demo-server', version: '1.0.0' }, { capabilities: { logging: {} } });
  server.registerTool('countdown', { description: 'Counts down, reporting progress', inputSchema: { from: z.number() } }, async ({ from }, extra) => {
    await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data: `counting down from ${from}` } });
    for (let n = 1; n <= from; n += 1) {
      await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: extra._meta?.progressToken ?? 0, progress: n, total: from } });
    }
    return { content: [{ type: 'text', text: 'liftoff' }] };
  });
  server.registerTool('echo', { description: 'Says it back', inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: 'text', text }] }));
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => sessions.set(id, transport),
    onsessionclosed: (id) => {
      endedSession = id;
      sessions.delete(id);
    },
  });
  return { server, transport };
}

const http = createServer(async (req, res) => {
  open.add(res);
  res.on('close', () => open.delete(res));
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const body = chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'));
  const sessionId = req.headers['mcp-session-id'];
  let transport = sessionId === undefined ? undefined : sessions.get(sessionId);
  if (transport === undefined && body?.method === 'initialize') {
    const created = newSession();
    await created.server.connect(created.transport);
    transport = created.transport;
  }
  if (transport === undefined) {
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }));
    return;
  }
  await transport.handleRequest(req, res, body);
});
await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${http.address().port}/mcp`;
console.log(`server: the official MCP SDK server (McpServer + StreamableHTTPServerTransport) on ${url}`);

// --- the client: the SDK's Client over AnswerTransport ----------------------------------------
let bytesRead = 0;
const countingFetch = async (input, init) => {
  // Counts the body bytes the transport reads; nothing else changes.
  const response = await fetch(input, init);
  if (response.body === null) return response;
  const counted = response.body.pipeThrough(new TransformStream({ transform(chunk, controller) { bytesRead += chunk.byteLength; controller.enqueue(chunk); } }));
  return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
};

const transport = new AnswerTransport(url, { fetch: countingFetch, timeoutMs: 10_000 });
const client = new Client({ name: 'demo-client', version: '1.0.0' });
await client.connect(transport);
const sdkOnmessage = transport.onmessage;
transport.onmessage = (message) => {
  if ('method' in message) console.log(`  passed over: ${message.method} ${JSON.stringify(message.params)}`);
  sdkOnmessage?.(message);
};
console.log(`client: connected through AnswerTransport; protocol ${transport.protocolVersion}, session ${transport.sessionId}`);

const { tools } = await client.listTools();
console.log(`client: tools: ${tools.map((tool) => tool.name).join(', ')}`);

console.log('client: calling countdown {from: 3}');
bytesRead = 0;
const started = performance.now();
const progress = [];
const result = await client.callTool({ name: 'countdown', arguments: { from: 3 } }, undefined, {
  onprogress: ({ progress: n, total }) => progress.push(`${n}/${total}`),
});
const elapsed = performance.now() - started;
console.log(`client: onprogress saw ${progress.join(', ')}`);
console.log(`answer: ${JSON.stringify(result)}`);
console.log(`client: ${bytesRead} body bytes read in ${elapsed.toFixed(1)} ms`);
// The server learns of the end a moment after the client does: wait for it, up to a second.
for (let waited = 0; open.size > 0 && waited < 1000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
console.log(`server: responses still open after the answer: ${open.size} — the client holds no stream`);

await client.close();
console.log(`server: DELETE ended session ${endedSession}`);
http.closeAllConnections();
await new Promise((resolve) => http.close(resolve));
if (progress.length !== 3 || endedSession === undefined) process.exitCode = 1;
