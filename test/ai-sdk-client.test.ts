// The AI SDK's MCP client (`createMCPClient` from @ai-sdk/mcp) over AnswerTransport, beside the
// same client over the AI SDK's own HTTP transport, against every era server: the v2 SDK server
// stateless 2026-07-28 only, both eras, and legacy only with sessions, then mcp-handler and tmcp.
// Each case runs on both transports and must come out the same, and as pinned here.
import { createMCPClient, type MCPClient, type MCPTransport } from '@ai-sdk/mcp';
import { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AnswerTransport, type TransportMessage } from '../src/index.js';
import { readFileSync } from 'node:fs';
import { connectAiSdk } from './helpers/ai-sdk-recipes.js';
import { eventually } from './helpers/mcp-server.js';
import { ERA_SERVERS, PROGRESS_LOG, startEraServers, startSdkServer, type EraRequest, type RunningEraServer } from './helpers/era-servers.js';

const MODERN = '2026-07-28';
const MiB = 1024 * 1024;

// Checked by the type-check (`npm run typecheck`): the AI SDK's MCPTransport accepts an
// AnswerTransport as it is, with no adapter and no import of the AI SDK in src/.
const asTransport = (transport: AnswerTransport): MCPTransport => transport;

/** What each server negotiates with the AI SDK's client, over either transport. */
const NEGOTIATED: Record<string, { readonly version: string; readonly session: boolean; readonly connectPosts: readonly string[]; readonly logs: boolean }> = {
  'sdk-modern': { version: MODERN, session: false, connectPosts: ['server/discover 200'], logs: true },
  'sdk-both': { version: MODERN, session: false, connectPosts: ['server/discover 200'], logs: true },
  // Its 400 to the probe carries -32000, no modern error: the client falls back to initialize.
  'sdk-stateful': { version: '2025-11-25', session: true, connectPosts: ['server/discover 400', 'initialize 200', 'notifications/initialized 202'], logs: true },
  'mcp-handler': { version: MODERN, session: false, connectPosts: ['server/discover 200'], logs: true },
  // tmcp sends no log message to a client that set no logging level.
  tmcp: { version: MODERN, session: false, connectPosts: ['server/discover 200'], logs: false },
};

const TRANSPORTS = ['own', 'answer'] as const;
type TransportKind = (typeof TRANSPORTS)[number];

interface Connected {
  readonly client: MCPClient;
  /** The AnswerTransport under the client (`undefined` over the AI SDK's own transport). */
  readonly transport: AnswerTransport | undefined;
  /** Every message the AnswerTransport handed the client, in order. */
  readonly delivered: TransportMessage[];
}

async function connect(server: RunningEraServer, kind: TransportKind): Promise<Connected> {
  if (kind === 'own') return { client: await createMCPClient({ transport: { type: 'http', url: server.url } }), transport: undefined, delivered: [] };
  const transport = new AnswerTransport(server.url);
  const client = await createMCPClient({ transport: asTransport(transport) });
  // Watched after the client set its handler: every message still reaches the client.
  const delivered: TransportMessage[] = [];
  const handler = transport.onmessage;
  transport.onmessage = (message) => {
    delivered.push(message);
    handler?.(message);
  };
  return { client, transport, delivered };
}

function posts(requests: readonly EraRequest[]): string[] {
  return requests.filter((request) => request.method === 'POST').map((request) => `${request.rpcMethod ?? '?'} ${String(request.status)}`);
}

function textOf(result: unknown): string {
  return (result as { content: { text: string }[] }).content[0]!.text;
}

describe.each(ERA_SERVERS.map((kind) => kind.name))('createMCPClient against %s', (name) => {
  let server: RunningEraServer;
  const negotiated = NEGOTIATED[name]!;
  const modern = negotiated.version === MODERN;
  beforeAll(async () => {
    server = (await startEraServers()).find((started) => started.name === name)!;
  });
  afterAll(async () => {
    await server.stop();
  });

  test.each(TRANSPORTS)('over the %s transport: connects in the era it negotiates, as the POSTs show', async (kind) => {
    const from = server.requests.length;
    const { client, transport } = await connect(server, kind);
    try {
      expect(client.initializeResult.protocolVersion).toBe(negotiated.version);
      expect(posts(server.requests.slice(from))).toEqual(negotiated.connectPosts);
      if (transport !== undefined) {
        expect(transport.protocolVersion).toBe(negotiated.version);
        expect(transport.sessionId !== undefined).toBe(negotiated.session);
      }
    } finally {
      await client.close();
    }
  });

  test.each(TRANSPORTS)('over the %s transport: a tool with an x-mcp-header parameter sends Mcp-Param-* in 2026-07-28', async (kind) => {
    const { client } = await connect(server, kind);
    try {
      await client.listTools(); // the client learns the tool's header bindings here
      const from = server.requests.length;
      expect(textOf(await client.callTool({ name: 'tagged', arguments: { region: 'eu-west', text: 'hi' } }))).toBe('eu-west:hi');
      const call = server.requests.slice(from).find((request) => request.rpcMethod === 'tools/call')!;
      expect(call.headers['mcp-param-region']).toBe(modern ? 'eu-west' : undefined);
      expect(call.headers['mcp-name']).toBe(modern ? 'tagged' : undefined);
    } finally {
      await client.close();
    }
  });

  test.each(TRANSPORTS)('over the %s transport: a tool that logs and reports progress before its result', async (kind) => {
    const { client, delivered } = await connect(server, kind);
    try {
      expect(textOf(await client.callTool({ name: 'progress', arguments: { steps: 3 } }))).toBe('done');
      if (kind === 'answer') {
        // What the server sent on the call's stream reached the client, the result last.
        const logs = delivered.filter((message) => message.method === 'notifications/message').map((message) => (message.params as { data: unknown }).data);
        expect(logs).toEqual(negotiated.logs ? [PROGRESS_LOG] : []);
        expect(delivered.at(-1)?.result).toBeDefined();
      }
    } finally {
      await client.close();
    }
  });

  test.each(TRANSPORTS)('over the %s transport: a 5 MiB result', async (kind) => {
    const { client } = await connect(server, kind);
    try {
      expect(textOf(await client.callTool({ name: 'big', arguments: { bytes: 5 * MiB } }))).toHaveLength(5 * MiB);
    } finally {
      await client.close();
    }
  });

  test.each(TRANSPORTS)("over the %s transport: a call past the client's timeout is rejected then, and its stream closed on the wire", async (kind) => {
    const { client } = await connect(server, kind);
    try {
      const from = server.requests.length;
      const cancelledBefore = server.cancelled('never');
      const started = performance.now();
      const error = await client.callTool({ name: 'never', arguments: {}, options: { timeout: 500 } }).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      const rejectedAfter = performance.now() - started;
      expect((error as Error).message).toBe('Request timed out after 500ms');
      expect(rejectedAfter).toBeGreaterThanOrEqual(490);
      expect(rejectedAfter).toBeLessThan(1000);
      // Both transports close the call's stream at the timeout, in either era; in 2026-07-28 that
      // is the cancellation, and the tool's handler sees it.
      const call = server.requests.slice(from).find((request) => request.rpcMethod === 'tools/call')!;
      await eventually(() => call.closedEarly, 300);
      if (modern) await eventually(() => server.cancelled('never') === cancelledBefore + 1, 300);
    } finally {
      await client.close();
    }
  });

  test.each(TRANSPORTS)('over the %s transport: close() ends a 2025 session with a DELETE, and a 2026 connection with nothing', async (kind) => {
    const { client, transport } = await connect(server, kind);
    let closed = 0;
    if (transport !== undefined) {
      const onclose = transport.onclose;
      transport.onclose = () => {
        closed += 1;
        onclose?.();
      };
    }
    const sessionId = transport?.sessionId;
    const from = server.requests.length;
    await client.close();
    const deletes = server.requests.slice(from).filter((request) => request.method === 'DELETE');
    expect(deletes.map((request) => request.status)).toEqual(negotiated.session ? [200] : []);
    if (transport !== undefined) {
      expect(closed).toBe(1);
      if (negotiated.session) expect(deletes[0]!.headers['mcp-session-id']).toBe(sessionId);
      await expect(transport.send({ jsonrpc: '2.0', id: 9, method: 'ping' })).rejects.toThrow('AnswerTransport: the transport is closed');
    }
  });
});

describe('a 2025 server that refuses the probe with a bare 404', () => {
  let server: RunningEraServer;
  beforeAll(async () => {
    server = await startSdkServer('stateful');
  });
  afterAll(async () => {
    await server.stop();
  });

  /** The server's fetch, with its `server/discover` answered 404 in plain text, as a server that has no such route. */
  const bare = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    if (typeof init?.body === 'string' && (JSON.parse(init.body) as { method?: unknown }).method === 'server/discover') {
      return new Response('Not Found', { status: 404, headers: { 'content-type': 'text/plain' } });
    }
    return fetch(input, init);
  };

  test.each(TRANSPORTS)('the AI SDK client over the %s transport falls back to initialize and connects', async (kind) => {
    const transport: Parameters<typeof createMCPClient>[0]['transport'] = kind === 'own' ? { type: 'http', url: server.url, fetch: bare } : new AnswerTransport(server.url, { fetch: bare });
    const client = await createMCPClient({ transport });
    try {
      expect(client.initializeResult.protocolVersion).toBe('2025-11-25');
      expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toBe('hi');
    } finally {
      await client.close();
    }
  });

  test("the v2 SDK Client ('auto') over AnswerTransport falls back to initialize and connects", async () => {
    const client = new Client({ name: 'bare-404', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    try {
      await client.connect(new AnswerTransport(server.url, { fetch: bare }));
      expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    } finally {
      await client.close();
    }
  });
});

describe('what the AI SDK client asks of a transport', () => {
  test('AnswerTransport opts into discovery, waits for it, and mirrors tool parameter headers', () => {
    const transport = new AnswerTransport('http://mcp.test/mcp');
    expect([transport.supportsProtocolVersionDiscovery, transport.waitsForProtocolVersionDiscovery, transport.supportsMcpToolParameterHeaders]).toEqual([true, true, true]);
  });
});

describe("the embedding guide's recipe", () => {
  test('the guide shows the recipe exactly as it is type-checked and run here', () => {
    const recipes = readFileSync(new URL('./helpers/ai-sdk-recipes.ts', import.meta.url), 'utf8');
    const guide = readFileSync(new URL('../docs/guides/embedding.md', import.meta.url), 'utf8');
    const regions = [...recipes.matchAll(/\/\/ #region (\S+)\n([\s\S]*?)\/\/ #endregion/g)];
    expect(regions.map(([, name]) => name)).toEqual(['ai-sdk']);
    expect(guide).toContain(regions[0]![2]!.replace("'../../src/index.js'", "'sse-answer'").trimEnd());
  });

  test.each(['sdk-modern', 'sdk-stateful'])('the recipe connects to %s, sends the token on every request, and its signal ends a call', async (name) => {
    const server = await ERA_SERVERS.find((kind) => kind.name === name)!.start();
    const controller = new AbortController();
    try {
      const client = await connectAiSdk(server.url, 'secret-token', controller.signal);
      expect(client.initializeResult.protocolVersion).toBe(NEGOTIATED[name]!.version);
      const call = client.callTool({ name: 'never', arguments: {} }).then(
        () => undefined,
        (error: unknown) => error,
      );
      await eventually(() => server.running('never') === 1);
      controller.abort(new Error('shutting down'));
      expect(await call).toBeInstanceOf(Error);
      await eventually(() => server.requests.some((request) => request.rpcMethod === 'tools/call' && request.closedEarly));
      await client.close();
      expect(server.requests.every((request) => request.headers['authorization'] === 'Bearer secret-token')).toBe(true);
    } finally {
      await server.stop();
    }
  });
});
