// AnswerClient's typed calls (issue #51.1) and cached results (#51.2) against real servers on
// 127.0.0.1, none written here: the v2 SDK server in 2026-07-28 (`sdk-modern`) and in 2025 with
// sessions (`sdk-stateful`), both with `cacheHints` set, and the v1 SDK server with sessions —
// each with the catalog of helpers/era-tools.ts (a resource, a template, a prompt, `fails`,
// `changes`). Every list the client reads equals what the server lists; a tool call, a read, a
// prompt; a JSON-RPC error is rpc_error; MRTR through callTool; in 2026-07-28 the `ttlMs` the
// server's cacheHints give is honoured (kept, fresh, cache: false, ttlMs 0, expiry, a change
// announced on a call's stream), and no 2025 result is kept. Servers start once for the file.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AnswerClient, type AnswerClientOptions, type JsonRpcResponse } from '../src/index.js';
import { answerError } from './helpers/bodies.js';
import { CATALOG, ELICIT_KEY, REGION_HEADER, startSdkServer, type SdkCacheHints } from './helpers/era-servers.js';
import type { RecordedRequest } from './helpers/era-http.js';
import { startMcpServer } from './helpers/mcp-server.js';

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const HOUR = 3_600_000;
/** The resources list expires soon, for a test that waits it out. */
const SHORT_TTL = 150;
/** Every cacheable list and read is kept but the prompts list, which the SDK then sends with `ttlMs: 0`. */
const HINTS: SdkCacheHints = {
  'tools/list': { ttlMs: HOUR },
  'resources/list': { ttlMs: SHORT_TTL },
  'resources/templates/list': { ttlMs: HOUR },
  'resources/read': { ttlMs: HOUR },
};

/** A running server, whichever helper started it. */
interface Subject {
  readonly name: string;
  readonly era: 'modern' | 'legacy';
  readonly url: string;
  readonly requests: readonly RecordedRequest[];
  stop(): Promise<void>;
}

const STARTS: readonly { readonly name: string; readonly era: 'modern' | 'legacy'; readonly start: () => Promise<Omit<Subject, 'name' | 'era'>> }[] = [
  { name: 'sdk-modern', era: 'modern', start: () => startSdkServer('modern', { catalog: true, cacheHints: HINTS }) },
  { name: 'sdk-stateful', era: 'legacy', start: () => startSdkServer('stateful', { catalog: true, cacheHints: HINTS }) },
  { name: 'v1-stateful', era: 'legacy', start: () => startMcpServer({ stateful: true, json: false, catalog: true }) },
];

const subjects = new Map<string, Subject>();

beforeAll(async () => {
  for (const { name, era, start } of STARTS) subjects.set(name, { ...(await start()), name, era });
}, 20_000);

afterAll(async () => {
  await Promise.all([...subjects.values()].map((subject) => subject.stop()));
});

function subject(name: string): Subject {
  return subjects.get(name)!;
}

/** Connects to `server` ('auto'), and says where its log stood then. */
async function connect(server: Subject, options: AnswerClientOptions = {}) {
  const client = await AnswerClient.connect(server.url, options);
  return { client, from: server.requests.length };
}

/** The JSON-RPC methods the server saw since `from`, each with its status. */
function seen(server: Subject, from: number): string[] {
  return server.requests.slice(from).map((request) => `${request.rpcMethod ?? request.method} ${String(request.status)}`);
}

function resultOf(answer: JsonRpcResponse): Record<string, unknown> {
  if (!('result' in answer)) throw new Error(`no result: ${JSON.stringify(answer).slice(0, 200)}`);
  return answer.result as Record<string, unknown>;
}

const names = (items: readonly { readonly name: string }[]): string[] => items.map((item) => item.name);

describe.each(STARTS.map(({ name, era }) => ({ name, era })))('$name ($era): the typed calls', ({ name, era }) => {
  test('connected in its era', async () => {
    const { client } = await connect(subject(name));
    expect([client.era, client.protocolVersion]).toEqual([era, era === 'modern' ? MODERN : LEGACY]);
    await client.close();
  });

  test("each list equals the server's own answer to its list request", async () => {
    const { client } = await connect(subject(name), { cache: false });
    const lists = [
      ['tools/list', 'tools', await client.listTools()],
      ['prompts/list', 'prompts', await client.listPrompts()],
      ['resources/list', 'resources', await client.listResources()],
      ['resources/templates/list', 'resourceTemplates', await client.listResourceTemplates()],
    ] as const;
    for (const [method, field, items] of lists) expect(items, method).toEqual(resultOf(await client.request(method))[field]);
    const [tools, prompts, resources, templates] = lists.map(([, , items]) => items) as [readonly { name: string }[], readonly { name: string }[], readonly { uri: string }[], readonly { uriTemplate: string }[]];
    expect(names(tools)).toEqual(expect.arrayContaining(['echo', 'progress', 'never', CATALOG.failing, CATALOG.changing]));
    expect(prompts).toEqual([expect.objectContaining({ name: CATALOG.prompt, arguments: [expect.objectContaining({ name: 'who', required: true })] })]);
    expect(resources.map((resource) => resource.uri)).toEqual([CATALOG.resource]);
    expect(templates.map((template) => template.uriTemplate)).toEqual([CATALOG.template]);
    await client.close();
  });

  test('callTool: the result; isError: true resolves; meta reaches the server', async () => {
    const server = subject(name);
    const { client, from } = await connect(server);
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const echoed = await client.callTool('echo', { text: 'hi' }, { meta: { traceparent } });
    expect(echoed.content).toEqual([{ type: 'text', text: 'hi' }]);
    expect(echoed.isError).not.toBe(true);
    const failed = await client.callTool(CATALOG.failing);
    expect([failed.isError, failed.content]).toEqual([true, [{ type: 'text', text: 'it failed' }]]);
    const call = server.requests.slice(from).find((request) => request.rpcMethod === 'tools/call')!;
    expect((call.body as { params: { _meta: Record<string, unknown> } }).params._meta).toMatchObject({ traceparent });
    await client.close();
  });

  test('readResource: a resource, and one of a template', async () => {
    const { client } = await connect(subject(name), { cache: false });
    const read = await client.readResource(CATALOG.resource);
    expect(read.contents).toEqual([{ uri: CATALOG.resource, mimeType: 'text/plain', text: expect.stringMatching(/^read \d+$/) }]);
    const page = await client.readResource('page://7');
    expect(page.contents).toEqual([{ uri: 'page://7', mimeType: 'text/plain', text: 'page 7' }]);
    await client.close();
  });

  test('getPrompt: the prompt filled with its arguments', async () => {
    const { client } = await connect(subject(name));
    const prompt = await client.getPrompt(CATALOG.prompt, { who: 'ann' });
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'hello ann' } }]);
    await client.close();
  });

  test("a JSON-RPC error (an unknown prompt): rpc_error, quoting the server's message; detail.answer its response", async () => {
    const { client } = await connect(subject(name));
    const error = await answerError(client.getPrompt('nope'));
    expect(error.code).toBe('rpc_error');
    expect(error.message).toMatch(/^the server answered prompts\/get with ".*Prompt nope not found" \(JSON-RPC error -32602\)$/);
    expect(error.detail.answer).toMatchObject({ jsonrpc: '2.0', error: { code: -32602 } });
    await client.close();
  });
});

describe('sdk-modern (2026-07-28): tool headers and input rounds', () => {
  test('callTool of `tagged` after listTools(): Mcp-Param-Region from the listed definition, and no tools/list of its own', async () => {
    const server = subject('sdk-modern');
    const { client, from } = await connect(server);
    await client.listTools();
    const result = await client.callTool('tagged', { region: 'eu-west-1', text: 't' });
    expect(result.content).toEqual([{ type: 'text', text: 'eu-west-1:t' }]);
    expect(seen(server, from)).toEqual(['tools/list 200', 'tools/call 200']);
    expect(server.requests.at(-1)!.headers[`mcp-param-${REGION_HEADER.toLowerCase()}`]).toBe('eu-west-1');
  });

  test('callTool of `tagged` first: the client reads the list for its headers, once', async () => {
    const server = subject('sdk-modern');
    const { client, from } = await connect(server);
    await client.callTool('tagged', { region: 'us', text: 'a' });
    await client.callTool('tagged', { region: 'eu', text: 'b' });
    expect(seen(server, from)).toEqual(['tools/list 200', 'tools/call 200', 'tools/call 200']);
  });

  test('elicit: an input_required answered by onInputRequired, the call re-sent, its result', async () => {
    const { client } = await connect(subject('sdk-modern'), { capabilities: { elicitation: {} }, onInputRequired: () => ({ action: 'accept', content: { name: 'ann' } }) });
    expect((await client.callTool('elicit')).content).toEqual([{ type: 'text', text: 'hello ann' }]);
  });

  test('elicit with no onInputRequired: the code input_required, the server\'s request in detail.answer', async () => {
    const { client } = await connect(subject('sdk-modern'), { capabilities: { elicitation: {} } });
    const error = await answerError(client.callTool('elicit'));
    expect(error.code).toBe('input_required');
    expect(error.detail.answer).toMatchObject({ result: { resultType: 'input_required', inputRequests: { [ELICIT_KEY]: { method: 'elicitation/create' } } } });
  });
});

describe("sdk-modern (2026-07-28): the ttlMs of the server's cacheHints", () => {
  const server = (): Subject => subject('sdk-modern');

  test('the tools list is kept (ttlMs 1 h): one tools/list; what is kept equals what the server sent, frozen', async () => {
    const { client, from } = await connect(server());
    const answered = resultOf(await client.request('tools/list'));
    expect(answered['ttlMs']).toBe(HOUR);
    const tools = await client.listTools();
    expect(await client.listTools()).toBe(tools);
    expect(tools).toEqual(answered['tools']);
    expect(Object.isFrozen(tools) && Object.isFrozen(tools[0]) && Object.isFrozen(tools[0]!.inputSchema)).toBe(true);
    expect(seen(server(), from)).toEqual(['tools/list 200', 'tools/list 200']);
  });

  test('{ fresh: true } reaches the server; cache: false keeps nothing', async () => {
    const { client, from } = await connect(server());
    await client.listTools();
    await client.listTools({ fresh: true });
    await client.listTools();
    expect(seen(server(), from)).toEqual(['tools/list 200', 'tools/list 200']);
    const uncached = await connect(server(), { cache: false });
    await uncached.client.listTools();
    await uncached.client.listTools();
    expect(seen(server(), uncached.from)).toEqual(['tools/list 200', 'tools/list 200']);
  });

  test('the prompts list carries ttlMs 0 (no hint): never kept', async () => {
    const { client, from } = await connect(server());
    expect(resultOf(await client.request('prompts/list'))['ttlMs']).toBe(0);
    await client.listPrompts();
    await client.listPrompts();
    expect(seen(server(), from)).toEqual(['prompts/list 200', 'prompts/list 200', 'prompts/list 200']);
  });

  test('a resource read is kept: the server serves it once; fresh reads it again', async () => {
    const { client, from } = await connect(server());
    const first = await client.readResource(CATALOG.resource);
    expect(await client.readResource(CATALOG.resource)).toBe(first);
    const again = await client.readResource(CATALOG.resource, { fresh: true });
    expect(again.contents[0]!.text).not.toBe(first.contents[0]!.text);
    expect(seen(server(), from)).toEqual(['resources/read 200', 'resources/read 200']);
  });

  test(`the resources list expires after its ttlMs (${SHORT_TTL} ms)`, async () => {
    const { client, from } = await connect(server());
    await client.listResources();
    await client.listResources();
    expect(seen(server(), from)).toEqual(['resources/list 200']);
    await new Promise((resolve) => setTimeout(resolve, SHORT_TTL + 100));
    await client.listResources();
    expect(seen(server(), from)).toEqual(['resources/list 200', 'resources/list 200']);
  });

  test('`changes` announces tools/list_changed and resources/updated on its stream: both are dropped', async () => {
    const { client, from } = await connect(server());
    await client.listTools();
    await client.readResource(CATALOG.resource);
    await client.listResourceTemplates();
    const heard: unknown[] = [];
    await client.callTool(CATALOG.changing, { uri: CATALOG.resource }, { onMessage: (message) => heard.push(message['method']) });
    expect(heard).toEqual(['notifications/tools/list_changed', 'notifications/resources/updated']);
    await client.listTools();
    await client.readResource(CATALOG.resource);
    await client.listResourceTemplates();
    expect(seen(server(), from)).toEqual(['tools/list 200', 'resources/read 200', 'resources/templates/list 200', 'tools/call 200', 'tools/list 200', 'resources/read 200']);
  });
});

describe('2025: no result carries ttlMs, and nothing is kept', () => {
  test.each(['sdk-stateful', 'v1-stateful'])('%s', async (name) => {
    const server = subject(name);
    const { client, from } = await connect(server);
    expect('ttlMs' in resultOf(await client.request('tools/list'))).toBe(false);
    await client.listTools();
    await client.listTools();
    await client.readResource(CATALOG.resource);
    await client.readResource(CATALOG.resource);
    expect(seen(server, from)).toEqual(['tools/list 200', 'tools/list 200', 'tools/list 200', 'resources/read 200', 'resources/read 200']);
    await client.close();
  });
});
