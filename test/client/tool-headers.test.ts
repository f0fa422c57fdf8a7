/**
 * tool-headers.ts: `ToolHeaders`, the `Mcp-Param-*` headers of a 2026-07-28 `tools/call` from the
 * tool's definition in `tools/list` — pages read only as far as a call needs, every page kept (a
 * server's tools are read once), each page read within the call's signal, concurrent calls
 * waiting for the one page being read, the tools of a list the caller read itself learned, a tool
 * with invalid annotations refused (`invalid_tool`), a tool not listed called without them, a
 * failing page handed back (and read again next time), and a cursor that never ends stopped. The
 * page fetcher is a recording fake here; the same through AnswerClient against real servers is
 * answer-client-servers.test.ts, and through the CLI cli-eras.test.ts.
 */

import { describe, expect, test } from 'vitest';
import { ToolHeaders, type ToolPage } from '../../src/client/tool-headers.js';
import { MAX_LIST_PAGES } from '../../src/client/list-pages.js';
import { nothingRead, said, written, type Failure } from '../../src/vocabulary/failure.js';
import type { JsonObject } from '../../src/vocabulary/json-rpc.js';
import { headersObject } from '../helpers/client-fetch.js';

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };
const call = (name: unknown, args: JsonObject = {}): JsonObject => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, _meta: META } as JsonObject });
const tool = (name: string, header = 'Region', type: unknown = 'string'): JsonObject =>
  ({ name, inputSchema: { type: 'object', properties: { region: { type, 'x-mcp-header': header } } } }) as JsonObject;
const plain = (name: string): JsonObject => ({ name, inputSchema: { type: 'object' } });

/** A fetcher over `pages` (cursor → page; `undefined` is the first), recording each cursor asked for. */
function pagesOf(pages: Record<string, ToolPage>) {
  const asked: (string | undefined)[] = [];
  const fetchPage = async (cursor: string | undefined, _signal: AbortSignal | undefined): Promise<ToolPage> => {
    asked.push(cursor);
    const page = pages[cursor ?? 'first'];
    if (page === undefined) throw new Error(`no page ${String(cursor)}`);
    return page;
  };
  return { headers: new ToolHeaders(fetchPage), asked };
}
const page = (tools: unknown, nextCursor?: string): ToolPage => ({ ok: true, result: { tools, ...(nextCursor === undefined ? {} : { nextCursor }) } as JsonObject });

function headersOf(found: Headers | Failure | undefined): Record<string, string> {
  expect(found).toBeInstanceOf(Headers);
  return headersObject(found as Headers);
}

test('a call of a tool on the first page: its headers, and no later page read', async () => {
  const { headers, asked } = pagesOf({ first: page([tool('weather')], 'p2') });
  expect(headersOf(await headers.headersFor(call('weather', { region: 'eu-west1' }), undefined))).toEqual({
    'mcp-method': 'tools/call',
    'mcp-name': 'weather',
    'mcp-param-region': 'eu-west1',
    'mcp-protocol-version': '2026-07-28',
  });
  expect(asked).toEqual([undefined]);
});

test('pages are read in order, with each nextCursor, until the tool is found', async () => {
  const { headers, asked } = pagesOf({ first: page([plain('a')], 'p2'), p2: page([plain('b')], 'p3'), p3: page([tool('c')], 'p4') });
  expect(headersOf(await headers.headersFor(call('c', { region: 'x' }), undefined))['mcp-param-region']).toBe('x');
  expect(asked).toEqual([undefined, 'p2', 'p3']);
});

test('every page read is kept: a tool already seen, or one on the next page, costs no page again', async () => {
  const { headers, asked } = pagesOf({ first: page([tool('a', 'A')], 'p2'), p2: page([tool('b', 'B')]) });
  await headers.headersFor(call('a', { region: '1' }), undefined);
  await headers.headersFor(call('a', { region: '2' }), undefined);
  expect(asked).toEqual([undefined]);
  expect(headersOf(await headers.headersFor(call('b', { region: '3' }), undefined))['mcp-param-b']).toBe('3');
  await headers.headersFor(call('a', { region: '4' }), undefined);
  await headers.headersFor(call('b', { region: '5' }), undefined);
  expect(asked).toEqual([undefined, 'p2']);
});

test('a tool not listed: undefined once the list ends, and the ended list is not read again', async () => {
  const { headers, asked } = pagesOf({ first: page([plain('a')], 'p2'), p2: page([plain('b')]) });
  expect(await headers.headersFor(call('zzz'), undefined)).toBeUndefined();
  expect(await headers.headersFor(call('other'), undefined)).toBeUndefined();
  expect(asked).toEqual([undefined, 'p2']);
});

test('a tool without annotations: the standard headers only', async () => {
  const { headers } = pagesOf({ first: page([plain('a')]) });
  expect(Object.keys(headersOf(await headers.headersFor(call('a', { region: 'x' }), undefined)))).toEqual(['mcp-method', 'mcp-name', 'mcp-protocol-version']);
});

test('a call with no string name reads nothing: undefined', async () => {
  const { headers, asked } = pagesOf({});
  expect(await headers.headersFor(call(42), undefined)).toBeUndefined();
  expect(await headers.headersFor({ jsonrpc: '2.0', id: 1, method: 'tools/call' }, undefined)).toBeUndefined();
  expect(asked).toEqual([]);
});

test('a tool with invalid x-mcp-header annotations: invalid_tool, naming it and each reason, bounded', async () => {
  const { headers } = pagesOf({ first: page([tool('bad', 'a b', 'number')]) });
  const found = await headers.headersFor(call('bad', { region: 1 }), undefined);
  expect(found).not.toBeInstanceOf(Headers);
  const failure = found as Failure;
  expect(failure.code).toBe('invalid_tool');
  expect(failure.detail).toEqual(nothingRead(0));
  // Each reason quotes the tool's names, escaped and bounded where it was written: shown as it is.
  expect(written(failure.message)).toBe(
    'the server\'s tool "bad" has invalid x-mcp-header annotations (/inputSchema/properties/region/x-mcp-header: "a b" is not an HTTP token (RFC 9110); ' +
      '/inputSchema/properties/region/x-mcp-header: the property\'s type must be "string", "integer" or "boolean", got "number"): a 2026-07-28 client does not call it',
  );
});

test("a hostile annotation's escapes appear once in the message: escaped where the reason is written, not again", async () => {
  const { headers } = pagesOf({ first: page([tool('bad', 'a\u001b[31m"b', 'string'), tool('deep', 'ok', 'string')]) });
  const failure = (await headers.headersFor(call('bad', { region: 'x' }), undefined)) as Failure;
  const message = written(failure.message);
  expect(message).toContain('x-mcp-header: "a\\u001b[31m\\"b" holds a control character');
  expect(message).not.toContain('\\\\');
  expect(message).not.toContain('\u001b');
});

test('a failing page: its failure, the cursor kept, so the next call reads that page again', async () => {
  const failure: Failure = { code: 'timeout', message: said`the exchange timed out`, detail: nothingRead(0) };
  let fail = true;
  const asked: (string | undefined)[] = [];
  const headers = new ToolHeaders(async (cursor) => {
    asked.push(cursor);
    if (cursor === undefined) return page([plain('a')], 'p2');
    if (fail) return { ok: false, failure };
    return page([tool('b')]);
  });
  expect(await headers.headersFor(call('b', { region: 'x' }), undefined)).toBe(failure);
  fail = false;
  expect(headersOf(await headers.headersFor(call('b', { region: 'x' }), undefined))['mcp-param-region']).toBe('x');
  expect(asked).toEqual([undefined, 'p2', 'p2']);
});

test.each([
  ['no result (an error answer)', { ok: true, result: undefined } as ToolPage],
  ['a result without tools', { ok: true, result: { nextCursor: 'p2' } } as ToolPage],
  ['tools that is not a list', page({ a: tool('a') }, 'p2')],
])('a page with %s ends the list: the call goes without headers', async (_, first) => {
  const { headers, asked } = pagesOf({ first });
  expect(await headers.headersFor(call('a', { region: 'x' }), undefined)).toBeUndefined();
  expect(await headers.headersFor(call('a', { region: 'x' }), undefined)).toBeUndefined();
  expect(asked).toEqual([undefined]);
});

test('the first definition of a name is kept; entries that are not tools are skipped', async () => {
  const { headers } = pagesOf({ first: page([null, 'x', { name: 5 }, tool('a', 'First')], 'p2'), p2: page([tool('a', 'Second'), tool('z')]) });
  await headers.headersFor(call('z', { region: 'r' }), undefined);
  const found = headersOf(await headers.headersFor(call('a', { region: 'r' }), undefined));
  expect([found['mcp-param-first'], found['mcp-param-second']]).toEqual(['r', undefined]);
});

test(`a cursor that never ends stops after ${MAX_LIST_PAGES} pages`, async () => {
  let pages = 0;
  const headers = new ToolHeaders(async () => {
    pages += 1;
    return page([plain(`t${pages}`)], `p${pages}`);
  });
  expect(await headers.headersFor(call('missing'), undefined)).toBeUndefined();
  expect(pages).toBe(100);
  expect(await headers.headersFor(call('missing-too'), undefined)).toBeUndefined();
  expect(pages).toBe(100);
});

test("an argument of another type than its parameter's is the caller's TypeError", async () => {
  const { headers } = pagesOf({ first: page([tool('a', 'Count', 'integer')]) });
  await expect(headers.headersFor(call('a', { region: 'three' }), undefined)).rejects.toThrow(new TypeError('message.params.arguments["region"] must be an integer, got "three"'));
});

test("each page is read within the call's signal", async () => {
  const signals: (AbortSignal | undefined)[] = [];
  const headers = new ToolHeaders(async (cursor, signal) => {
    signals.push(signal);
    return cursor === undefined ? page([plain('a')], 'p2') : page([plain('b')]);
  });
  const mine = new AbortController().signal;
  await headers.headersFor(call('b'), mine);
  expect(signals).toEqual([mine, mine]);
});

test('concurrent calls wait for the page being read rather than read it again', async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const asked: (string | undefined)[] = [];
  const headers = new ToolHeaders(async (cursor) => {
    asked.push(cursor);
    await gate;
    return cursor === undefined ? page([tool('a', 'A')], 'p2') : page([tool('b', 'B')]);
  });
  const both = Promise.all([headers.headersFor(call('a', { region: '1' }), undefined), headers.headersFor(call('b', { region: '2' }), undefined)]);
  release();
  const [a, b] = await both;
  expect([headersOf(a)['mcp-param-a'], headersOf(b)['mcp-param-b']]).toEqual(['1', '2']);
  expect(asked).toEqual([undefined, 'p2']);
});

test("a page that fails fails the call that read it; a call waiting for it reads the page itself", async () => {
  const failure: Failure = { code: 'aborted', message: said`the exchange was aborted`, detail: nothingRead(0) };
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const asked: (string | undefined)[] = [];
  const headers = new ToolHeaders(async (cursor, signal) => {
    asked.push(cursor);
    if (signal !== undefined) {
      await gate;
      return { ok: false, failure };
    }
    return page([tool('a')]);
  });
  const first = headers.headersFor(call('a', { region: 'x' }), new AbortController().signal);
  const second = headers.headersFor(call('a', { region: 'y' }), undefined);
  release();
  expect(await first).toBe(failure);
  expect(headersOf(await second)['mcp-param-region']).toBe('y');
  expect(asked).toEqual([undefined, undefined]);
});

describe('learn', () => {
  test("the tools of a list the caller read itself are kept: a call of one reads no page", async () => {
    const { headers, asked } = pagesOf({ first: page([tool('other')]) });
    headers.learn({ tools: [tool('a', 'Learned')], nextCursor: 'p9' });
    expect(headersOf(await headers.headersFor(call('a', { region: 'r' }), undefined))['mcp-param-learned']).toBe('r');
    expect(asked).toEqual([]);
  });

  test('a tool already known is kept as first seen; a result without a list teaches nothing', async () => {
    const { headers, asked } = pagesOf({ first: page([tool('a', 'Paged')]) });
    await headers.headersFor(call('a', { region: '1' }), undefined);
    headers.learn({ tools: [tool('a', 'Later')] });
    headers.learn(undefined);
    headers.learn({ tools: 'none' });
    expect(headersOf(await headers.headersFor(call('a', { region: '2' }), undefined))['mcp-param-paged']).toBe('2');
    expect(asked).toEqual([undefined]);
  });

  test("learning does not end the list: a tool not learned is still looked for in the pages", async () => {
    const { headers, asked } = pagesOf({ first: page([tool('b')]) });
    headers.learn({ tools: [plain('a')] });
    expect(headersOf(await headers.headersFor(call('b', { region: 'x' }), undefined))['mcp-param-region']).toBe('x');
    expect(asked).toEqual([undefined]);
  });
});
