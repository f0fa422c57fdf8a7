// readAnswer with fetch, against a local server that answers like an MCP Streamable HTTP server:
// a priming event, a progress notification, then the response — and then it keeps the
// connection open, as servers that stream more on the same response do. readAnswer resolves at
// the response and cancels the rest; the server sees the connection close.
import { createServer } from 'node:http';
import { ACCEPT, isAnswerError, readAnswer } from 'sse-answer';

const server = createServer((request, response) => {
  if (!request.headers.accept?.includes('text/event-stream') || !request.headers.accept?.includes('application/json')) {
    response.writeHead(406).end(); // what public MCP servers do to a client that offers one type
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.write('id: evt-1\nretry: 1000\ndata:\n\n'); // priming: an id to resume from, no data
  response.write('event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":50,"total":100}}\n\n');
  response.write(': keep-alive\n\n');
  response.write('event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"42"}]}}\n\n');
  // ...and never end the response on its own.
  request.socket.on('close', () => console.log('server: the client closed the connection'));
});

await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}/mcp`;

try {
  const response = await fetch(url, {
    method: 'POST',
    headers: { accept: ACCEPT, 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'answer', arguments: {} } }),
  });
  const answer = await readAnswer(response, {
    requestId: 1,
    signal: AbortSignal.timeout(10_000), // readAnswer sets no deadline of its own
    onMessage: (message) => console.log('passed over:', message.method),
  });
  console.log('answer:', JSON.stringify(answer));
} catch (error) {
  if (isAnswerError(error)) console.error(`no answer (${error.code}${error.reason ? `/${error.reason}` : ''}): ${error.message}`);
  throw error;
} finally {
  // Give the close a moment to reach the server before it stops.
  await new Promise((resolve) => setTimeout(resolve, 50));
  server.close();
  server.closeAllConnections();
}
