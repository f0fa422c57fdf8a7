// The official MCP server for the end-to-end case, in its own process on a free loopback port
// (printed as the first line of stdout). Stateful, as the SDK's examples are: one transport per
// session. Tools: `echo` (a short result) and `large` (a 5 MiB text result).
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

const LARGE = 'z'.repeat(5 * 1024 * 1024);
const sessions = new Map();

function mcpServer() {
  const server = new McpServer({ name: 'bench-server', version: '1.0.0' });
  server.registerTool('echo', { description: 'a short result' }, async () => ({ content: [{ type: 'text', text: 'ok' }] }));
  server.registerTool('large', { description: 'a 5 MiB text result' }, async () => ({ content: [{ type: 'text', text: LARGE }] }));
  return server;
}

async function bodyOf(req) {
  const parts = [];
  for await (const part of req) parts.push(part);
  return parts.length > 0 ? JSON.parse(Buffer.concat(parts).toString('utf8')) : undefined;
}

const http = createServer(async (req, res) => {
  try {
    const body = req.method === 'POST' ? await bodyOf(req) : undefined;
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (!transport) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (sessionId) => sessions.set(sessionId, transport),
      });
      transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId);
      await mcpServer().connect(transport);
    }
    await transport.handleRequest(req, res, body);
  } catch (error) {
    if (!res.headersSent) res.writeHead(500).end(String(error));
  }
});

http.listen(0, '127.0.0.1', () => console.log(http.address().port));
