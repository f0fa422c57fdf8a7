// The MCP clients the client benchmark compares (clients.bench.mjs, clients-memory.mjs), each
// connected in either era the way its own options ask for that era, and each calling the same
// small tool. A side's modules are imported by its `load()`, so that a process measuring one
// side's memory loads only what that side needs.

/** The call every side makes: a small `tools/call`. */
export const CALL = { name: 'echo', arguments: { text: 'hi' } };

/**
 * The eras, each with the path both bench servers serve it on and how each client is told to
 * speak it. 2026-07-28: every client probes with `server/discover` (AnswerClient's and the AI
 * SDK's default, the v2 Client's `'auto'`). 2025-11-25: every client sends `initialize` and
 * `notifications/initialized` and nothing before them (AnswerClient's `'legacy'`, the v2
 * Client's default, the AI SDK's `protocolVersionDiscovery: false`).
 */
export const ERAS = [
  { id: '2026', version: '2026-07-28', path: '/modern', modern: true },
  { id: '2025', version: '2025-11-25', path: '/legacy', modern: false },
];

const CLIENT_INFO = { name: 'bench', version: '1.0.0' };

/** The text of a tool result, as each client hands it back (AnswerClient's `request`: the JSON-RPC response). */
export function textOf(answer) {
  const result = answer !== null && typeof answer === 'object' && 'result' in answer ? answer.result : answer;
  return result?.content?.[0]?.text;
}

/**
 * Each client: `load()` imports its modules and resolves with `connect(url, era)`, which
 * resolves with `{ call(), close(), version() }` for one connected client.
 */
export const SIDES = [
  {
    id: 'answerClient',
    label: 'AnswerClient (sse-answer, no SDK)',
    async load() {
      const { AnswerClient } = await import('../dist/index.js');
      return async (url, era) => {
        const client = await AnswerClient.connect(url, { versionNegotiation: era.modern ? 'auto' : 'legacy', clientInfo: CLIENT_INFO });
        return { call: () => client.callTool(CALL.name, CALL.arguments), close: () => client.close(), version: () => client.protocolVersion };
      };
    },
  },
  {
    id: 'sdk',
    label: 'v2 SDK Client over its StreamableHTTPClientTransport 2.4.0',
    async load() {
      const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
      return v2Client(Client, (url) => new StreamableHTTPClientTransport(new URL(url)), (transport) => transport.terminateSession());
    },
  },
  {
    id: 'sdkAnswer',
    label: 'v2 SDK Client over sse-answer AnswerTransport',
    async load() {
      const [{ Client }, { AnswerTransport }] = await Promise.all([import('@modelcontextprotocol/client'), import('../dist/index.js')]);
      return v2Client(Client, (url) => new AnswerTransport(url));
    },
  },
  {
    id: 'aiSdk',
    label: 'AI SDK createMCPClient 2.0.99 over its own HTTP transport',
    async load() {
      const { createMCPClient } = await import('@ai-sdk/mcp');
      return aiSdkClient(createMCPClient, (url) => ({ type: 'http', url }));
    },
  },
  {
    id: 'aiSdkAnswer',
    label: 'AI SDK createMCPClient over sse-answer AnswerTransport',
    async load() {
      const [{ createMCPClient }, { AnswerTransport }] = await Promise.all([import('@ai-sdk/mcp'), import('../dist/index.js')]);
      return aiSdkClient(createMCPClient, (url) => new AnswerTransport(url));
    },
  },
];

/**
 * The v2 SDK's `Client` over `transport(url)`: `'auto'` negotiation for 2026-07-28, its default
 * (2025) otherwise. `end(transport)` ends a 2025 session before the close, where the client's
 * close does not: the SDK's own transport sends its DELETE only from `terminateSession()`, as
 * its examples call it (a session left open would pile up in the server under test).
 */
function v2Client(Client, transport, end) {
  return async (url, era) => {
    const client = new Client(CLIENT_INFO, era.modern ? { versionNegotiation: { mode: 'auto' } } : {});
    const connected = transport(url);
    await client.connect(connected);
    const close = async () => {
      if (end !== undefined && !era.modern) await end(connected);
      await client.close();
    };
    return { call: () => client.callTool(CALL), close, version: () => client.getNegotiatedProtocolVersion() };
  };
}

/**
 * The AI SDK's client over `transport(url)`. It hands every notification it does not handle (the
 * tool's log message) to `onUncaughtError`, which is quiet here.
 */
function aiSdkClient(createMCPClient, transport) {
  return async (url, era) => {
    const client = await createMCPClient({ transport: transport(url), protocolVersionDiscovery: era.modern, clientName: CLIENT_INFO.name, onUncaughtError: () => {} });
    return { call: () => client.callTool(CALL), close: () => client.close(), version: () => client.initializeResult.protocolVersion };
  };
}

/** The side named `id`. */
export const sideNamed = (id) => SIDES.find((side) => side.id === id);
