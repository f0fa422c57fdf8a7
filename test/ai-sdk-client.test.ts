// The AI SDK's MCP client (`createMCPClient` from @ai-sdk/mcp) over AnswerTransport, beside the
// same client over the AI SDK's own HTTP transport, against every era server: the v2 SDK server
// stateless 2026-07-28 only, both eras, and legacy only with sessions, then mcp-handler and tmcp.
// Each case runs on both transports and must come out the same, and as pinned here. Then what
// the client meets at its probe: a 2025 server's bare refusal, and a 2026 server's slow answer.
import { createMCPClient, type MCPClient, type MCPTransport } from '@ai-sdk/mcp';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AnswerTransport, isAnswerError, type TransportMessage } from '../src/index.js';
import { readFileSync } from 'node:fs';
import { connectAiSdk } from './helpers/ai-sdk-recipes.js';
import { eventually } from './helpers/mcp-server.js';
import { ERA_SERVERS, PROGRESS_LOG, startSdkServer, type EraRequest, type RunningEraServer } from './helpers/era-servers.js';

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
  /** What the client reported to `onUncaughtError`, over either transport. */
  readonly uncaught: unknown[];
}

async function connect(server: RunningEraServer, kind: TransportKind): Promise<Connected> {
  const uncaught: unknown[] = [];
  const onUncaughtError = (error: unknown): void => void uncaught.push(error);
  if (kind === 'own') return { client: await createMCPClient({ transport: { type: 'http', url: server.url }, onUncaughtError }), transport: undefined, delivered: [], uncaught };
  const transport = new AnswerTransport(server.url);
  const client = await createMCPClient({ transport: asTransport(transport), onUncaughtError });
  // Watched after the client set its handler: every message still reaches the client.
  const delivered: TransportMessage[] = [];
  const handler = transport.onmessage;
  transport.onmessage = (message) => {
    delivered.push(message);
    handler?.(message);
  };
  return { client, transport, delivered, uncaught };
}

/** The transport for `createMCPClient`: the AI SDK's own over `fetch`, or an AnswerTransport over it. */
function transportOf(kind: TransportKind, url: string, fetch: typeof globalThis.fetch): Parameters<typeof createMCPClient>[0]['transport'] {
  return kind === 'own' ? { type: 'http', url, fetch } : new AnswerTransport(url, { fetch });
}

/** Whether a fetch carries a `server/discover` request. */
function isProbe(init: RequestInit | undefined): boolean {
  return typeof init?.body === 'string' && (JSON.parse(init.body) as { method?: unknown }).method === 'server/discover';
}

/** The milliseconds from `started` until `check()` first holds, polled every 5 ms; rejects after `ms`. */
async function timeUntil(check: () => boolean, started: number, ms: number): Promise<number> {
  const until = performance.now() + ms;
  while (!check()) {
    if (performance.now() > until) throw new Error('the condition did not hold in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return performance.now() - started;
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
    server = await ERA_SERVERS.find((kind) => kind.name === name)!.start();
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

  // The AI SDK's client sends no progressToken (it has no progress callback), so no server sends
  // it progress notifications; what can be seen is the log message before the result. The client
  // handles no notification: it reports each one to onUncaughtError as an unsupported message.
  test.each(TRANSPORTS)("over the %s transport: a tool's log message reaches the client before its result; the call carries no progressToken", async (kind) => {
    const { client, delivered, uncaught } = await connect(server, kind);
    try {
      const from = server.requests.length;
      const uncaughtBefore = uncaught.length;
      expect(textOf(await client.callTool({ name: 'progress', arguments: { steps: 3 } }))).toBe('done');
      const call = server.requests.slice(from).find((request) => request.rpcMethod === 'tools/call')!;
      expect((call.body as { params: { _meta?: Record<string, unknown> } }).params._meta?.['progressToken']).toBeUndefined();
      // Over both transports, the client received the log message, and no other notification.
      // (Its own transport also reports its own failures there, such as a refused GET stream.)
      const unsupported = uncaught.slice(uncaughtBefore).filter((error) => (error as Error).message === 'Unsupported message type');
      expect(unsupported).toHaveLength(negotiated.logs ? 1 : 0);
      if (kind === 'answer') {
        // What the server sent on the call's stream reached the client, the result last.
        const logs = delivered.filter((message) => message.method === 'notifications/message').map((message) => (message.params as { data: unknown }).data);
        expect(logs).toEqual(negotiated.logs ? [PROGRESS_LOG] : []);
        expect(delivered.filter((message) => message.method === 'notifications/progress')).toEqual([]);
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
      const timeout = 500;
      const started = performance.now();
      // Watched from the start, so that the time the server saw the stream close is measured
      // against the client's timeout, not against when the rejection was seen.
      const closed = timeUntil(() => server.requests.slice(from).some((request) => request.rpcMethod === 'tools/call' && request.closedEarly), started, 2000);
      closed.catch(() => undefined); // awaited below; not an unhandled rejection if an assertion fails first
      const error = await client.callTool({ name: 'never', arguments: {}, options: { timeout } }).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      const rejectedAfter = performance.now() - started;
      expect((error as Error).message).toBe(`Request timed out after ${timeout}ms`);
      expect(rejectedAfter).toBeGreaterThanOrEqual(timeout - 10);
      expect(rejectedAfter).toBeLessThan(1000);
      // Both transports close the call's stream at the timeout, in either era — not before it,
      // and not at the end of a call that would never come; in 2026-07-28 that is the
      // cancellation, and the tool's handler sees it.
      const closedAfter = await closed;
      expect(closedAfter).toBeGreaterThanOrEqual(timeout - 10);
      expect(closedAfter).toBeLessThan(timeout + 150);
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

/**
 * A 2025 server's refusal of `server/discover` with no JSON-RPC body, and what the v2 SDK Client
 * does with it over its own transport: it falls back on a 4xx, and stops at a 403 or a 5xx.
 */
const BARE_REFUSALS = [
  { status: 404, v2Own: 'falls back' },
  { status: 403, v2Own: 'stops' },
  { status: 500, v2Own: 'stops' },
  { status: 503, v2Own: 'stops' },
] as const;

describe('a 2025 server that refuses the probe with a bare 404, 403 or 5xx', () => {
  let server: RunningEraServer;
  beforeAll(async () => {
    server = await startSdkServer('stateful');
  });
  afterAll(async () => {
    await server.stop();
  });

  /** The server's fetch, with its `server/discover` answered `status` in plain text, as a server (or a gateway before it) that has no such route. */
  const bare =
    (status: number, refused: { count: number }) =>
    async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      if (!isProbe(init)) return fetch(input, init);
      refused.count += 1;
      return new Response('no such method', { status, headers: { 'content-type': 'text/plain' } });
    };

  const cases = BARE_REFUSALS.flatMap(({ status }) => TRANSPORTS.map((kind) => [status, kind] as const));
  test.each(cases)('HTTP %i: the AI SDK client over the %s transport falls back to initialize and connects', async (status, kind) => {
    const refused = { count: 0 };
    const from = server.requests.length;
    const client = await createMCPClient({ transport: transportOf(kind, server.url, bare(status, refused)) });
    try {
      expect(client.initializeResult.protocolVersion).toBe('2025-11-25');
      expect(refused.count).toBe(1);
      expect(posts(server.requests.slice(from))).toEqual(['initialize 200', 'notifications/initialized 202']);
      expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toBe('hi');
    } finally {
      await client.close();
    }
  });

  // The transport does not know its client: the in-band error that makes the AI SDK's client fall
  // back makes the v2 Client fall back too, also where over its own transport it stops.
  test.each(BARE_REFUSALS.map(({ status, v2Own }) => [status, v2Own] as const))("HTTP %i: the v2 SDK Client ('auto') over AnswerTransport falls back to initialize and connects; over its own transport it %s", async (status, v2Own) => {
    for (const kind of TRANSPORTS) {
      const refused = { count: 0 };
      const client = new Client({ name: `bare-${status}`, version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
      const transport = kind === 'own' ? new StreamableHTTPClientTransport(new URL(server.url), { fetch: bare(status, refused) }) : new AnswerTransport(server.url, { fetch: bare(status, refused) });
      try {
        const connected = await client.connect(transport).then(
          () => 'falls back',
          (error: unknown) => (error as Error).message,
        );
        expect(refused.count).toBe(1);
        if (kind === 'answer' || v2Own === 'falls back') {
          expect(connected).toBe('falls back');
          expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
        } else {
          expect(connected).toContain(`HTTP ${status}`);
        }
      } finally {
        await client.close();
      }
    }
  });

  test.each(TRANSPORTS)('HTTP 401 to every request: the AI SDK client over the %s transport fails to connect with that 401', async (kind) => {
    const sent: string[] = [];
    const unauthorized = async (_input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      sent.push(isProbe(init) ? 'server/discover' : (JSON.parse(String(init?.body)) as { method: string }).method);
      return new Response('who are you?', { status: 401, headers: { 'content-type': 'text/plain', 'www-authenticate': 'Bearer error="invalid_token"' } });
    };
    const error = await createMCPClient({ transport: transportOf(kind, server.url, unauthorized) }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    if (kind === 'own') {
      // Its own transport reads the 401 as "not 2026-07-28", and meets it again at initialize.
      expect((error as { statusCode?: unknown }).statusCode).toBe(401);
      expect(sent).toEqual(['server/discover', 'initialize']);
    } else {
      // AnswerTransport stops at the probe's 401, a credential to fix, with its challenge.
      expect(isAnswerError(error) && [error.code, error.detail.status, error.detail.challenge?.error]).toEqual(['http_status', 401, 'invalid_token']);
      expect(sent).toEqual(['server/discover']);
    }
  });
});

describe("a 2026-07-28 server whose server/discover answer takes longer than the AI SDK's 1 s probe timeout", () => {
  let server: RunningEraServer;
  beforeAll(async () => {
    server = await startSdkServer('both');
  });
  afterAll(async () => {
    await server.stop();
  });

  /** The AI SDK's `DEFAULT_PROTOCOL_DISCOVERY_TIMEOUT`, which applies only to a transport that does not wait. */
  const PROBE_TIMEOUT = 1000;
  /** The server's fetch, with its answer to `server/discover` held back past that timeout. */
  const slow = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    if (isProbe(init)) await new Promise((resolve) => setTimeout(resolve, PROBE_TIMEOUT + 500));
    return fetch(input, init);
  };

  // Both transports set waitsForProtocolVersionDiscovery, so the client waits for the answer; a
  // transport that did not would have the probe timed out at 1 s and the client fall back to a
  // 2025 session with this server, which speaks both eras.
  test.each(TRANSPORTS)('the AI SDK client over the %s transport waits for it and negotiates 2026-07-28', async (kind) => {
    const from = server.requests.length;
    const started = performance.now();
    const client = await createMCPClient({ transport: transportOf(kind, server.url, slow) });
    try {
      expect(client.initializeResult.protocolVersion).toBe(MODERN);
      expect(posts(server.requests.slice(from))).toEqual(['server/discover 200']);
      // The answer really came after the probe timeout.
      expect(performance.now() - started).toBeGreaterThanOrEqual(PROBE_TIMEOUT + 490);
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
