// The v2 MCP SDK server's 2025-11-25 sessions, wired as the SDK's own examples wire them: an
// `initialize` without a session makes one (a NodeStreamableHTTPServerTransport and a fresh
// McpServer), a request of a known session goes to its transport, and anything else is refused
// with 400. The demo, the browser example's servers and the client benchmark's server serve it.
import { randomUUID } from 'node:crypto';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';

/**
 * `handle(req, res, body)` serves the sessions of the servers `makeServer()` makes; `onEnded(id)`
 * hears each session a client ends (its DELETE); `close()` closes every session still open.
 */
export function sdkSessions(makeServer, onEnded = () => {}) {
  const sessions = new Map();
  async function handle(req, res, body) {
    const known = sessions.get(req.headers['mcp-session-id']);
    if (known !== undefined) return known.handleRequest(req, res, body);
    if (req.headers['mcp-session-id'] === undefined && body?.method === 'initialize') {
      const transport = new NodeStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => sessions.set(id, transport),
        onsessionclosed: (id) => {
          onEnded(id);
          sessions.delete(id);
        },
      });
      await makeServer().connect(transport);
      return transport.handleRequest(req, res, body);
    }
    // Anything else without a known session, the 2026 client's `server/discover` among them.
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: No valid session ID provided' } }));
  }
  async function close() {
    for (const transport of sessions.values()) await transport.close();
    sessions.clear();
  }
  return { handle, close };
}
