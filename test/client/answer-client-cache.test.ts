/**
 * answer-client.ts and result-cache.ts, the cached results (issue #51.2), against a scripted
 * server: a list, or a `resources/read`, whose result carries 2026-07-28's `ttlMs` is reused
 * while fresh (the server sees no second request); `{ fresh: true }` asks anew (and keeps the
 * answer); `cache: false` keeps nothing; no `ttlMs` (every 2025 result), `ttlMs: 0` or one that
 * is no finite positive number is never kept; a list lasts as long as its least fresh page; an
 * announcement passed over on any response drops what it names; what is kept is frozen and equal
 * to what the server sent; and the tool definitions the `Mcp-Param-*` headers come from are the
 * listed ones. Against the v2 SDK server's `cacheHints`: answer-client-typed-servers.test.ts.
 */

import { describe, expect, test } from 'vitest';
import type { AnswerClient, AnswerClientCachedOptions } from '../../src/client/answer-client.js';
import type { JsonObject } from '../../src/vocabulary/json-rpc.js';
import { answerError, sseEvent } from '../helpers/bodies.js';
import { json, resultFor, sse, type SentRequest } from '../helpers/client-fetch.js';
import { after, connectTo, gate, paramsOf, sleep, type Handle } from '../helpers/answer-client-script.js';

/** What a cached call reads: its method and how the client is asked for it. */
const CACHED = [
  { name: 'listTools', method: 'tools/list', field: 'tools', read: (c: AnswerClient, o?: AnswerClientCachedOptions) => c.listTools(o) },
  { name: 'listPrompts', method: 'prompts/list', field: 'prompts', read: (c: AnswerClient, o?: AnswerClientCachedOptions) => c.listPrompts(o) },
  { name: 'listResources', method: 'resources/list', field: 'resources', read: (c: AnswerClient, o?: AnswerClientCachedOptions) => c.listResources(o) },
  { name: 'listResourceTemplates', method: 'resources/templates/list', field: 'resourceTemplates', read: (c: AnswerClient, o?: AnswerClientCachedOptions) => c.listResourceTemplates(o) },
  { name: 'readResource', method: 'resources/read', field: 'contents', read: (c: AnswerClient, o?: AnswerClientCachedOptions) => c.readResource('file:///a', o) },
] as const;

/** What `method`'s result holds the `n`-th time the server answers it: one item naming `n`. */
function itemOf(method: string, n: number): JsonObject {
  switch (method) {
    case 'tools/list':
      return { name: `tool-${n}`, inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } } };
    case 'resources/read':
      return { uri: 'file:///a', text: `version ${n}` };
    case 'resources/templates/list':
      return { name: `t-${n}`, uriTemplate: 'file:///{x}' };
    case 'resources/list':
      return { name: `r-${n}`, uri: `file:///r/${n}` };
    default:
      return { name: `p-${n}` };
  }
}

const FIELDS: Readonly<Record<string, string>> = { 'tools/list': 'tools', 'prompts/list': 'prompts', 'resources/list': 'resources', 'resources/templates/list': 'resourceTemplates', 'resources/read': 'contents' };

/**
 * A server whose every cacheable result carries `ttl` (none when `undefined`), each answer a new
 * version; `notes` are sent before the answer on the stream of each request they are given for.
 */
function versioned(ttl: unknown, notes: (sent: SentRequest) => readonly object[] = () => []): Handle & { readonly answered: Map<string, number> } {
  const answered = new Map<string, number>();
  const handle: Handle = (sent) => {
    const method = sent.rpc!;
    const field = FIELDS[method];
    if (field === undefined) return answerSse(sent, { content: [] }, notes(sent));
    const n = (answered.get(method) ?? 0) + 1;
    answered.set(method, n);
    return answerSse(sent, { [field]: [itemOf(method, n)], ...(ttl === undefined ? {} : { ttlMs: ttl }) }, notes(sent));
  };
  return Object.assign(handle, { answered });
}

function answerSse(sent: SentRequest, result: unknown, notes: readonly object[]): Response {
  return notes.length === 0 ? json(resultFor(sent, result)) : sse([...notes.map((note) => sseEvent(note)), sseEvent(resultFor(sent, result))]);
}

const count = (sent: readonly SentRequest[], method: string): number => sent.filter((request) => request.rpc === method).length;
const note = (method: string, params?: object) => ({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) });
const HOUR = 3_600_000;

describe('kept while fresh', () => {
  test.each(CACHED)('$name: a result with ttlMs is reused; the server sees one request', async ({ method, read }) => {
    const { client, sent } = await connectTo('modern', versioned(HOUR));
    const first = await read(client);
    const second = await read(client);
    expect(second).toBe(first);
    expect(count(sent, method)).toBe(1);
  });

  test.each(CACHED)('$name: { fresh: true } asks the server, and what it answers is kept', async ({ method, read }) => {
    const { client, sent } = await connectTo('modern', versioned(HOUR));
    const first = await read(client);
    const renewed = await read(client, { fresh: true });
    expect(renewed).not.toEqual(first);
    expect(count(sent, method)).toBe(2);
    expect(await read(client)).toBe(renewed);
    expect(count(sent, method)).toBe(2);
  });

  test.each(CACHED)('$name: cache: false keeps nothing', async ({ method, read }) => {
    const { client, sent } = await connectTo('modern', versioned(HOUR), { cache: false });
    await read(client);
    await read(client);
    expect(count(sent, method)).toBe(2);
  });

  test.each([
    ['no ttlMs', undefined],
    ['ttlMs 0', 0],
    ['a negative ttlMs', -5],
    ['a ttlMs that is a string', '60000'],
    ['a ttlMs that is null', null],
    ['a ttlMs too large to be finite (1e400 parses to Infinity)', 'infinity'],
  ])('%s: never kept', async (_, ttl) => {
    const base = versioned(ttl === 'infinity' ? HOUR : ttl);
    // JSON.stringify writes no Infinity: the body is edited to carry 1e400, which JSON.parse reads as Infinity.
    const infinite: Handle = async (sent) => {
      const body = (await (await base(sent)).text()).replace(`"ttlMs":${HOUR}`, '"ttlMs":1e400');
      return new Response(body, { headers: { 'content-type': 'application/json' } });
    };
    const handle = ttl === 'infinity' ? infinite : base;
    const { client, sent } = await connectTo('modern', handle);
    for (const { read } of CACHED) {
      await read(client);
      await read(client);
    }
    for (const { method } of CACHED) expect(count(sent, method), method).toBe(2);
  });

  test('2025: results carry no ttlMs, and nothing is kept', async () => {
    const { client, sent } = await connectTo('legacy', versioned(undefined));
    for (const { read } of CACHED) {
      await read(client);
      await read(client);
    }
    for (const { method } of CACHED) expect(count(sent, method), method).toBe(2);
  });

  test('expired: asked again once ttlMs has passed', async () => {
    const { client, sent } = await connectTo('modern', versioned(40));
    const first = await client.listPrompts();
    expect(await client.listPrompts()).toBe(first);
    await sleep(80);
    const later = await client.listPrompts();
    expect(later).not.toEqual(first);
    expect(count(sent, 'prompts/list')).toBe(2);
  });

  test("pages with different ttls: the list lasts as long as the least fresh page", async () => {
    const ttls = [HOUR, 40, HOUR];
    const { client, sent, from } = await connectTo('modern', (request) => {
      const page = paramsOf(request)['cursor'] === undefined ? 0 : Number(paramsOf(request)['cursor']);
      return json(resultFor(request, { tools: [{ name: `t${page}`, inputSchema: {} }], ttlMs: ttls[page], ...(page < 2 ? { nextCursor: String(page + 1) } : {}) }));
    });
    await client.listTools();
    await client.listTools();
    expect(after(sent, from)).toHaveLength(3);
    await sleep(80);
    await client.listTools();
    expect(after(sent, from)).toHaveLength(6);
  });

  test('a page without ttlMs among pages with one: the list is not kept', async () => {
    const { client, sent, from } = await connectTo('modern', (request) => {
      const first = paramsOf(request)['cursor'] === undefined;
      return json(resultFor(request, first ? { resources: [], ttlMs: HOUR, nextCursor: 'c' } : { resources: [] }));
    });
    await client.listResources();
    await client.listResources();
    expect(after(sent, from)).toHaveLength(4);
  });

  test('reads of two URIs are kept apart', async () => {
    const { client, sent, from } = await connectTo('modern', (request) => json(resultFor(request, { contents: [{ uri: paramsOf(request)['uri'], text: 'x' }], ttlMs: HOUR })));
    const a = await client.readResource('file:///a');
    const b = await client.readResource('file:///b');
    expect([a.contents[0]!.uri, b.contents[0]!.uri]).toEqual(['file:///a', 'file:///b']);
    expect(await client.readResource('file:///a')).toBe(a);
    expect(after(sent, from)).toHaveLength(2);
  });

  test("request('tools/list') is the caller's own exchange: never answered from what is kept", async () => {
    const { client, sent } = await connectTo('modern', versioned(HOUR));
    await client.listTools();
    await client.request('tools/list');
    await client.request('tools/list');
    expect(count(sent, 'tools/list')).toBe(3);
  });

  test('a failed list keeps nothing, and the list kept before stays', async () => {
    let fail = false;
    const base = versioned(HOUR);
    const { client, sent } = await connectTo('modern', (request) => (fail ? json({ jsonrpc: '2.0', id: request.body?.['id'], error: { code: -1, message: 'no' } }) : base(request)));
    const kept = await client.listTools();
    fail = true;
    expect((await answerError(client.listTools({ fresh: true }))).code).toBe('rpc_error');
    expect(await client.listTools()).toBe(kept);
    expect(count(sent, 'tools/list')).toBe(2);
  });
});

describe('an announcement drops what it names, on any response', () => {
  /** Every request but the lists and reads gets `announced` before its answer. */
  async function announcing(announced: readonly object[]) {
    const handle = versioned(HOUR, (sent) => (FIELDS[sent.rpc!] === undefined ? announced : []));
    return connectTo('modern', (sent) => (sent.rpc === 'ping' ? answerSse(sent, {}, announced) : handle(sent)));
  }

  /** Reads everything once (kept), then makes the request `request`, then reads everything again: how many of each the server saw. */
  async function afterAnnouncement(announced: readonly object[], request: (client: AnswerClient) => Promise<unknown>) {
    const { client, sent } = await announcing(announced);
    for (const { read } of CACHED) await read(client);
    await client.readResource('file:///b');
    await request(client);
    for (const { read } of CACHED) await read(client);
    await client.readResource('file:///b');
    const reads = (uri: string): number => sent.filter((s) => s.rpc === 'resources/read' && paramsOf(s)['uri'] === uri).length;
    const lists = CACHED.filter(({ method }) => method !== 'resources/read').map(({ method }) => [method, count(sent, method)]);
    return Object.fromEntries([...lists, ['read a', reads('file:///a')], ['read b', reads('file:///b')]]);
  }

  test('tools/list_changed on a tools/call stream: the tools list is dropped, nothing else', async () => {
    // tool-1 is the listed tool: its call reads no tools/list of its own.
    const seen = await afterAnnouncement([note('notifications/tools/list_changed')], (client) => client.callTool('tool-1', { region: 'eu' }));
    expect(seen).toEqual({ 'tools/list': 2, 'prompts/list': 1, 'resources/list': 1, 'resources/templates/list': 1, 'read a': 1, 'read b': 1 });
  });

  test("tools/list_changed on a request's stream (request('ping')): dropped all the same", async () => {
    const seen = await afterAnnouncement([note('notifications/tools/list_changed')], (client) => client.request('ping'));
    expect(seen['tools/list']).toBe(2);
  });

  test('prompts/list_changed drops the prompts; resources/list_changed the resources and their templates', async () => {
    const prompts = await afterAnnouncement([note('notifications/prompts/list_changed')], (client) => client.request('ping'));
    expect([prompts['tools/list'], prompts['prompts/list'], prompts['resources/list']]).toEqual([1, 2, 1]);
    const resources = await afterAnnouncement([note('notifications/resources/list_changed')], (client) => client.request('ping'));
    expect([resources['prompts/list'], resources['resources/list'], resources['resources/templates/list'], resources['read a'], resources['read b']]).toEqual([1, 2, 2, 1, 1]);
  });

  test('resources/updated drops the read of its uri, and no other', async () => {
    const seen = await afterAnnouncement([note('notifications/resources/updated', { uri: 'file:///b' })], (client) => client.request('ping'));
    expect(seen).toEqual({ 'tools/list': 1, 'prompts/list': 1, 'resources/list': 1, 'resources/templates/list': 1, 'read a': 1, 'read b': 2 });
  });

  test("the caller's onMessage still hears the announcement", async () => {
    const { client } = await announcing([note('notifications/tools/list_changed')]);
    const heard: unknown[] = [];
    await client.request('ping', {}, { onMessage: (message) => heard.push(message) });
    expect(heard).toEqual([note('notifications/tools/list_changed')]);
  });
});

describe('what is kept', () => {
  test('frozen, all of it: a change throws (modules are strict), and it equals what the server sent', async () => {
    const tool = { name: 'weather', inputSchema: { type: 'object', properties: { region: { type: 'string' } } }, annotations: { tags: ['a'] } };
    const contents = [{ uri: 'file:///a', text: 'A' }];
    const { client } = await connectTo('modern', (request) =>
      json(resultFor(request, request.rpc === 'tools/list' ? { tools: [tool], ttlMs: HOUR } : { contents, ttlMs: HOUR })),
    );
    const tools = await client.listTools();
    expect(tools).toEqual([tool]);
    expect(() => (tools as unknown[]).push({})).toThrow(TypeError);
    expect(() => ((tools[0] as { name: string }).name = 'other')).toThrow(TypeError);
    expect(() => ((tools[0]!.inputSchema['properties'] as Record<string, unknown>)['extra'] = {})).toThrow(TypeError);
    expect(() => ((tools[0]!.annotations!['tags'] as string[])[0] = 'b')).toThrow(TypeError);
    const read = await client.readResource('file:///a');
    expect(read).toEqual({ contents, ttlMs: HOUR });
    expect(() => ((read.contents[0] as { text: string }).text = 'B')).toThrow(TypeError);
    expect(await client.listTools()).toEqual([tool]);
  });
});

describe('2026-07-28: the tool definitions of the Mcp-Param-* headers are the listed ones', () => {
  const tools = (header: string) => ({ tools: [{ name: 'weather', inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': header } } } }], ttlMs: HOUR });

  test('a call after listTools() reads no tools/list of its own, kept or not', async () => {
    for (const cache of [true, false]) {
      const { client, sent, from } = await connectTo('modern', (request) => json(resultFor(request, request.rpc === 'tools/list' ? tools('Region') : { content: [] })), { cache });
      await client.listTools();
      await client.callTool('weather', { region: 'eu-west-1' });
      await client.listTools();
      await client.callTool('weather', { region: 'us' });
      const requests = after(sent, from);
      expect(requests.map((s) => s.rpc), `cache: ${String(cache)}`).toEqual(cache ? ['tools/list', 'tools/call', 'tools/call'] : ['tools/list', 'tools/call', 'tools/list', 'tools/call']);
      expect(requests.filter((s) => s.rpc === 'tools/call').map((s) => s.headers.get('mcp-param-region'))).toEqual(['eu-west-1', 'us']);
    }
  });

  test('tools/list_changed, then listTools(): the new definitions give the headers', async () => {
    let header = 'Region';
    const { client, sent } = await connectTo('modern', (request) => {
      if (request.rpc === 'tools/list') return json(resultFor(request, tools(header)));
      header = 'Zone';
      return sse([sseEvent(note('notifications/tools/list_changed')), sseEvent(resultFor(request, { content: [] }))]);
    });
    await client.listTools();
    await client.callTool('weather', { region: 'eu' });
    expect(sent.at(-1)!.headers.get('mcp-param-region')).toBe('eu');
    await client.listTools();
    await client.callTool('weather', { region: 'us' });
    expect([count(sent, 'tools/list'), sent.at(-1)!.headers.get('mcp-param-zone'), sent.at(-1)!.headers.get('mcp-param-region')]).toEqual([2, 'us', null]);
  });
});

describe('regressions: what the cache must not answer', () => {
  test('a list read while the server announced its change is not kept (a list_changed passed over during the read drops it)', async () => {
    const secondPage = gate();
    const announced = gate();
    const { client, sent } = await connectTo('modern', async (request) => {
      if (request.rpc === 'tools/list') {
        if (paramsOf(request)['cursor'] === undefined) return json(resultFor(request, { tools: [{ name: 'old', inputSchema: {} }], ttlMs: HOUR, nextCursor: 'c' }));
        secondPage.open();
        await announced.opened;
        return json(resultFor(request, { tools: [], ttlMs: HOUR }));
      }
      return sse([sseEvent(note('notifications/tools/list_changed')), sseEvent(resultFor(request, { content: [] }))]);
    });
    const listing = client.listTools();
    await secondPage.opened;
    // The server changed its tools, and says so on another response, while the list's last page is on its way.
    await client.request('ping');
    announced.open();
    await listing;
    await client.listTools();
    expect(count(sent, 'tools/list')).toBe(4);
  });

  test('a resource read while the server announced its update is not kept', async () => {
    const reading = gate();
    const announced = gate();
    let reads = 0;
    const { client, sent } = await connectTo('modern', async (request) => {
      if (request.rpc === 'resources/read') {
        reads += 1;
        if (reads === 1) {
          reading.open();
          await announced.opened;
        }
        return json(resultFor(request, { contents: [{ uri: 'file:///a', text: `read ${reads}` }], ttlMs: HOUR }));
      }
      return sse([sseEvent(note('notifications/resources/updated', { uri: 'file:///a' })), sseEvent(resultFor(request, {}))]);
    });
    const read = client.readResource('file:///a');
    await reading.opened;
    await client.request('ping');
    announced.open();
    await read;
    expect((await client.readResource('file:///a')).contents[0]!.text).toBe('read 2');
    expect(count(sent, 'resources/read')).toBe(2);
  });

  test('a closed client answers no list from what it kept: "the client is closed"', async () => {
    const { client } = await connectTo('modern', versioned(HOUR));
    await client.listTools();
    await client.readResource('file:///a');
    await client.close();
    await expect(client.listTools()).rejects.toThrow(new Error('AnswerClient: the client is closed'));
    await expect(client.readResource('file:///a')).rejects.toThrow(new Error('AnswerClient: the client is closed'));
  });

  test.each(CACHED)('$name: a signal already aborted stops a kept result too (aborted, with its reason), as it stops a request', async ({ method, read }) => {
    const { client, sent } = await connectTo('modern', versioned(HOUR));
    const kept = await read(client);
    const reason = new Error('the caller gave up');
    const call = read(client, { signal: AbortSignal.abort(reason) });
    await expect(call).rejects.toMatchObject({ name: 'AnswerError', code: 'aborted', cause: reason });
    expect(count(sent, method)).toBe(1);
    expect(await read(client)).toBe(kept);
  });
});
