// The built `sse-answer` command (dist/cli.js) in both MCP eras, run as a process against servers
// nobody here wrote: the v2 SDK server in its three modes, mcp-handler and tmcp (era-servers.ts),
// and the v1 SDK server (mcp-server.ts). For each: `call` negotiated and pinned, and `probe`.
// A scripted server on 127.0.0.1 gives the refusals no real server gives on cue, to pin which
// refusals fall back to `initialize` and which must not. `npm test` builds dist/ first.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { EXIT_CODES } from '../src/cli/exit-codes.js';
import { decodeMcpHeaderValue } from '../src/index.js';
import { startEraServers } from './helpers/era-servers.js';
import type { RecordedRequest } from './helpers/era-http.js';
import { startMcpServer } from './helpers/mcp-server.js';
import { runCli, type CliRun } from './helpers/run-cli.js';

// Several CLI processes a test, on a machine other work shares: room beyond the 5 s default.
vi.setConfig({ testTimeout: 30_000 });

const run = (args: readonly string[]): Promise<CliRun> => runCli(args);

/** One request as a server saw it: what every server helper records. */
type Seen = RecordedRequest;

/** What each server is known to do, written down from the libraries' documented behaviour. */
interface Expected {
  readonly era: 'modern' | 'legacy';
  readonly serverName: string;
  readonly answers: 'json' | 'event-stream';
  /** The 2025-era findings, or `null` for a server that refuses `initialize`. */
  readonly legacy: {
    readonly protocolVersion: string;
    readonly sessions: boolean;
    readonly primesStreams: boolean;
    readonly acceptsDelete: boolean | null;
  } | null;
}

interface Subject {
  readonly name: string;
  readonly url: string;
  readonly requests: readonly Seen[];
  readonly expected: Expected;
  /** Calls to `never` whose handler saw its cancellation. */
  readonly cancelledNever: () => number;
  readonly stop: () => Promise<void>;
}

const EXPECTED: Readonly<Record<string, Expected>> = {
  'sdk-modern': { era: 'modern', serverName: 'sse-answer-era-sdk', answers: 'json', legacy: null },
  'sdk-both': {
    era: 'modern', serverName: 'sse-answer-era-sdk', answers: 'json',
    legacy: { protocolVersion: '2025-11-25', sessions: false, primesStreams: false, acceptsDelete: null },
  },
  'sdk-stateful': {
    era: 'legacy', serverName: 'sse-answer-era-sdk', answers: 'event-stream',
    legacy: { protocolVersion: '2025-11-25', sessions: true, primesStreams: false, acceptsDelete: true },
  },
  'mcp-handler': {
    era: 'modern', serverName: 'sse-answer-era-mcp-handler', answers: 'json',
    legacy: { protocolVersion: '2025-11-25', sessions: false, primesStreams: false, acceptsDelete: null },
  },
  // tmcp answers initialize in 2025-06-18 whatever a client asks for.
  tmcp: {
    era: 'modern', serverName: 'sse-answer-era-tmcp', answers: 'event-stream',
    legacy: { protocolVersion: '2025-06-18', sessions: true, primesStreams: false, acceptsDelete: true },
  },
  // The v1 SDK server with an event store primes its streams; without sessions it has nothing to DELETE.
  'v1-resumable': {
    era: 'legacy', serverName: 'sse-answer-test', answers: 'event-stream',
    legacy: { protocolVersion: '2025-11-25', sessions: true, primesStreams: true, acceptsDelete: true },
  },
  'v1-stateless-json': {
    era: 'legacy', serverName: 'sse-answer-test', answers: 'json',
    legacy: { protocolVersion: '2025-11-25', sessions: false, primesStreams: false, acceptsDelete: null },
  },
};

const MODERN_NEGOTIATED = 'sse-answer: era modern (2026-07-28): negotiated by server/discover';

/** The era line: the first line of `call`'s stderr. */
function eraLine(stderr: string): string {
  return stderr.split('\n')[0] ?? '';
}

/** The stderr lines after the era line that are the CLI's own (not NDJSON messages). */
function ownLines(stderr: string): string[] {
  return stderr.split('\n').slice(1).filter((line) => line.startsWith('sse-answer: '));
}

function describeRequest(request: Seen): string {
  return `${request.method} ${request.rpcMethod ?? ''}`.trim();
}

function meta(request: Seen): unknown {
  const params = (request.body as { params?: { _meta?: Record<string, unknown> } } | undefined)?.params;
  return params?._meta?.['io.modelcontextprotocol/protocolVersion'];
}

/** Every modern POST: its version in _meta and header, its method in Mcp-Method, no session. */
function expectModernRequests(seen: readonly Seen[], version: string): void {
  for (const request of seen) {
    expect(request.method).toBe('POST');
    expect(meta(request)).toBe(version);
    expect(request.headers['mcp-protocol-version']).toBe(version);
    expect(request.headers['mcp-method']).toBe(request.rpcMethod);
    expect(request.headers['mcp-session-id']).toBeUndefined();
  }
}

const subjects: Subject[] = [];

beforeAll(async () => {
  for (const server of await startEraServers()) {
    subjects.push({ name: server.name, url: server.url, requests: server.requests, expected: EXPECTED[server.name]!, cancelledNever: () => server.cancelled('never'), stop: () => server.stop() });
  }
  const v1 = [
    ['v1-resumable', await startMcpServer({ stateful: true, json: false, resumable: { retryInterval: 100 } })],
    ['v1-stateless-json', await startMcpServer({ stateful: false, json: true })],
  ] as const;
  for (const [name, server] of v1) subjects.push({ name, url: server.url, requests: server.requests, expected: EXPECTED[name]!, cancelledNever: () => server.cancelledNever(), stop: () => server.stop() });
}, 30_000);

afterAll(async () => {
  await Promise.all(subjects.map((subject) => subject.stop()));
});

/** Runs `args` against `subject` and returns what it saw of that run. */
async function against(subject: Subject, args: (url: string) => string[]): Promise<CliRun & { seen: Seen[] }> {
  const before = subject.requests.length;
  const result = await run(args(subject.url));
  return { ...result, seen: subject.requests.slice(before) };
}

const names = Object.keys(EXPECTED);
const subject = (name: string): Subject => subjects.find((candidate) => candidate.name === name)!;

describe.each(names)('%s', (name) => {
  test('call, negotiated: the era and version on stderr, the answer on stdout, the era followed on the wire', async () => {
    const server = subject(name);
    const { code, stdout, stderr, seen } = await against(server, (url) => ['call', url, 'tools/call', '{"name":"echo","arguments":{"text":"hi"}}']);
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'hi' }] } });
    if (server.expected.era === 'modern') {
      expect(eraLine(stderr)).toBe(MODERN_NEGOTIATED);
      // tools/list first: the call's Mcp-Param-* come from the tool's definition.
      expect(seen.map(describeRequest)).toEqual(['POST server/discover', 'POST tools/list', 'POST tools/call']);
      expectModernRequests(seen, '2026-07-28');
      expect(seen[2]!.headers['mcp-name']).toBe('echo');
    } else {
      expect(eraLine(stderr)).toMatch(/^sse-answer: era legacy \(2025-11-25\): server\/discover refused \(HTTP 400, JSON-RPC -32000\), negotiated by initialize$/);
      const methods = seen.map(describeRequest);
      const sessions = server.expected.legacy!.sessions;
      expect(methods).toEqual(['POST server/discover', 'POST initialize', 'POST notifications/initialized', 'POST tools/call', ...(sessions ? ['DELETE'] : [])]);
      expect(seen[3]!.headers['mcp-protocol-version']).toBe('2025-11-25');
      expect(seen[3]!.headers['mcp-method']).toBeUndefined();
    }
    expect(ownLines(stderr)).toEqual([]);
  });

  test('call, pinned: no negotiation, the pinned version on the wire', async () => {
    const server = subject(name);
    if (server.expected.era === 'modern') {
      const { code, stdout, stderr, seen } = await against(server, (url) => ['call', url, 'tools/list', '--protocol-version', '2026-07-28']);
      expect(code, stderr).toBe(0);
      expect(JSON.stringify(JSON.parse(stdout))).toContain('"name":"tagged"');
      expect(eraLine(stderr)).toBe('sse-answer: era modern (2026-07-28): pinned by --protocol-version');
      expect(seen.map(describeRequest)).toEqual(['POST tools/list']);
      expectModernRequests(seen, '2026-07-28');
    }
    if (server.expected.legacy !== null) {
      // Every 2025 server here speaks 2025-06-18 when asked.
      const { code, stdout, stderr, seen } = await against(server, (url) => ['call', url, 'tools/list', '--protocol-version', '2025-06-18']);
      expect(code, stderr).toBe(0);
      expect(JSON.stringify(JSON.parse(stdout))).toContain('"name":"echo"');
      expect(eraLine(stderr)).toBe('sse-answer: era legacy (2025-06-18): pinned by --protocol-version, initialize');
      expect(seen.map(describeRequest).slice(0, 3)).toEqual(['POST initialize', 'POST notifications/initialized', 'POST tools/list']);
      expect((seen[0]!.body as { params: { protocolVersion: string } }).params.protocolVersion).toBe('2025-06-18');
      expect(seen[2]!.headers['mcp-protocol-version']).toBe('2025-06-18');
    }
  });

  test('probe: the era, the versions, serverInfo, capabilities, the format; the 2025 session behaviour; no session left open', async () => {
    const server = subject(name);
    const { expected } = server;
    const { code, stdout, stderr, seen } = await against(server, (url) => ['probe', url]);
    expect(code, stderr).toBe(0);
    expect(stderr).toBe('');
    const report = JSON.parse(stdout) as Record<string, unknown> & { modern: Record<string, unknown>; legacy: Record<string, unknown> };
    expect(report).toMatchObject({
      url: server.url,
      era: expected.era,
      protocolVersion: expected.era === 'modern' ? '2026-07-28' : expected.legacy!.protocolVersion,
      serverInfo: { name: expected.serverName },
      capabilities: { tools: {} },
      answers: expected.answers,
    });
    expect(report.modern.supported).toBe(expected.era === 'modern');
    if (expected.era === 'modern') expect(report.modern).toMatchObject({ supportedVersions: ['2026-07-28'], answers: expected.answers });
    else expect(report.modern['refusal']).toMatch(/^server\/discover: HTTP 400/);
    if (expected.legacy === null) {
      expect(report.legacy).toMatchObject({ supported: false });
      expect(report.legacy['refusal']).toContain('-32022');
    } else {
      expect(report.legacy).toMatchObject({ supported: true, ...expected.legacy, serverInfo: { name: expected.serverName } });
      const versions = report.legacy['supportedVersions'] as string[];
      expect(versions).toContain(expected.legacy.protocolVersion);
      expect(versions).toContain('2025-06-18');
      expect(report['supportedVersions']).toEqual([...(expected.era === 'modern' ? ['2026-07-28'] : []), ...versions]);
    }
    // Never a GET: a standalone stream is exactly what the package does not hold.
    expect(seen.filter((request) => request.method === 'GET')).toEqual([]);
    // Each session an initialize opened was ended.
    if (expected.legacy?.sessions === true) {
      const opened = seen.filter((request) => request.rpcMethod === 'initialize' && request.status === 200).length;
      expect(opened).toBeGreaterThan(0);
      expect(seen.filter((request) => request.method === 'DELETE').length).toBe(opened);
    } else {
      expect(seen.filter((request) => request.method === 'DELETE')).toEqual([]);
    }
  });
});

describe('the 2026-07-28 era through the CLI', () => {
  const modernNames = names.filter((name) => EXPECTED[name]!.era === 'modern');

  test.each(modernNames)('%s: an x-mcp-header argument that needs the sentinel goes in Mcp-Param-Region, encoded', async (name) => {
    const region = 'Zürich ';
    const args = JSON.stringify({ name: 'tagged', arguments: { region, text: 'hi' } });
    const { code, stdout, stderr, seen } = await against(subject(name), (url) => ['call', url, 'tools/call', args]);
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ result: { content: [{ type: 'text', text: `${region}:hi` }] } });
    const sent = seen.at(-1)!.headers['mcp-param-region'];
    expect(sent).toMatch(/^=\?base64\?.+\?=$/);
    expect(decodeMcpHeaderValue(sent as string)).toBe(region);
  });

  test.each(modernNames)('%s: a stream that breaks mid-call is stream_failed, to be re-issued; the progress before it on stderr', async (name) => {
    // A progress token in the user's _meta (kept beside the CLI's own) makes the server send progress.
    const params = JSON.stringify({ name: 'breaks', arguments: {}, _meta: { progressToken: 'p1' } });
    const { code, stderr, seen } = await against(subject(name), (url) => ['call', url, 'tools/call', params, '--protocol-version', '2026-07-28', '--timeout', '10000']);
    expect(code, stderr).toBe(EXIT_CODES.stream_failed);
    expect(stderr).toContain('"method":"notifications/progress"');
    expect(meta(seen.at(-1)!)).toBe('2026-07-28');
    expect(ownLines(stderr)).toHaveLength(1);
    expect(ownLines(stderr)[0]).toContain('re-issue');
  });

  test.each(modernNames)('%s: a pinned version it does not speak is refused with UnsupportedProtocolVersion listing 2026-07-28: asked again in it (SEP-2575), and said so', async (name) => {
    const { code, stdout, stderr, seen } = await against(subject(name), (url) => ['call', url, 'tools/list', '--protocol-version', '2099-01-01']);
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ result: { tools: expect.any(Array) } });
    expect(eraLine(stderr)).toBe('sse-answer: era modern (2099-01-01): pinned by --protocol-version');
    expect(ownLines(stderr)).toEqual(['sse-answer: era modern (2026-07-28): the server refused 2099-01-01 and listed this one, so the request was sent again in it']);
    expect(seen.map(describeRequest)).toEqual(['POST tools/list', 'POST tools/list']);
    expect(seen.map((request) => request.headers['mcp-protocol-version'])).toEqual(['2099-01-01', '2026-07-28']);
  });

  test('a 2026-only server refuses a pinned 2025 version: exit 9, no fallback', async () => {
    const { code, stdout, seen } = await against(subject('sdk-modern'), (url) => ['call', url, 'tools/list', '--protocol-version', '2025-11-25']);
    expect(code).toBe(EXIT_CODES.http_status);
    expect(JSON.parse(stdout)).toMatchObject({ error: { code: -32022 } });
    expect(seen.map(describeRequest)).toEqual(['POST initialize']);
  });

  test('a server that answers initialize in another version than the pinned one: exit 1, and its session is ended', async () => {
    const { code, stdout, stderr, seen } = await against(subject('tmcp'), (url) => ['call', url, 'tools/list', '--protocol-version', '2025-11-25']);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toEqual(['sse-answer: the server answered initialize with protocol version 2025-06-18, not the pinned 2025-11-25']);
    expect(seen.map(describeRequest)).toEqual(['POST initialize', 'DELETE']);
  });

  test('a 2025-only server refuses a pinned 2026-07-28: exit 9, the era line and one failure line', async () => {
    const { code, stderr, seen } = await against(subject('sdk-stateful'), (url) => ['call', url, 'tools/list', '--protocol-version', '2026-07-28']);
    expect(code).toBe(EXIT_CODES.http_status);
    expect(eraLine(stderr)).toBe('sse-answer: era modern (2026-07-28): pinned by --protocol-version');
    expect(ownLines(stderr)).toHaveLength(1);
    expect(seen.map(describeRequest)).toEqual(['POST tools/list']);
  });

  test.each(modernNames)('%s: --timeout closes the 2026 stream, and the server\'s handler sees the call cancelled', async (name) => {
    const server = subject(name);
    const before = server.cancelledNever();
    // Pinned, so the deadline falls on the call (and its tools/list), not on a slow discover.
    const { code, stderr } = await run(['call', server.url, 'tools/call', '{"name":"never","arguments":{}}', '--protocol-version', '2026-07-28', '--timeout', '1500']);
    expect(code).toBe(EXIT_CODES.timeout);
    expect(ownLines(stderr)).toHaveLength(1);
    await expect.poll(() => server.cancelledNever()).toBe(before + 1);
  });
});

/** A server that answers `server/discover` as told and is a plain 2025 server otherwise. */
interface Scripted {
  url: string;
  methods: string[];
  /** The headers of each request, in order. */
  headers: Record<string, string | string[] | undefined>[];
  discover: { status: number; body: string };
  /** `tools/list` pages: the tools of page N, reached by the cursor `pN`. */
  toolPages: unknown[][];
  close(): Promise<void>;
}

async function scriptedServer(): Promise<Scripted> {
  const scripted: Scripted = { url: '', methods: [], headers: [], discover: { status: 404, body: '' }, toolPages: [], close: async () => undefined };
  const http: Server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      const message = text === '' ? {} : (JSON.parse(text) as { method?: string; id?: unknown; params?: { cursor?: string } });
      scripted.methods.push(`${req.method ?? ''} ${message.method ?? ''}`.trim());
      scripted.headers.push(req.headers);
      const json = (status: number, body: unknown): void => {
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      };
      if (message.method === 'server/discover') {
        res.writeHead(scripted.discover.status, scripted.discover.body === '' ? {} : { 'content-type': 'application/json' }).end(scripted.discover.body);
      } else if (message.method === 'tools/list') {
        const page = message.params?.cursor === undefined ? 0 : Number(message.params.cursor.slice(1));
        const more = page + 1 < scripted.toolPages.length ? { nextCursor: `p${page + 1}` } : {};
        json(200, { jsonrpc: '2.0', id: message.id, result: { tools: scripted.toolPages[page] ?? [], ...more } });
      } else if (message.method === 'initialize') {
        json(200, { jsonrpc: '2.0', id: message.id, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'scripted', version: '1' } } });
      } else if (message.id === undefined) {
        res.writeHead(202).end();
      } else {
        json(200, { jsonrpc: '2.0', id: message.id, result: { ok: true } });
      }
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  scripted.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  scripted.close = () => new Promise<void>((resolve) => http.close(() => resolve()));
  return scripted;
}

const rpcError = (code: number, data?: unknown): string => JSON.stringify({ jsonrpc: '2.0', id: 0, error: { code, message: 'refused', ...(data === undefined ? {} : { data }) } });

describe('which refusal of server/discover falls back to initialize', () => {
  let scripted: Scripted;
  beforeAll(async () => {
    scripted = await scriptedServer();
  });
  afterAll(() => scripted.close());

  test.each([
    ['400, a 2025 session-required error (-32000)', 400, rpcError(-32000)],
    ['400, method not found (-32601)', 400, rpcError(-32601)],
    ['404, method not found (-32601)', 404, rpcError(-32601)],
    ['404, no body', 404, ''],
    ['405, no body', 405, ''],
    ['400, UnsupportedProtocolVersion listing only 2025 versions', 400, rpcError(-32022, { supported: ['2025-11-25', '2025-06-18'] })],
    ['200, a JSON-RPC method-not-found answer', 200, rpcError(-32601)],
    ['200, a result that is not a DiscoverResult', 200, JSON.stringify({ jsonrpc: '2.0', id: 0, result: {} })],
  ])('%s: falls back', async (_, status, body) => {
    scripted.discover = { status, body };
    scripted.methods.length = 0;
    const { code, stdout, stderr } = await run(['call', scripted.url, 'ping']);
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ jsonrpc: '2.0', id: 1, result: { ok: true } });
    expect(eraLine(stderr)).toMatch(/^sse-answer: era legacy \(2025-11-25\): server\/discover refused \(.+\), negotiated by initialize$/);
    expect(eraLine(stderr)).toContain(status === 200 ? 'HTTP 200' : `HTTP ${status}`);
    expect(scripted.methods).toEqual(['POST server/discover', 'POST initialize', 'POST notifications/initialized', 'POST ping']);
  });

  test.each([
    ['HeaderMismatch (-32020)', 400, rpcError(-32020), EXIT_CODES.http_status],
    ['MissingRequiredClientCapability (-32021)', 400, rpcError(-32021), EXIT_CODES.http_status],
    ['UnsupportedProtocolVersion listing only other modern versions: no version in common', 400, rpcError(-32022, { supported: ['2027-01-01'] }), 1],
    ['HeaderMismatch in a 200 answer', 200, rpcError(-32020), 1],
    ['a DiscoverResult without a version in common', 200, JSON.stringify({ jsonrpc: '2.0', id: 0, result: { supportedVersions: ['2027-01-01'], capabilities: {} } }), 1],
    ['401: authorization would refuse initialize too', 401, '', EXIT_CODES.http_status],
    ['403', 403, rpcError(-32000), EXIT_CODES.http_status],
    ['500: a broken server says nothing of its era', 500, '', EXIT_CODES.http_status],
  ])('%s: does not fall back', async (_, status, body, exit) => {
    scripted.discover = { status, body };
    scripted.methods.length = 0;
    for (const command of ['call', 'probe']) {
      const args = command === 'call' ? ['call', scripted.url, 'ping'] : ['probe', scripted.url];
      const { code, stderr } = await run(args);
      expect(code, `${command}: ${stderr}`).toBe(exit);
      expect(stderr.trim().split('\n'), command).toHaveLength(1);
      expect(stderr).toMatch(/^sse-answer: /);
      expect(scripted.methods, command).toEqual(['POST server/discover']);
      scripted.methods.length = 0;
    }
  });

  test('a modern refusal puts the server\'s JSON-RPC error on stdout', async () => {
    scripted.discover = { status: 400, body: rpcError(-32020) };
    const { stdout } = await run(['call', scripted.url, 'ping']);
    expect(JSON.parse(stdout)).toMatchObject({ error: { code: -32020 } });
  });
});

describe('a 2026 tools/call reads the tool from tools/list', () => {
  let scripted: Scripted;
  const discovered = JSON.stringify({ jsonrpc: '2.0', id: 0, result: { supportedVersions: ['2026-07-28'], capabilities: { tools: {} } } });
  const tool = (name: string, header: string): unknown => ({
    name,
    inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': header } } },
  });
  beforeAll(async () => {
    scripted = await scriptedServer();
    scripted.discover = { status: 200, body: discovered };
  });
  afterAll(() => scripted.close());

  test('page by page until the tool is found: its Mcp-Param-* on the call', async () => {
    scripted.toolPages = [[tool('other', 'Other')], [tool('wanted', 'Region')], [tool('later', 'Later')]];
    scripted.methods.length = 0;
    scripted.headers.length = 0;
    const { code, stderr } = await run(['call', scripted.url, 'tools/call', '{"name":"wanted","arguments":{"region":"eu-1"}}']);
    expect(code, stderr).toBe(0);
    expect(scripted.methods).toEqual(['POST server/discover', 'POST tools/list', 'POST tools/list', 'POST tools/call']);
    expect(scripted.headers.at(-1)!['mcp-param-region']).toBe('eu-1');
    expect(scripted.headers.at(-1)!['mcp-name']).toBe('wanted');
  });

  test('a tool the server does not list is called without Mcp-Param-*', async () => {
    scripted.toolPages = [[tool('other', 'Other')]];
    scripted.methods.length = 0;
    scripted.headers.length = 0;
    const { code } = await run(['call', scripted.url, 'tools/call', '{"name":"unlisted","arguments":{"region":"eu-1"}}']);
    expect(code).toBe(0);
    expect(scripted.methods).toEqual(['POST server/discover', 'POST tools/list', 'POST tools/call']);
    expect(Object.keys(scripted.headers.at(-1)!).filter((name) => name.startsWith('mcp-param-'))).toEqual([]);
  });

  test('a tool whose x-mcp-header is invalid is not called: exit 1, one failure line that names the reason', async () => {
    scripted.toolPages = [[tool('broken', 'Not A Token')]];
    scripted.methods.length = 0;
    const { code, stdout, stderr } = await run(['call', scripted.url, 'tools/call', '{"name":"broken","arguments":{"region":"eu-1"}}']);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(eraLine(stderr)).toBe(MODERN_NEGOTIATED);
    expect(ownLines(stderr)).toHaveLength(1);
    expect(ownLines(stderr)[0]).toMatch(/^sse-answer: the server's tool "broken" has invalid x-mcp-header annotations \(.+\): a 2026-07-28 client does not call it/);
    expect(scripted.methods).toEqual(['POST server/discover', 'POST tools/list']);
  });

  test('array params in the 2026 era: bad usage, before anything is said of the era', async () => {
    scripted.methods.length = 0;
    const { code, stderr } = await run(['call', scripted.url, 'ping', '[1]']);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('PARAMS_JSON must be a JSON object in the 2026-07-28 era');
    expect(scripted.methods).toEqual(['POST server/discover']);
  });
});
