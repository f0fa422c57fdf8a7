// A server that answers at once, for the client benchmark (clients.bench.mjs): plain node:http
// speaking just enough MCP for a client to connect and call a tool, in its own process on a free
// loopback port (printed as the first line of stdout; it exits when its stdin ends), so that a
// call's time is the client's own cost and the loopback's. Both eras, one path each:
//   /modern: 2026-07-28, stateless: server/discover, tools/list, tools/call
//   /legacy: 2025-11-25 with sessions: initialize (issues Mcp-Session-Id), notifications/initialized,
//            tools/list, tools/call, DELETE; a request with an unknown session gets 404
// Every answer is JSON but a tools/call's, which is an event stream: one log message, then the
// result, as the v2 SDK server sends it (clients-server-sdk.mjs). No GET stream is offered (405).
// GET /requests answers the requests seen since the last such GET, "POST tools/call" and the like.
// Nothing is validated beyond what routing needs: the clients are the subject, not the server.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const SERVER_INFO = { name: 'bench-instant-server', version: '1.0.0' };
const TOOLS = [{ name: 'echo', description: 'Says it back, after a log message', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }];
const MODERN_META = { 'io.modelcontextprotocol/serverInfo': SERVER_INFO };
const LOG = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'echoing' } });

/** The result of each request, by era: what the v2 SDK server answers, less its cache hints. */
const RESULTS = {
  modern: {
    'server/discover': () => ({ supportedVersions: [MODERN], capabilities: { logging: {}, tools: {} }, resultType: 'complete', _meta: MODERN_META }),
    'tools/list': () => ({ tools: TOOLS, resultType: 'complete' }),
    'tools/call': (params) => ({ content: [{ type: 'text', text: String(params?.arguments?.text) }], resultType: 'complete' }),
  },
  legacy: {
    initialize: () => ({ protocolVersion: LEGACY, capabilities: { logging: {}, tools: {} }, serverInfo: SERVER_INFO }),
    'tools/list': () => ({ tools: TOOLS }),
    'tools/call': (params) => ({ content: [{ type: 'text', text: String(params?.arguments?.text) }] }),
  },
};

const sessions = new Set();
let seen = [];

function json(res, status, message, headers = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(message));
}

function answer(res, era, message, headers) {
  const result = RESULTS[era][message.method];
  if (result === undefined) return json(res, 200, { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `no method ${message.method}` } }, headers);
  const response = JSON.stringify({ jsonrpc: '2.0', id: message.id, result: result(message.params) });
  if (message.method !== 'tools/call') {
    res.writeHead(200, { 'content-type': 'application/json', ...headers });
    return res.end(response);
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...headers });
  res.write(`event: message\ndata: ${LOG}\n\n`);
  res.end(`event: message\ndata: ${response}\n\n`);
}

function modern(req, res, message) {
  if (req.method !== 'POST') return res.writeHead(405, { allow: 'POST' }).end();
  if (message.id === undefined) return res.writeHead(202).end();
  answer(res, 'modern', message);
}

function legacy(req, res, message) {
  const session = req.headers['mcp-session-id'];
  if (req.method === 'GET') return res.writeHead(405, { allow: 'POST, DELETE' }).end();
  if (session === undefined && message?.method === 'initialize') {
    const id = randomUUID();
    sessions.add(id);
    return answer(res, 'legacy', message, { 'mcp-session-id': id });
  }
  if (session === undefined) return json(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: No valid session ID provided' } });
  if (!sessions.has(session)) return json(res, 404, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } });
  if (req.method === 'DELETE') {
    sessions.delete(session);
    return res.writeHead(200).end();
  }
  if (message.id === undefined) return res.writeHead(202).end();
  answer(res, 'legacy', message, { 'mcp-session-id': session });
}

const http = createServer((req, res) => {
  const parts = [];
  req.on('data', (part) => parts.push(part));
  req.on('end', () => {
    try {
      const message = parts.length > 0 ? JSON.parse(Buffer.concat(parts).toString('utf8')) : undefined;
      if (req.url === '/requests') {
        json(res, 200, seen);
        seen = [];
        return;
      }
      seen.push(`${req.method}${message?.method === undefined ? '' : ` ${message.method}`}`);
      if (req.url === '/modern') modern(req, res, message);
      else if (req.url === '/legacy') legacy(req, res, message);
      else res.writeHead(404).end();
    } catch (error) {
      if (!res.headersSent) res.writeHead(400).end(String(error));
      else res.destroy();
    }
  });
});

// Idle connections stay open: the bench pauses between its measures (the memory processes), and
// a pooled connection the server closed meanwhile would fail the next request that reuses it.
http.keepAliveTimeout = 0;
http.listen(0, '127.0.0.1', () => console.log(http.address().port));
// The bench holds this process's stdin: when the bench ends, however it ends, so does the server.
process.stdin.on('end', () => process.exit()).resume();
