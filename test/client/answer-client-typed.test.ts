/**
 * answer-client.ts, the typed calls (issue #51.1), against a scripted server: `listTools`,
 * `listPrompts`, `listResources`, `listResourceTemplates` read every page and return every item
 * (pages bounded by `MAX_LIST_PAGES`; a cursor seen twice, or a page with no list, is
 * `malformed_answer`/`invalid_result`); `callTool` returns the `CallToolResult` (`isError: true`
 * is a result); `readResource`, `getPrompt` (string arguments only); a JSON-RPC error is
 * `rpc_error`, its message quoting the server's bounded and escaped, `detail.answer` the
 * response; an `input_required` answered by `onInputRequired` (2026 MRTR) or, unanswered,
 * `input_required`; each call takes `{ signal, meta, onMessage }` as `request` does; bad
 * arguments are `TypeError`s before anything is sent. Against real servers:
 * answer-client-typed-servers.test.ts.
 */

import { describe, expect, test } from 'vitest';
import { AnswerClient } from '../../src/client/answer-client.js';
import { MAX_LIST_PAGES } from '../../src/index.js';
import type { JsonObject, JsonRpcMessage } from '../../src/vocabulary/json-rpc.js';
import { answerError, rejection, sseEvent } from '../helpers/bodies.js';
import { json, resultFor, sse, trail, type SentRequest } from '../helpers/client-fetch.js';
import { after, answerOk, connectTo, paramsOf, rpcError, type Handle } from '../helpers/answer-client-script.js';

const ERAS = ['modern', 'legacy'] as const;

/** Each list: the method, the field of its items, and the `i`-th item. */
const LISTS = [
  { call: 'listTools', method: 'tools/list', field: 'tools', item: (i: number) => ({ name: `tool-${i}`, inputSchema: { type: 'object' } }) },
  { call: 'listPrompts', method: 'prompts/list', field: 'prompts', item: (i: number) => ({ name: `prompt-${i}`, arguments: [{ name: 'a' }] }) },
  { call: 'listResources', method: 'resources/list', field: 'resources', item: (i: number) => ({ uri: `file:///r/${i}`, name: `r${i}` }) },
  { call: 'listResourceTemplates', method: 'resources/templates/list', field: 'resourceTemplates', item: (i: number) => ({ uriTemplate: `file:///t/${i}/{x}`, name: `t${i}` }) },
] as const;

type ListCall = (typeof LISTS)[number]['call'];

const list = (client: AnswerClient, call: ListCall, options?: Parameters<AnswerClient['listTools']>[0]): Promise<readonly unknown[]> => client[call](options);

/** Pages of `method`: page `i` answers the cursor `c<i>` (the first, none), and names the next one unless it is the last. */
function paged(method: string, pages: readonly JsonObject[], other: Handle = answerOk): Handle {
  return (sent) => {
    if (sent.rpc !== method) return other(sent);
    const cursor = paramsOf(sent)['cursor'];
    const index = cursor === undefined ? 0 : Number(String(cursor).slice(1));
    const page = pages[index]!;
    return json(resultFor(sent, index < pages.length - 1 ? { ...page, nextCursor: `c${index + 1}` } : page));
  };
}

/** `count` pages of `per` items each. */
function pagesOf(field: string, item: (i: number) => JsonObject, count: number, per: number): JsonObject[] {
  return Array.from({ length: count }, (_, page) => ({ [field]: Array.from({ length: per }, (_, at) => item(page * per + at)) }));
}

const sentOf = (sent: SentRequest[], method: string): SentRequest[] => sent.filter((request) => request.rpc === method);

describe('lists: every item, across the pages', () => {
  for (const era of ERAS) {
    test.each(LISTS)(`${era}: $call reads each page once, with its cursor, and returns every item in order`, async ({ call, method, field, item }) => {
      const pages = pagesOf(field, item, 3, 2);
      const { client, sent, from } = await connectTo(era, paged(method, pages));
      const items = await list(client, call);
      expect(items).toEqual(pages.flatMap((page) => page[field] as unknown[]));
      const requests = after(sent, from);
      expect(trail(requests)).toEqual([`POST ${method}`, `POST ${method}`, `POST ${method}`]);
      expect(requests.map((request) => paramsOf(request)['cursor'])).toEqual([undefined, 'c1', 'c2']);
      expect(new Set(requests.map((request) => request.body?.['id'])).size).toBe(3);
    });
  }

  test('an empty list is a list', async () => {
    const { client } = await connectTo('modern', paged('prompts/list', [{ prompts: [] }]));
    expect(await client.listPrompts()).toEqual([]);
  });

  test('MAX_LIST_PAGES is exported, 100', () => {
    expect(MAX_LIST_PAGES).toBe(100);
  });

  test('a list of exactly MAX_LIST_PAGES pages is read to its end', async () => {
    const pages = pagesOf('tools', LISTS[0].item, MAX_LIST_PAGES, 1);
    const { client, sent, from } = await connectTo('modern', paged('tools/list', pages));
    expect(await client.listTools()).toHaveLength(MAX_LIST_PAGES);
    expect(after(sent, from)).toHaveLength(MAX_LIST_PAGES);
  });

  test.each(LISTS)('$call: pages that never end stop at MAX_LIST_PAGES: malformed_answer, invalid_result', async ({ call, method, field, item }) => {
    let page = 0;
    const endless: Handle = (sent) => json(resultFor(sent, { [field]: [item(page)], nextCursor: `next-${(page += 1)}` }));
    const { client, sent, from } = await connectTo('modern', endless);
    const error = await answerError(list(client, call));
    expect([error.code, error.reason]).toEqual(['malformed_answer', 'invalid_result']);
    expect(error.message).toBe(`${method} went on past ${MAX_LIST_PAGES} pages`);
    expect(after(sent, from)).toHaveLength(MAX_LIST_PAGES);
  });

  test.each(LISTS)('$call: a cursor seen twice (the pages loop): malformed_answer, invalid_result, and no page more', async ({ call, method, field, item }) => {
    const cursors = ['a', 'b', 'a', 'b'];
    let page = 0;
    const looping: Handle = (sent) => json(resultFor(sent, { [field]: [item(page)], nextCursor: cursors[page++] }));
    const { client, sent, from } = await connectTo('modern', looping);
    const error = await answerError(list(client, call));
    expect([error.code, error.reason]).toEqual(['malformed_answer', 'invalid_result']);
    expect(error.message).toBe(`${method} gave the cursor "a" twice: its pages loop`);
    expect(after(sent, from)).toHaveLength(3);
  });

  test("a looping cursor is the server's text: quoted, escaped and bounded", async () => {
    const cursor = `\u001b[2J\u0000${'z'.repeat(100_000)}`;
    const { client } = await connectTo('modern', (sent) => json(resultFor(sent, { tools: [], nextCursor: cursor })));
    const error = await answerError(client.listTools());
    expect(error.message).toMatch(/^tools\/list gave the cursor "\\u001b\[2J\\u0000z+…" twice: its pages loop$/);
    expect(error.message.length).toBeLessThan(200);
  });

  test.each([
    ['no list', {}],
    ['a list that is no array', { tools: { name: 'x' } }],
    ['a list that is null', { tools: null }],
  ])('a page with %s: malformed_answer, invalid_result', async (_, result) => {
    const { client } = await connectTo('modern', (sent) => json(resultFor(sent, result)));
    const error = await answerError(client.listTools());
    expect([error.code, error.reason, error.message]).toEqual(['malformed_answer', 'invalid_result', 'a page of tools/list has no tools list']);
  });

  test('a later page with no list fails the whole list', async () => {
    const { client, sent, from } = await connectTo('legacy', paged('resources/list', [{ resources: [{ uri: 'a', name: 'a' }] }, { resource: [] }]));
    const error = await answerError(client.listResources());
    expect([error.code, error.reason]).toEqual(['malformed_answer', 'invalid_result']);
    expect(after(sent, from)).toHaveLength(2);
  });

  test.each([['a string', 'tools'], ['null', null], ['an array', [{ name: 'x' }]]])('a result that is %s: malformed_answer, invalid_result, the answer in detail', async (_, result) => {
    const { client } = await connectTo('modern', (sent) => json(resultFor(sent, result)));
    const error = await answerError(client.listTools());
    expect([error.code, error.reason, error.message]).toEqual(['malformed_answer', 'invalid_result', 'the server answered tools/list with a result that is not an object']);
    expect(error.detail.answer).toEqual({ jsonrpc: '2.0', id: 1, result });
  });

  test('a JSON-RPC error on a later page: rpc_error, its response in detail.answer', async () => {
    const { client } = await connectTo('modern', (sent) =>
      paramsOf(sent)['cursor'] === undefined ? json(resultFor(sent, { prompts: [], nextCursor: 'c1' })) : rpcError(sent, -32602, 'Invalid cursor'),
    );
    const error = await answerError(client.listPrompts());
    expect([error.code, error.message]).toEqual(['rpc_error', 'the server answered prompts/list with "Invalid cursor" (JSON-RPC error -32602)']);
    expect(error.detail.answer).toEqual({ jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'Invalid cursor' } });
  });

  test("onMessage hears every page's messages, in order, before each page's answer", async () => {
    const note = (page: number) => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `page ${page}` } });
    const { client } = await connectTo('modern', (sent) => {
      const page = paramsOf(sent)['cursor'] === undefined ? 0 : 1;
      return sse([sseEvent(note(page)), sseEvent(resultFor(sent, { tools: [], ...(page === 0 ? { nextCursor: 'c1' } : {}) }))]);
    });
    const heard: JsonRpcMessage[] = [];
    await client.listTools({ onMessage: (message) => heard.push(message) });
    expect(heard).toEqual([note(0), note(1)]);
  });

  test('a signal that aborts between pages: aborted, and no page more', async () => {
    const controller = new AbortController();
    const { client, sent, from } = await connectTo('modern', (sent) => {
      if (paramsOf(sent)['cursor'] !== undefined) controller.abort(new Error('enough'));
      return json(resultFor(sent, { tools: [], nextCursor: `c${sent.body?.['id'] as number}` }));
    });
    const error = await answerError(client.listTools({ signal: controller.signal }));
    expect(error.code).toBe('aborted');
    expect(after(sent, from)).toHaveLength(2);
  });
});

describe('callTool', () => {
  const tools = { tools: [{ name: 'search', inputSchema: { type: 'object' } }] };
  /** A 2026 server lists `search`; every call is answered by `call`. */
  const calling = (call: Handle): Handle => (sent) => (sent.rpc === 'tools/list' ? json(resultFor(sent, tools)) : call(sent));

  for (const era of ERAS) {
    test(`${era}: the CallToolResult, as the server sent it; the name and arguments as given`, async () => {
      const result = { content: [{ type: 'text', text: 'found' }], structuredContent: { hits: 3 }, extra: { kept: true } };
      const { client, sent } = await connectTo(era, calling((request) => json(resultFor(request, result))));
      expect(await client.callTool('search', { q: 'sse', page: 2 })).toEqual(result);
      const call = sentOf(sent, 'tools/call')[0]!;
      const { _meta, ...params } = paramsOf(call);
      expect(params).toEqual({ name: 'search', arguments: { q: 'sse', page: 2 } });
      expect(_meta === undefined).toBe(era === 'legacy');
    });

    test(`${era}: with no arguments, the params carry none`, async () => {
      const { client, sent } = await connectTo(era, calling((request) => json(resultFor(request, { content: [] }))));
      await client.callTool('search');
      expect('arguments' in paramsOf(sentOf(sent, 'tools/call')[0])).toBe(false);
    });
  }

  test('isError: true is a result: it resolves, and says how the tool failed', async () => {
    const failed = { content: [{ type: 'text', text: 'the index is down' }], isError: true };
    const { client } = await connectTo('modern', calling((request) => json(resultFor(request, failed))));
    expect(await client.callTool('search', {})).toEqual(failed);
  });

  test.each([
    ['no content', { isError: false }],
    ['content that is no list', { content: 'text' }],
    ['no object', 'done'],
  ])('a result with %s: malformed_answer, invalid_result', async (_, result) => {
    const { client } = await connectTo('modern', calling((request) => json(resultFor(request, result))));
    const error = await answerError(client.callTool('search', {}));
    expect([error.code, error.reason]).toEqual(['malformed_answer', 'invalid_result']);
    expect(error.message).toBe('the server answered tools/call with a result that is not an object with a content list');
  });

  test('a JSON-RPC error: rpc_error, quoting the message and the code; detail.answer is the response', async () => {
    const { client } = await connectTo('legacy', (request) => rpcError(request, -32602, 'Unknown tool: search'));
    const error = await answerError(client.callTool('search', {}));
    expect([error.code, error.message]).toEqual(['rpc_error', 'the server answered tools/call with "Unknown tool: search" (JSON-RPC error -32602)']);
    expect(error.detail.answer).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Unknown tool: search' } });
    expect(error.detail.status).toBeUndefined();
  });

  test("a hostile error message (controls, 1 MB) is quoted once: bounded and escaped; detail.answer keeps it whole", async () => {
    const hostile = `\u0000\u001b[31mred\u2028\u202e${'x'.repeat(1024 * 1024)}`;
    const { client } = await connectTo('modern', calling((request) => rpcError(request, -32000, hostile)));
    const error = await answerError(client.callTool('search', {}));
    expect(error.code).toBe('rpc_error');
    expect(error.message.startsWith('the server answered tools/call with "\\u0000\\u001b[31mred\\u2028\\u202exxx')).toBe(true);
    expect(error.message).toMatch(/…" \(JSON-RPC error -32000\)$/);
    expect(error.message.length).toBeLessThan(200);
    expect(error.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e]/);
    expect((error.detail.answer as { error: { message: string } }).error.message).toBe(hostile);
  });

  test("an error message that repeats the client's token: redacted", async () => {
    const token = 'tok-abcdef0123456789';
    const { client } = await connectTo(
      'modern',
      calling((request) => rpcError(request, -32000, `refused for ${request.headers.get('authorization') ?? ''}`)),
      { headers: { authorization: `Bearer ${token}` } },
    );
    const error = await answerError(client.callTool('search', {}));
    expect(error.message).not.toContain(token);
    expect(error.message).toContain('[redacted]');
  });

  test('an error with no message: rpc_error all the same', async () => {
    const { client } = await connectTo('modern', calling((request) => json({ jsonrpc: '2.0', id: request.body?.['id'], error: { code: 7 } })));
    const error = await answerError(client.callTool('search', {}));
    expect([error.code, error.message]).toEqual(['rpc_error', 'the server answered tools/call with a JSON-RPC error']);
  });
});

describe('readResource and getPrompt', () => {
  for (const era of ERAS) {
    test(`${era}: readResource(uri): the result; the uri sent as given`, async () => {
      const result = { contents: [{ uri: 'file:///a b', mimeType: 'text/plain', text: 'A' }] };
      const { client, sent, from } = await connectTo(era, (request) => json(resultFor(request, result)));
      expect(await client.readResource('file:///a b')).toEqual(result);
      const [read] = after(sent, from);
      expect([read!.rpc, paramsOf(read)['uri']]).toEqual(['resources/read', 'file:///a b']);
    });

    test(`${era}: getPrompt(name, args): the result; the arguments as given, a copy`, async () => {
      const result = { description: 'd', messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] };
      const { client, sent, from } = await connectTo(era, (request) => json(resultFor(request, result)));
      const args = { who: 'ann', tone: '' };
      expect(await client.getPrompt('greet', args)).toEqual(result);
      const [get] = after(sent, from);
      expect([get!.rpc, paramsOf(get)['name'], paramsOf(get)['arguments']]).toEqual(['prompts/get', 'greet', { who: 'ann', tone: '' }]);
      expect(args).toEqual({ who: 'ann', tone: '' });
    });
  }

  test('getPrompt with no arguments sends none', async () => {
    const { client, sent, from } = await connectTo('modern', (request) => json(resultFor(request, { messages: [] })));
    await client.getPrompt('greet');
    expect('arguments' in paramsOf(after(sent, from)[0])).toBe(false);
  });

  test.each([
    ['readResource', 'resources/read', 'contents'],
    ['getPrompt', 'prompts/get', 'messages'],
  ] as const)('%s (%s): a result without its list is malformed_answer, invalid_result', async (call, method, field) => {
    const { client } = await connectTo('modern', (request) => json(resultFor(request, { [field]: {} })));
    const error = await answerError(call === 'readResource' ? client.readResource('u') : client.getPrompt('p'));
    expect([error.code, error.reason, error.message]).toEqual(['malformed_answer', 'invalid_result', `the server answered ${method} with a result that is not an object with a ${field} list`]);
  });

  test.each(['readResource', 'getPrompt'] as const)('%s: a JSON-RPC error is rpc_error', async (call) => {
    const { client } = await connectTo('legacy', (request) => rpcError(request, -32002, 'Resource not found'));
    const error = await answerError(call === 'readResource' ? client.readResource('u') : client.getPrompt('p'));
    expect([error.code, error.detail.answer]).toEqual(['rpc_error', { jsonrpc: '2.0', id: 1, error: { code: -32002, message: 'Resource not found' } }]);
  });
});

describe('input rounds (2026-07-28 MRTR)', () => {
  const asking = { resultType: 'input_required', inputRequests: { who: { method: 'elicitation/create', params: { message: 'Who?' } } }, requestState: 'st-1' };
  const TYPED: readonly { readonly call: 'callTool' | 'readResource' | 'getPrompt'; readonly method: string; readonly done: JsonObject }[] = [
    { call: 'callTool', method: 'tools/call', done: { content: [{ type: 'text', text: 'hello ann' }] } },
    { call: 'readResource', method: 'resources/read', done: { contents: [{ uri: 'u', text: 'ann' }] } },
    { call: 'getPrompt', method: 'prompts/get', done: { messages: [] } },
  ];
  const invoke = (client: AnswerClient, call: 'callTool' | 'readResource' | 'getPrompt') =>
    call === 'callTool' ? client.callTool('x', {}) : call === 'readResource' ? client.readResource('u') : client.getPrompt('x', {});
  /** Asks until the request carries input responses, then answers `done`. */
  const askingUntilAnswered = (done: JsonObject): Handle => (sent) =>
    sent.rpc === 'tools/list' ? json(resultFor(sent, { tools: [] })) : json(resultFor(sent, paramsOf(sent)['inputResponses'] === undefined ? asking : done));

  test.each(TYPED)('$call: answered by onInputRequired, re-sent with a new id, the inputResponses and the requestState; the final result', async ({ call, method, done }) => {
    const { client, sent } = await connectTo('modern', askingUntilAnswered(done), { onInputRequired: () => ({ action: 'accept', content: { name: 'ann' } }) });
    expect(await invoke(client, call)).toEqual(done);
    const rounds = sentOf(sent, method);
    expect(rounds).toHaveLength(2);
    expect(rounds[0]!.body?.['id']).not.toEqual(rounds[1]!.body?.['id']);
    expect(paramsOf(rounds[1])).toMatchObject({ inputResponses: { who: { action: 'accept', content: { name: 'ann' } } }, requestState: 'st-1' });
  });

  test.each(TYPED)('$call: an input_required nobody answers is the code input_required, its response in detail.answer', async ({ call, method, done }) => {
    const { client, sent } = await connectTo('modern', askingUntilAnswered(done));
    const error = await answerError(invoke(client, call));
    expect([error.code, error.message]).toEqual(['input_required', `the server answered ${method} with input_required, and no onInputRequired answered it within maxInputRounds`]);
    expect(error.detail.answer).toMatchObject({ result: asking });
    expect(sentOf(sent, method)).toHaveLength(1);
  });

  test('input still required after maxInputRounds: input_required', async () => {
    let asked = 0;
    const { client, sent } = await connectTo('modern', (request) => json(resultFor(request, asking)), {
      maxInputRounds: 2,
      onInputRequired: () => ((asked += 1), { action: 'decline' }),
    });
    expect((await answerError(client.readResource('u'))).code).toBe('input_required');
    expect([sentOf(sent, 'resources/read').length, asked]).toEqual([3, 2]);
  });
});

describe('bad arguments: TypeErrors, before anything is sent', () => {
  const calls: readonly [string, (client: AnswerClient) => Promise<unknown>, RegExp][] = [
    ['callTool name', (c) => c.callTool(5 as never), /^name must be a string, got 5$/],
    ['callTool args an array', (c) => c.callTool('x', [1] as never), /^args must be an object, got /],
    ['callTool args a string', (c) => c.callTool('x', 'a' as never), /^args must be an object, got "a"$/],
    ['callTool args null', (c) => c.callTool('x', null as never), /^args must be an object, got null$/],
    ['readResource uri', (c) => c.readResource(new URL('file:///a') as never), /^uri must be a string, got /],
    ['getPrompt name', (c) => c.getPrompt(null as never), /^name must be a string, got null$/],
    ['getPrompt args not strings', (c) => c.getPrompt('p', { n: 1 } as never), /^args must be an object of strings, got /],
    ['getPrompt args an array', (c) => c.getPrompt('p', ['a'] as never), /^args must be an object of strings, got /],
    ['listTools fresh', (c) => c.listTools({ fresh: 'yes' as never }), /^fresh must be a boolean, got "yes"$/],
    ['readResource fresh', (c) => c.readResource('u', { fresh: 1 as never }), /^fresh must be a boolean, got 1$/],
    ['listPrompts meta', (c) => c.listPrompts({ meta: 'trace' as never }), /^meta must be an object, got "trace"$/],
    ['callTool meta an array', (c) => c.callTool('x', {}, { meta: [] as never }), /^meta must be an object, got /],
    ['getPrompt meta null', (c) => c.getPrompt('p', {}, { meta: null as never }), /^meta must be an object, got null$/],
    ['listResources onMessage', (c) => c.listResources({ onMessage: 1 as never }), /^onMessage must be a function, got 1$/],
    ['listResourceTemplates signal', (c) => c.listResourceTemplates({ signal: {} as never }), /^signal must be an AbortSignal, got /],
    ['listTools options', (c) => c.listTools(5 as never), /^options must be an object, got 5$/],
  ];

  test.each(calls)('%s', async (_, call, message) => {
    for (const era of ERAS) {
      const { client, sent, from } = await connectTo(era);
      const error = await rejection(call(client));
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toMatch(message);
      expect(sent).toHaveLength(from);
    }
  });

  test('a signal already aborted: aborted, and nothing is sent, for every typed call', async () => {
    const { client, sent, from } = await connectTo('modern');
    const signal = AbortSignal.abort(new Error('no'));
    for (const call of [
      client.listTools({ signal }),
      client.listPrompts({ signal }),
      client.listResources({ signal }),
      client.listResourceTemplates({ signal }),
      client.callTool('x', {}, { signal }),
      client.readResource('u', { signal }),
      client.getPrompt('p', {}, { signal }),
    ]) {
      expect((await answerError(call)).code).toBe('aborted');
    }
    expect(sent).toHaveLength(from);
  });
});
