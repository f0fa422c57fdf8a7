// AnswerClient against real servers on 127.0.0.1, none written here: the v2 SDK server in its
// three modes (2026-07-28 only, both eras, 2025 only with sessions), mcp-handler and tmcp
// (helpers/era-servers.ts), and the v1 SDK server in its four modes (helpers/mcp-server.ts).
// First the table — server × negotiation mode → era, version, session, and every request it
// took — pinned as observed; then, in each era a server speaks, what a client does with it: tools,
// Mcp-Param-*, notifications, a 5 MiB result, the server's requests for input (MRTR in 2026, a
// server request on the stream in 2025), cancellation on the wire, close(), a failed handshake;
// last, the client guide's recipes, the Worker run in workerd.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  AnswerClient,
  isAnswerError,
  type AnswerClientOptions,
  type FetchFunction,
  type InputRequest,
  type InputRequestContext,
  type JsonObject,
  type JsonRpcMessage,
  type JsonRpcResponse,
} from '../src/index.js';
import { answerError, rejection } from './helpers/bodies.js';
import { startAuthServers, type AuthServers } from './helpers/auth-servers.js';
import { connectWithToken } from './helpers/client-recipes/auth.js';
import { connectWithElicitation, type Question } from './helpers/client-recipes/elicitation.js';
import { ELICIT_KEY, ERA_SERVERS, ERA_TOOL_NAMES, PROGRESS_LOG, type RunningEraServer } from './helpers/era-servers.js';
import type { RecordedRequest } from './helpers/era-http.js';
import { eventually, SERVER_MODES, startMcpServer, type McpServerOptions, type RunningMcpServer } from './helpers/mcp-server.js';

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const MiB = 1024 * 1024;
/** How long the wire may take to show a cancellation: generous, and far below any server timeout. */
const PROMPT_MS = 1000;

// ---------------------------------------------------------------------------------------------
// The servers, as one shape

/** One request as a server saw it: what both server helpers record. */
interface Seen extends RecordedRequest {
  readonly closedEarly: boolean;
}

/** A running server, whichever helper started it. */
interface Subject {
  readonly name: string;
  readonly url: string;
  readonly requests: readonly Seen[];
  /** The era server, for its counters (`undefined` for the v1 server). */
  readonly era: RunningEraServer | undefined;
  /** The v1 server, for its ended sessions (`undefined` for an era server). */
  readonly v1: RunningMcpServer | undefined;
  /** Calls to `never` whose handler saw its cancellation. */
  neverCancelled(): number;
  /** Resolves once a `never` call's handler runs. */
  neverStarted(from: number): Promise<void>;
  stop(): Promise<void>;
}

function eraSubject(server: RunningEraServer): Subject {
  return {
    name: server.name,
    url: server.url,
    requests: server.requests,
    era: server,
    v1: undefined,
    neverCancelled: () => server.cancelled('never'),
    neverStarted: () => eventually(() => server.running('never') === 1),
    stop: () => server.stop(),
  };
}

function v1Subject(name: string, server: RunningMcpServer): Subject {
  return {
    name,
    url: server.url,
    requests: server.requests,
    era: undefined,
    v1: server,
    neverCancelled: () => server.cancelledNever(),
    // The v1 server counts no running calls: its handler starts as the POST is read.
    neverStarted: async (from) => {
      await eventually(() => server.requests.slice(from).some((seen) => toolOf(seen) === 'never'));
      await new Promise((resolve) => setTimeout(resolve, 100));
    },
    stop: () => server.stop(),
  };
}

const v1Name = (mode: McpServerOptions): string => `v1-${mode.stateful ? 'stateful' : 'stateless'}-${mode.json ? 'json' : 'sse'}`;

/** Every server, in a fixed order: the era servers, then the v1 server's four modes. */
const SUBJECTS: readonly { readonly name: string; readonly start: () => Promise<Subject> }[] = [
  ...ERA_SERVERS.map((kind) => ({ name: kind.name, start: async () => eraSubject(await kind.start()) })),
  ...SERVER_MODES.map((mode) => ({ name: v1Name(mode), start: async () => v1Subject(v1Name(mode), await startMcpServer(mode)) })),
];

function startSubject(name: string): Promise<Subject> {
  return SUBJECTS.find((kind) => kind.name === name)!.start();
}

/** The server's name for itself, as `initialize` or `server/discover` says it. */
const SERVER_INFO_NAMES: Record<string, string> = {
  'sdk-modern': 'sse-answer-era-sdk',
  'sdk-both': 'sse-answer-era-sdk',
  'sdk-stateful': 'sse-answer-era-sdk',
  'mcp-handler': 'sse-answer-era-mcp-handler',
  tmcp: 'sse-answer-era-tmcp',
};
const serverInfoName = (name: string): string => SERVER_INFO_NAMES[name] ?? 'sse-answer-test';

// ---------------------------------------------------------------------------------------------
// Small readers

function objectAt(value: unknown, key: string): Record<string, unknown> | undefined {
  const field = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return typeof field === 'object' && field !== null ? (field as Record<string, unknown>) : undefined;
}

function paramsOf(seen: Seen): Record<string, unknown> {
  return objectAt(seen.body, 'params') ?? {};
}

function toolOf(seen: Seen): string | undefined {
  const name = paramsOf(seen)['name'];
  return seen.rpcMethod === 'tools/call' && typeof name === 'string' ? name : undefined;
}

function idOf(seen: Seen): unknown {
  return (seen.body as { id?: unknown } | undefined)?.id;
}

/** A request as a line: `rpcMethod status` for a POST (`reply` for a POSTed response), `METHOD status` otherwise. */
function line(seen: Seen): string {
  const what = seen.method === 'POST' ? (seen.rpcMethod ?? 'reply') : seen.method;
  return `${what} ${String(seen.status)}`;
}

function textOf(answer: JsonRpcResponse): string {
  const content = objectAt(answer, 'result')?.['content'];
  const first: unknown = Array.isArray(content) ? content[0] : undefined;
  const text = objectAt({ first }, 'first')?.['text'];
  if (typeof text !== 'string') throw new Error(`no text in ${JSON.stringify(answer).slice(0, 200)}`);
  return text;
}

/** What a passed-over message was, in a word: `log DATA`, `progress N/T`, or its method. */
function said(message: JsonRpcMessage): string {
  const params = objectAt(message, 'params');
  if (message['method'] === 'notifications/message') return `log ${String(params?.['data'])}`;
  if (message['method'] === 'notifications/progress') return `progress ${String(params?.['progress'])}/${String(params?.['total'])}`;
  return String(message['method']);
}

/** The JSON-RPC response with `id` in a body as it came: a JSON object, or an event stream's data. */
function answerIn(text: string, id: unknown): JsonObject | undefined {
  const candidates = text.trimStart().startsWith('{')
    ? [text]
    : text.split('\n').filter((one) => one.startsWith('data:')).map((one) => one.slice(5));
  return candidates.map((one) => JSON.parse(one) as JsonObject).find((message) => message['id'] === id);
}

/** A `fetch` that keeps the answer of every `tools/call` of `tool`, as the server sent it. */
function keepingAnswers(tool: string): { readonly fetch: FetchFunction; readonly answers: (JsonObject | undefined)[] } {
  const answers: (JsonObject | undefined)[] = [];
  const fetchAndKeep: FetchFunction = async (input, init) => {
    const response = await fetch(input, init);
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as { id?: unknown; method?: unknown; params?: { name?: unknown } }) : undefined;
    if (body?.method === 'tools/call' && body.params?.name === tool) answers.push(answerIn(await response.clone().text(), body.id));
    return response;
  };
  return { fetch: fetchAndKeep, answers };
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// ---------------------------------------------------------------------------------------------
// The table

const NEGOTIATIONS = {
  auto: {},
  legacy: { versionNegotiation: 'legacy' },
  'pin 2026-07-28': { versionNegotiation: { pin: MODERN } },
  'pin 2025-11-25': { versionNegotiation: { pin: LEGACY } },
  'no handshake': { handshake: false },
  'no handshake, 2026 header': { handshake: false, headers: { 'mcp-protocol-version': MODERN } },
} as const satisfies Record<string, AnswerClientOptions>;
type Negotiation = keyof typeof NEGOTIATIONS;

/**
 * A row: what `connect` settled and what `tools/list` then `echo` came to —
 * `ERA VERSION [session] by HOW: ok` (or the first call's `code status`), or `fails: code [status]`
 * — and every request the server saw, `close()`'s DELETE included.
 */
interface Row {
  readonly outcome: string;
  readonly wire: readonly string[];
}

const CALLS = ['tools/list 200', 'tools/call 200'];
const HANDSHAKE = ['initialize 200', 'notifications/initialized 202'];
/** `'auto'` against a server whose 400 to `server/discover` carries -32000: no 2026-07-28 error, so `initialize`. */
const FALLBACK = 'initialize after "HTTP 400, JSON-RPC -32000"';

/**
 * 2026-07-28: the tools of the caller's own `tools/list` are kept for the client's tool headers,
 * so the `tools/call` after it reads no page of its own.
 */
const modern = (by: 'discover' | 'pin' | 'none'): Row => ({
  outcome: `modern ${MODERN} by ${by}: ok`,
  wire: [...(by === 'discover' ? ['server/discover 200'] : []), ...CALLS],
});
const legacy = (version: string, session: boolean, by: string): Row => ({
  outcome: `legacy ${version}${session ? ' session' : ''} by ${by}: ok`,
  wire: [...(by === FALLBACK ? ['server/discover 400'] : []), ...HANDSHAKE, ...CALLS, ...(session ? ['DELETE 200'] : [])],
});
/** Connected with no handshake, then the first request refused. */
const refusedFirst = (outcome: string): Row => ({ outcome: `${outcome}: http_status 400`, wire: ['tools/list 400'] });
const NO_HANDSHAKE_OK: Row = { outcome: 'legacy (no version) by none: ok', wire: CALLS };

/** A server that serves both eras statelessly (no 2025 sessions). */
const bothEras: Record<Negotiation, Row> = {
  auto: modern('discover'),
  legacy: legacy(LEGACY, false, 'initialize'),
  'pin 2026-07-28': modern('pin'),
  'pin 2025-11-25': legacy(LEGACY, false, 'pin, initialize'),
  'no handshake': NO_HANDSHAKE_OK,
  'no handshake, 2026 header': modern('none'),
};

/** The v1 SDK server: 2025 only; it refuses the probe with -32000. */
const v1Row = (stateful: boolean): Record<Negotiation, Row> => ({
  auto: legacy(LEGACY, stateful, FALLBACK),
  legacy: legacy(LEGACY, stateful, 'initialize'),
  'pin 2026-07-28': refusedFirst(`modern ${MODERN} by pin`),
  'pin 2025-11-25': legacy(LEGACY, stateful, 'pin, initialize'),
  'no handshake': stateful ? refusedFirst('legacy (no version) by none') : NO_HANDSHAKE_OK,
  'no handshake, 2026 header': refusedFirst(`modern ${MODERN} by none`),
});

const TABLE: Record<string, Record<Negotiation, Row>> = {
  'sdk-modern': {
    auto: modern('discover'),
    // -32022 UnsupportedProtocolVersion, with a 400: the handshake's failure as it is.
    legacy: { outcome: 'fails: http_status 400', wire: ['initialize 400'] },
    'pin 2026-07-28': modern('pin'),
    'pin 2025-11-25': { outcome: 'fails: http_status 400', wire: ['initialize 400'] },
    // A request with no version at all is refused -32022 too.
    'no handshake': refusedFirst('legacy (no version) by none'),
    'no handshake, 2026 header': modern('none'),
  },
  'sdk-both': bothEras,
  'sdk-stateful': {
    auto: legacy(LEGACY, true, FALLBACK),
    legacy: legacy(LEGACY, true, 'initialize'),
    // A pinned 2026 version sends no handshake: the first request meets "No valid session ID provided".
    'pin 2026-07-28': refusedFirst(`modern ${MODERN} by pin`),
    'pin 2025-11-25': legacy(LEGACY, true, 'pin, initialize'),
    'no handshake': refusedFirst('legacy (no version) by none'),
    'no handshake, 2026 header': refusedFirst(`modern ${MODERN} by none`),
  },
  'mcp-handler': bothEras,
  tmcp: {
    auto: modern('discover'),
    // tmcp answers initialize in 2025-06-18 whatever is asked, and keeps sessions.
    legacy: legacy('2025-06-18', true, 'initialize'),
    'pin 2026-07-28': modern('pin'),
    // Not the pinned version: negotiation_failed, and the session the initialize opened is ended.
    'pin 2025-11-25': { outcome: 'fails: negotiation_failed', wire: ['initialize 200', 'DELETE 200'] },
    'no handshake': NO_HANDSHAKE_OK,
    'no handshake, 2026 header': modern('none'),
  },
  'v1-stateless-sse': v1Row(false),
  'v1-stateless-json': v1Row(false),
  'v1-stateful-sse': v1Row(true),
  'v1-stateful-json': v1Row(true),
};

/**
 * The v2 SDK Client's outcomes as test/era-servers.test.ts pins them (`versionNegotiation` mode
 * `auto`, `legacy`, `{ pin: '2026-07-28' }`): `ERA VERSION [session]`, or `fails`. AnswerClient
 * settles the same wherever both connect — with none of the SDK's standalone GET streams — and
 * differs in one cell, below.
 */
const V2_SDK_CLIENT: Record<string, Record<'auto' | 'legacy' | 'pin 2026-07-28', string>> = {
  'sdk-modern': { auto: `modern ${MODERN}`, legacy: 'fails', 'pin 2026-07-28': `modern ${MODERN}` },
  'sdk-both': { auto: `modern ${MODERN}`, legacy: `legacy ${LEGACY}`, 'pin 2026-07-28': `modern ${MODERN}` },
  'sdk-stateful': { auto: `legacy ${LEGACY} session`, legacy: `legacy ${LEGACY} session`, 'pin 2026-07-28': 'fails' },
  'mcp-handler': { auto: `modern ${MODERN}`, legacy: `legacy ${LEGACY}`, 'pin 2026-07-28': `modern ${MODERN}` },
  tmcp: { auto: `modern ${MODERN}`, legacy: 'legacy 2025-06-18 session', 'pin 2026-07-28': `modern ${MODERN}` },
};

/**
 * Where AnswerClient and the v2 SDK Client part: pinned to 2026-07-28, the SDK Client still
 * probes with `server/discover` and fails `connect` when the server does not offer the version;
 * AnswerClient sends no handshake for a pinned 2026 version, so it connects, and the server's
 * refusal comes with the first request.
 */
const DIFFERS_FROM_V2: Record<string, string> = {
  'sdk-stateful × pin 2026-07-28': `modern ${MODERN} (connects; the first request is refused)`,
};

test('beside the v2 SDK Client: the same era, version and session from every era server, but for a pinned 2026 version', () => {
  for (const [name, row] of Object.entries(V2_SDK_CLIENT)) {
    for (const [negotiation, sdk] of Object.entries(row) as [keyof typeof row, string][]) {
      const ours = TABLE[name]![negotiation].outcome;
      const summary = ours.startsWith('fails') ? 'fails' : ours.replace(/ by .*$/, '');
      const differs = DIFFERS_FROM_V2[`${name} × ${negotiation}`];
      if (differs === undefined) expect(summary, `${name} × ${negotiation}`).toBe(sdk);
      else expect([sdk, `${summary} (connects; the first request is refused)`, ours.endsWith(': http_status 400')]).toEqual(['fails', differs, true]);
    }
  }
});

function describeBy(client: AnswerClient): string {
  const how = client.negotiatedBy;
  switch (how.by) {
    case 'initialize':
      return how.refusal === undefined ? 'initialize' : `initialize after "${how.refusal}"`;
    case 'pin':
      return how.initialize ? 'pin, initialize' : 'pin';
    default:
      return how.by;
  }
}

function failureOf(error: unknown): string {
  if (!isAnswerError(error)) throw error;
  return error.detail.status === undefined ? error.code : `${error.code} ${error.detail.status}`;
}

describe('the table: server × negotiation → era, version, session, and every request', () => {
  const servers = new Map<string, Subject>();
  beforeAll(async () => {
    for (const kind of SUBJECTS) servers.set(kind.name, await kind.start());
  });
  afterAll(async () => {
    await Promise.all([...servers.values()].map((server) => server.stop()));
  });

  test('the table covers every server', () => {
    expect(Object.keys(TABLE)).toEqual(SUBJECTS.map((kind) => kind.name));
  });

  for (const { name } of SUBJECTS) {
    for (const negotiation of Object.keys(NEGOTIATIONS) as Negotiation[]) {
      test(`${name} × ${negotiation}`, async () => {
        const server = servers.get(name)!;
        const expected = TABLE[name]![negotiation];
        const from = server.requests.length;
        let outcome: string;
        let client: AnswerClient | undefined;
        let sessionId: string | undefined;
        try {
          client = await AnswerClient.connect(server.url, NEGOTIATIONS[negotiation]);
          sessionId = client.sessionId;
          let calls = 'ok';
          try {
            const list = await client.request('tools/list');
            const tools = objectAt(list, 'result')?.['tools'];
            expect(Array.isArray(tools) && tools.length > 0).toBe(true);
            expect(textOf(await client.request('tools/call', { name: 'echo', arguments: { text: 'hi' } }))).toBe('hi');
          } catch (error) {
            calls = failureOf(error);
          }
          outcome = `${client.era} ${client.protocolVersion ?? '(no version)'}${sessionId === undefined ? '' : ' session'} by ${describeBy(client)}: ${calls}`;
          expect(await client.close()).toBe(sessionId === undefined ? undefined : 200);
        } catch (error) {
          outcome = `fails: ${failureOf(error)}`;
        }
        const seen = server.requests.slice(from);
        expect({ outcome, wire: seen.map(line) }).toEqual(expected);
        if (client === undefined) return;

        // What it says it negotiated.
        const handshook = client.negotiatedBy.by === 'discover' || client.negotiatedBy.by === 'initialize' || (client.negotiatedBy.by === 'pin' && client.negotiatedBy.initialize);
        expect(client.serverInfo?.['name']).toBe(handshook ? serverInfoName(name) : undefined);
        expect(client.capabilities?.['tools']).toEqual(handshook ? expect.any(Object) : undefined);
        expect(client.handshake?.status).toBe(handshook ? 200 : undefined);
        expect(client.handshake?.headers.get('mcp-session-id') ?? undefined).toBe(sessionId);
        expect(client.supportedVersions).toEqual(client.protocolVersion === undefined ? [] : [client.protocolVersion]);

        // What each request carried.
        for (const request of seen) {
          if (client.era === 'modern') {
            expect(request.headers['mcp-protocol-version']).toBe(MODERN);
            expect(request.headers['mcp-method']).toBe(request.rpcMethod);
            expect(request.headers['mcp-name']).toBe(toolOf(request));
            expect(request.headers['mcp-session-id']).toBeUndefined();
            expect(objectAt(paramsOf(request), '_meta')?.['io.modelcontextprotocol/protocolVersion']).toBe(MODERN);
          } else if (request.rpcMethod !== 'server/discover') {
            expect(request.headers['mcp-method']).toBeUndefined();
            expect(request.headers['mcp-protocol-version']).toBe(request.rpcMethod === 'initialize' ? undefined : client.protocolVersion);
            expect(request.headers['mcp-session-id']).toBe(request.rpcMethod === 'initialize' ? undefined : sessionId);
          }
        }
      });
    }
  }
});

// ---------------------------------------------------------------------------------------------
// In each era a server speaks

/** What a 2025 server does with a tool that asks the client for input on the call's stream. */
interface Asks {
  readonly tool: 'elicit' | 'ask';
  /** What the client declares so that the server asks. */
  readonly capabilities: JsonObject;
  readonly method: string;
  /** The handler's answer, and the tool's text then. */
  readonly answer: JsonObject;
  readonly text: string;
}

const ELICIT_ASKS: Asks = { tool: 'elicit', capabilities: { elicitation: {} }, method: 'elicitation/create', answer: { action: 'accept', content: { name: 'ann' } }, text: 'hello ann' };
const ROOTS_ASKS: Asks = { tool: 'ask', capabilities: { roots: {} }, method: 'roots/list', answer: { roots: [{ uri: 'file:///a' }] }, text: 'file:///a' };

interface Context {
  readonly server: string;
  readonly era: 'modern' | 'legacy';
  /** The version the client speaks with it. */
  readonly version: string;
  readonly session: boolean;
  /** What `progress` sends before its answer: its log message and notifications, the notifications alone, or nothing (a JSON answer). */
  readonly passes: 'log and progress' | 'progress' | 'nothing';
  /** 2025: a tool that sends a server request on its stream, where the server can take the reply. */
  readonly asks: Asks | undefined;
}

const CONTEXTS: readonly Context[] = [
  { server: 'sdk-modern', era: 'modern', version: MODERN, session: false, passes: 'log and progress', asks: undefined },
  { server: 'sdk-both', era: 'modern', version: MODERN, session: false, passes: 'log and progress', asks: undefined },
  { server: 'sdk-both', era: 'legacy', version: LEGACY, session: false, passes: 'log and progress', asks: undefined },
  { server: 'sdk-stateful', era: 'legacy', version: LEGACY, session: true, passes: 'log and progress', asks: ELICIT_ASKS },
  { server: 'mcp-handler', era: 'modern', version: MODERN, session: false, passes: 'log and progress', asks: undefined },
  { server: 'mcp-handler', era: 'legacy', version: LEGACY, session: false, passes: 'log and progress', asks: undefined },
  // tmcp logs a stateless request only at the level its envelope names, and the client names none.
  { server: 'tmcp', era: 'modern', version: MODERN, session: false, passes: 'progress', asks: undefined },
  { server: 'tmcp', era: 'legacy', version: '2025-06-18', session: true, passes: 'log and progress', asks: ELICIT_ASKS },
  // Stateless, the v1 server's reply to a server request reaches another instance. In JSON it
  // sends nothing but the answer: no notification, no server request.
  { server: 'v1-stateless-sse', era: 'legacy', version: LEGACY, session: false, passes: 'log and progress', asks: undefined },
  { server: 'v1-stateless-json', era: 'legacy', version: LEGACY, session: false, passes: 'nothing', asks: undefined },
  { server: 'v1-stateful-sse', era: 'legacy', version: LEGACY, session: true, passes: 'log and progress', asks: ROOTS_ASKS },
  { server: 'v1-stateful-json', era: 'legacy', version: LEGACY, session: true, passes: 'nothing', asks: undefined },
];

describe.each(CONTEXTS)('$server in the $era era', (context) => {
  const isEraServer = ERA_SERVERS.some((kind) => kind.name === context.server);
  const inModern = context.era === 'modern';
  let server: Subject;
  let client: AnswerClient;
  const connect = (options: AnswerClientOptions = {}): Promise<AnswerClient> =>
    AnswerClient.connect(server.url, { versionNegotiation: inModern ? 'auto' : 'legacy', ...options });

  beforeAll(async () => {
    server = await startSubject(context.server);
    client = await connect();
  });
  afterAll(async () => {
    await client.close();
    await server.stop();
  });

  test('connects in the era, version and session expected', () => {
    expect([client.era, client.protocolVersion, client.sessionId !== undefined]).toEqual([context.era, context.version, context.session]);
  });

  test('tools/list lists the tools; echo answers', async () => {
    const list = await client.request('tools/list');
    const tools = (objectAt(list, 'result')?.['tools'] as { name: string }[]).map((tool) => tool.name).sort();
    expect(tools).toEqual(isEraServer ? [...ERA_TOOL_NAMES].sort() : ['ask', 'big', 'echo', 'never', 'poll', 'progress']);
    expect(textOf(await client.request('tools/call', { name: 'echo', arguments: { text: 'hi' } }))).toBe('hi');
  });

  if (isEraServer) {
    test(
      inModern
        ? 'tagged: Mcp-Param-Region from tools/list, read once; a value outside plain ASCII goes Base64-encoded, and the server accepts both'
        : 'tagged: no Mcp-Param-Region, no Mcp-Name, and no tools/list in 2025',
      async () => {
        const fresh = await connect();
        try {
          const from = server.requests.length;
          expect(textOf(await fresh.request('tools/call', { name: 'tagged', arguments: { region: 'us-west1', text: 'a' } }))).toBe('us-west1:a');
          expect(textOf(await fresh.request('tools/call', { name: 'tagged', arguments: { region: 'Zürich', text: 'b' } }))).toBe('Zürich:b');
          const seen = server.requests.slice(from);
          const region = (request: Seen): string => String(request.headers['mcp-param-region'] ?? '-');
          expect(seen.map((request) => `${line(request)} ${region(request)}`)).toEqual(
            inModern
              ? ['tools/list 200 -', 'tools/call 200 us-west1', `tools/call 200 =?base64?${Buffer.from('Zürich').toString('base64')}?=`]
              : ['tools/call 200 -', 'tools/call 200 -'],
          );
          for (const request of seen.filter((one) => one.rpcMethod === 'tools/call')) expect(request.headers['mcp-name']).toBe(inModern ? 'tagged' : undefined);
        } finally {
          await fresh.close();
        }
      },
    );
  }

  test(`progress: onMessage gets ${context.passes}, in order, before the answer`, async () => {
    const passed: string[] = [];
    let answered = false;
    const call = client.request('tools/call', { name: 'progress', arguments: { steps: 3 }, _meta: { progressToken: 'p' } }, {
      onMessage: (message) => passed.push(`${said(message)}${answered ? ' (after the answer)' : ''}`),
    });
    const answer = await call.finally(() => {
      answered = true;
    });
    expect(textOf(answer)).toBe('done');
    const progress = ['progress 1/3', 'progress 2/3', 'progress 3/3'];
    expect(passed).toEqual({ 'log and progress': [`log ${PROGRESS_LOG}`, ...progress], progress, nothing: [] }[context.passes]);
  });

  test('big: a 5 MiB result arrives whole', async () => {
    expect(textOf(await client.request('tools/call', { name: 'big', arguments: { bytes: 5 * MiB } }))).toHaveLength(5 * MiB);
  });

  if (inModern) {
    test('elicit (MRTR): onInputRequired answers; the retry is a new request with inputResponses, and no requestState since none was sent', async () => {
      const asked: [InputRequest, Omit<InputRequestContext, 'signal'>, boolean][] = [];
      const kept = keepingAnswers('elicit');
      const answering = await connect({
        fetch: kept.fetch,
        capabilities: { elicitation: {} },
        onInputRequired: (request, { signal, ...rest }) => {
          asked.push([request, rest, signal.aborted]);
          return { action: 'accept', content: { name: 'ann' } };
        },
      });
      const from = server.requests.length;
      expect(textOf(await answering.request('tools/call', { name: 'elicit', arguments: {} }))).toBe('hello ann');
      expect(asked).toEqual([[{ method: 'elicitation/create', params: expect.objectContaining({ message: 'Your name?' }) }, { era: 'modern', key: ELICIT_KEY }, false]]);
      const calls = server.requests.slice(from).filter((request) => toolOf(request) === 'elicit');
      expect(calls.map(line)).toEqual(['tools/call 200', 'tools/call 200']);
      const [first, retry] = calls as [Seen, Seen];
      expect(paramsOf(first)).not.toHaveProperty('inputResponses');
      expect(idOf(retry)).not.toBe(idOf(first));
      expect(paramsOf(retry)['inputResponses']).toEqual({ [ELICIT_KEY]: { action: 'accept', content: { name: 'ann' } } });
      expect(paramsOf(retry)['arguments']).toEqual({});
      // The server sent no requestState (none of these do), so the retry carries none.
      const sent = objectAt(kept.answers[0], 'result');
      expect(sent?.['resultType']).toBe('input_required');
      expect(sent).not.toHaveProperty('requestState');
      expect(paramsOf(retry)).not.toHaveProperty('requestState');
      expect(retry.headers['mcp-name']).toBe('elicit');
      await answering.close();
    });

    test('elicit with a requestState (added to the first answer on its way): the retry echoes it exactly', async () => {
      const state = 'opaque ünïcode "state" / AEAD==';
      const addingState: FetchFunction = async (input, init) => {
        const response = await fetch(input, init);
        const body = JSON.parse(String(init.body)) as { id?: unknown; method?: unknown; params?: { name?: unknown; inputResponses?: unknown } };
        if (body.method !== 'tools/call' || body.params?.name !== 'elicit' || body.params.inputResponses !== undefined) return response;
        const answer = answerIn(await response.text(), body.id)!;
        return Response.json({ ...answer, result: { ...objectAt(answer, 'result'), requestState: state } });
      };
      const answering = await connect({ fetch: addingState, capabilities: { elicitation: {} }, onInputRequired: () => ({ action: 'accept', content: { name: 'bo' } }) });
      const from = server.requests.length;
      const answer = await answering.request('tools/call', { name: 'elicit', arguments: {} });
      const [first, retry] = server.requests.slice(from).filter((request) => toolOf(request) === 'elicit') as [Seen, Seen];
      expect(paramsOf(first)).not.toHaveProperty('requestState');
      expect(paramsOf(retry)['requestState']).toBe(state);
      if (context.server === 'tmcp') {
        // tmcp decodes every requestState with its codec, and refuses one it did not issue.
        expect(objectAt(answer, 'error')).toMatchObject({ code: -32602, message: expect.stringContaining('Invalid "requestState"') });
      } else {
        // The SDK's tool reads only the inputResponses.
        expect(textOf(answer)).toBe('hello bo');
      }
      await answering.close();
    });

    test('elicit without onInputRequired: the input_required result comes back as the server sent it, and nothing is retried', async () => {
      const kept = keepingAnswers('elicit');
      const asking = await connect({ fetch: kept.fetch, capabilities: { elicitation: {} } });
      const from = server.requests.length;
      const answer = await asking.request('tools/call', { name: 'elicit', arguments: {} });
      expect(answer).toEqual(kept.answers[0]);
      expect(objectAt(objectAt(objectAt(answer, 'result'), 'inputRequests'), ELICIT_KEY)?.['method']).toBe('elicitation/create');
      expect(server.requests.slice(from).filter((request) => toolOf(request) === 'elicit')).toHaveLength(1);
      await asking.close();
    });

    test('breaks: a stream that breaks mid-call is stream_failed with reissue, after the progress it carried; the handler sees its cancellation', async () => {
      const before = server.era!.cancelled('breaks');
      const passed: string[] = [];
      const error = await answerError(client.request('tools/call', { name: 'breaks', arguments: {}, _meta: { progressToken: 'b' } }, { onMessage: (message) => passed.push(said(message)) }));
      expect(error.code).toBe('stream_failed');
      expect(error.detail.reissue).toBe(true);
      expect(passed).toEqual(['progress 1/2']);
      await eventually(() => server.era!.cancelled('breaks') === before + 1);
    });
  }

  if (context.asks !== undefined) {
    const asks = context.asks;
    test(`${asks.tool}: the server's ${asks.method} on the call's stream reaches onMessage and the handler, and the reply is POSTed in the session`, async () => {
      const asked: [InputRequest, Omit<InputRequestContext, 'signal'>][] = [];
      const answering = await connect({
        capabilities: asks.capabilities,
        onInputRequired: (request, { signal: _signal, ...rest }) => {
          asked.push([request, rest]);
          return asks.answer;
        },
      });
      try {
        const from = server.requests.length;
        const passed: JsonRpcMessage[] = [];
        expect(textOf(await answering.request('tools/call', { name: asks.tool, arguments: {} }, { onMessage: (message) => passed.push(message) }))).toBe(asks.text);
        const request = passed.find((message) => message['method'] === asks.method)!;
        expect(request).toBeDefined();
        expect(asked).toEqual([[{ method: asks.method, ...(request['params'] === undefined ? {} : { params: request['params'] }) }, { era: 'legacy', id: request['id'] }]]);
        const reply = server.requests.slice(from).find((seen) => seen.rpcMethod === undefined && seen.method === 'POST')!;
        expect(reply.body).toEqual({ jsonrpc: '2.0', id: request['id'], result: asks.answer });
        expect(reply.status).toBe(202);
        expect(reply.headers['mcp-session-id']).toBe(answering.sessionId);
        expect(reply.headers['mcp-protocol-version']).toBe(context.version);
      } finally {
        await answering.close();
      }
    });

    test(`${asks.tool} without onInputRequired: the server request is answered -32601, and the tool does not get its answer`, async () => {
      const refusing = await connect({ capabilities: asks.capabilities });
      try {
        const from = server.requests.length;
        const answer = await refusing.request('tools/call', { name: asks.tool, arguments: {} });
        expect(JSON.stringify(answer)).not.toContain(asks.text);
        const reply = server.requests.slice(from).find((seen) => seen.rpcMethod === undefined && seen.method === 'POST')!;
        expect(reply.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32601, message: `the client does not answer ${asks.method}` } });
        expect(reply.status).toBe(202);
      } finally {
        await refusing.close();
      }
    });
  } else if (isEraServer && !inModern) {
    test('elicit: a stateless 2025 server cannot ask, and says so in the result; the handler is not called', async () => {
      let called = 0;
      const answering = await connect({ capabilities: { elicitation: {} }, onInputRequired: () => ((called += 1), { action: 'decline' }) });
      const answer = await answering.request('tools/call', { name: 'elicit', arguments: {} });
      expect(textOf(answer)).toMatch(/^Cannot request input 'name' \(elicitation\/create\): the client on this 2025-era connection did not declare/);
      expect(called).toBe(0);
      expect(await answering.close()).toBeUndefined();
    });
  }

  test(
    inModern
      ? 'cancellation: the aborted call rejects at once, its stream is closed on the wire, and the handler sees it; no notifications/cancelled'
      : 'cancellation: the aborted call rejects at once, its stream is closed, notifications/cancelled is POSTed for its id, and the handler sees it',
    async () => {
      const from = server.requests.length;
      const before = server.neverCancelled();
      const controller = new AbortController();
      const call = rejection(client.request('tools/call', { name: 'never', arguments: {} }, { signal: controller.signal }));
      await server.neverStarted(from);
      const abortedAt = performance.now();
      controller.abort(new Error('the user went away'));
      const error = await call;
      expect(performance.now() - abortedAt).toBeLessThan(PROMPT_MS);
      expect(isAnswerError(error) && error.code).toBe('aborted');
      const seenCall = server.requests.slice(from).find((seen) => toolOf(seen) === 'never')!;
      await eventually(() => seenCall.closedEarly, PROMPT_MS);
      if (inModern) {
        await eventually(() => server.neverCancelled() === before + 1, PROMPT_MS);
        expect(server.requests.slice(from).map((seen) => seen.rpcMethod)).toEqual(['tools/call']);
      } else {
        await eventually(() => server.requests.slice(from).some((seen) => seen.rpcMethod === 'notifications/cancelled' && seen.status === 202), PROMPT_MS);
        const cancelled = server.requests.slice(from).find((seen) => seen.rpcMethod === 'notifications/cancelled')!;
        expect(paramsOf(cancelled)).toEqual({ requestId: idOf(seenCall), reason: 'aborted by the client' });
        expect(cancelled.headers['mcp-session-id']).toBe(client.sessionId);
        await eventually(() => server.neverCancelled() === before + 1, PROMPT_MS);
      }
      // The client goes on.
      expect(textOf(await client.request('tools/call', { name: 'echo', arguments: { text: 'after' } }))).toBe('after');
    },
  );

  test(context.session ? 'close(): the session ends with a DELETE that carries it' : 'close(): nothing to end, nothing sent', async () => {
    const closing = await connect();
    const sessionId = closing.sessionId;
    expect(sessionId !== undefined).toBe(context.session);
    const from = server.requests.length;
    expect(await closing.close()).toBe(context.session ? 200 : undefined);
    const seen = server.requests.slice(from);
    expect(seen.map(line)).toEqual(context.session ? ['DELETE 200'] : []);
    if (context.session) {
      expect(seen[0]!.headers['mcp-session-id']).toBe(sessionId);
      expect(seen[0]!.headers['mcp-protocol-version']).toBe(context.version);
      if (server.v1 !== undefined) expect(server.v1.endedSessions).toContain(sessionId);
    }
    expect(closing.sessionId).toBeUndefined();
    expect(await closing.close()).toBeUndefined();
    await expect(closing.request('tools/list')).rejects.toThrow('AnswerClient: the client is closed');
    expect(server.requests.length).toBe(from + seen.length);
  });
});

// ---------------------------------------------------------------------------------------------
// A handshake that fails after the server issued a session

describe('a request stopped, a session lost, the client closed', () => {
  /** A `fetch` that holds every `tools/list` for `ms` (or until its signal aborts, as fetch does). */
  const slowToolsList = (ms: number): FetchFunction => async (input, init) => {
    if (String(init.body).includes('"tools/list"')) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, ms);
        init.signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(init.signal!.reason);
        }, { once: true });
      });
    }
    return fetch(input, init);
  };

  test('2026-07-28: a call aborted while the client reads tools/list for its headers rejects at once', async () => {
    const server = await startSubject('sdk-modern');
    try {
      const client = await AnswerClient.connect(server.url, { fetch: slowToolsList(3000) });
      const controller = new AbortController();
      const call = rejection(client.request('tools/call', { name: 'echo', arguments: { text: 'x' } }, { signal: controller.signal }));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const abortedAt = performance.now();
      controller.abort();
      const error = await call;
      expect(isAnswerError(error) && error.code).toBe('aborted');
      expect(performance.now() - abortedAt).toBeLessThan(PROMPT_MS);
      await client.close();
    } finally {
      await server.stop();
    }
  });

  test.each([
    ['sdk-modern', 'modern'],
    ['v1-stateful-sse', 'legacy'],
  ])('%s (%s): a signal aborted before the request: aborted, and nothing is sent', async (name) => {
    const server = await startSubject(name);
    try {
      const client = await AnswerClient.connect(server.url);
      const from = server.requests.length;
      const error = await answerError(client.request('tools/call', { name: 'echo', arguments: { text: 'x' } }, { signal: AbortSignal.abort() }));
      expect(error.code).toBe('aborted');
      await new Promise((resolve) => setTimeout(resolve, 100)); // room for anything sent after the rejection
      expect(server.requests.slice(from).map(line)).toEqual([]);
      await client.close();
    } finally {
      await server.stop();
    }
  });

  test('2026-07-28: two calls at once before the tools are known read tools/list once', async () => {
    const server = await startSubject('sdk-modern');
    try {
      const client = await AnswerClient.connect(server.url);
      const from = server.requests.length;
      const answers = await Promise.all(['a', 'b'].map((region) => client.request('tools/call', { name: 'tagged', arguments: { region, text: 't' } })));
      expect(answers.map(textOf)).toEqual(['a:t', 'b:t']);
      expect(server.requests.slice(from).map((seen) => seen.rpcMethod)).toEqual(['tools/list', 'tools/call', 'tools/call']);
    } finally {
      await server.stop();
    }
  });

  test.each(['a request signal', 'timeoutMs'])('2025: a call stopped by %s timing out is timeout, and notifications/cancelled says "timed out"', async (how) => {
    const server = await startSubject('v1-stateful-sse');
    try {
      const client = await AnswerClient.connect(server.url, how === 'timeoutMs' ? { timeoutMs: 300 } : {});
      const from = server.requests.length;
      const options = how === 'timeoutMs' ? {} : { signal: AbortSignal.timeout(200) };
      const error = await answerError(client.request('tools/call', { name: 'never', arguments: {} }, options));
      expect(error.code).toBe('timeout');
      await eventually(() => server.requests.slice(from).some((seen) => seen.rpcMethod === 'notifications/cancelled'), PROMPT_MS);
      const [call, cancelled] = server.requests.slice(from) as [Seen, Seen];
      expect(call.closedEarly).toBe(true);
      expect(paramsOf(cancelled)).toEqual({ requestId: idOf(call), reason: 'timed out' });
      await client.close();
    } finally {
      await server.stop();
    }
  });

  test("2025: a call stopped by the client's own signal is aborted, and notifications/cancelled still goes out, though that signal has aborted", async () => {
    const server = await startSubject('v1-stateful-sse');
    try {
      const controller = new AbortController();
      const client = await AnswerClient.connect(server.url, { signal: controller.signal });
      const from = server.requests.length;
      const call = answerError(client.request('tools/call', { name: 'never', arguments: {} }));
      await server.neverStarted(from);
      controller.abort(new Error('the client is done'));
      expect((await call).code).toBe('aborted');
      await eventually(() => server.requests.slice(from).some((seen) => seen.rpcMethod === 'notifications/cancelled'), PROMPT_MS);
      const [seenCall, cancelled] = server.requests.slice(from) as [Seen, Seen];
      expect(paramsOf(cancelled)).toEqual({ requestId: idOf(seenCall), reason: 'aborted by the client' });
    } finally {
      await server.stop();
    }
  });

  test.each(CONTEXTS.filter((context) => context.server === 'sdk-modern' || context.server === 'v1-stateful-sse' || context.server === 'tmcp'))(
    'close() with a call in flight ($server, $era): the call rejects aborted at once, its stream closed; a session is DELETEd, no notifications/cancelled',
    async (context) => {
      const server = await startSubject(context.server);
      try {
        const client = await AnswerClient.connect(server.url, { versionNegotiation: context.era === 'modern' ? 'auto' : 'legacy' });
        const from = server.requests.length;
        const before = server.neverCancelled();
        const call = rejection(client.request('tools/call', { name: 'never', arguments: {} }));
        await server.neverStarted(from);
        const closedAt = performance.now();
        expect(await client.close()).toBe(context.session ? 200 : undefined);
        const error = await call;
        expect(performance.now() - closedAt).toBeLessThan(PROMPT_MS);
        expect(isAnswerError(error) && error.code).toBe('aborted');
        const seen = server.requests.slice(from);
        const seenCall = seen.find((request) => toolOf(request) === 'never')!;
        await eventually(() => seenCall.closedEarly, PROMPT_MS);
        await eventually(() => server.neverCancelled() === before + 1, PROMPT_MS);
        // A 2026 client's first call reads tools/list for its headers.
        const expected = context.era === 'modern' ? ['tools/list', 'tools/call'] : context.session ? ['tools/call', 'DELETE'] : ['tools/call'];
        expect(seen.map((request) => request.rpcMethod ?? request.method)).toEqual(expected);
      } finally {
        await server.stop();
      }
    },
  );

  test('2026-07-28: subscriptions/listen (a standing stream) is refused unsupported_request before anything is sent', async () => {
    const server = await startSubject('sdk-modern');
    try {
      // The deadline bounds the test should the request go out: the stream would stay open.
      const client = await AnswerClient.connect(server.url, { timeoutMs: 1000 });
      const from = server.requests.length;
      const error = await answerError(client.request('subscriptions/listen', { notifications: { toolsListChanged: true } }));
      expect(error.code).toBe('unsupported_request');
      expect(server.requests.slice(from).map(line)).toEqual([]);
      await client.close();
    } finally {
      await server.stop();
    }
  });

  test.each([
    ['sdk-modern', 'modern'],
    ['v1-stateful-sse', 'legacy'],
  ])('%s (%s): notify() POSTs the notification in the era, and resolves once the server accepted it', async (name, era) => {
    const server = await startSubject(name);
    try {
      const client = await AnswerClient.connect(server.url);
      const from = server.requests.length;
      await client.notify('notifications/roots/list_changed');
      const [sent] = server.requests.slice(from) as [Seen];
      expect(line(sent)).toBe('notifications/roots/list_changed 202');
      if (era === 'modern') {
        expect(sent.headers['mcp-method']).toBe('notifications/roots/list_changed');
        expect(objectAt(paramsOf(sent), '_meta')?.['io.modelcontextprotocol/protocolVersion']).toBe(MODERN);
      } else {
        expect(sent.headers['mcp-session-id']).toBe(client.sessionId);
        expect(sent.body).toEqual({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' });
      }
      await client.close();
    } finally {
      await server.stop();
    }
  });

  test('2025, renewSession: false: a 404 to a request that carried the session clears sessionId; close() then has nothing to end', async () => {
    const server = await startSubject('v1-stateful-sse');
    try {
      const client = await AnswerClient.connect(server.url, { versionNegotiation: 'legacy', renewSession: false });
      const sessionId = client.sessionId;
      expect(sessionId).toEqual(expect.any(String));
      server.v1!.forgetSessions();
      const error = await answerError(client.request('tools/list'));
      expect([error.code, error.detail.status]).toEqual(['http_status', 404]);
      expect(objectAt(error.detail.answer, 'error')?.['code']).toBe(-32001);
      expect(client.sessionId).toBeUndefined();
      const from = server.requests.length;
      expect(await client.close()).toBeUndefined();
      expect(server.requests.length).toBe(from);
    } finally {
      await server.stop();
    }
  });

  test('2026-07-28: the MRTR rounds stop at maxInputRounds, and the last input_required result comes back', async () => {
    const server = await startSubject('sdk-modern');
    try {
      let asked = 0;
      // A user who always declines: the tool asks again each time.
      const client = await AnswerClient.connect(server.url, {
        capabilities: { elicitation: {} },
        maxInputRounds: 2,
        onInputRequired: () => ((asked += 1), { action: 'decline' }),
      });
      const from = server.requests.length;
      const answer = await client.request('tools/call', { name: 'elicit', arguments: {} });
      expect(objectAt(answer, 'result')?.['resultType']).toBe('input_required');
      expect(asked).toBe(2);
      expect(server.requests.slice(from).filter((seen) => toolOf(seen) === 'elicit')).toHaveLength(3);
    } finally {
      await server.stop();
    }
  });

  test('2026-07-28: what onInputRequired throws fails the request as it is; 2025: it answers the server request -32603', async () => {
    const modern = await startSubject('sdk-modern');
    const legacy = await startSubject('v1-stateful-sse');
    const thrown = new Error('the user closed the form');
    const onInputRequired = (): never => {
      throw thrown;
    };
    try {
      const modernClient = await AnswerClient.connect(modern.url, { capabilities: { elicitation: {} }, onInputRequired });
      expect(await rejection(modernClient.request('tools/call', { name: 'elicit', arguments: {} }))).toBe(thrown);
      const legacyClient = await AnswerClient.connect(legacy.url, { capabilities: { roots: {} }, onInputRequired });
      const from = legacy.requests.length;
      const answer = await legacyClient.request('tools/call', { name: 'ask', arguments: {} });
      expect(objectAt(answer, 'result')?.['isError']).toBe(true);
      const reply = legacy.requests.slice(from).find((seen) => seen.method === 'POST' && seen.rpcMethod === undefined)!;
      expect(reply.body).toMatchObject({ error: { code: -32603, message: 'the client failed to answer roots/list: Error: the user closed the form' } });
      await legacyClient.close();
    } finally {
      await Promise.all([modern.stop(), legacy.stop()]);
    }
  });
});

describe('a failed initialize that issued a session: the session is DELETEd', () => {
  test('tmcp pinned to 2025-11-25: it answers in 2025-06-18, so negotiation_failed, and its session is ended', async () => {
    const server = await startSubject('tmcp');
    try {
      const error = await answerError(AnswerClient.connect(server.url, { versionNegotiation: { pin: LEGACY } }));
      expect(error.code).toBe('negotiation_failed');
      expect(error.message).toContain('2025-06-18');
      expect(objectAt(error.detail.answer, 'result')?.['protocolVersion']).toBe('2025-06-18');
      expect(server.requests.map(line)).toEqual(['initialize 200', 'DELETE 200']);
      const [, deleted] = server.requests as [Seen, Seen];
      expect(deleted.headers['mcp-session-id']).toEqual(expect.any(String));
      expect(deleted.headers['mcp-protocol-version']).toBe('2025-06-18');
    } finally {
      await server.stop();
    }
  });

  test.each(['v1-stateful-sse', 'v1-stateful-json'])('%s: an initialize answer over maxBytes is budget_exceeded, and its session is ended', async (name) => {
    const server = await startSubject(name);
    try {
      const error = await answerError(AnswerClient.connect(server.url, { versionNegotiation: 'legacy', maxBytes: 32 }));
      expect(error.code).toBe('budget_exceeded');
      expect(server.requests.map(line)).toEqual(['initialize 200', 'DELETE 200']);
      expect(server.v1!.endedSessions).toEqual([server.requests[1]!.headers['mcp-session-id']]);
    } finally {
      await server.stop();
    }
  });

  test.each(['sdk-stateful', 'v1-stateful-sse'])('%s: notifications/initialized refused (500), so connect fails http_status 500, and the session is ended', async (name) => {
    const server = await startSubject(name);
    const issued: string[] = [];
    const refusingInitialized: FetchFunction = async (input, init) => {
      if (typeof init.body === 'string' && init.body.includes('"notifications/initialized"')) return new Response('no', { status: 500 });
      const response = await fetch(input, init);
      const sessionId = response.headers.get('mcp-session-id');
      if (sessionId !== null) issued.push(sessionId);
      return response;
    };
    try {
      const error = await answerError(AnswerClient.connect(server.url, { versionNegotiation: 'legacy', fetch: refusingInitialized }));
      expect([error.code, error.detail.status]).toEqual(['http_status', 500]);
      expect(server.requests.map(line)).toEqual(['initialize 200', 'DELETE 200']);
      expect(issued).toHaveLength(1);
      expect(server.requests[1]!.headers['mcp-session-id']).toBe(issued[0]);
      if (server.v1 !== undefined) expect(server.v1.endedSessions).toEqual(issued);
    } finally {
      await server.stop();
    }
  });
});

describe('the v1 server with an event store: a stream closed early is resumed', () => {
  test('poll: the client GETs with Last-Event-ID in the session and gets the answer, the log passed over on the way', async () => {
    const server = await startMcpServer({ stateful: true, json: false, resumable: { retryInterval: 50 } });
    try {
      const client = await AnswerClient.connect(server.url, { versionNegotiation: 'legacy' });
      const passed: string[] = [];
      const answer = await client.request('tools/call', { name: 'poll', arguments: { delayMs: 150 } }, { onMessage: (message) => passed.push(said(message)) });
      expect(textOf(answer)).toBe('polled');
      expect(passed).toEqual(['log polling']);
      const gets = server.requests.filter((seen) => seen.method === 'GET');
      expect(gets.length).toBeGreaterThanOrEqual(1);
      expect(gets[0]!.headers['last-event-id']).toEqual(expect.any(String));
      expect(gets[0]!.headers['mcp-session-id']).toBe(client.sessionId);
      expect(await client.close()).toBe(200);
    } finally {
      await server.stop();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// The client guide's recipes

/** Each recipe a module of its own, so that what the guide shows compiles as it stands. */
const RECIPES = ['worker', 'auth', 'elicitation'] as const;
const recipeFile = (name: (typeof RECIPES)[number]): URL => new URL(`./helpers/client-recipes/${name}.ts`, import.meta.url);

describe("the client guide's recipes", () => {
  test.each(RECIPES)('the guide shows the %s recipe exactly as it is type-checked and run here, its imports and all', (name) => {
    const recipe = readFileSync(recipeFile(name), 'utf8');
    const guide = readFileSync(new URL('../docs/guides/client.md', import.meta.url), 'utf8');
    const regions = [...recipe.matchAll(/\/\/ #region (\S+)\n([\s\S]*?)\/\/ #endregion (\S+)/g)];
    expect(regions.map(([, start, , end]) => [start, end])).toEqual([[name, name]]);
    const code = regions[0]![2]!;
    // Everything of the module but its header comment is in the region: nothing it needs is hidden.
    expect(recipe.slice(recipe.indexOf('// #region'))).toBe(`// #region ${name}\n${code}// #endregion ${name}\n`);
    expect(guide, `the guide's ${name} recipe`).toContain(code.replaceAll("'../../../src/index.js'", "'sse-answer'").trimEnd());
  });

  describe('worker: the module Worker, bundled and run in workerd through Miniflare', () => {
    let dir: string;
    let miniflare: Miniflare;
    const token = 'worker-secret';
    const bindings = (url: string): { MCP_URL: string; MCP_TOKEN: string } => ({ MCP_URL: url, MCP_TOKEN: token });
    const options = (url: string): ConstructorParameters<typeof Miniflare>[0] => ({
      modules: true,
      modulesRoot: dir,
      scriptPath: join(dir, 'worker.mjs'),
      compatibilityDate: '2026-04-26',
      // Miniflare would otherwise fetch Request.cf data over the network.
      cf: false,
      bindings: bindings(url),
    });

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'sse-answer-client-worker-'));
      // The recipe's default export alone: a Worker module exports its handlers, nothing else.
      await build({
        stdin: { contents: `export { default } from ${JSON.stringify(fileURLToPath(recipeFile('worker')))};`, resolveDir: dir, loader: 'ts' },
        bundle: true,
        format: 'esm',
        platform: 'neutral',
        outfile: join(dir, 'worker.mjs'),
        logLevel: 'silent',
      });
      miniflare = new Miniflare(options('http://127.0.0.1:9/mcp'));
    });
    afterAll(async () => {
      await miniflare.dispose();
      rmSync(dir, { recursive: true, force: true });
    });

    test.each([
      ['sdk-modern', { era: 'modern', protocolVersion: MODERN }, ['server/discover 200', 'tools/list 200', 'tools/call 200']],
      ['sdk-stateful', { era: 'legacy', protocolVersion: LEGACY }, ['server/discover 400', ...HANDSHAKE, 'tools/call 200', 'DELETE 200']],
    ] as const)('against %s: connects, calls echo with the token, closes', async (name, settled, wire) => {
      const server = await startSubject(name);
      try {
        await miniflare.setOptions(options(server.url));
        const response = await miniflare.dispatchFetch('http://worker.test/?text=from%20workerd');
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({ ...settled, result: expect.objectContaining({ content: [{ type: 'text', text: 'from workerd' }] }) });
        expect(server.requests.map(line)).toEqual(wire);
        expect(server.requests.map((seen) => seen.headers['authorization'])).toEqual(wire.map(() => `Bearer ${token}`));
      } finally {
        await server.stop();
      }
    });

    test('against a port nothing listens on: a 502 with the AnswerError code', async () => {
      await miniflare.setOptions(options(`http://127.0.0.1:${await closedPort()}/mcp`));
      const response = await miniflare.dispatchFetch('http://worker.test/');
      expect(response.status).toBe(502);
      expect(await response.json()).toMatchObject({ code: 'stream_failed', message: expect.stringContaining('the POST request got no response') });
    });
  });

  describe('auth: a static token against the v2 SDK server behind requireBearerAuth', () => {
    let servers: AuthServers;
    beforeAll(async () => {
      servers = await startAuthServers({ mode: 'stateful' });
    });
    afterAll(() => servers.stop());

    test('the token is on every request, the closing DELETE included', async () => {
      const token = servers.issue();
      const client = await connectWithToken(servers.mcpUrl, token);
      expect([client.era, client.sessionId !== undefined]).toEqual(['legacy', true]);
      expect(textOf(await client.request('tools/call', { name: 'echo', arguments: { text: 'authorized' } }))).toBe('authorized');
      expect(await client.close()).toBe(200);
      const seen = servers.resourceRequests.filter((request) => request.path === '/mcp');
      expect(seen.map((request) => request.method).at(-1)).toBe('DELETE');
      expect(seen.every((request) => request.authorization === `Bearer ${token}`)).toBe(true);
    });

    test('a refused token: the recipe says where authorization starts, the AnswerError as its cause', async () => {
      const error = await rejection(connectWithToken(servers.mcpUrl, 'not-a-token-the-server-knows'));
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toBe(`the token was refused (${servers.resourceOrigin}/.well-known/oauth-protected-resource/mcp)`);
      const cause = (error as Error).cause;
      expect(isAnswerError(cause) && [cause.code, cause.detail.status, cause.detail.challenge?.error]).toEqual(['http_status', 401, 'invalid_token']);
      expect(isAnswerError(cause) && cause.message).not.toContain('not-a-token-the-server-knows');
    });
  });

  describe.each([
    ['sdk-modern', 'modern'],
    ['sdk-stateful', 'legacy'],
    ['tmcp', 'modern'],
  ] as const)('elicitation: one handler, against %s (%s era)', (name, era) => {
    test('the user is asked the server\'s question, and the tool gets the answer', async () => {
      const server = await startSubject(name);
      const questions: Question[] = [];
      try {
        const client = await connectWithElicitation(server.url, async (question, signal) => {
          expect(signal.aborted).toBe(false);
          questions.push(question);
          return { name: 'ann' };
        });
        expect(client.era).toBe(era);
        expect(textOf(await client.request('tools/call', { name: 'elicit', arguments: {} }))).toBe('hello ann');
        expect(questions).toEqual([{ message: 'Your name?', requestedSchema: expect.objectContaining({ properties: { name: { type: 'string' } } }) }]);
        await client.close();
      } finally {
        await server.stop();
      }
    });
  });
});
