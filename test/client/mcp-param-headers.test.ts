/**
 * mcp-param-headers.ts: `checkMcpHeaderParams`. Every constraint of
 * `x-mcp-header`, broken one at a time, and the revision's example tools are pinned by
 * mcp-request-headers.test.ts; this file pins what a valid check returns for a tool with several
 * parameters (their order, paths and types), and that only own properties are read.
 */

import { describe, expect, test } from 'vitest';
import { checkMcpHeaderParams } from '../../src/client/mcp-param-headers.js';

describe('checkMcpHeaderParams: a valid tool', () => {
  test('several parameters, nested or not: each with its header, its properties path and its type, in schema order', () => {
    const tool = {
      name: 'deploy',
      inputSchema: {
        type: 'object',
        properties: {
          env: { type: 'string', 'x-mcp-header': 'Env' },
          target: {
            type: 'object',
            properties: { region: { type: ['string', 'null'], 'x-mcp-header': 'Region' }, replicas: { type: 'integer', 'x-mcp-header': 'Replicas' } },
          },
          dryRun: { type: 'boolean', 'x-mcp-header': 'Dry-Run' },
          note: { type: 'string' },
        },
      },
    };
    expect(checkMcpHeaderParams(tool)).toEqual({
      valid: true,
      params: [
        { name: 'Env', header: 'Mcp-Param-Env', path: ['env'], type: 'string' },
        { name: 'Region', header: 'Mcp-Param-Region', path: ['target', 'region'], type: 'string' },
        { name: 'Replicas', header: 'Mcp-Param-Replicas', path: ['target', 'replicas'], type: 'integer' },
        { name: 'Dry-Run', header: 'Mcp-Param-Dry-Run', path: ['dryRun'], type: 'boolean' },
      ],
    });
  });

  test('the name is kept as written: the header is Mcp-Param- and that name', () => {
    const check = checkMcpHeaderParams({ inputSchema: { type: 'object', properties: { p: { type: 'string', 'x-mcp-header': 'tenant_ID' } } } });
    expect(check.valid && check.params.map((param) => param.header)).toEqual(['Mcp-Param-tenant_ID']);
  });

  test('a tool without annotations is valid with none; so is an empty schema', () => {
    expect(checkMcpHeaderParams({ name: 't', inputSchema: { type: 'object', properties: { a: { type: 'number' } } } })).toEqual({ valid: true, params: [] });
    expect(checkMcpHeaderParams({ inputSchema: {} })).toEqual({ valid: true, params: [] });
  });
});

describe('only own properties are read', () => {
  test('an inherited inputSchema is none: the tool is invalid', () => {
    const tool = Object.create({ inputSchema: { type: 'object' } }) as object;
    expect(checkMcpHeaderParams(tool)).toEqual({ valid: false, reasons: ['/inputSchema: must be a JSON Schema object, got undefined'] });
  });

  test('an inherited annotation or property is not there', () => {
    const property = Object.create({ 'x-mcp-header': 'Ghost' }) as Record<string, unknown>;
    property['type'] = 'string';
    const properties = Object.create({ ghost: { type: 'string', 'x-mcp-header': 'Ghost2' } }) as Record<string, unknown>;
    properties['p'] = property;
    expect(checkMcpHeaderParams({ inputSchema: { type: 'object', properties } })).toEqual({ valid: true, params: [] });
  });
});
