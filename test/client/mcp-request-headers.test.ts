/**
 * mcp-request-headers.ts: `mcpRequestHeaders`. The revision's every example, each constraint and
 * each bad argument are pinned by test/mcp-request-headers.test.ts; this file pins the rest of
 * the function's own contract: a fresh `Headers` per call holding only the derived headers, the
 * option version used only where the message declares none (so an unusable one is never read
 * otherwise), several parameters in one call, and falsy argument values being values.
 */

import { describe, expect, test } from 'vitest';
import { mcpRequestHeaders } from '../../src/client/mcp-request-headers.js';
import { headersObject } from '../helpers/client-fetch.js';

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };
const TOOL = {
  name: 'deploy',
  inputSchema: {
    type: 'object',
    properties: {
      env: { type: 'string', 'x-mcp-header': 'Env' },
      replicas: { type: 'integer', 'x-mcp-header': 'Replicas' },
      dryRun: { type: 'boolean', 'x-mcp-header': 'DryRun' },
    },
  },
};
const call = (args: Record<string, unknown>) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'deploy', arguments: args, _meta: META } });

test('each call returns a Headers of its own, with only the derived headers', () => {
  const first = mcpRequestHeaders(call({ env: 'prod' }), { tool: TOOL });
  first.set('x-changed', '1');
  const second = mcpRequestHeaders(call({ env: 'prod' }), { tool: TOOL });
  expect(second).not.toBe(first);
  expect(headersObject(second)).toEqual({ 'mcp-method': 'tools/call', 'mcp-name': 'deploy', 'mcp-param-env': 'prod', 'mcp-protocol-version': '2026-07-28' });
});

test('several parameters in one call: one header each', () => {
  const headers = mcpRequestHeaders(call({ env: 'staging', replicas: 3, dryRun: true }), { tool: TOOL });
  expect([headers.get('Mcp-Param-Env'), headers.get('Mcp-Param-Replicas'), headers.get('Mcp-Param-DryRun')]).toEqual(['staging', '3', 'true']);
});

test('falsy values are values: "", 0 and false each give their header', () => {
  const headers = mcpRequestHeaders(call({ env: '', replicas: 0, dryRun: false }), { tool: TOOL });
  expect([headers.get('Mcp-Param-Env'), headers.get('Mcp-Param-Replicas'), headers.get('Mcp-Param-DryRun')]).toEqual(['', '0', 'false']);
});

test("the option's version is read only for a message that declares none", () => {
  expect(mcpRequestHeaders(call({}), { protocolVersion: '' }).get('mcp-protocol-version')).toBe('2026-07-28');
  expect(mcpRequestHeaders(call({}), { protocolVersion: 'not plain\n' }).get('mcp-protocol-version')).toBe('2026-07-28');
  expect(() => mcpRequestHeaders({ jsonrpc: '2.0', method: 'notifications/x' }, { protocolVersion: '' })).toThrow(TypeError);
});

describe('options', () => {
  test('undefined and {} are no options', () => {
    const expected = { 'mcp-method': 'tools/call', 'mcp-name': 'deploy', 'mcp-protocol-version': '2026-07-28' };
    expect(headersObject(mcpRequestHeaders(call({ env: 'x' })))).toEqual(expected);
    expect(headersObject(mcpRequestHeaders(call({ env: 'x' }), {}))).toEqual(expected);
    expect(headersObject(mcpRequestHeaders(call({ env: 'x' }), { tool: undefined, protocolVersion: undefined }))).toEqual(expected);
  });
});
