// The baseline AnswerTransport must later match: every era server (four implementations nobody
// here wrote) under the v2 SDK Client with the SDK's own StreamableHTTPClientTransport in each
// negotiation mode, and under the v1 Client with its own transport. What succeeds, what fails
// and how, and what each side saw on the wire, pinned as observed.
import { Client, SdkError, SdkErrorCode, SdkHttpError, StreamableHTTPClientTransport, type VersionNegotiationMode } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { eventually } from './helpers/mcp-server.js';
import { ELICIT_KEY, ERA_SERVERS, ERA_TOOL_NAMES, PROGRESS_LOG, startEraServers, type EraRequest, type RunningEraServer } from './helpers/era-servers.js';

const MODERN = '2026-07-28';
const MiB = 1024 * 1024;

/** The four client set-ups of the table. */
const CLIENT_MODES = ['legacy', 'auto', 'pin', 'v1'] as const;
type ClientMode = (typeof CLIENT_MODES)[number];

const NEGOTIATION: Record<Exclude<ClientMode, 'v1'>, VersionNegotiationMode> = { legacy: 'legacy', auto: 'auto', pin: { pin: MODERN } };

/** What one client set-up got from one server: connect, list tools, call `echo`. */
type Outcome =
  | { readonly ok: true; readonly version: string | undefined; readonly session: boolean; readonly tools: string[]; readonly echo: string }
  | { readonly ok: false; readonly error: unknown };

/** A row of the table: an outcome, plus the POSTs (`rpcMethod status`) and the GET status it caused. */
type Expected =
  | { readonly ok: true; readonly version: string; readonly session: boolean; readonly posts: string[]; readonly get: number | undefined }
  | { readonly ok: false; readonly check: (error: unknown) => void; readonly posts: string[] };

function textOf(result: unknown): string {
  return (result as { content: { text: string }[] }).content[0]!.text;
}

async function withV2(url: string, mode: VersionNegotiationMode): Promise<Outcome> {
  const client = new Client({ name: 'era-baseline', version: '1.0.0' }, { versionNegotiation: { mode } });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    const echo = textOf(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }));
    return { ok: true, version: client.getNegotiatedProtocolVersion(), session: transport.sessionId !== undefined, tools: tools.map((tool) => tool.name), echo };
  } catch (error) {
    return { ok: false, error };
  } finally {
    await client.close();
  }
}

async function withV1(url: string): Promise<Outcome> {
  const client = new V1Client({ name: 'era-baseline-v1', version: '1.0.0' });
  const transport = new V1Transport(new URL(url));
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    const echo = textOf(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }));
    return { ok: true, version: transport.protocolVersion, session: transport.sessionId !== undefined, tools: tools.map((tool) => tool.name), echo };
  } catch (error) {
    return { ok: false, error };
  } finally {
    await client.close();
  }
}

function posts(requests: readonly EraRequest[]): string[] {
  return requests.filter((request) => request.method === 'POST').map((request) => `${request.rpcMethod ?? '?'} ${String(request.status)}`);
}

const legacyPosts = ['initialize 200', 'notifications/initialized 202', 'tools/list 200', 'tools/call 200'];
const modernPosts = ['server/discover 200', 'tools/list 200', 'tools/call 200'];

/** `legacy` against a 2026-only server: its `initialize` is refused 400 with -32022, thrown as the SDK's HTTP error. */
function refusedInitialize(error: unknown): void {
  expect(error).toBeInstanceOf(SdkHttpError);
  const http = error as SdkHttpError;
  expect(http.code).toBe(SdkErrorCode.ClientHttpNotImplemented);
  expect(http.status).toBe(400);
  expect(http.message).toMatch(/^Error POSTing to endpoint: .*"code":-32022,"message":"Unsupported protocol version: 2025-11-25".*"supported":\["2026-07-28"\]/);
}

/** The v1 Client against a 2026-only server: the same refusal, as the v1 transport's error. */
function refusedInitializeV1(error: unknown): void {
  expect(error).toBeInstanceOf(StreamableHTTPError);
  const http = error as StreamableHTTPError;
  expect(http.code).toBe(400);
  expect(http.message).toMatch(/^Streamable HTTP error: Error POSTing to endpoint: .*"code":-32022/);
}

/** Pinned to 2026-07-28 against a 2025-only server: the probe's 400 is no modern evidence, and pin mode has no fallback. */
function pinRefused(error: unknown): void {
  expect(error).toBeInstanceOf(SdkError);
  expect(error).not.toBeInstanceOf(SdkHttpError);
  expect((error as SdkError).code).toBe(SdkErrorCode.EraNegotiationFailed);
  expect((error as SdkError).message).toBe(
    'Version negotiation failed: the server did not offer pinned protocol version 2026-07-28 via server/discover (no fallback in pin mode)',
  );
}

const bothEras = (legacyVersion: string, session: boolean, get: number): Record<ClientMode, Expected> => ({
  legacy: { ok: true, version: legacyVersion, session, posts: legacyPosts, get },
  auto: { ok: true, version: MODERN, session: false, posts: modernPosts, get: undefined },
  pin: { ok: true, version: MODERN, session: false, posts: modernPosts, get: undefined },
  v1: { ok: true, version: legacyVersion, session, posts: legacyPosts, get },
});

/** The table: server × client set-up. */
const BASELINE: Record<string, Record<ClientMode, Expected>> = {
  'sdk-modern': {
    legacy: { ok: false, check: refusedInitialize, posts: ['initialize 400'] },
    auto: { ok: true, version: MODERN, session: false, posts: modernPosts, get: undefined },
    pin: { ok: true, version: MODERN, session: false, posts: modernPosts, get: undefined },
    v1: { ok: false, check: refusedInitializeV1, posts: ['initialize 400'] },
  },
  // Stateless legacy serving: no session, and the standalone GET stream is refused 405.
  'sdk-both': bothEras('2025-11-25', false, 405),
  'sdk-stateful': {
    legacy: { ok: true, version: '2025-11-25', session: true, posts: legacyPosts, get: 200 },
    // The probe gets the examples' 400 "No valid session ID provided" (-32000): no modern evidence, so `initialize`.
    auto: { ok: true, version: '2025-11-25', session: true, posts: ['server/discover 400', ...legacyPosts], get: 200 },
    pin: { ok: false, check: pinRefused, posts: ['server/discover 400'] },
    v1: { ok: true, version: '2025-11-25', session: true, posts: legacyPosts, get: 200 },
  },
  'mcp-handler': bothEras('2025-11-25', false, 405),
  // tmcp counter-offers 2025-06-18 to the 2025-11-25 `initialize`, and keeps sessions.
  tmcp: bothEras('2025-06-18', true, 200),
};

describe('the baseline table: server × client mode → connect, tools/list, echo', () => {
  const servers = new Map<string, RunningEraServer>();
  beforeAll(async () => {
    for (const server of await startEraServers()) servers.set(server.name, server);
  });
  afterAll(async () => {
    await Promise.all([...servers.values()].map((server) => server.stop()));
  });

  test('the table covers every server, and each connects in exactly the eras it is configured to serve', () => {
    expect(Object.keys(BASELINE)).toEqual(ERA_SERVERS.map((kind) => kind.name));
    for (const [name, row] of Object.entries(BASELINE)) {
      const served = [row.legacy.ok ? 'legacy' : undefined, row.pin.ok ? 'modern' : undefined].filter((era) => era !== undefined);
      expect(servers.get(name)!.eras).toEqual(served);
    }
  });

  for (const kind of ERA_SERVERS) {
    for (const mode of CLIENT_MODES) {
      test(`${kind.name} × ${mode}`, async () => {
        const server = servers.get(kind.name)!;
        const expected = BASELINE[kind.name]![mode];
        const from = server.requests.length;
        const outcome = mode === 'v1' ? await withV1(server.url) : await withV2(server.url, NEGOTIATION[mode]);
        if (expected.ok && expected.get !== undefined) {
          // The legacy clients open the standalone GET stream without waiting for it.
          await eventually(() => server.requests.slice(from).some((request) => request.method === 'GET' && request.status !== undefined));
        }
        const seen = server.requests.slice(from);
        expect(posts(seen)).toEqual(expected.posts);
        if (!expected.ok) {
          expect(outcome.ok).toBe(false);
          if (!outcome.ok) expected.check(outcome.error);
          return;
        }
        expect(outcome).toEqual({ ok: true, version: expected.version, session: expected.session, tools: expect.any(Array), echo: 'hi' });
        if (outcome.ok) expect([...outcome.tools].sort()).toEqual([...ERA_TOOL_NAMES].sort());
        expect(seen.filter((request) => request.method === 'GET').map((request) => request.status)).toEqual(expected.get === undefined ? [] : [expected.get]);
        expect(seen.some((request) => request.method === 'DELETE')).toBe(false);
        for (const request of seen) {
          if (expected.version === MODERN) {
            // Every 2026 POST carries the version and method headers, the body's _meta envelope, and no session.
            expect(request.headers['mcp-protocol-version']).toBe(MODERN);
            expect(request.headers['mcp-method']).toBe(request.rpcMethod);
            expect(request.headers['mcp-name']).toBe(request.toolName);
            expect(request.headers['mcp-session-id']).toBeUndefined();
            expect((request.body as { params: { _meta: Record<string, unknown> } }).params._meta['io.modelcontextprotocol/protocolVersion']).toBe(MODERN);
          } else if (request.rpcMethod !== 'server/discover') {
            // A 2025 exchange (the 'auto' fallback included) carries no 2026 header.
            expect(request.headers['mcp-method']).toBeUndefined();
            expect(request.headers['mcp-protocol-version']).toBe(request.rpcMethod === 'initialize' ? undefined : expected.version);
            expect(request.headers['mcp-session-id'] !== undefined).toBe(expected.session && request.rpcMethod !== 'initialize');
          }
        }
      });
    }
  }
});

/** The servers a mode connects to in the era `version`. */
function reachedIn(mode: ClientMode, version: 'modern' | 'legacy'): typeof ERA_SERVERS {
  return ERA_SERVERS.filter((kind) => {
    const expected = BASELINE[kind.name]![mode];
    return expected.ok && (expected.version === MODERN) === (version === 'modern');
  });
}

/** Whether the server keeps 2025 sessions. */
function hasSessions(name: string): boolean {
  const expected = BASELINE[name]!.legacy;
  return expected.ok && expected.session;
}

describe.each(reachedIn('auto', 'modern'))(
  'the v2 Client (auto, SDK transport) on a 2026-07-28 connection to $name',
  ({ name, start }) => {
    let server: RunningEraServer;
    let client: Client;
    let logs: unknown[];
    let errors: Error[];
    beforeAll(async () => {
      server = await start();
      client = new Client({ name: 'era-modern', version: '1.0.0' }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: 'auto' } });
      logs = [];
      errors = [];
      client.onerror = (error) => errors.push(error);
      client.setNotificationHandler('notifications/message', (notification) => {
        logs.push(notification.params.data);
      });
      client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { name: 'ann' } }));
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    });
    afterAll(async () => {
      await client.close();
      await server.stop();
    });

    test('progress: every notification reaches onprogress; the log message only where the server sends it unasked', async () => {
      const progress: number[] = [];
      const result = await client.callTool({ name: 'progress', arguments: { steps: 3 } }, { onprogress: (p) => progress.push(p.progress) });
      expect(textOf(result)).toBe('done');
      expect(progress).toEqual([1, 2, 3]);
      // tmcp logs a stateless request only at the level its envelope names, and the SDK Client names none.
      expect(logs).toEqual(name === 'tmcp' ? [] : [PROGRESS_LOG]);
    });

    test('big: a 5 MiB result arrives whole', async () => {
      expect(textOf(await client.callTool({ name: 'big', arguments: { bytes: 5 * MiB } })).length).toBe(5 * MiB);
    });

    test('tagged: after tools/list the Client mirrors region into Mcp-Param-Region, and the server accepts it', async () => {
      await client.listTools();
      const from = server.requests.length;
      expect(textOf(await client.callTool({ name: 'tagged', arguments: { region: 'us-west1', text: 'hi' } }))).toBe('us-west1:hi');
      const [call] = server.requests.slice(from);
      expect(call?.headers['mcp-param-region']).toBe('us-west1');
      expect(call?.status).toBe(200);
    });

    test('tagged without a tools/list first: no header, a 400 -32020 delivered in-band, then tools/list and a retry with the header', async () => {
      const fresh = new Client({ name: 'era-fresh', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
      await fresh.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      try {
        const from = server.requests.length;
        expect(textOf(await fresh.callTool({ name: 'tagged', arguments: { region: 'eu-north1', text: 'x' } }))).toBe('eu-north1:x');
        const seen = server.requests.slice(from);
        expect(seen.map((request) => `${request.toolName ?? request.rpcMethod} ${String(request.status)} ${request.headers['mcp-param-region'] ?? '-'}`)).toEqual([
          'tagged 400 -',
          'tools/list 200 -',
          'tagged 200 eu-north1',
        ]);
      } finally {
        await fresh.close();
      }
    });

    test('never, aborted: the Client closes the response stream (no notifications/cancelled) and the handler sees its signal', async () => {
      const from = server.requests.length;
      const before = server.cancelled('never');
      const abort = new AbortController();
      const call = client.callTool({ name: 'never', arguments: {} }, { signal: abort.signal });
      await eventually(() => server.running('never') === 1);
      abort.abort('stop');
      const error = await call.then(() => undefined, (caught: unknown) => caught);
      expect(error).toBeInstanceOf(SdkError);
      expect((error as SdkError).code).toBe(SdkErrorCode.RequestTimeout);
      expect((error as SdkError).message).toBe('stop');
      await eventually(() => server.cancelled('never') === before + 1);
      const seen = server.requests.slice(from);
      expect(seen.map((request) => request.rpcMethod)).toEqual(['tools/call']);
      expect(seen[0]?.closedEarly).toBe(true);
    });

    test('elicit: the Client answers the InputRequiredResult itself and retries with inputResponses', async () => {
      const from = server.requests.length;
      expect(textOf(await client.callTool({ name: 'elicit', arguments: {} }))).toBe('hello ann');
      const calls = server.requests.slice(from);
      expect(calls.map((request) => `${request.toolName ?? '?'} ${String(request.status)}`)).toEqual(['elicit 200', 'elicit 200']);
      expect((calls[0]?.body as { params: Record<string, unknown> }).params['inputResponses']).toBeUndefined();
      expect((calls[1]?.body as { params: { inputResponses: Record<string, unknown> } }).params.inputResponses[ELICIT_KEY]).toEqual({ action: 'accept', content: { name: 'ann' } });
    });

    test('breaks: the server side sees its cancellation; the SDK transport only reports the drop to onerror, and the call waits for its timeout', async () => {
      const before = server.cancelled('breaks');
      errors.length = 0;
      let progressed = 0;
      const error = await client
        .callTool({ name: 'breaks', arguments: {} }, { onprogress: () => (progressed += 1), timeout: 400 })
        .then(() => undefined, (caught: unknown) => caught);
      expect(progressed).toBe(1);
      expect(error).toBeInstanceOf(SdkError);
      expect((error as SdkError).code).toBe(SdkErrorCode.RequestTimeout);
      expect((error as SdkError).message).toBe('Request timed out');
      expect(errors.map((reported) => reported.message)).toContain('SSE stream disconnected: TypeError: terminated');
      await eventually(() => server.cancelled('breaks') === before + 1);
      expect(server.requests.filter((request) => request.toolName === 'breaks').map((request) => request.broken)).toEqual([true]);
      // No notifications/cancelled after the timeout (the stream was already gone), and no GET to resume it.
      expect(server.requests.some((request) => request.rpcMethod === 'notifications/cancelled')).toBe(false);
      expect(server.requests.some((request) => request.method === 'GET')).toBe(false);
    });

    test('the server validates Mcp-Param-Region against the body: 400 -32020 when it differs or is missing', async () => {
      const meta = {
        'io.modelcontextprotocol/protocolVersion': MODERN,
        'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
        'io.modelcontextprotocol/clientCapabilities': {},
      };
      const call = (region: string | undefined): Promise<Response> =>
        fetch(server.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': MODERN,
            'mcp-method': 'tools/call',
            'mcp-name': 'tagged',
            ...(region === undefined ? {} : { 'mcp-param-region': region }),
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'tagged', arguments: { region: 'us-west1', text: 't' }, _meta: meta } }),
        });
      for (const region of ['eu-north1', undefined]) {
        const response = await call(region);
        expect(response.status).toBe(400);
        expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32020 } });
      }
      // The Base64 sentinel form of the same value is accepted.
      expect((await call(`=?base64?${Buffer.from('us-west1').toString('base64')}?=`)).status).toBe(200);
    });

    test('GET and DELETE on the 2026 endpoint are refused 405', async () => {
      for (const method of ['GET', 'DELETE']) {
        const response = await fetch(server.url, { method, headers: { accept: 'text/event-stream', 'mcp-protocol-version': MODERN } });
        expect(response.status).toBe(405);
        await response.body?.cancel();
      }
    });
  },
);

describe.each(reachedIn('legacy', 'legacy'))('the v2 Client (legacy, SDK transport) on a 2025 connection to $name', ({ name, start }) => {
  let server: RunningEraServer;
  let client: Client;
  beforeAll(async () => {
    server = await start();
    client = new Client({ name: 'era-legacy', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { name: 'ann' } }));
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  });
  afterAll(async () => {
    await client.close();
    await server.stop();
  });

  // Stateless legacy serving answers each request from a fresh instance, which never hears of the cancellation.
  const reachesHandler = name === 'sdk-stateful';

  test(`never, aborted: the Client POSTs notifications/cancelled; it reaches the handler: ${String(reachesHandler)}`, async () => {
    const from = server.requests.length;
    const abort = new AbortController();
    const call = client.callTool({ name: 'never', arguments: {} }, { signal: abort.signal });
    await eventually(() => server.running('never') === 1);
    abort.abort('stop');
    await expect(call).rejects.toMatchObject({ code: SdkErrorCode.RequestTimeout, message: 'stop' });
    await eventually(() => server.requests.slice(from).some((request) => request.rpcMethod === 'notifications/cancelled' && request.status === 202));
    if (reachesHandler) await eventually(() => server.cancelled('never') === 1);
    else await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.cancelled('never')).toBe(reachesHandler ? 1 : 0);
    expect(server.running('never')).toBe(reachesHandler ? 0 : 1);
    // The call's own stream is left open by the SDK transport: the server ends it or it lingers.
    expect(server.requests.slice(from).find((request) => request.toolName === 'never')?.closedEarly).toBe(false);
  });

  test('elicit: pushed as elicitation/create where there is a session; refused in the result where there is none', async () => {
    const result = await client.callTool({ name: 'elicit', arguments: {} });
    if (hasSessions(name)) expect(textOf(result)).toBe('hello ann');
    else expect(textOf(result)).toMatch(/^Cannot request input 'name' \(elicitation\/create\): the client on this 2025-era connect/);
  });
});
