/**
 * request-message.ts: the requests an AnswerClient sends, as each era writes them — 2025 as the
 * caller gave them; 2026-07-28 with the per-request `_meta` (version, client info, capabilities),
 * the caller's `_meta` kept but the version always the one spoken — and the package version the
 * default client info carries, kept equal to package.json's (the test its TSDoc names).
 */

import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { DEFAULT_CLIENT_INFO, PACKAGE_VERSION, requestMessage, type ClientIdentity } from '../../src/client/request-message.js';

const IDENTITY: ClientIdentity = { clientInfo: { name: 'tester', version: '9.9.9', title: 'Tester' }, capabilities: { elicitation: {} } };
const MODERN = '2026-07-28';

test("the default client info is the package's name and version, as package.json has it", () => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };
  expect(PACKAGE_VERSION).toBe(pkg.version);
  expect(DEFAULT_CLIENT_INFO).toEqual({ name: pkg.name, version: pkg.version });
});

describe('2025 (legacy)', () => {
  test('a request: jsonrpc, id, method and the params as given', () => {
    const params = { name: 'echo', arguments: { text: 'hi' } };
    expect(requestMessage(3, 'tools/call', params, 'legacy', '2025-11-25', IDENTITY)).toEqual({ jsonrpc: '2.0', id: 3, method: 'tools/call', params });
  });

  test('a notification has no id; no params, no params field', () => {
    const message = requestMessage(undefined, 'notifications/initialized', undefined, 'legacy', '2025-11-25', IDENTITY);
    expect(message).toEqual({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect('id' in message).toBe(false);
  });

  test('array params are allowed; other params are a TypeError', () => {
    expect(requestMessage('a', 'm', [1, 2], 'legacy', undefined, IDENTITY)).toEqual({ jsonrpc: '2.0', id: 'a', method: 'm', params: [1, 2] });
    expect(() => requestMessage(1, 'm', 'x', 'legacy', undefined, IDENTITY)).toThrow(new TypeError('params must be an object or an array, got "x"'));
    expect(() => requestMessage(1, 'm', null, 'legacy', undefined, IDENTITY)).toThrow(TypeError);
  });

  test('a modern era with no version known is written the 2025 way', () => {
    expect(requestMessage(1, 'tools/list', { cursor: 'c' }, 'modern', undefined, IDENTITY)).toEqual({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: 'c' } });
  });
});

describe('2026-07-28 (modern)', () => {
  test("params gain _meta: the version, the client's info and capabilities", () => {
    expect(requestMessage(1, 'tools/list', undefined, 'modern', MODERN, IDENTITY)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: {
        _meta: {
          'io.modelcontextprotocol/clientInfo': { name: 'tester', version: '9.9.9', title: 'Tester' },
          'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
          'io.modelcontextprotocol/protocolVersion': MODERN,
        },
      },
    });
  });

  test("the caller's params and _meta are kept; the version is always the one spoken", () => {
    const params = { name: 'x', _meta: { progressToken: 7, 'io.modelcontextprotocol/protocolVersion': '2025-11-25' } };
    const message = requestMessage(2, 'tools/call', params, 'modern', MODERN, IDENTITY) as unknown as { params: Record<string, unknown> };
    expect(message.params['name']).toBe('x');
    expect(message.params['_meta']).toEqual({
      'io.modelcontextprotocol/clientInfo': IDENTITY.clientInfo,
      'io.modelcontextprotocol/clientCapabilities': IDENTITY.capabilities,
      progressToken: 7,
      'io.modelcontextprotocol/protocolVersion': MODERN,
    });
  });

  test('a _meta that is not an object is replaced by the per-request one', () => {
    const message = requestMessage(2, 'tools/list', { _meta: 'x' }, 'modern', MODERN, IDENTITY) as unknown as { params: { _meta: Record<string, unknown> } };
    expect(Object.keys(message.params._meta).sort()).toEqual([
      'io.modelcontextprotocol/clientCapabilities',
      'io.modelcontextprotocol/clientInfo',
      'io.modelcontextprotocol/protocolVersion',
    ]);
  });

  test('a notification carries the _meta too', () => {
    const message = requestMessage(undefined, 'notifications/cancelled', { requestId: 1 }, 'modern', MODERN, IDENTITY) as Record<string, unknown>;
    expect('id' in message).toBe(false);
    expect(message['params']).toMatchObject({ requestId: 1, _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN } });
  });

  test.each([[[1]], ['x'], [null], [5]])('params %j are a TypeError: the request carries its _meta in an object', (params) => {
    expect(() => requestMessage(1, 'm', params, 'modern', MODERN, IDENTITY)).toThrow(TypeError);
    expect(() => requestMessage(1, 'm', params, 'modern', MODERN, IDENTITY)).toThrow(/^params must be an object in the 2026-07-28 era/);
  });

  test("nothing given is changed, and the client info is the message's own copy", () => {
    const params = { name: 'x', _meta: { progressToken: 1 } };
    const before = structuredClone(params);
    const message = requestMessage(1, 'tools/call', params, 'modern', MODERN, IDENTITY) as unknown as { params: { _meta: Record<string, unknown> } };
    expect(params).toEqual(before);
    expect(message.params._meta['io.modelcontextprotocol/clientInfo']).not.toBe(IDENTITY.clientInfo);
  });
});
