/**
 * answer-client.ts and request-message.ts (`withMeta`): a request's `meta` merged into
 * `params._meta` in both eras (issue #51.5) — a trace context, 2026-07-28's log level — the
 * caller's params untouched; the client's own keys, or array params, a `TypeError` with nothing
 * sent; `meta` kept through every page, every input round, a version retry and a renewal.
 * `Mcp-Name` for `tasks/*` (issue #51.6) through `AnswerClient.request`, `postJsonRpc` and
 * `AnswerTransport`; and the new options' checks (issue #51.7).
 */

import { describe, expect, test } from 'vitest';
import { AnswerClient, type AnswerClientOptions } from '../../src/client/answer-client.js';
import { AnswerTransport } from '../../src/client/answer-transport.js';
import { postJsonRpc } from '../../src/client/post-json-rpc.js';
import { rejection } from '../helpers/bodies.js';
import { empty, json, resultFor, scriptedFetch, type SentRequest } from '../helpers/client-fetch.js';
import { after, connectTo, LEGACY, mcpScript, metaOf, MODERN, paramsOf, unsupportedVersion, URL_ } from '../helpers/answer-client-script.js';

const TRACE = {
  traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
  tracestate: 'vendor=opaque',
  'io.modelcontextprotocol/logLevel': 'debug',
};
const OWN = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'sse-answer', version: '0.1.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

describe('meta: merged into params._meta', () => {
  test('2026-07-28: beside the client\'s own keys, and a _meta the caller gave', async () => {
    const { client, sent, from } = await connectTo('modern');
    await client.request('tools/list', { cursor: 'c', _meta: { progressToken: 7 } }, { meta: TRACE });
    const [request] = after(sent, from);
    expect(paramsOf(request)).toEqual({ cursor: 'c', _meta: { ...OWN, progressToken: 7, ...TRACE } });
  });

  test('2025: the _meta is the meta, with what the caller gave; no key of the client\'s', async () => {
    const { client, sent, from } = await connectTo('legacy');
    await client.request('tools/call', { name: 'x', _meta: { progressToken: 'p' } }, { meta: TRACE });
    await client.request('ping', undefined, { meta: { traceparent: TRACE.traceparent } });
    const [call, ping] = after(sent, from);
    expect(paramsOf(call)).toEqual({ name: 'x', _meta: { progressToken: 'p', ...TRACE } });
    expect(paramsOf(ping)).toEqual({ _meta: { traceparent: TRACE.traceparent } });
  });

  test('a meta key the caller also set in params._meta: the meta wins', async () => {
    const { client, sent, from } = await connectTo('legacy');
    await client.request('ping', { _meta: { traceparent: 'old' } }, { meta: { traceparent: 'new' } });
    expect(metaOf(after(sent, from)[0])).toEqual({ traceparent: 'new' });
  });

  test("the caller's params and meta are not changed", async () => {
    for (const era of ['modern', 'legacy'] as const) {
      const { client } = await connectTo(era);
      const params = { name: 'x', arguments: { a: 1 }, _meta: { progressToken: 1 } };
      const meta = { ...TRACE };
      const copies = structuredClone({ params, meta });
      await client.request('tools/call', params, { meta });
      expect({ params, meta }).toEqual(copies);
    }
  });

  test('every typed call carries it: each page of a list, a call, a read, a prompt', async () => {
    for (const era of ['modern', 'legacy'] as const) {
      const { client, sent, from } = await connectTo(era, (request) => {
        const cursor = paramsOf(request)['cursor'];
        // `x` listed: its 2026 call reads no tools/list of the client's own.
        if (request.rpc === 'tools/list') return json(resultFor(request, cursor === undefined ? { tools: [], nextCursor: 'c' } : { tools: [{ name: 'x', inputSchema: {} }] }));
        return json(resultFor(request, { content: [], contents: [], messages: [] }));
      });
      await client.listTools({ meta: TRACE });
      await client.callTool('x', {}, { meta: TRACE });
      await client.readResource('u', { meta: TRACE });
      await client.getPrompt('p', {}, { meta: TRACE });
      const requests = after(sent, from);
      expect(requests.map((request) => request.rpc)).toEqual(['tools/list', 'tools/list', 'tools/call', 'resources/read', 'prompts/get']);
      for (const request of requests) expect(metaOf(request), `${era} ${String(request.rpc)}`).toMatchObject(TRACE);
    }
  });

  test('kept through an input round, a version retry and a renewal', async () => {
    const asking = { resultType: 'input_required', inputRequests: { k: { method: 'elicitation/create', params: {} } } };
    const rounds = await connectTo('modern', (request) => json(resultFor(request, paramsOf(request)['inputResponses'] === undefined ? asking : { messages: [] })), {
      onInputRequired: () => ({ action: 'decline' }),
    });
    await rounds.client.getPrompt('p', {}, { meta: TRACE });
    expect(after(rounds.sent, rounds.from).map(metaOf)).toEqual([{ ...OWN, ...TRACE }, { ...OWN, ...TRACE }]);

    let refused = false;
    const { fetch, sent } = scriptedFetch((request) => (refused ? json(resultFor(request, { prompts: [] })) : ((refused = true), unsupportedVersion(request, [MODERN]))));
    const pinned = await AnswerClient.connect(URL_, { fetch, versionNegotiation: { pin: MODERN } });
    await pinned.listPrompts({ meta: TRACE });
    expect(sent.map(metaOf)).toEqual([{ ...OWN, ...TRACE }, { ...OWN, ...TRACE }]);

    const renewing = await connectTo('legacy');
    renewing.server.forget();
    await renewing.client.request('tools/list', {}, { meta: TRACE });
    const lists = after(renewing.sent, renewing.from).filter((request) => request.rpc === 'tools/list');
    expect(lists.map(metaOf)).toEqual([TRACE, TRACE]);
  });

  test.each(Object.keys(OWN))("the client's own %s in meta: a TypeError, and nothing is sent", async (key) => {
    for (const era of ['modern', 'legacy'] as const) {
      const { client, sent, from } = await connectTo(era);
      const meta = { traceparent: 'x', [key]: 'mine' };
      for (const call of [client.request('tools/list', {}, { meta }), client.listTools({ meta }), client.callTool('t', {}, { meta }), client.readResource('u', { meta })]) {
        const error = await rejection(call);
        expect(error).toBeInstanceOf(TypeError);
        expect((error as Error).message).toMatch(new RegExp(`^meta must be an object without the client's own "${key.replace('/', '\\/')}", got `));
      }
      expect(sent).toHaveLength(from);
    }
  });

  test('2025 array params with meta: a TypeError, and nothing is sent (without meta, as given)', async () => {
    const { client, sent, from } = await connectTo('legacy');
    const error = await rejection(client.request('m', [1, 2], { meta: TRACE }));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(/^params must be an object when meta is given: an array has no place for _meta, got /);
    expect(sent).toHaveLength(from);
    await client.request('m', [1, 2]);
    expect(paramsOf(after(sent, from)[0])).toEqual([1, 2]);
  });

  test.each([
    ['null', null],
    ['a string', 'traceparent'],
    ['an array', [['traceparent', 'x']]],
    ['a number', 5],
  ])('a meta that is %s: a TypeError, and nothing is sent', async (_, meta) => {
    const { client, sent, from } = await connectTo('modern');
    const error = await rejection(client.request('tools/list', {}, { meta: meta as never }));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(/^meta must be an object, got /);
    expect(sent).toHaveLength(from);
  });

  test('meta: undefined is no meta', async () => {
    const { client, sent, from } = await connectTo('legacy');
    await client.request('ping', { a: 1 }, { meta: undefined });
    expect(paramsOf(after(sent, from)[0])).toEqual({ a: 1 });
  });
});

describe('Mcp-Name for tasks/* (the tasks extension, SEP-2663), 2026-07-28', () => {
  const TASKS = ['tasks/get', 'tasks/update', 'tasks/cancel'] as const;
  const answering = (request: SentRequest): Response => (request.body?.['id'] === undefined ? empty(202) : json(resultFor(request, {})));
  const named = (request: SentRequest | undefined) => [request?.headers.get('mcp-method'), request?.headers.get('mcp-name')];

  test.each(TASKS)('AnswerClient.request(%s, { taskId }): Mcp-Name is the task id', async (method) => {
    const { client, sent, from } = await connectTo('modern');
    await client.request(method, { taskId: 'task-7f3e' });
    expect(named(after(sent, from)[0])).toEqual([method, 'task-7f3e']);
  });

  test('a task id that is no plain token is encoded, as every Mcp-Name is', async () => {
    const { client, sent, from } = await connectTo('modern');
    await client.request('tasks/get', { taskId: 'tâche 1' });
    expect(after(sent, from)[0]!.headers.get('mcp-name')).toBe('=?base64?dMOiY2hlIDE=?=');
  });

  test('tasks/get with no taskId: a TypeError, and nothing is sent', async () => {
    const { client, sent, from } = await connectTo('modern');
    expect(await rejection(client.request('tasks/get', {}))).toBeInstanceOf(TypeError);
    expect(sent).toHaveLength(from);
  });

  test('2025: no Mcp-Name', async () => {
    const { client, sent, from } = await connectTo('legacy');
    await client.request('tasks/get', { taskId: 't' });
    expect(named(after(sent, from)[0])).toEqual([null, null]);
  });

  test.each(TASKS)('postJsonRpc(%s) in 2026-07-28: Mcp-Name is the task id', async (method) => {
    const { fetch, sent } = scriptedFetch(answering);
    const message = { jsonrpc: '2.0', id: 3, method, params: { taskId: 'task-9', _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN } } };
    await postJsonRpc(URL_, message, { fetch, headers: { 'mcp-protocol-version': MODERN } });
    expect(named(sent[0])).toEqual([method, 'task-9']);
  });

  test.each(TASKS)('AnswerTransport.send(%s) in 2026-07-28: Mcp-Name is the task id', async (method) => {
    const { fetch, sent } = scriptedFetch(answering);
    const transport = new AnswerTransport(URL_, { fetch });
    transport.setProtocolVersion(MODERN);
    await transport.send({ jsonrpc: '2.0', id: 4, method, params: { taskId: 'task-5', _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN } } });
    expect(named(sent[0])).toEqual([method, 'task-5']);
    await transport.close();
  });
});

describe('the options of issue #51: checked before anything is sent', () => {
  test.each([
    ['cache', { cache: 'false' }, /^cache must be a boolean, got "false"$/],
    ['cache', { cache: 0 }, /^cache must be a boolean, got 0$/],
    ['cache', { cache: null }, /^cache must be a boolean, got null$/],
    ['renewSession', { renewSession: 1 }, /^renewSession must be a boolean, got 1$/],
    ['renewSession', { renewSession: 'yes' }, /^renewSession must be a boolean, got "yes"$/],
    ['maxInputRounds', { maxInputRounds: '3' }, /^maxInputRounds must be a number, got "3"$/],
  ])('%s: %o is a TypeError', async (_, options, message) => {
    const { fetch, sent } = mcpScript('modern');
    const error = await rejection(AnswerClient.connect(URL_, { ...(options as unknown as AnswerClientOptions), fetch }));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(message);
    expect(sent).toEqual([]);
  });

  test('cache: true and renewSession: true are the defaults, and are accepted as given', async () => {
    const { client } = await connectTo('legacy', undefined, { cache: true, renewSession: true, versionNegotiation: { pin: LEGACY } });
    expect(client.sessionId).toBe('s-1');
  });
});
