/**
 * json-tree.ts: `writtenJson` and `unwritablePart` — a caller's message JSON cannot write is a
 * TypeError naming the part (a BigInt, a cycle) in the caller's terms, before anything is sent;
 * and `mapStrings`, which every redaction and bound of a server's text goes through. The same
 * through the public APIs is at the end.
 */

import { describe, expect, test } from 'vitest';
import { AnswerClient, AnswerTransport, postJsonRpc } from '../src/index.js';
import { mapStrings, unwritablePart, writtenJson } from '../src/vocabulary/json-tree.js';

describe('unwritablePart', () => {
  test('a BigInt, by its path of keys and indexes', () => {
    expect(unwritablePart({ a: [1, { b: 2n }] }, 'message')).toEqual({ path: 'message.a[1].b', what: 'a BigInt' });
    expect(unwritablePart(5n, 'params')).toEqual({ path: 'params', what: 'a BigInt' });
  });

  test('a cycle, where the reference to an ancestor is; a shared object that is no cycle is fine', () => {
    const cyclic: Record<string, unknown> = { a: { b: {} } };
    (cyclic['a'] as { b: Record<string, unknown> }).b['up'] = cyclic['a'];
    expect(unwritablePart(cyclic, 'message')).toEqual({ path: 'message.a.b.up', what: 'a reference to an object that holds it (a cycle)' });
    const shared = { x: 1 };
    expect(unwritablePart({ one: shared, two: [shared, shared] }, 'message')).toBeUndefined();
  });

  test('a tree of any depth is walked without recursion', () => {
    let deep: unknown = 1n;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(unwritablePart(deep, 'm')?.what).toBe('a BigInt');
  });
});

describe('writtenJson', () => {
  test('JSON as JSON.stringify writes it', () => {
    const value = { a: [1, 'two', null, { b: true }], c: undefined };
    expect(writtenJson(value, 'message')).toBe(JSON.stringify(value));
  });

  test("a part it cannot write: a TypeError naming it, the engine's error its cause", () => {
    let thrown: unknown;
    try {
      writtenJson({ params: { n: 10n } }, 'message');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TypeError);
    expect((thrown as Error).message).toBe('message.params.n cannot be written as JSON: it is a BigInt');
    expect((thrown as Error).cause).toBeInstanceOf(TypeError);
  });

  test('a toJSON that throws: said, its error described short', () => {
    const hostile = { toJSON: () => { throw new Error(`\u001b[2J${'x'.repeat(100_000)}`); } };
    expect(() => writtenJson({ a: hostile }, 'message')).toThrow(/^message cannot be written as JSON: writing it threw Error: \\u001b\[2Jx+…$/);
  });

  test("a hostile key in the path is escaped and bounded", () => {
    expect(() => writtenJson({ [`\u001b${'k'.repeat(500)}`]: 1n }, 'message')).toThrow(/^message\.\\u001bk+… cannot be written as JSON: it is a BigInt$/);
  });
});

test("mapStrings maps every string and the keys below the top, sharing what did not change", () => {
  const shared = { keep: 1 };
  const value = { top: 'a', nested: { inner: 'b' }, shared };
  const mapped = mapStrings(value, (text) => text.toUpperCase());
  expect(mapped).toEqual({ top: 'A', nested: { INNER: 'B' }, shared: { KEEP: 1 } });
  expect(value).toEqual({ top: 'a', nested: { inner: 'b' }, shared: { keep: 1 } });
  expect(mapStrings(value, (text) => text)).toBe(value);
});

describe('through the public APIs: a TypeError naming the part, nothing sent', () => {
  const never = (): Promise<Response> => {
    throw new Error('nothing may be sent');
  };

  test('postJsonRpc and AnswerTransport.send', async () => {
    const message = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', arguments: { n: 1n } } };
    await expect(postJsonRpc('http://127.0.0.1:9/mcp', message, { fetch: never })).rejects.toThrow(new TypeError('message.params.arguments.n cannot be written as JSON: it is a BigInt'));
    await expect(new AnswerTransport('http://127.0.0.1:9/mcp', { fetch: never }).send(message)).rejects.toThrow(TypeError);
  });

  test('AnswerClient: a request, and a 2026 tools/call, which would read tools/list first', async () => {
    const client = await AnswerClient.connect('http://127.0.0.1:9/mcp', { fetch: never, versionNegotiation: { pin: '2026-07-28' } });
    await expect(client.callTool('x', { n: 1n } as never)).rejects.toThrow(new TypeError('params.arguments.n cannot be written as JSON: it is a BigInt'));
    await expect(client.request('tools/list', { cursor: 2n } as never)).rejects.toThrow(new TypeError('params.cursor cannot be written as JSON: it is a BigInt'));
  });
});
