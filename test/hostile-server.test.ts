// Issue 35, held out: what a hostile server says never reaches a terminal raw, and never carries
// the token back. Hostile servers on 127.0.0.1 (test/helpers/hostile-servers.ts writes each
// response byte for byte), and a scripted fetch where Node's fetch cannot deliver the case (a
// header holding ESC or CR, a 1 MiB reason phrase or header), against every public path:
// postJsonRpc, AnswerTransport, AnswerClient, and the built CLI (dist/cli.js) `call` and `probe`.
//
// The bounds checked, and why:
// - An AnswerError's message: at most MESSAGE_BOUND (4096) characters, and never more than 64
//   characters in a row of the server's text. A quoted text is its first 64 characters, each
//   escaped to at most 6 (`\u001b`), with quotes and an ellipsis: at most 387. The most server texts
//   a message quotes is 8 (the versions a server lists), with the package's own words beside them.
//   A message that grows with what the server sent breaks it.
// - A CLI line of text on stderr (`sse-answer: …`): at most LINE_BOUND (12 + 2048 + 1) characters,
//   the bound src/cli/output.ts states (its MAX_LINE, an ellipsis past it).
// - stdout, and the messages passed over on stderr, are JSON lines: data, as long as the data is,
//   with no raw C1 control, DEL, bidi control or line separator (JSON escapes C0 itself), parsing
//   back to what the server sent.
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { EXIT_CODES, EXIT_USAGE } from '../src/cli/exit-codes.js';
import { AnswerClient, AnswerTransport, isAnswerError, postJsonRpc, type AnswerClientOptions, type AnswerErrorCode, type ExchangeOptions, type FetchFunction } from '../src/index.js';
import { jsonReply, scriptedFetch, sseReply, startHostileServer, type Handler, type Reply, type SeenRequest } from './helpers/hostile-servers.js';
import { runHostileCli as runCli } from './helpers/hostile-cli.js';
import { runCli as runPlainCli, type CliRun } from './helpers/run-cli.js';

// Many CLI processes, some moving a megabyte: room beyond the 5 s default.
vi.setConfig({ testTimeout: 60_000 });

// ---------------------------------------------------------------------------------------------
// What is checked
// ---------------------------------------------------------------------------------------------

const MESSAGE_BOUND = 4096;
const LINE_BOUND = 'sse-answer: '.length + 2048 + '…'.length;

/** What no message and no text line may carry raw: C0, DEL, C1, bidi controls, line and paragraph separators, lone surrogates. */
const RAW_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** What JSON leaves raw and a JSON line may not carry: DEL, C1, bidi controls, separators. */
const RAW_UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

/** 1 MiB of one character: a message that quotes more than 64 of them in a row is unbounded. */
const BIG = 'x'.repeat(1 << 20);
const RUN = 'x'.repeat(65);
/** Terminal control sequences: erase the line, set the title, CSI, bidi override, separators, DEL, NEL, a lone surrogate. */
const TERMINAL = '\r\x1b[2K\x1b]0;owned\x07\u009b31m\u202eexe.txt\u2028\u2029\x7f\u0085\u061c\u2066\ud800 end';
/** As much of it as a reason phrase carries on the wire (no CR; UTF-8). */
const TERMINAL_REASON = TERMINAL.replace('\r', '');
/** As much as a header value carries through Node's fetch: latin1 C1 controls (CSI, NEL, OSC, ST). */
const TERMINAL_HEADER = '\u009b31m\u0085\u009d0;owned\u009c end';
/** As long a header value as Node's fetch takes (its limit is 16 KiB of headers). */
const BIG_HEADER = 'x'.repeat(12_000);

interface Hostile {
  readonly name: string;
  readonly value: string;
  /** What a message that quotes it shows (escaped): proof the site was reached. */
  readonly shows: string;
}
const HOSTILE_BIG: Hostile = { name: '1 MiB', value: BIG, shows: 'x'.repeat(16) };
/**
 * 1 MiB as a reason phrase over a real connection: Node's fetch keeps a part of it, about 1 KiB
 * or, as the status line's reads fall, a few characters; what shows is that the site was quoted.
 */
const HOSTILE_BIG_REASON: Hostile = { name: '1 MiB sent (fetch keeps a part)', value: BIG, shows: '500 x' };
const HOSTILE_TERMINAL: Hostile = { name: 'terminal controls', value: TERMINAL, shows: '\\u001b[2K' };
const VALUES: readonly Hostile[] = [HOSTILE_BIG, HOSTILE_TERMINAL];

function short(text: string): string {
  return text.length <= 300 ? JSON.stringify(text) : `${JSON.stringify(text.slice(0, 240))}… (${text.length} characters)`;
}

function firstRaw(text: string, pattern: RegExp): string | undefined {
  const found = pattern.exec(text);
  if (found === null) return undefined;
  const code = found[0].charCodeAt(0).toString(16).padStart(4, '0');
  return `a raw U+${code} at ${found.index}: ${JSON.stringify(text.slice(Math.max(0, found.index - 40), found.index + 40))}`;
}

/** What is wrong with a message that quotes a hostile server's text (empty: nothing). */
function messageProblems(message: string, shows: string | undefined): string[] {
  const problems: string[] = [];
  if (message.length > MESSAGE_BOUND) problems.push(`${message.length} characters, over ${MESSAGE_BOUND}: ${short(message)}`);
  const raw = firstRaw(message, RAW_UNSAFE);
  if (raw !== undefined) problems.push(raw);
  if (message.includes(RUN)) problems.push(`more than 64 characters of the server's text in a row: ${short(message)}`);
  if (shows !== undefined && !message.includes(shows)) problems.push(`does not show ${JSON.stringify(shows)}: ${short(message)}`);
  return problems;
}

/** What is wrong with the output of a CLI run (empty: nothing): its text lines, its JSON lines. */
function outputProblems(run: CliRun, shows: string | undefined): string[] {
  const problems: string[] = [];
  for (const [stream, text] of [['stderr', run.stderr], ['stdout', run.stdout]] as const) {
    if (text !== '' && !text.endsWith('\n')) problems.push(`${stream} does not end with a line break: ${short(text)}`);
    for (const line of text.split('\n').filter((one) => one !== '')) {
      if (stream === 'stderr' && line.startsWith('sse-answer: ')) {
        if (line.length > LINE_BOUND) problems.push(`a stderr line of ${line.length} characters, over ${LINE_BOUND}: ${short(line)}`);
        const raw = firstRaw(line, RAW_UNSAFE);
        if (raw !== undefined) problems.push(`stderr: ${raw}`);
        continue;
      }
      const raw = firstRaw(line, RAW_UNSAFE);
      if (raw !== undefined) problems.push(`${stream} JSON: ${raw}`);
      try {
        JSON.parse(line);
      } catch {
        problems.push(`${stream}: a line that is neither JSON nor "sse-answer: …": ${short(line)}`);
      }
    }
  }
  if (shows !== undefined && !(run.stderr + run.stdout).includes(shows)) problems.push(`the output does not show ${JSON.stringify(shows)}: ${short(run.stderr)}`);
  return problems;
}

/** The most characters a string of an error's detail may have: 2,048 of the server's, each escaped to at most 6, and an ellipsis. */
const DETAIL_BOUND = 2048 * 6 + 1;

/**
 * What is wrong with an error's detail (empty: nothing): a string of the server's text, but for
 * `answer` (the server's JSON, as parsed), longer than DETAIL_BOUND or with a raw unsafe character.
 */
function detailProblems(detail: unknown): string[] {
  const problems: string[] = [];
  const visit = (value: unknown, path: string): void => {
    if (typeof value === 'string') {
      if (value.length > DETAIL_BOUND) problems.push(`${path}: ${value.length} characters, over ${DETAIL_BOUND}`);
      const raw = firstRaw(value, RAW_UNSAFE);
      if (raw !== undefined) problems.push(`${path}: ${raw}`);
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value)) {
        if (path === 'detail' && key === 'answer') continue;
        visit(key, `${path} key`);
        visit(inner, `${path}.${key}`);
      }
    }
  };
  visit(detail, 'detail');
  return problems;
}

/** The CLI's own text lines on stderr, and of them the fault lines (all but the era line). */
function textLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.startsWith('sse-answer: '));
}
function faultLines(stderr: string): string[] {
  return textLines(stderr).filter((line) => !line.startsWith('sse-answer: era '));
}

/** `thrown` as an AnswerError's fields, or a failed expectation that says what it was. */
function answerErrorOf(thrown: unknown): { code: AnswerErrorCode; message: string; detail: unknown } {
  if (!isAnswerError(thrown)) throw new Error(`not an AnswerError: ${thrown instanceof Error ? `${thrown.name}: ${short(thrown.message)}` : short(String(thrown))}`);
  return { code: thrown.code, message: thrown.message, detail: thrown.detail };
}

// ---------------------------------------------------------------------------------------------
// Servers
// ---------------------------------------------------------------------------------------------

/** Where a request goes: a hostile server on 127.0.0.1, or a scripted fetch (what Node's fetch refuses). */
interface Served {
  readonly url: string;
  readonly options: { readonly fetch?: ExchangeOptions['fetch'] };
  readonly requests: readonly SeenRequest[];
  whats(): string[];
  stop(): Promise<void>;
}

async function serve(handle: Handler, overTheWire: boolean): Promise<Served> {
  if (overTheWire) {
    const server = await startHostileServer(handle);
    return { url: server.url, options: {}, requests: server.requests, whats: () => server.whats(), stop: () => server.stop() };
  }
  const scripted = scriptedFetch(handle);
  return { url: 'http://hostile.invalid/mcp', options: { fetch: scripted.fetch }, requests: scripted.requests, whats: () => scripted.whats(), stop: async () => undefined };
}

/** Runs `body` with a server, stopping it after. */
async function withServer<T>(handle: Handler, overTheWire: boolean, body: (served: Served) => Promise<T>): Promise<T> {
  const served = await serve(handle, overTheWire);
  try {
    return await body(served);
  } finally {
    await served.stop();
  }
}

type Id = string | number | null;
const idOf = (request: SeenRequest): Id => (request.message?.id as Id | undefined) ?? null;

const MODERN_DISCOVERED = (id: Id): Reply =>
  jsonReply(200, { jsonrpc: '2.0', id, result: { supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'hostile', version: '1' } } } });

/** What an MCP server answers, step by step; each step defaults to a well-behaved 2025 server with sessions. */
interface Script {
  readonly discover?: (id: Id, request: SeenRequest) => Reply;
  readonly initialize?: (id: Id, request: SeenRequest) => Reply;
  readonly toolsList?: (id: Id) => Reply;
  /** Any other request (with an id). */
  readonly request?: (id: Id, request: SeenRequest) => Reply;
  readonly delete?: (request: SeenRequest) => Reply;
  readonly get?: (request: SeenRequest) => Reply;
}

const SESSION = 'hostile-session-1';

function mcpServer(script: Script): Handler {
  return (request) => {
    const id = idOf(request);
    if (request.method === 'DELETE') return script.delete?.(request) ?? { status: 200 };
    if (request.method === 'GET') return script.get?.(request) ?? { status: 405 };
    switch (request.message?.method) {
      case 'server/discover':
        return script.discover?.(id, request) ?? { status: 404 };
      case 'initialize': {
        if (script.initialize !== undefined) return script.initialize(id, request);
        const asked = (request.message.params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
        return jsonReply(200, { jsonrpc: '2.0', id, result: { protocolVersion: asked ?? '2025-11-25', capabilities: {}, serverInfo: { name: 'hostile', version: '1' } } }, { 'mcp-session-id': SESSION });
      }
      case 'tools/list':
        return script.toolsList?.(id) ?? jsonReply(200, { jsonrpc: '2.0', id, result: { tools: [] } });
    }
    if (request.message?.id === undefined) return { status: 202 };
    return script.request?.(id, request) ?? jsonReply(200, { jsonrpc: '2.0', id, result: { ok: true } });
  };
}

// ---------------------------------------------------------------------------------------------
// Rule 1: every quoting site
// ---------------------------------------------------------------------------------------------

/** Where a response of one exchange holds text the error quotes. */
interface ExchangeSite {
  readonly name: string;
  /** How far a real connection carries a value here: anything in a body; less in a reason phrase or a header. */
  readonly carrier: 'body' | 'reason' | 'header';
  readonly code: AnswerErrorCode;
  reply(value: string, id: Id): Reply;
  /** The values the site can hold at all: a WWW-Authenticate scheme is a token (no controls). */
  readonly holds?: (value: string) => boolean;
}

const SSE_WITHOUT_ANSWER = (eventId: string): Reply =>
  sseReply([`id: ${eventId.replace(/[\r\n\0]/g, '')}\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}\n\n`]);

const EXCHANGE_SITES: readonly ExchangeSite[] = [
  { name: 'the reason phrase of an HTTP 500', carrier: 'reason', code: 'http_status', reply: (value) => ({ status: 500, reason: value }) },
  {
    name: 'a JSON-RPC error message with HTTP 500',
    carrier: 'body',
    code: 'http_status',
    reply: (value, id) => jsonReply(500, { jsonrpc: '2.0', id, error: { code: -32000, message: value } }),
  },
  { name: 'the WWW-Authenticate error of a 401', carrier: 'header', code: 'http_status', reply: (value) => ({ status: 401, headers: { 'www-authenticate': `Bearer error="${value}"` } }) },
  {
    name: 'the WWW-Authenticate scope of a 403',
    carrier: 'header',
    code: 'http_status',
    reply: (value) => ({ status: 403, headers: { 'www-authenticate': `Bearer error="insufficient_scope", scope="${value}"` } }),
  },
  {
    name: 'the WWW-Authenticate scheme of a 401',
    carrier: 'header',
    code: 'http_status',
    holds: (value) => /^[\w-]+$/.test(value),
    reply: (value) => ({ status: 401, headers: { 'www-authenticate': `${value} error="invalid_token"` } }),
  },
  { name: 'the Location of a 307 to another origin', carrier: 'header', code: 'http_status', reply: (value) => ({ status: 307, headers: { location: `http://elsewhere.invalid/${value}` } }) },
  { name: 'the content type of a 200', carrier: 'header', code: 'unsupported_content_type', reply: (value) => ({ status: 200, headers: { 'content-type': value }, body: '{}' }) },
  { name: 'the last event id of a stream that ends without the answer', carrier: 'body', code: 'malformed_answer', reply: (value) => SSE_WITHOUT_ANSWER(value) },
];

type Api = 'postJsonRpc' | 'AnswerTransport' | 'AnswerClient';
const APIS: readonly Api[] = ['postJsonRpc', 'AnswerTransport', 'AnswerClient'];

/** Sends one `ping` through `api` (a 2025 request, no handshake) and returns what it threw. */
async function failedPing(api: Api, url: string, options: ExchangeOptions): Promise<unknown> {
  const message = { jsonrpc: '2.0', id: 1, method: 'ping' };
  try {
    if (api === 'postJsonRpc') {
      await postJsonRpc(url, message, options);
    } else if (api === 'AnswerTransport') {
      const transport = new AnswerTransport(url, options);
      try {
        await transport.send(message);
      } finally {
        await transport.close();
      }
    } else {
      const client = await AnswerClient.connect(url, { ...options, handshake: false });
      try {
        await client.request('ping');
      } finally {
        await client.close();
      }
    }
  } catch (error) {
    return error;
  }
  throw new Error(`${api}: the request did not fail`);
}

const exchangeCases = EXCHANGE_SITES.flatMap((site) => VALUES.filter((hostile) => site.holds?.(hostile.value) ?? true).map((hostile) => [`${site.name}, ${hostile.name}`, site, hostile] as const));

describe.each(APIS)('rule 1, %s: every site an exchange quotes, fed 1 MiB and terminal controls', (api) => {
  test.each(exchangeCases)('%s: a bounded, escaped message and detail', async (_name, site, hostile) => {
    // A body carries anything over a real connection; a reason phrase or a header this long or with CR/ESC only through a scripted fetch.
    await withServer((request) => site.reply(hostile.value, idOf(request)), site.carrier === 'body', async (served) => {
      const error = answerErrorOf(await failedPing(api, served.url, { ...served.options, resume: false }));
      expect(error.code).toBe(site.code);
      expect(messageProblems(error.message, hostile.shows)).toEqual([]);
      expect(detailProblems(error.detail)).toEqual([]);
    });
  });
});

describe('rule 1 over a real connection: what Node\'s fetch delivers of a hostile reason phrase or header', () => {
  const wireValues: readonly (readonly [ExchangeSite['carrier'], Hostile])[] = [
    ['reason', { name: 'terminal controls (no CR)', value: TERMINAL_REASON, shows: '\\u001b[2K' }],
    ['reason', HOSTILE_BIG_REASON],
    ['header', { name: 'latin1 C1 controls', value: TERMINAL_HEADER, shows: '\\u009b31m' }],
    ['header', { name: '12,000 characters', value: BIG_HEADER, shows: 'x'.repeat(16) }],
  ];
  const cases = EXCHANGE_SITES.flatMap((site) =>
    wireValues.filter(([carrier, hostile]) => carrier === site.carrier && (site.holds?.(hostile.value) ?? true)).map(([, hostile]) => [`${site.name}, ${hostile.name}`, site, hostile] as const),
  );
  test.each(cases)('%s: postJsonRpc\'s message is bounded and escaped', async (_name, site, hostile) => {
    await withServer((request) => site.reply(hostile.value, idOf(request)), true, async (served) => {
      const error = answerErrorOf(await failedPing('postJsonRpc', served.url, { resume: false }));
      expect(error.code).toBe(site.code);
      expect(messageProblems(error.message, hostile.shows)).toEqual([]);
      expect(detailProblems(error.detail)).toEqual([]);
    });
  });
});

/** A handshake that quotes server text: what the server says, and how the client ends. */
interface HandshakeSite {
  readonly name: string;
  script(value: string): Script;
  /**
   * `fallback`: the client falls back to `initialize` and says why (the era line's refusal text);
   * else the code connect fails with (`fails`: any AnswerError, the case being one no code names yet).
   */
  readonly ends: 'fallback' | 'fails' | AnswerErrorCode;
  /** What the quote shows of each value, when not the value's own `shows`. */
  readonly shows?: (hostile: Hostile) => string;
  readonly pin?: string;
}

const HANDSHAKE_SITES: readonly HandshakeSite[] = [
  {
    name: 'server/discover refused with a JSON-RPC code that is no number (HTTP 400)',
    ends: 'fallback',
    script: (value) => ({ discover: (id) => jsonReply(400, { jsonrpc: '2.0', id, error: { code: value, message: 'no' } }) }),
  },
  {
    name: 'server/discover refused with UnsupportedProtocolVersion listing only 2025-era versions (HTTP 400)',
    ends: 'fallback',
    script: (value) => ({
      discover: (id) => jsonReply(400, { jsonrpc: '2.0', id, error: { code: -32022, message: 'unsupported', data: { supported: [value, '2025-06-18', value, ...Array<string>(20).fill('2025-03-26')] } } }),
    }),
  },
  {
    name: 'a DiscoverResult listing only 2025-era versions (HTTP 200)',
    ends: 'fallback',
    script: (value) => ({ discover: (id) => jsonReply(200, { jsonrpc: '2.0', id, result: { supportedVersions: [value, '2025-11-25'] } }) }),
  },
  {
    name: 'server/discover answered with HeaderMismatch and a hostile message (HTTP 200)',
    ends: 'negotiation_failed',
    script: (value) => ({ discover: (id) => jsonReply(200, { jsonrpc: '2.0', id, error: { code: -32020, message: value } }) }),
  },
  {
    name: 'server/discover answered with UnsupportedProtocolVersion, no version in common (HTTP 200)',
    ends: 'negotiation_failed',
    script: (value) => ({ discover: (id) => jsonReply(200, { jsonrpc: '2.0', id, error: { code: -32022, message: 'unsupported', data: { supported: [value, '2027-01-01'] } } }) }),
  },
  {
    name: 'initialize answered without protocolVersion (HTTP 200)',
    ends: 'negotiation_failed',
    // The whole answer is quoted as JSON: its opening, then the value (CR as \r, ESC as \u001b, each escaped once more).
    shows: (hostile) => (hostile === HOSTILE_BIG ? 'xxxxxxxx' : '\\u001b'),
    script: (value) => ({ initialize: (id) => jsonReply(200, { result: { serverInfo: { name: value } }, jsonrpc: '2.0', id }, { 'mcp-session-id': SESSION }) }),
  },
  {
    name: 'initialize answered with a protocolVersion no header can carry (a CR LF inside)',
    ends: 'fails',
    script: (value) => ({ initialize: (id) => jsonReply(200, { jsonrpc: '2.0', id, result: { protocolVersion: `${value}\r\nX: 1`, capabilities: {} } }, { 'mcp-session-id': SESSION }) }),
  },
  {
    name: 'initialize answered in another version than the pinned one',
    ends: 'negotiation_failed',
    pin: '2025-06-18',
    script: (value) => ({ initialize: (id) => jsonReply(200, { jsonrpc: '2.0', id, result: { protocolVersion: value, capabilities: {} } }, { 'mcp-session-id': SESSION }) }),
  },
];

const handshakeCases = HANDSHAKE_SITES.flatMap((site) => VALUES.map((hostile) => [`${site.name}, ${hostile.name}`, site, hostile] as const));
const showsOf = (site: HandshakeSite, hostile: Hostile): string => site.shows?.(hostile) ?? hostile.shows;

describe('rule 1, AnswerClient: every site a handshake quotes', () => {
  test.each(handshakeCases)('%s', async (_name, site, hostile) => {
    await withServer(mcpServer(site.script(hostile.value)), true, async (served) => {
      const options: AnswerClientOptions = site.pin === undefined ? {} : { versionNegotiation: { pin: site.pin } };
      let client: AnswerClient | undefined;
      let thrown: unknown;
      try {
        client = await AnswerClient.connect(served.url, options);
      } catch (error) {
        thrown = error;
      }
      if (site.ends === 'fallback') {
        expect(thrown).toBeUndefined();
        const refusal = client!.negotiatedBy.by === 'initialize' ? client!.negotiatedBy.refusal : undefined;
        expect(messageProblems(refusal ?? '', showsOf(site, hostile))).toEqual([]);
        await client!.close();
        return;
      }
      const error = answerErrorOf(thrown);
      if (site.ends !== 'fails') expect(error.code).toBe(site.ends);
      expect(messageProblems(error.message, showsOf(site, hostile))).toEqual([]);
    });
  });
});

/** A 2026 server whose tools/list lists `tools`. */
function toolServer(tools: readonly unknown[]): Handler {
  return mcpServer({ discover: MODERN_DISCOVERED, toolsList: (id) => jsonReply(200, { jsonrpc: '2.0', id, result: { tools } }) });
}

/** A tool `name` whose one parameter is annotated `header`. */
const toolWith = (name: string, header: string): unknown => ({ name, inputSchema: { type: 'object', properties: { p: { type: 'string', 'x-mcp-header': header } } } });

/** About 1 MiB of tool: 16,000 parameters, each with an annotation that is no HTTP token. */
const HUGE_TOOL = {
  name: 'huge',
  inputSchema: { type: 'object', properties: Object.fromEntries(Array.from({ length: 16_000 }, (_, i) => [`p${i}`, { type: 'string', 'x-mcp-header': `not a token ${i} ${'y'.repeat(24)}` }])) },
};

describe('rule 1, AnswerClient: a tool\'s invalid x-mcp-header, its reasons and its name', () => {
  test.each(VALUES)('the tool\'s name and annotation, $name', async (hostile) => {
    // The annotation holds the value and a space: never an HTTP token, so always a reason.
    await withServer(toolServer([toolWith(hostile.value, `${hostile.value} `)]), true, async (served) => {
      const client = await AnswerClient.connect(served.url);
      const error = answerErrorOf(await client.request('tools/call', { name: hostile.value, arguments: {} }).catch((e: unknown) => e));
      expect(error.code).toBe('invalid_tool');
      expect(messageProblems(error.message, hostile.shows)).toEqual([]);
      await client.close();
    });
  });

  test('about 1 MiB of invalid annotations on one tool: the message stays bounded', async () => {
    await withServer(toolServer([HUGE_TOOL]), true, async (served) => {
      const client = await AnswerClient.connect(served.url);
      const error = answerErrorOf(await client.request('tools/call', { name: 'huge', arguments: {} }).catch((e: unknown) => e));
      expect(error.code).toBe('invalid_tool');
      expect(messageProblems(error.message, 'not a token 0')).toEqual([]);
      await client.close();
    });
  });
});

/** `--no-initialize`: the request itself meets the site. */
const callArgs = (url: string): string[] => ['call', url, 'ping', '--no-initialize'];

/** A server whose every POST gets `reply`; a resuming GET is refused (405). */
function siteServer(reply: (id: Id) => Reply): Handler {
  return (request) => (request.method === 'GET' ? { status: 405 } : request.method === 'DELETE' ? { status: 200 } : reply(idOf(request)));
}

describe.concurrent('rule 1, the CLI: every site, as a real server can send it', () => {
  const cliValues: Readonly<Record<ExchangeSite['carrier'], readonly Hostile[]>> = {
    body: VALUES,
    reason: [HOSTILE_BIG_REASON, { name: 'terminal controls (no CR)', value: TERMINAL_REASON, shows: '\\u001b[2K' }],
    header: [
      { name: '12,000 characters', value: BIG_HEADER, shows: 'x'.repeat(16) },
      { name: 'latin1 C1 controls', value: TERMINAL_HEADER, shows: '\\u009b31m' },
    ],
  };
  const cases = EXCHANGE_SITES.flatMap((site) => cliValues[site.carrier].filter((hostile) => site.holds?.(hostile.value) ?? true).map((hostile) => [`${site.name}, ${hostile.name}`, site, hostile] as const));

  test.for(cases)('%s: call (the request) and probe (server/discover) write one bounded, escaped fault line', async ([, site, hostile], { expect }) => {
    await withServer(siteServer((id) => site.reply(hostile.value, id)), true, async (served) => {
      for (const args of [callArgs(served.url), ['probe', served.url]]) {
        const run = await runCli(args);
        expect(run.code, `${args[0]}: ${short(run.stderr)}`).toBeGreaterThan(1);
        expect(outputProblems(run, hostile.shows), args[0]).toEqual([]);
        expect(faultLines(run.stderr), args[0]).toHaveLength(1);
      }
    });
  });

  test.for(handshakeCases)('%s: call and probe', async ([, site, hostile], { expect }) => {
    await withServer(mcpServer(site.script(hostile.value)), true, async (served) => {
      const pinned = site.pin === undefined ? [] : ['--protocol-version', site.pin];
      const call = await runCli(['call', served.url, 'ping', ...pinned]);
      expect(outputProblems(call, showsOf(site, hostile)), 'call').toEqual([]);
      if (site.ends === 'fallback') {
        // The era line says why server/discover was refused: the refusal text, bounded and escaped.
        expect(call.code, short(call.stderr)).toBe(0);
        expect(textLines(call.stderr)).toHaveLength(1);
        expect(textLines(call.stderr)[0]).toMatch(/^sse-answer: era legacy \(2025-11-25\): server\/discover refused \(.+\), negotiated by initialize$/);
      } else {
        expect(call.code, short(call.stderr)).toBe(1);
        expect(faultLines(call.stderr)).toHaveLength(1);
      }
      if (site.pin !== undefined) return; // probe pins nothing of its own
      const probe = await runCli(['probe', served.url]);
      expect(outputProblems(probe, showsOf(site, hostile)), 'probe').toEqual([]);
      if (site.ends === 'fallback') {
        expect(probe.code, short(probe.stderr)).toBe(0);
        const report = JSON.parse(probe.stdout) as { era: string; modern: { supported: boolean; refusal: string } };
        expect(report.era).toBe('legacy');
        expect(messageProblems(report.modern.refusal, showsOf(site, hostile))).toEqual([]);
      } else {
        expect(probe.code, short(probe.stderr)).toBe(1);
        expect(faultLines(probe.stderr)).toHaveLength(1);
      }
    });
  });

  // 1 MiB of spaces in a text the CLI writes: its line is folded in time, bounded (a pattern that backtracks over the spaces would hang the command).
  test('initialize answered with a protocolVersion of 1 MiB of spaces and a CR: call ends, with one bounded line', { timeout: 90_000 }, async ({ expect }) => {
    const protocolVersion = `2025-11-25${' '.repeat(1 << 20)}\rX`;
    await withServer(mcpServer({ initialize: (id) => jsonReply(200, { jsonrpc: '2.0', id, result: { protocolVersion, capabilities: {} } }, { 'mcp-session-id': SESSION }) }), true, async (served) => {
      const started = Date.now();
      const run = await runCli(['call', served.url, 'ping']);
      expect(run.code, `after ${Date.now() - started} ms: ${short(run.stderr)}`).toBe(1);
      expect(outputProblems(run, undefined)).toEqual([]);
      expect(faultLines(run.stderr)).toHaveLength(1);
    });
  });

  test.for(VALUES)('a tool whose name and x-mcp-header are hostile, $name: the era line and one fault line', async (hostile, { expect }) => {
    // A 1 MiB name cannot be an argument (the kernel caps one at 128 KiB): the tool is called "evil" then.
    const name = hostile === HOSTILE_BIG ? 'evil' : hostile.value;
    await withServer(toolServer([toolWith(name, `${hostile.value} `)]), true, async (served) => {
      const run = await runCli(['call', served.url, 'tools/call', JSON.stringify({ name, arguments: {} })]);
      expect(run.code, short(run.stderr)).toBe(1);
      expect(outputProblems(run, hostile.shows)).toEqual([]);
      expect(faultLines(run.stderr)).toHaveLength(1);
    });
  });

  test('about 1 MiB of invalid annotations on one tool: one bounded fault line', async ({ expect }) => {
    await withServer(toolServer([HUGE_TOOL]), true, async (served) => {
      const run = await runCli(['call', served.url, 'tools/call', '{"name":"huge","arguments":{}}']);
      expect(run.code).toBe(1);
      expect(outputProblems(run, 'not a token 0')).toEqual([]);
      expect(faultLines(run.stderr)).toHaveLength(1);
    });
  });

  test.for(VALUES)('stdout, $name: a JSON-RPC error answer (HTTP 200, and with HTTP 500) parses to what the server sent', async (hostile, { expect }) => {
    for (const status of [200, 500]) {
      const answer = { jsonrpc: '2.0', id: 1, error: { code: -32000, message: hostile.value, data: { echo: [hostile.value, TERMINAL] } } };
      await withServer(siteServer(() => jsonReply(status, answer)), true, async (served) => {
        const run = await runCli(callArgs(served.url));
        expect(run.code, short(run.stderr)).toBe(status === 200 ? 0 : EXIT_CODES.http_status);
        expect(outputProblems(run, undefined)).toEqual([]);
        expect(firstRaw(run.stdout, RAW_UNSAFE_IN_JSON)).toBeUndefined();
        expect(JSON.parse(run.stdout)).toEqual(answer);
      });
    }
  });

  test('stdout, probe: a server that describes itself with terminal controls; its report parses to what it said', async ({ expect }) => {
    const serverInfo = { name: TERMINAL, version: BIG };
    await withServer(mcpServer({ discover: (id) => jsonReply(200, { jsonrpc: '2.0', id, result: { supportedVersions: ['2026-07-28'], capabilities: { note: TERMINAL }, _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo } } }) }), true, async (served) => {
      const run = await runCli(['probe', served.url]);
      expect(run.code, short(run.stderr)).toBe(0);
      expect(outputProblems(run, undefined)).toEqual([]);
      const report = JSON.parse(run.stdout) as { serverInfo: unknown; capabilities: unknown };
      expect(report.serverInfo).toEqual(serverInfo);
      expect(report.capabilities).toEqual({ note: TERMINAL });
    });
  });

  test('stderr: messages passed over, with terminal controls, are JSON lines that parse to what the server sent', async ({ expect }) => {
    const note = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: TERMINAL } };
    await withServer(siteServer((id) => sseReply([`data: ${JSON.stringify(note)}\n\n`, `data: ${JSON.stringify({ jsonrpc: '2.0', id, result: { text: TERMINAL } })}\n\n`])), true, async (served) => {
      const run = await runCli(callArgs(served.url));
      expect(run.code, short(run.stderr)).toBe(0);
      expect(outputProblems(run, undefined)).toEqual([]);
      const passedOver = run.stderr.split('\n').filter((line) => line.startsWith('{'));
      expect(passedOver.map((line) => JSON.parse(line) as unknown)).toEqual([note]);
      expect(JSON.parse(run.stdout)).toEqual({ jsonrpc: '2.0', id: 1, result: { text: TERMINAL } });
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Rule 2: the exchange never repeats a secret it sent
// ---------------------------------------------------------------------------------------------

/** A bearer token of b64token characters, with some a percent-encoding changes (~ + / =). */
const TOKEN = 'Hostile~Token+Secret/0123456789abcdef=';
/** Every form of it a hostile server plausibly reflects: as sent, encodeURIComponent's, URLSearchParams'. */
const TOKEN_FORMS: readonly string[] = [TOKEN, encodeURIComponent(TOKEN), new URLSearchParams({ t: TOKEN }).toString().slice(2)];

/** The secret a hostile server found in a request: the bearer token, or the API key (the first, of a header sent twice). */
function secretIn(request: SeenRequest): string {
  return (request.headers['x-api-key'] ?? request.headers['authorization']?.replace(/^Bearer /, '') ?? '').split(', ')[0]!;
}

interface ReflectSite {
  readonly name: string;
  readonly code: AnswerErrorCode;
  /** Where `[redacted]` must stand: in the message, in the detail, or both. */
  readonly marks: readonly ('message' | 'detail')[];
  reply(secret: string, id: Id, request: SeenRequest): Reply;
}

const REFLECT_SITES: readonly ReflectSite[] = [
  {
    name: 'a 401\'s JSON-RPC error message',
    code: 'http_status',
    marks: ['message', 'detail'],
    reply: (secret, id) => jsonReply(401, { jsonrpc: '2.0', id, error: { code: -32001, message: `the token ${secret} is not valid` } }),
  },
  {
    name: 'a 401\'s WWW-Authenticate',
    code: 'http_status',
    marks: ['message', 'detail'],
    reply: (secret) => ({ status: 401, headers: { 'www-authenticate': `Bearer realm="${secret}", error="${secret}", error_description="the token ${secret} expired"` } }),
  },
  {
    name: 'a 403\'s WWW-Authenticate scope',
    code: 'http_status',
    marks: ['message', 'detail'],
    reply: (secret) => ({ status: 403, headers: { 'www-authenticate': `Bearer error="insufficient_scope", scope="${secret}"` } }),
  },
  {
    name: 'a 307\'s Location, as sent',
    code: 'http_status',
    marks: ['message', 'detail'],
    reply: (secret) => ({ status: 307, headers: { location: `http://elsewhere.invalid/callback?token=${secret}` } }),
  },
  {
    name: 'a 307\'s Location, percent-encoded (encodeURIComponent)',
    code: 'http_status',
    marks: ['message', 'detail'],
    reply: (secret) => ({ status: 307, headers: { location: `http://elsewhere.invalid/callback?token=${encodeURIComponent(secret)}` } }),
  },
  {
    name: 'a 307\'s Location, percent-encoded (URLSearchParams)',
    code: 'http_status',
    marks: ['message', 'detail'],
    reply: (secret) => {
      const location = new URL('http://elsewhere.invalid/callback');
      location.searchParams.set('token', secret);
      return { status: 307, headers: { location: location.href } };
    },
  },
  {
    name: 'a body quoted in http_status: a JSON-RPC error that echoes the request\'s headers',
    code: 'http_status',
    marks: ['message', 'detail'],
    // The credential first, as a server that echoes it would put it: the message quotes a 64-character prefix.
    reply: (_secret, id, request) => {
      const { authorization, 'x-api-key': apiKey, ...rest } = request.headers;
      const echoed = { authorization, 'x-api-key': apiKey, ...rest };
      return jsonReply(500, { jsonrpc: '2.0', id, error: { code: -32603, message: `refused ${JSON.stringify(echoed)}`, data: { headers: echoed } } });
    },
  },
  {
    name: 'a body quoted in http_status: a key of the JSON-RPC error\'s data',
    code: 'http_status',
    marks: ['detail'],
    reply: (secret, id) => jsonReply(500, { jsonrpc: '2.0', id, error: { code: -32603, message: 'refused', data: { [secret]: 'seen' } } }),
  },
  { name: 'an event id', code: 'malformed_answer', marks: ['message', 'detail'], reply: (secret) => SSE_WITHOUT_ANSWER(secret) },
  { name: 'a reason phrase', code: 'http_status', marks: ['message'], reply: (secret) => ({ status: 500, reason: `token ${secret} refused` }) },
  { name: 'a content type', code: 'unsupported_content_type', marks: ['message', 'detail'], reply: (secret) => ({ status: 200, headers: { 'content-type': `text/plain; token=${secret}` }, body: 'no' }) },
];

interface SecretKind {
  readonly name: string;
  readonly options: ExchangeOptions;
}

const SECRET_KINDS: readonly SecretKind[] = [
  { name: 'the authProvider\'s token', options: { authProvider: { token: async () => TOKEN } } },
  { name: 'the caller\'s Authorization', options: { headers: { authorization: `Bearer ${TOKEN}` } } },
  { name: 'a header named in secretHeaders', options: { headers: { 'x-api-key': TOKEN }, secretHeaders: ['X-Api-Key'] } },
  // Given twice, a header's values are sent joined ("a, b"); the server reflects the first alone.
  { name: "the caller's Authorization, given twice", options: { headers: [['authorization', `Bearer ${TOKEN}`], ['authorization', 'Bearer Second~Value/0123456789']] } },
  { name: 'a header named in secretHeaders, given twice', options: { headers: [['x-api-key', TOKEN], ['x-api-key', 'Second~Value/0123456789']], secretHeaders: ['X-Api-Key'] } },
];

/** What is wrong with an error that may hold a reflected secret (empty: nothing). */
function leakProblems(thrown: unknown, code: AnswerErrorCode, marks: readonly ('message' | 'detail')[]): string[] {
  const error = answerErrorOf(thrown);
  const problems: string[] = [];
  if (error.code !== code) problems.push(`code ${error.code}, not ${code}: ${short(error.message)}`);
  const detail = JSON.stringify(error.detail);
  for (const form of TOKEN_FORMS) {
    if (error.message.includes(form)) problems.push(`the message holds ${JSON.stringify(form)}: ${short(error.message)}`);
    if (detail.includes(form)) problems.push(`the detail holds ${JSON.stringify(form)}: ${short(detail)}`);
  }
  if (marks.includes('message') && !error.message.includes('[redacted]')) problems.push(`no [redacted] in the message: ${short(error.message)}`);
  if (marks.includes('detail') && !detail.includes('[redacted]')) problems.push(`no [redacted] in the detail: ${short(detail)}`);
  return problems;
}

const reflectCases = SECRET_KINDS.flatMap((kind) => REFLECT_SITES.map((site) => [`${kind.name}, reflected in ${site.name}`, kind, site] as const));

describe.each(APIS)('rule 2, %s: a secret the server reflects is redacted from the message and the detail', (api) => {
  test.each(reflectCases)('%s', async (_name, kind, site) => {
    await withServer((request) => site.reply(secretIn(request), idOf(request), request), true, async (served) => {
      const thrown = await failedPing(api, served.url, { ...kind.options, resume: false });
      // The server was sent the secret, and reflected it.
      expect(secretIn(served.requests[0]!)).toBe(TOKEN);
      expect(leakProblems(thrown, site.code, site.marks)).toEqual([]);
    });
  });
});

describe("rule 2: what the caller's own code threw, quoting a secret, is redacted before it is cut", () => {
  // Across the 64 characters a message quotes of one text: cut first, the token's start would stay.
  const quoting = (what: string): Error => new TypeError(`${what}: Authorization: Bearer ${TOKEN}`);
  const noPrefix = (message: string): void => {
    expect(message).not.toContain(TOKEN.slice(0, 8));
    expect(message).toContain('[redacted]');
  };

  test.each(APIS)("%s: a fetch whose error quotes the Authorization it was sent", async (api) => {
    const fetch = async (): Promise<Response> => {
      throw quoting('fetch failed');
    };
    const thrown = await failedPing(api, 'http://mcp.test/mcp', { fetch, headers: { authorization: `Bearer ${TOKEN}` } });
    expect(answerErrorOf(thrown).code).toBe('stream_failed');
    noPrefix(answerErrorOf(thrown).message);
  });

  test.each(APIS)("%s: an authProvider's onUnauthorized that throws quoting the token", async (api) => {
    await withServer(() => ({ status: 401 }), true, async (served) => {
      const authProvider = {
        token: async () => TOKEN,
        onUnauthorized: async () => {
          throw quoting('revoked');
        },
      };
      const thrown = await failedPing(api, served.url, { authProvider });
      expect(answerErrorOf(thrown).code).toBe('http_status');
      noPrefix(answerErrorOf(thrown).message);
    });
  });
});

describe('rule 2, AnswerClient: a secret reflected in a server/discover refusal or a tool definition', () => {
  const discoverSites: readonly (readonly [string, (secret: string, id: Id) => Reply, AnswerErrorCode])[] = [
    ['HeaderMismatch with HTTP 400, its message holding it', (secret, id) => jsonReply(400, { jsonrpc: '2.0', id, error: { code: -32020, message: `header ${secret} mismatch` } }), 'http_status'],
    ['HeaderMismatch with HTTP 200, its message holding it', (secret, id) => jsonReply(200, { jsonrpc: '2.0', id, error: { code: -32020, message: `header ${secret} mismatch` } }), 'negotiation_failed'],
    ['UnsupportedProtocolVersion listing it among the versions (HTTP 200)', (secret, id) => jsonReply(200, { jsonrpc: '2.0', id, error: { code: -32022, message: 'unsupported', data: { supported: [secret, '2027-01-01'] } } }), 'negotiation_failed'],
  ];
  test.each(SECRET_KINDS.flatMap((kind) => discoverSites.map(([name, reply, code]) => [`${kind.name}: ${name}`, kind, reply, code] as const)))('%s', async (_name, kind, reply, code) => {
    await withServer(mcpServer({ discover: (id, request) => reply(secretIn(request), id) }), true, async (served) => {
      const thrown = await AnswerClient.connect(served.url, kind.options).catch((error: unknown) => error);
      expect(secretIn(served.requests[0]!)).toBe(TOKEN);
      expect(leakProblems(thrown, code, ['message', 'detail'])).toEqual([]);
    });
  });

  test('a JWT-long token reflected whole in a tool\'s x-mcp-header name: not even its start is quoted', async () => {
    // Longer than a quote: a name cut before it is redacted would show the token's first characters.
    const jwt = `eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.${'eyJzdWIiOiJob3N0aWxlIn0'.repeat(3)}.c2lnbmF0dXJl`;
    const handler: Handler = (request) =>
      request.message?.method === 'tools/list'
        ? jsonReply(200, { jsonrpc: '2.0', id: idOf(request), result: { tools: [toolWith('evil', `${secretIn(request)} `)] } })
        : mcpServer({ discover: MODERN_DISCOVERED })(request);
    await withServer(handler, true, async (served) => {
      const client = await AnswerClient.connect(served.url, { authProvider: { token: async () => jwt } });
      const error = answerErrorOf(await client.request('tools/call', { name: 'evil', arguments: {} }).catch((e: unknown) => e));
      expect(error.code).toBe('invalid_tool');
      expect(secretIn(served.requests.at(-1)!)).toBe(jwt);
      expect(error.message).not.toContain(jwt.slice(0, 16));
      expect(error.message).toContain('[redacted]');
      await client.close();
    });
  });

  test.each(SECRET_KINDS)('$name: a JSON-RPC code holding it, which falls back: the refusal the client says is redacted', async (kind) => {
    await withServer(mcpServer({ discover: (id, request) => jsonReply(400, { jsonrpc: '2.0', id, error: { code: `bad ${secretIn(request)}`, message: 'no' } }) }), true, async (served) => {
      const client = await AnswerClient.connect(served.url, kind.options);
      const refusal = client.negotiatedBy.by === 'initialize' ? client.negotiatedBy.refusal ?? '' : '';
      for (const form of TOKEN_FORMS) expect(refusal).not.toContain(form);
      expect(refusal).toContain('[redacted]');
      await client.close();
    });
  });
});

describe.concurrent('rule 2, the CLI: --bearer-token-env\'s token is nowhere in stdout or stderr', () => {
  const env = { MCP_TOKEN: TOKEN };
  /** What is wrong with a run's output that may hold the reflected token. */
  const cliLeaks = (run: CliRun): string[] => {
    const output = run.stdout + run.stderr;
    const problems = TOKEN_FORMS.filter((form) => output.includes(form)).map((form) => `the output holds ${JSON.stringify(form)}: ${short(output)}`);
    if (!output.includes('[redacted]')) problems.push(`no [redacted] in the output: ${short(output)}`);
    return problems;
  };

  test.for(REFLECT_SITES)('reflected in $name: call and probe', async (site, { expect }) => {
    const handler: Handler = (request) => (request.method === 'GET' ? { status: 405 } : request.method === 'DELETE' ? { status: 200 } : site.reply(secretIn(request), idOf(request), request));
    await withServer(handler, true, async (served) => {
      for (const args of [callArgs(served.url), ['probe', served.url]]) {
        const run = await runCli([...args, '--bearer-token-env', 'MCP_TOKEN'], env);
        expect(run.code, `${args[0]}: ${short(run.stderr)}`).toBeGreaterThan(1);
        expect(cliLeaks(run), args[0]).toEqual([]);
      }
      expect(served.requests.every((request) => secretIn(request) === TOKEN)).toBe(true);
    });
  });

  test('--header Authorization, reflected in a 401\'s JSON-RPC error and WWW-Authenticate: call', async ({ expect }) => {
    const handler: Handler = (request) => ({
      ...jsonReply(401, { jsonrpc: '2.0', id: idOf(request), error: { code: -32001, message: `the token ${secretIn(request)} is not valid` } }),
      headers: { 'content-type': 'application/json', 'www-authenticate': `Bearer error="${secretIn(request)}"` },
    });
    await withServer(handler, true, async (served) => {
      const run = await runCli([...callArgs(served.url), '--header', `Authorization: Bearer ${TOKEN}`]);
      expect(run.code).toBe(EXIT_CODES.http_status);
      expect(cliLeaks(run)).toEqual([]);
    });
  });

  test.for(REFLECT_SITES)('--header X-Api-Key with --secret-header X-Api-Key, reflected in $name: call and probe', async (site, { expect }) => {
    const handler: Handler = (request) => (request.method === 'GET' ? { status: 405 } : request.method === 'DELETE' ? { status: 200 } : site.reply(secretIn(request), idOf(request), request));
    await withServer(handler, true, async (served) => {
      for (const args of [callArgs(served.url), ['probe', served.url]]) {
        const run = await runCli([...args, '--header', `X-Api-Key: ${TOKEN}`, '--secret-header', 'x-api-key']);
        expect(run.code, `${args[0]}: ${short(run.stderr)}`).toBeGreaterThan(1);
        expect(cliLeaks(run), args[0]).toEqual([]);
      }
      expect(served.requests.every((request) => secretIn(request) === TOKEN)).toBe(true);
    });
  });

  test('--secret-header naming no --header given is bad usage, before anything is sent', async ({ expect }) => {
    await withServer(mcpServer({}), true, async (served) => {
      const run = await runCli([...callArgs(served.url), '--header', 'X-Api-Key: k', '--secret-header', 'X-Api-Kee']);
      expect(run.code).toBe(EXIT_USAGE);
      expect(run.stderr).toMatch(/--secret-header "X-Api-Kee" names no --header given/);
      expect(served.requests).toEqual([]);
    });
  });

  test.for([
    ['HeaderMismatch with HTTP 400', (secret: string, id: Id) => jsonReply(400, { jsonrpc: '2.0', id, error: { code: -32020, message: `header ${secret} mismatch` } }), 0],
    ['UnsupportedProtocolVersion listing it (HTTP 200)', (secret: string, id: Id) => jsonReply(200, { jsonrpc: '2.0', id, error: { code: -32022, message: 'unsupported', data: { supported: [secret, '2027-01-01'] } } }), 0],
    ['a JSON-RPC code holding it: the era line', (secret: string, id: Id) => jsonReply(400, { jsonrpc: '2.0', id, error: { code: `bad ${secret}`, message: 'no' } }), 1],
  ] as const)('a server/discover refusal, %s: call and probe', async ([, reply, fallsBack], { expect }) => {
    await withServer(mcpServer({ discover: (id, request) => reply(secretIn(request), id) }), true, async (served) => {
      for (const args of [['call', served.url, 'ping'], ['probe', served.url]]) {
        const run = await runCli([...args, '--bearer-token-env', 'MCP_TOKEN'], env);
        if (fallsBack === 1) expect(run.code, `${args[0]}: ${short(run.stderr)}`).toBe(0);
        else expect(run.code, `${args[0]}: ${short(run.stderr)}`).toBeGreaterThan(0);
        expect(cliLeaks(run), args[0]).toEqual([]);
      }
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Rule 3: one fault line
// ---------------------------------------------------------------------------------------------

describe.concurrent('rule 3: a failed call writes the era line and one fault line, whatever its DELETE does', () => {
  const failing = (id: Id): Reply => jsonReply(500, { jsonrpc: '2.0', id, error: { code: -32603, message: 'the tool broke' } });
  const deletes: readonly (readonly [string, Reply])[] = [
    ['refused (HTTP 500)', { status: 500 }],
    ['reset before any response', { status: 0, reset: true }],
    ['refused with a hostile reason phrase', { status: 500, reason: `${TERMINAL_REASON}${'x'.repeat(5000)}` }],
    ['refused with a hostile JSON-RPC error', jsonReply(500, { jsonrpc: '2.0', id: null, error: { code: -1, message: TERMINAL } })],
  ];

  test.for(deletes)('the request refused, the DELETE %s: exit http_status, one fault line', async ([, deleteReply], { expect }) => {
    await withServer(mcpServer({ request: failing, delete: () => deleteReply }), true, async (served) => {
      const run = await runCli(['call', served.url, 'tools/call', '{"name":"t","arguments":{}}']);
      expect(served.whats()).toContain('DELETE');
      expect(run.code, short(run.stderr)).toBe(EXIT_CODES.http_status);
      expect(outputProblems(run, undefined)).toEqual([]);
      const lines = textLines(run.stderr);
      expect(lines[0]).toMatch(/^sse-answer: era legacy \(2025-11-25\): /);
      expect(lines.slice(1), short(run.stderr)).toHaveLength(1);
      expect(lines[1]).toMatch(/^sse-answer: http_status: the server answered HTTP 500/);
      expect(lines.some((line) => line.startsWith('sse-answer: ending the session failed'))).toBe(false);
    });
  });

  test('a stderr that cannot be written to (its reader gone): the answer is printed, the session ended, exit 0', async ({ expect }) => {
    await withServer(mcpServer({}), true, async (served) => {
      // Every write of the era line and after fails: EPIPE.
      const run = await runPlainCli(['call', served.url, 'ping'], { closedStderr: true });
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual({ jsonrpc: '2.0', id: 1, result: { ok: true } });
      expect(served.whats()).toContain('DELETE');
    });
  });

  test.for(deletes)('the request answered, the DELETE %s: exit 0, the answer, and its own line', async ([, deleteReply], { expect }) => {
    await withServer(mcpServer({ delete: () => deleteReply }), true, async (served) => {
      const run = await runCli(['call', served.url, 'ping']);
      expect(run.code, short(run.stderr)).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual({ jsonrpc: '2.0', id: 1, result: { ok: true } });
      expect(outputProblems(run, undefined)).toEqual([]);
      const lines = textLines(run.stderr);
      expect(lines).toHaveLength(2);
      expect(lines[1]).toMatch(/^sse-answer: ending the session failed: /);
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Rule 4: probe reads every 2xx stream call reads
// ---------------------------------------------------------------------------------------------

describe.concurrent('rule 4: probe reads every 2xx stream call reads', () => {
  /** Every response of `handler` with the reason phrase `reason`. */
  const withReason = (reason: string, handler: Handler): Handler => async (request) => ({ ...(await handler(request)), reason });
  const servers: readonly (readonly [string, Handler])[] = [
    ['a 2025 server', mcpServer({})],
    ['a 2025 server answering in event streams', mcpServer({ initialize: (id) => ({ ...sseReply([`data: ${JSON.stringify({ jsonrpc: '2.0', id, result: { protocolVersion: '2025-11-25', capabilities: {} } })}\n\n`]), headers: { 'content-type': 'text/event-stream', 'mcp-session-id': SESSION } }) })],
    ['a 2026 server', mcpServer({ discover: MODERN_DISCOVERED })],
  ];
  const reasons = ['O\x01K', TERMINAL_REASON];
  test.for(servers.flatMap(([name, handler]) => reasons.map((reason) => [`${name}, reason phrase ${JSON.stringify(reason)}`, reason, handler] as const)))('%s: probe exits as call does (0)', async ([, reason, handler], { expect }) => {
    await withServer(withReason(reason, handler), true, async (served) => {
      const call = await runCli(['call', served.url, 'ping']);
      const probe = await runCli(['probe', served.url]);
      expect(call.code, `call: ${short(call.stderr)}`).toBe(0);
      expect(probe.code, `probe: ${short(probe.stderr)}`).toBe(call.code);
      expect(outputProblems(probe, undefined)).toEqual([]);
      expect(JSON.parse(probe.stdout)).toMatchObject({ url: served.url });
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Rule 5: a session id that arrived with a response is always ended
// ---------------------------------------------------------------------------------------------

/** The broken answers to an `initialize` that came with `Mcp-Session-Id`. */
const BROKEN_INITIALIZE: readonly (readonly [string, (id: Id) => Reply, boolean, boolean?])[] = [
  // [name, reply, whether a transport's send of it fails (a well-formed answer it delivers as it is),
  //  whether the response is passed over (a redirect: no answer, so its session is ended by the exchange, never held)]
  ['a JSON body that breaks mid-way', () => ({ status: 200, headers: { 'content-type': 'application/json', 'mcp-session-id': SESSION }, body: '{"jsonrpc":"2.0","id":0,"res', breaks: true }), true],
  ['an event stream that breaks mid-way', () => ({ status: 200, headers: { 'content-type': 'text/event-stream', 'mcp-session-id': SESSION }, body: 'data: {"jsonrpc":"2.0",', breaks: true }), true],
  ['garbage that is no JSON', () => ({ status: 200, headers: { 'content-type': 'application/json', 'mcp-session-id': SESSION }, body: 'garbage\x1b[2K' }), true],
  ['an event stream that ends without the answer', () => ({ ...SSE_WITHOUT_ANSWER('7'), headers: { 'content-type': 'text/event-stream', 'mcp-session-id': SESSION } }), true],
  ['a content type that is no answer', () => ({ status: 200, headers: { 'content-type': 'text/html', 'mcp-session-id': SESSION }, body: '<html>' }), true],
  ['a result without protocolVersion', (id) => jsonReply(200, { jsonrpc: '2.0', id, result: { capabilities: {} } }, { 'mcp-session-id': SESSION }), false],
  ['a protocolVersion no header can carry', (id) => jsonReply(200, { jsonrpc: '2.0', id, result: { protocolVersion: '2025-11-25\r\nX-Injected: 1', capabilities: {} } }, { 'mcp-session-id': SESSION }), false],
  ['a redirect to another origin, not followed', () => ({ status: 307, headers: { location: 'http://elsewhere.invalid/mcp', 'mcp-session-id': SESSION } }), true, true],
];

/** Whether `requests` ended the hostile session with a DELETE. */
const endedSession = (requests: readonly SeenRequest[]): boolean => requests.some((request) => request.method === 'DELETE' && request.headers['mcp-session-id'] === SESSION);

describe.concurrent("probe: a DELETE that fails is a finding of its era, not the probe's failure", () => {
  test.for([
    ['a 2026 server', MODERN_DISCOVERED, 'modern'],
    ['a 2025 server', undefined, 'legacy'],
  ] as const)('%s whose 2025 DELETE is reset: exit 0, the report says the DELETE was not accepted', async ([, discover, era], { expect }) => {
    const script: Script = { delete: () => ({ status: 0, reset: true }), ...(discover === undefined ? {} : { discover }) };
    await withServer(mcpServer(script), true, async (served) => {
      const run = await runCli(['probe', served.url]);
      expect(run.code, short(run.stderr)).toBe(0);
      const report = JSON.parse(run.stdout) as { era: string; legacy: { supported: boolean; acceptsDelete: boolean | null } };
      expect([report.era, report.legacy.supported, report.legacy.acceptsDelete]).toEqual([era, true, false]);
    });
  });
});

describe.concurrent('rule 5: a broken initialize leaves no session open', () => {
  test.for(BROKEN_INITIALIZE)('%s: call and probe each send the session a DELETE, and fail with one line', async ([, reply], { expect }) => {
    await withServer(mcpServer({ initialize: reply }), true, async (served) => {
      for (const args of [['call', served.url, 'ping'], ['probe', served.url]]) {
        const before = served.requests.length;
        const run = await runCli(args);
        expect(run.code, `${args[0]}: ${short(run.stderr)}`).not.toBe(0);
        expect(outputProblems(run, undefined), args[0]).toEqual([]);
        expect(faultLines(run.stderr), args[0]).toHaveLength(1);
        expect(endedSession(served.requests.slice(before)), `${args[0]}: ${served.whats().slice(before).join(', ')}`).toBe(true);
      }
    });
  });

  test.for(BROKEN_INITIALIZE)('%s: AnswerClient.connect fails with an AnswerError and sends the session a DELETE', async ([, reply], { expect }) => {
    await withServer(mcpServer({ initialize: reply }), true, async (served) => {
      const thrown = await AnswerClient.connect(served.url).then(
        () => undefined,
        (error: unknown) => error,
      );
      // Awaited before the failure, but for a response passed over (a redirect), whose session is ended behind it.
      await expect.poll(() => endedSession(served.requests), { timeout: 10_000 }).toBe(true);
      expect(messageProblems(answerErrorOf(thrown).message, undefined)).toEqual([]);
    });
  });

  // A pinned client refuses an initialize answered in another version, and ends the session it opened.
  test.for([
    ['another version', '2025-06-18'],
    ['another version with a bidi control (no ByteString)', '2025-06-18\u202e'],
    ['another version with CR LF (no header value)', '2025-06-18\r\nX-Injected: 1'],
  ] as const)('initialize pinned to 2025-11-25, answered in %s: call and AnswerClient send the session a DELETE', async ([, answered], { expect }) => {
    const handler = mcpServer({ initialize: (id) => jsonReply(200, { jsonrpc: '2.0', id, result: { protocolVersion: answered, capabilities: {} } }, { 'mcp-session-id': SESSION }) });
    await withServer(handler, true, async (served) => {
      const run = await runCli(['call', served.url, 'ping', '--protocol-version', '2025-11-25']);
      expect(run.code, short(run.stderr)).toBe(1);
      expect(faultLines(run.stderr)).toHaveLength(1);
      // A version in another form than a date is no 2025 version at all, said as such.
      expect(faultLines(run.stderr)[0]).toMatch(/^sse-answer: the server (answered initialize with protocol version 2025-06-18, not the pinned|answered initialize with protocol version "2025-06-18)/);
      expect(endedSession(served.requests), `call: ${served.whats().join(', ')}`).toBe(true);
      const before = served.requests.length;
      const thrown = await AnswerClient.connect(served.url, { versionNegotiation: { pin: '2025-11-25' } }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(answerErrorOf(thrown).code).toBe('negotiation_failed');
      expect(endedSession(served.requests.slice(before)), `AnswerClient: ${served.whats().slice(before).join(', ')}`).toBe(true);
    });
  });

  test("an initialize sent with no handshake (call --no-initialize, AnswerClient handshake: false): the session it issued gets a DELETE", async ({ expect }) => {
    await withServer(mcpServer({}), true, async (served) => {
      const params = JSON.stringify({ protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'hostile-test', version: '1' } });
      const run = await runCli(['call', served.url, 'initialize', params, '--no-initialize']);
      expect(run.code, short(run.stderr)).toBe(0);
      expect(endedSession(served.requests), `call: ${served.whats().join(', ')}`).toBe(true);
      const before = served.requests.length;
      const client = await AnswerClient.connect(served.url, { handshake: false });
      await client.request('initialize', JSON.parse(params) as Record<string, unknown> as never);
      await client.close();
      expect(endedSession(served.requests.slice(before)), `AnswerClient: ${served.whats().slice(before).join(', ')}`).toBe(true);
    });
  });

  test("a connect the caller aborts while initialize's body is read: it fails at once, and the session still gets a DELETE", async ({ expect }) => {
    const endless = (): Reply => ({ status: 200, headers: { 'content-type': 'text/event-stream', 'mcp-session-id': SESSION }, body: ': open\n\n', holds: true });
    await withServer(mcpServer({ initialize: endless }), true, async (served) => {
      // Aborted once initialize's response is in (its headers read), while its body is: however
      // slow the machine, never before the session id arrived.
      const controller = new AbortController();
      const fetch: FetchFunction = async (input, init) => {
        const response = await globalThis.fetch(input, init);
        setTimeout(() => controller.abort(), 50);
        return response;
      };
      const thrown = await AnswerClient.connect(served.url, { versionNegotiation: 'legacy', fetch, signal: controller.signal }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(answerErrorOf(thrown).code).toBe('aborted');
      // In the background, behind the failure.
      await expect.poll(() => endedSession(served.requests), { timeout: 10_000 }).toBe(true);
    });
  });

  test.for(BROKEN_INITIALIZE)('%s: AnswerTransport keeps the session, and close() sends it a DELETE (one passed over: ended at once)', async ([, reply, fails, passedOver], { expect }) => {
    await withServer(mcpServer({ initialize: reply }), true, async (served) => {
      const transport = new AnswerTransport(served.url, { resume: false });
      const delivered: unknown[] = [];
      transport.onmessage = (message) => delivered.push(message);
      const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'hostile-test', version: '1' } } };
      const sent = await transport.send(initialize).then(
        () => undefined,
        (error: unknown) => error,
      );
      if (fails) expect(isAnswerError(sent), String(sent)).toBe(true);
      else expect(delivered).toHaveLength(1);
      expect(transport.sessionId).toBe(passedOver === true ? undefined : SESSION);
      await transport.close();
      await expect.poll(() => endedSession(served.requests), { timeout: 10_000 }).toBe(true);
    });
  });

  test("a followed redirect that carried a session of its own: call, probe, AnswerClient and AnswerTransport end it, and keep the answer's", async ({ expect }) => {
    const ASIDE = 'hostile-session-aside';
    const initialize = (id: Id, request: SeenRequest): Reply =>
      request.path === '/mcp'
        ? { status: 307, headers: { location: '/mcp/moved', 'mcp-session-id': ASIDE } }
        : jsonReply(200, { jsonrpc: '2.0', id, result: { protocolVersion: '2025-11-25', capabilities: {} } }, { 'mcp-session-id': SESSION });
    await withServer(mcpServer({ initialize }), true, async (served) => {
      const endedAside = (from: number) => served.requests.slice(from).some((request) => request.method === 'DELETE' && request.headers['mcp-session-id'] === ASIDE);
      for (const args of [['call', served.url, 'ping'], ['probe', served.url]]) {
        const before = served.requests.length;
        const run = await runCli(args);
        expect(run.code, `${args[0]}: ${short(run.stderr)}`).toBe(0);
        expect([endedAside(before), endedSession(served.requests.slice(before))], `${args[0]}: ${served.whats().slice(before).join(', ')}`).toEqual([true, true]);
      }
      let before = served.requests.length;
      const client = await AnswerClient.connect(served.url, { versionNegotiation: 'legacy' });
      expect(client.sessionId).toBe(SESSION);
      await expect.poll(() => endedAside(before)).toBe(true);
      expect(endedSession(served.requests.slice(before))).toBe(false);
      await client.close();
      before = served.requests.length;
      const transport = new AnswerTransport(served.url);
      await transport.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'hostile-test', version: '1' } } });
      expect(transport.sessionId).toBe(SESSION);
      await expect.poll(() => endedAside(before)).toBe(true);
      await transport.close();
    });
  });

  test("an initialize answered after the caller's abort, to a fetch that ignores its signal: AnswerClient and AnswerTransport fail at once, and the session still gets a DELETE", async ({ expect }) => {
    const base = mcpServer({});
    // The answer (with its session) comes 300 ms late; the caller aborts at 50 ms.
    const slow: Handler = async (request) => {
      if (request.message?.method === 'initialize') await new Promise((resolve) => setTimeout(resolve, 300));
      return base(request);
    };
    const deaf: FetchFunction = (input, init) => globalThis.fetch(input, { ...init, signal: null });
    await withServer(slow, true, async (served) => {
      const client = AnswerClient.connect(served.url, { versionNegotiation: 'legacy', fetch: deaf, signal: AbortSignal.timeout(50) }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(answerErrorOf(await client).code).toBe('timeout');
      await expect.poll(() => endedSession(served.requests), { timeout: 10_000 }).toBe(true);
      const before = served.requests.length;
      const transport = new AnswerTransport(served.url, { fetch: deaf });
      const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'hostile-test', version: '1' } } };
      const sent = await transport.send(initialize, { requestSignal: AbortSignal.timeout(50) }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(answerErrorOf(sent).code).toBe('timeout');
      expect(transport.sessionId).toBe(undefined);
      await expect.poll(() => endedSession(served.requests.slice(before)), { timeout: 10_000 }).toBe(true);
    });
  });
});

// ---------------------------------------------------------------------------------------------
// The CLI needs dist/cli.js; the servers above are each started and stopped in their test.
// ---------------------------------------------------------------------------------------------

beforeAll(async () => {
  const run = await runCli(['--version']);
  if (run.code !== 0) throw new Error(`dist/cli.js does not run (build it: npx tsup --silent): ${run.stderr}`);
});
