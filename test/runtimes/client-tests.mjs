// AnswerClient in every runtime: the era negotiated with a scripted server behind a `fetch` of the
// test's own (2026-07-28 by server/discover, 2025 by the initialize fallback with a session), a
// request and its passed-over messages, a 2026 input_required round, and close() with its DELETE.
// Web-platform JavaScript only: what the client needs of a runtime is fetch's types and streams.
import { ok, same, show } from './check.mjs';

const MODERN = '2026-07-28';

/** A server behind a `fetch`: `answer(method, body, headers)` gives each POST's reply; every request is logged. */
function scriptedFetch(answer) {
  const log = [];
  const fetch = async (_url, init) => {
    const headers = new Headers(init.headers);
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    log.push({ method: init.method, rpc: body?.method, headers, body });
    if (init.method === 'DELETE') return new Response(null, { status: 200 });
    return answer(body, headers);
  };
  return { fetch, log };
}

function json(value, init = {}) {
  return new Response(JSON.stringify(value), { ...init, headers: { 'content-type': 'application/json', ...(init.headers ?? {}) } });
}

function sse(...messages) {
  return new Response(messages.map((message) => `data: ${JSON.stringify(message)}\n\n`).join(''), { headers: { 'content-type': 'text/event-stream' } });
}

const CASES = [
  {
    name: '2026-07-28 by server/discover: a request with its _meta and headers, its notification passed over',
    run: async (pkg) => {
      const server = scriptedFetch((body) => {
        if (body.method === 'server/discover') return json({ jsonrpc: '2.0', id: body.id, result: { supportedVersions: [MODERN], capabilities: { tools: {} } } });
        return sse({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 'hi' } }, { jsonrpc: '2.0', id: body.id, result: { echoed: body.params.cursor } });
      });
      const client = await pkg.AnswerClient.connect('http://mcp.test/mcp', { fetch: server.fetch });
      same([client.era, client.protocolVersion, client.sessionId], ['modern', MODERN, undefined], 'what was negotiated');
      const passed = [];
      const answer = await client.request('tools/list', { cursor: 'c' }, { onMessage: (message) => passed.push(message.method) });
      same(answer, { jsonrpc: '2.0', id: 1, result: { echoed: 'c' } }, 'the answer');
      same(passed, ['notifications/message'], 'the messages passed over');
      const sent = server.log[1];
      same([sent.headers.get('mcp-protocol-version'), sent.headers.get('mcp-method'), sent.headers.get('mcp-session-id')], [MODERN, 'tools/list', null], 'the 2026 headers');
      same(sent.body.params._meta['io.modelcontextprotocol/protocolVersion'], MODERN, "the request's _meta");
      same(await client.close(), undefined, 'close() with no session');
      same(server.log.map((one) => one.method), ['POST', 'POST'], 'no DELETE');
    },
  },
  {
    name: '2025 by the initialize fallback: the session on every request, ended by close() with a DELETE',
    run: async (pkg) => {
      const server = scriptedFetch((body) => {
        if (body.method === 'server/discover') return json({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: No valid session ID provided' } }, { status: 400 });
        if (body.method === 'initialize') return json({ jsonrpc: '2.0', id: body.id, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } } }, { headers: { 'mcp-session-id': 'session-1' } });
        if (body.id === undefined) return new Response(null, { status: 202 });
        return json({ jsonrpc: '2.0', id: body.id, result: {} });
      });
      const client = await pkg.AnswerClient.connect('http://mcp.test/mcp', { fetch: server.fetch });
      same([client.era, client.protocolVersion, client.sessionId], ['legacy', '2025-11-25', 'session-1'], 'what was negotiated');
      same(client.negotiatedBy, { by: 'initialize', refusal: 'HTTP 400, JSON-RPC -32000' }, 'how');
      await client.request('ping');
      same(server.log.at(-1).headers.get('mcp-session-id'), 'session-1', 'the session on the request');
      same(await client.close(), 200, "the DELETE's status");
      same(server.log.map((one) => one.rpc ?? one.method), ['server/discover', 'initialize', 'notifications/initialized', 'ping', 'DELETE'], 'the requests');
    },
  },
  {
    name: '2026-07-28 input_required: the handler answers, the request is re-issued with inputResponses and requestState',
    run: async (pkg) => {
      const server = scriptedFetch((body) => {
        if (body.method === 'server/discover') return json({ jsonrpc: '2.0', id: body.id, result: { supportedVersions: [MODERN], capabilities: {} } });
        if (body.params.inputResponses === undefined) {
          return json({ jsonrpc: '2.0', id: body.id, result: { resultType: 'input_required', inputRequests: { who: { method: 'elicitation/create', params: { message: 'Name?' } } }, requestState: 's1' } });
        }
        return json({ jsonrpc: '2.0', id: body.id, result: { resultType: 'complete', got: body.params.inputResponses.who.content.name, state: body.params.requestState } });
      });
      const asked = [];
      const client = await pkg.AnswerClient.connect('http://mcp.test/mcp', {
        fetch: server.fetch,
        capabilities: { elicitation: {} },
        onInputRequired: async (request) => {
          asked.push(request.method);
          return { action: 'accept', content: { name: 'ann' } };
        },
      });
      const answer = await client.request('tools/call', { name: 'greet', arguments: {} });
      same(answer.result, { resultType: 'complete', got: 'ann', state: 's1' }, 'the answer of the retry');
      same(asked, ['elicitation/create'], 'what the handler was asked');
      const [first, retry] = server.log.slice(1).map((one) => one.body.id);
      ok(first !== retry, `the retry has a new id (${show(first)}, ${show(retry)})`);
    },
  },
];

/** Tests for `AnswerClient`, run against the package `pkg`. */
export function clientTests(pkg) {
  return CASES.map((kase) => ({ name: `AnswerClient: ${kase.name}`, run: () => kase.run(pkg) }));
}
