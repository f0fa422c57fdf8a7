/**
 * The request metadata headers of MCP 2026-07-28 (SEP-2243). First every example the revision's
 * pages give (basic/transports/streamable-http, server/tools), copied literally; then each
 * x-mcp-header constraint broken by a tool of its own; then bad arguments; then that nothing
 * passed in is changed. Expected Base64 was worked out by hand from the UTF-8 bytes and is the
 * spec's own wherever the spec gives one.
 */
import { describe, expect, test } from 'vitest';
import {
  checkMcpHeaderParams,
  decodeMcpHeaderValue,
  encodeMcpHeaderValue,
  mcpRequestHeaders,
  type McpHeaderParamsCheck,
  type McpRequestHeadersOptions,
} from '../src/index.js';
import { EXECUTE_SQL } from './helpers/spec-tools.js';

const VERSION = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'ExampleClient', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** Every header, by lowercase name, as a plain object: what a table of expected headers compares with. */
function all(headers: Headers): Record<string, string> {
  const entries: Record<string, string> = {};
  headers.forEach((value, name) => (entries[name] = value));
  return entries;
}

/** A tools/call of `name` with `args`, carrying the revision's `_meta`. */
const call = (name: string, args?: Record<string, unknown>): Record<string, unknown> => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name, ...(args === undefined ? {} : { arguments: args }), _meta: META },
});

/** A tool with one annotated parameter per entry: property key → [x-mcp-header, type]. */
function toolWith(name: string, params: Record<string, [header: unknown, type: unknown]>): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const [key, [header, type]] of Object.entries(params)) properties[key] = { type, 'x-mcp-header': header };
  return { name, inputSchema: { type: 'object', properties } };
}

function reasonsOf(check: McpHeaderParamsCheck): readonly string[] {
  return check.valid ? [] : check.reasons;
}

describe("the revision's examples", () => {
  test('streamable-http "Standard Request Headers": the tools/call request', () => {
    const message = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'get_weather', arguments: { location: 'Seattle, WA' }, _meta: META },
    };
    expect(all(mcpRequestHeaders(message))).toEqual({
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'get_weather',
    });
  });

  test('streamable-http "Standard Request Headers": the resources/read request', () => {
    const message = { jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 'file:///projects/myapp/config.json', _meta: META } };
    expect(all(mcpRequestHeaders(message))).toEqual({
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'resources/read',
      'mcp-name': 'file:///projects/myapp/config.json',
    });
  });

  test('streamable-http "Custom Headers from Tool Parameters": execute_sql and its resulting request', () => {
    const message = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { _meta: META, name: 'execute_sql', arguments: { region: 'us-west1', query: 'SELECT * FROM users' } },
    };
    expect(all(mcpRequestHeaders(message, { tool: EXECUTE_SQL }))).toEqual({
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'execute_sql',
      'mcp-param-region': 'us-west1',
    });
  });

  test('server/tools "x-mcp-header": execute_sql is valid, with Region at region, and region "us-west1" gives Mcp-Param-Region: us-west1', () => {
    expect(checkMcpHeaderParams(EXECUTE_SQL)).toEqual({
      valid: true,
      params: [{ name: 'Region', header: 'Mcp-Param-Region', path: ['region'], type: 'string' }],
    });
    const headers = mcpRequestHeaders(call('execute_sql', { region: 'us-west1', query: 'q' }), { tool: EXECUTE_SQL });
    expect(headers.get('Mcp-Param-Region')).toBe('us-west1');
  });

  test.each([
    ['us-west1', 'Region', 'us-west1'],
    ['Hello, 世界', 'Greeting', '=?base64?SGVsbG8sIOS4lueVjA==?='],
    [' padded ', 'Text', '=?base64?IHBhZGRlZCA=?='],
    ['line1\nline2', 'Text', '=?base64?bGluZTEKbGluZTI=?='],
    ['=?base64?literal?=', 'Val', '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?='],
  ])('streamable-http "Value Encoding" example: %j → Mcp-Param-%s: %s', (original, name, encoded) => {
    const tool = toolWith('t', { p: [name, 'string'] });
    const headers = mcpRequestHeaders(call('t', { p: original }), { tool });
    expect(headers.get(`Mcp-Param-${name}`)).toBe(encoded);
    expect(encodeMcpHeaderValue(original)).toBe(encoded);
    expect(decodeMcpHeaderValue(encoded)).toBe(original);
  });

  test('streamable-http "Value Encoding": the same rule for Mcp-Name — a name or URI outside the safe set is carried in the sentinel', () => {
    // 天 = E5 A4 A9, 気 = E6 B0 97 → 5aSp 5rCX
    expect(mcpRequestHeaders(call('天気')).get('Mcp-Name')).toBe('=?base64?5aSp5rCX?=');
    const read = { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: 'file:///tmp/ü', _meta: META } };
    // "file:///tmp/" then ü = C3 BC: ZmlsZTovLy90bXAv w7w=
    expect(mcpRequestHeaders(read).get('Mcp-Name')).toBe('=?base64?ZmlsZTovLy90bXAvw7w=?=');
  });

  test('streamable-http "Protocol Version Header": MCP-Protocol-Version: 2026-07-28, from the body\'s _meta', () => {
    const discover = { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: META } };
    expect(all(mcpRequestHeaders(discover))).toEqual({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' });
  });

  test('server/tools: the page omits _meta in its examples; with the version given as an option the tools/call of get_weather gets its headers', () => {
    const message = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_weather', arguments: { location: 'New York' } } };
    expect(all(mcpRequestHeaders(message, { protocolVersion: VERSION }))).toEqual({
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'get_weather',
    });
  });

  test('server/tools: every tool definition on the page is valid; only execute_sql has a header parameter', () => {
    const location = { type: 'object', properties: { location: { type: 'string', description: 'City name or zip code' } }, required: ['location'] };
    const sum = { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] };
    const tools = [
      { name: 'get_weather', title: 'Weather Information Provider', inputSchema: location },
      { name: 'get_weather_data', inputSchema: location, outputSchema: { type: 'object', properties: { temperature: { type: 'number' } } } },
      { name: 'list_users', inputSchema: { type: 'object', properties: {} }, outputSchema: { type: 'array', items: { type: 'object' } } },
      { name: 'calculate_sum', inputSchema: sum },
      { name: 'calculate_sum', inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', ...sum } },
      { name: 'get_current_time', inputSchema: { type: 'object', additionalProperties: false } },
    ];
    for (const tool of tools) expect(checkMcpHeaderParams(tool), tool.name).toEqual({ valid: true, params: [] });
    expect(checkMcpHeaderParams(EXECUTE_SQL).valid).toBe(true);
  });

  test('streamable-http "Server Behavior for Custom Headers": a value gives the header; null and absence omit it', () => {
    const provided = mcpRequestHeaders(call('execute_sql', { region: 'us-west1' }), { tool: EXECUTE_SQL });
    const nulled = mcpRequestHeaders(call('execute_sql', { region: null }), { tool: EXECUTE_SQL });
    const absent = mcpRequestHeaders(call('execute_sql', { query: 'q' }), { tool: EXECUTE_SQL });
    const noArguments = mcpRequestHeaders(call('execute_sql'), { tool: EXECUTE_SQL });
    expect(provided.has('Mcp-Param-Region')).toBe(true);
    for (const headers of [nulled, absent, noArguments]) {
      expect(headers.has('Mcp-Param-Region')).toBe(false);
      expect(headers.get('Mcp-Name')).toBe('execute_sql');
    }
  });
});

describe('type conversion ("Value Encoding")', () => {
  const tool = toolWith('t', { s: ['S', 'string'], i: ['I', 'integer'], b: ['B', ['boolean', 'null']] });

  test.each([
    [{ i: 42 }, 'I', '42'],
    [{ i: -7 }, 'I', '-7'],
    [{ i: 0 }, 'I', '0'],
    [{ i: -0 }, 'I', '0'],
    [{ i: 42.0 }, 'I', '42'],
    [{ i: 2 ** 53 - 1 }, 'I', '9007199254740991'],
    [{ i: -(2 ** 53 - 1) }, 'I', '-9007199254740991'],
    [{ b: true }, 'B', 'true'],
    [{ b: false }, 'B', 'false'],
    [{ s: '' }, 'S', ''],
    [{ s: 'a b' }, 'S', 'a b'],
    [{ s: 'a\tb' }, 'S', '=?base64?YQli?='],
    [{ s: ' ' }, 'S', '=?base64?IA==?='],
    [{ s: '=?base64?=' }, 'S', '=?base64?PT9iYXNlNjQ/PQ==?='],
    [{ s: '=?BASE64?QQ==?=' }, 'S', '=?BASE64?QQ==?='],
    [{ s: '\uFEFFx' }, 'S', '=?base64?77u/eA==?='],
  ])('%j → Mcp-Param-%s: %s', (args, name, value) => {
    const headers = mcpRequestHeaders(call('t', args), { tool });
    expect(headers.get(`Mcp-Param-${name}`)).toBe(value);
    expect(Object.keys(all(headers)).filter((key) => key.startsWith('mcp-param-'))).toEqual([`mcp-param-${name.toLowerCase()}`]);
  });

  test('a nested parameter is read at its exact properties path, and only through objects', () => {
    const nested = {
      name: 'n',
      inputSchema: { type: 'object', properties: { a: { type: 'object', properties: { 'b.c': { type: 'string', 'x-mcp-header': 'Deep' } } } } },
    };
    expect(checkMcpHeaderParams(nested)).toEqual({ valid: true, params: [{ name: 'Deep', header: 'Mcp-Param-Deep', path: ['a', 'b.c'], type: 'string' }] });
    expect(mcpRequestHeaders(call('n', { a: { 'b.c': 'x' } }), { tool: nested }).get('Mcp-Param-Deep')).toBe('x');
    for (const args of [{ a: { b: { c: 'x' } } }, { 'a.b.c': 'x' }, { a: [{ 'b.c': 'x' }] }, { a: 'b.c' }, { a: null }, {}]) {
      expect(mcpRequestHeaders(call('n', args), { tool: nested }).has('Mcp-Param-Deep'), JSON.stringify(args)).toBe(false);
    }
  });

  test('an inherited value is not a value: only own properties are read', () => {
    const args = Object.create({ s: 'inherited' }) as Record<string, unknown>;
    expect(mcpRequestHeaders(call('t', args), { tool }).has('Mcp-Param-S')).toBe(false);
  });

  test('a notification carries MCP-Protocol-Version (from the option, or its own _meta) and Mcp-Method, and no Mcp-Name', () => {
    const note = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } };
    expect(all(mcpRequestHeaders(note, { protocolVersion: VERSION }))).toEqual({ 'mcp-protocol-version': VERSION, 'mcp-method': 'notifications/cancelled' });
    const own = { jsonrpc: '2.0', method: 'notifications/x', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2030-01-01' } } };
    expect(mcpRequestHeaders(own).get('MCP-Protocol-Version')).toBe('2030-01-01');
  });

  test("the message's own version wins over the option: the header must match the body", () => {
    expect(mcpRequestHeaders(call('x'), { protocolVersion: '2025-11-25' }).get('MCP-Protocol-Version')).toBe(VERSION);
  });

  test('Mcp-Name only for tools/call, prompts/get (params.name) and resources/read (params.uri)', () => {
    const prompt = { jsonrpc: '2.0', id: 1, method: 'prompts/get', params: { name: 'code_review', _meta: META } };
    expect(mcpRequestHeaders(prompt).get('Mcp-Name')).toBe('code_review');
    const others = ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'completion/complete', 'subscriptions/listen'];
    for (const method of others) {
      const message = { jsonrpc: '2.0', id: 1, method, params: { name: 'n', uri: 'u', _meta: META } };
      expect(mcpRequestHeaders(message).has('Mcp-Name'), method).toBe(false);
    }
    // Header values are case-sensitive, and so is the method that selects the field.
    expect(mcpRequestHeaders({ ...call('n'), method: 'Tools/Call' }).has('Mcp-Name')).toBe(false);
  });

  test('the tasks extension (SEP-2663): Mcp-Name mirrors params.taskId for tasks/get, tasks/update and tasks/cancel, and is required there', () => {
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const message = { jsonrpc: '2.0', id: 1, method, params: { taskId: 'task-7f3e', name: 'not this', _meta: META } };
      expect(mcpRequestHeaders(message).get('Mcp-Name'), method).toBe('task-7f3e');
      expect(() => mcpRequestHeaders({ ...message, params: { _meta: META } }), method).toThrow(new TypeError('message.params.taskId must be a string, got undefined'));
    }
    const list = { jsonrpc: '2.0', id: 1, method: 'tasks/list', params: { taskId: 'task-7f3e', _meta: META } };
    expect(mcpRequestHeaders(list).has('Mcp-Name')).toBe(false);
  });

  test('a tools/call without options.tool has no Mcp-Param headers', () => {
    expect(all(mcpRequestHeaders(call('execute_sql', { region: 'us-west1' })))).toEqual({
      'mcp-protocol-version': VERSION,
      'mcp-method': 'tools/call',
      'mcp-name': 'execute_sql',
    });
  });
});

describe('checkMcpHeaderParams: each constraint, broken', () => {
  const schemaTool = (inputSchema: unknown): Record<string, unknown> => ({ name: 'broken', inputSchema });
  const annotated = (header: unknown, type: unknown = 'string'): Record<string, unknown> => ({ type, 'x-mcp-header': header });

  test.each([
    ['empty', '', /must not be empty/],
    ['a space', 'Tenant Id', /not an HTTP token/],
    ['a colon', 'Tenant:Id', /not an HTTP token/],
    ['a slash', 'a/b', /not an HTTP token/],
    ['a non-ASCII letter', 'Région', /not an HTTP token/],
    ['a CR LF', 'A\r\nX-Injected: 1', /control character/],
    ['a LF', 'A\nB', /control character/],
    ['a NUL', 'A\u0000', /control character/],
    ['a DEL', 'A\u007f', /control character/],
    ['a number', 42, /must be a string, got 42/],
    ['null', null, /must be a string, got null/],
  ])('a name with %s is refused', (_, header, reason) => {
    const check = checkMcpHeaderParams(schemaTool({ type: 'object', properties: { p: annotated(header) } }));
    expect(check.valid).toBe(false);
    expect(reasonsOf(check)).toEqual([expect.stringMatching(/^\/inputSchema\/properties\/p\/x-mcp-header: /)]);
    expect(reasonsOf(check)[0]).toMatch(reason);
  });

  test("every tchar is allowed: !#$%&'*+-.^_`|~, digits and letters", () => {
    const name = "!#$%&'*+-.^_`|~09azAZ";
    expect(checkMcpHeaderParams(schemaTool({ type: 'object', properties: { p: annotated(name) } }))).toMatchObject({ valid: true, params: [{ name }] });
  });

  test('names must be unique case-insensitively, at any depth', () => {
    const check = checkMcpHeaderParams(
      schemaTool({
        type: 'object',
        properties: { a: annotated('Region'), b: { type: 'object', properties: { c: annotated('REGION') } }, d: annotated('Zone') },
      }),
    );
    expect(reasonsOf(check)).toEqual([
      '/inputSchema/properties/b/properties/c/x-mcp-header: "REGION" repeats the name at /inputSchema/properties/a/x-mcp-header (case-insensitively)',
    ]);
  });

  test.each([
    ['number', 'number'],
    ['object', 'object'],
    ['array', 'array'],
    ['null', 'null'],
    ['no type', undefined],
    ['two primitives', ['string', 'integer']],
    ['number or null', ['number', 'null']],
    ['null alone, in a list', ['null']],
    ['a repeated null', ['string', 'null', 'null']],
    ['a non-string', 7],
  ])('a parameter of type %s is refused', (_, type) => {
    const p = type === undefined ? { 'x-mcp-header': 'P' } : annotated('P', type);
    const check = checkMcpHeaderParams(schemaTool({ type: 'object', properties: { p } }));
    expect(reasonsOf(check)).toEqual([expect.stringMatching(/^\/inputSchema\/properties\/p\/x-mcp-header: the property's type must be "string", "integer" or "boolean"/)]);
  });

  test.each([
    ['string', 'string'],
    ['integer', 'integer'],
    ['boolean', 'boolean'],
    ['string', ['string', 'null']],
    ['integer', ['null', 'integer']],
  ])('a parameter of type %s (written %j) is allowed', (expected, type) => {
    expect(checkMcpHeaderParams(schemaTool({ type: 'object', properties: { p: annotated('P', type) } }))).toEqual({
      valid: true,
      params: [{ name: 'P', header: 'Mcp-Param-P', path: ['p'], type: expected }],
    });
  });

  test.each([
    ['items', { type: 'object', properties: { list: { type: 'array', items: annotated('A') } } }, '/inputSchema/properties/list/items/x-mcp-header'],
    ['prefixItems', { type: 'object', properties: { t: { type: 'array', prefixItems: [annotated('A')] } } }, '/inputSchema/properties/t/prefixItems/0/x-mcp-header'],
    ['anyOf', { type: 'object', anyOf: [{ properties: { p: annotated('A') } }] }, '/inputSchema/anyOf/0/properties/p/x-mcp-header'],
    ['oneOf', { type: 'object', properties: { p: { oneOf: [annotated('A')] } } }, '/inputSchema/properties/p/oneOf/0/x-mcp-header'],
    ['allOf', { type: 'object', allOf: [{ properties: { p: annotated('A') } }] }, '/inputSchema/allOf/0/properties/p/x-mcp-header'],
    ['not', { type: 'object', properties: { p: { not: annotated('A') } } }, '/inputSchema/properties/p/not/x-mcp-header'],
    ['if', { type: 'object', if: { properties: { p: annotated('A') } } }, '/inputSchema/if/properties/p/x-mcp-header'],
    ['then', { type: 'object', then: { properties: { p: annotated('A') } } }, '/inputSchema/then/properties/p/x-mcp-header'],
    ['else', { type: 'object', else: { properties: { p: annotated('A') } } }, '/inputSchema/else/properties/p/x-mcp-header'],
    ['$defs (behind a $ref)', { type: 'object', properties: { p: { $ref: '#/$defs/r' } }, $defs: { r: annotated('A') } }, '/inputSchema/$defs/r/x-mcp-header'],
    ['definitions', { type: 'object', definitions: { r: annotated('A') } }, '/inputSchema/definitions/r/x-mcp-header'],
    ['patternProperties', { type: 'object', patternProperties: { '^p': annotated('A') } }, '/inputSchema/patternProperties/^p/x-mcp-header'],
    ['additionalProperties', { type: 'object', additionalProperties: annotated('A') }, '/inputSchema/additionalProperties/x-mcp-header'],
    ['dependentSchemas', { type: 'object', dependentSchemas: { p: { properties: { q: annotated('A') } } } }, '/inputSchema/dependentSchemas/p/properties/q/x-mcp-header'],
    ['an unknown keyword', { type: 'object', 'x-vendor': { properties: { p: annotated('A') } } }, '/inputSchema/x-vendor/properties/p/x-mcp-header'],
    ['a key with / and ~ (escaped)', { type: 'object', items: { properties: { 'a/b~c': annotated('A') } } }, '/inputSchema/items/properties/a~1b~0c/x-mcp-header'],
  ])('an annotation under %s is not statically reachable', (_, inputSchema, at) => {
    expect(reasonsOf(checkMcpHeaderParams(schemaTool(inputSchema)))).toEqual([
      `${at}: not reachable through "properties" alone`,
    ]);
  });

  test('an annotation on the schema root is refused: it is not on a property', () => {
    expect(reasonsOf(checkMcpHeaderParams(schemaTool({ type: 'object', 'x-mcp-header': 'Root' })))).toEqual([
      '/inputSchema/x-mcp-header: on the schema root, not on a property',
      `/inputSchema/x-mcp-header: the property's type must be "string", "integer" or "boolean", got "object"`,
    ]);
  });

  test('every broken rule of every annotation is reported, in schema order', () => {
    const check = checkMcpHeaderParams(
      schemaTool({ type: 'object', properties: { a: annotated('', 'number'), b: { items: annotated('B') }, c: annotated('b') } }),
    );
    expect(reasonsOf(check).map((reason) => reason.slice(0, reason.indexOf(':')))).toEqual([
      '/inputSchema/properties/a/x-mcp-header',
      '/inputSchema/properties/a/x-mcp-header',
      '/inputSchema/properties/b/items/x-mcp-header',
      '/inputSchema/properties/c/x-mcp-header',
    ]);
  });

  test('instance data is not an annotation: "x-mcp-header" keys in const, enum, default or examples are ignored', () => {
    const data = { 'x-mcp-header': 'Nope' };
    const check = checkMcpHeaderParams(
      schemaTool({
        type: 'object',
        default: data,
        examples: [data],
        properties: { p: { type: 'object', const: data, enum: [data] } },
      }),
    );
    expect(check).toEqual({ valid: true, params: [] });
  });

  test('a property named "x-mcp-header" is a property, not an annotation', () => {
    const check = checkMcpHeaderParams(schemaTool({ type: 'object', properties: { 'x-mcp-header': { type: 'string', 'x-mcp-header': 'Odd' } } }));
    expect(check).toEqual({ valid: true, params: [{ name: 'Odd', header: 'Mcp-Param-Odd', path: ['x-mcp-header'], type: 'string' }] });
  });

  test.each([
    ['missing', undefined, 'undefined'],
    ['null', null, 'null'],
    ['an array', [], '[object Array]'],
    ['true', true, 'true'],
  ])('a tool whose inputSchema is %s is invalid', (_, inputSchema, got) => {
    expect(checkMcpHeaderParams(inputSchema === undefined ? { name: 'x' } : schemaTool(inputSchema))).toEqual({
      valid: false,
      reasons: [`/inputSchema: must be a JSON Schema object, got ${got}`],
    });
  });

  test('filtering tools/list: the valid tools stay, each invalid one is named with its reasons', () => {
    const tools = [EXECUTE_SQL, toolWith('bad_type', { n: ['N', 'number'] }), toolWith('get_time', {}), toolWith('bad_name', { n: ['a b', 'string'] })];
    const warnings: string[] = [];
    const listed = tools.filter((tool) => {
      const check = checkMcpHeaderParams(tool);
      if (!check.valid) warnings.push(`${String(tool.name)}: ${check.reasons.join('; ')}`);
      return check.valid;
    });
    expect(listed.map((tool) => tool.name)).toEqual(['execute_sql', 'get_time']);
    expect(warnings).toEqual([
      `bad_type: /inputSchema/properties/n/x-mcp-header: the property's type must be "string", "integer" or "boolean", got "number"`,
      'bad_name: /inputSchema/properties/n/x-mcp-header: "a b" is not an HTTP token (RFC 9110)',
    ]);
  });

  test('a deep schema does not overflow the stack, and a cyclic JS object ends', () => {
    let deep: Record<string, unknown> = annotated('Deep');
    for (let i = 0; i < 20_000; i++) deep = { type: 'object', properties: { n: deep } };
    const check = checkMcpHeaderParams(schemaTool(deep));
    expect(check.valid && check.params[0]!.path.length).toBe(20_000);

    const cyclic: Record<string, unknown> = { type: 'object', properties: { p: annotated('P') } };
    cyclic['items'] = cyclic;
    expect(checkMcpHeaderParams(schemaTool(cyclic))).toMatchObject({ valid: true, params: [{ name: 'P' }] });
  });
});

describe('bad arguments', () => {
  const bad = (message: unknown, options?: unknown) => () => mcpRequestHeaders(message as object, options as McpRequestHeadersOptions);

  test.each([
    ['a string', 'x', 'message must be a JSON-RPC request or notification object, got "x"'],
    ['null', null, 'message must be a JSON-RPC request or notification object, got null'],
    ['a batch', [call('x')], 'message must be a JSON-RPC request or notification object, got [object Array]'],
    ['a response', { jsonrpc: '2.0', id: 1, result: {} }, 'message.method must be a string (a client sends only requests and notifications), got undefined'],
    ['a numeric method', { jsonrpc: '2.0', id: 1, method: 7 }, 'message.method must be a string (a client sends only requests and notifications), got 7'],
    ['array params', { jsonrpc: '2.0', id: 1, method: 'm', params: [1] }, 'message.params must be an object, got [object Array]'],
  ])('a message that is %s is refused', (_, message, text) => {
    expect(bad(message)).toThrow(TypeError);
    expect(bad(message)).toThrow(text);
  });

  test('the protocol version: required, a string, and a plain header value', () => {
    const noVersion = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    expect(bad(noVersion)).toThrow(
      new TypeError('options.protocolVersion must be a string when the message has no message.params._meta["io.modelcontextprotocol/protocolVersion"], got undefined'),
    );
    expect(bad(noVersion, { protocolVersion: 2026 })).toThrow(new TypeError('options.protocolVersion must be a string, got 2026'));
    expect(bad(noVersion, { protocolVersion: '2026-07-28\r\nX-Injected: 1' })).toThrow(TypeError);
    expect(bad(noVersion, { protocolVersion: '' })).toThrow(TypeError);
    const withMeta = (meta: unknown) => ({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } });
    expect(bad(withMeta({ 'io.modelcontextprotocol/protocolVersion': 20260728 }), { protocolVersion: VERSION })).toThrow(
      new TypeError('message.params._meta["io.modelcontextprotocol/protocolVersion"] must be a string, got 20260728'),
    );
    expect(bad(withMeta({ 'io.modelcontextprotocol/protocolVersion': '2026-07-28\n' }))).toThrow(TypeError);
    expect(bad(withMeta({ 'io.modelcontextprotocol/protocolVersion': '２０２６' }))).toThrow(TypeError);
    expect(bad(withMeta('2026-07-28'))).toThrow(new TypeError('message.params._meta must be an object, got "2026-07-28"'));
  });

  test.each([
    ['a LF', 'tools/call\nX-Injected: 1'],
    ['non-ASCII', 'outils/appel·'],
    ['a leading space', ' tools/list'],
    ['nothing', ''],
  ])('a method with %s is refused: Mcp-Method has no encoded form', (_, method) => {
    expect(bad({ jsonrpc: '2.0', id: 1, method, params: { _meta: META } })).toThrow(TypeError);
    expect(bad({ jsonrpc: '2.0', id: 1, method, params: { _meta: META } })).toThrow(/^message\.method must be visible ASCII/);
  });

  test('Mcp-Name: its source field is required and a string, and a lone surrogate has no UTF-8 to encode', () => {
    expect(bad({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: META } })).toThrow(new TypeError('message.params.name must be a string, got undefined'));
    expect(bad({ jsonrpc: '2.0', id: 1, method: 'tools/call' }, { protocolVersion: VERSION })).toThrow(
      new TypeError('message.params.name must be a string, got undefined'),
    );
    expect(bad({ jsonrpc: '2.0', id: 1, method: 'prompts/get', params: { name: 1, _meta: META } })).toThrow(new TypeError('message.params.name must be a string, got 1'));
    expect(bad({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { name: 'n', _meta: META } })).toThrow(
      new TypeError('message.params.uri must be a string, got undefined'),
    );
    expect(bad(call('bad\ud800'))).toThrow(TypeError);
    expect(bad(call('bad\ud800'))).toThrow(/^message\.params\.name must be a string without lone surrogates/);
    expect(bad(call('\udc00'))).toThrow(TypeError);
  });

  test('options: an object; tool an object, for a tools/call of that tool, and valid', () => {
    expect(bad(call('x'), 'fast')).toThrow(new TypeError('options must be an object, got "fast"'));
    expect(bad(call('x'), { tool: 'execute_sql' })).toThrow(new TypeError('options.tool must be a tool definition object, got "execute_sql"'));
    const prompt = { jsonrpc: '2.0', id: 1, method: 'prompts/get', params: { name: 'execute_sql', _meta: META } };
    expect(bad(prompt, { tool: EXECUTE_SQL })).toThrow(TypeError);
    expect(bad(prompt, { tool: EXECUTE_SQL })).toThrow(/^options\.tool must be given only for tools\/call, got /);
    expect(bad(call('get_weather'), { tool: EXECUTE_SQL })).toThrow(
      new TypeError('options.tool must be the definition of the called tool "get_weather", got "execute_sql"'),
    );
    const invalidTool = toolWith('t', { a: ['A', 'number'], b: ['a', 'string'] });
    expect(bad(call('t', { a: 1 }), { tool: invalidTool })).toThrow(TypeError);
    expect(bad(call('t', { a: 1 }), { tool: invalidTool })).toThrow(/^options\.tool must be a tool with valid x-mcp-header annotations \(\/inputSchema\/properties\/a\/x-mcp-header: the property's type must be "string", "integer" or "boolean", got "number" and 1 more\), got "t"$/);
  });

  test('arguments: an object, each of its parameter type', () => {
    const tool = toolWith('t', { s: ['S', 'string'], i: ['I', 'integer'], b: ['B', 'boolean'] });
    const args = (value: Record<string, unknown>) => call('t', value);
    expect(bad({ ...call('t'), params: { name: 't', arguments: 'x', _meta: META } }, { tool })).toThrow(
      new TypeError('message.params.arguments must be an object, got "x"'),
    );
    expect(bad(args({ s: 42 }), { tool })).toThrow(new TypeError('message.params.arguments["s"] must be a string, got 42'));
    expect(bad(args({ s: 'lone\udfff' }), { tool })).toThrow(TypeError);
    expect(bad(args({ i: '42' }), { tool })).toThrow(new TypeError('message.params.arguments["i"] must be an integer, got "42"'));
    expect(bad(args({ i: 1.5 }), { tool })).toThrow(new TypeError('message.params.arguments["i"] must be an integer, got 1.5'));
    expect(bad(args({ i: NaN }), { tool })).toThrow(TypeError);
    expect(bad(args({ i: Infinity }), { tool })).toThrow(TypeError);
    expect(bad(args({ i: 10n }), { tool })).toThrow(TypeError);
    expect(bad(args({ b: 'true' }), { tool })).toThrow(new TypeError('message.params.arguments["b"] must be a boolean, got "true"'));
    expect(bad(args({ b: 1 }), { tool })).toThrow(TypeError);
  });

  test.each([[2 ** 53], [-(2 ** 53)], [1e21], [Number.MAX_VALUE]])('an integer argument of %s, outside the safe range, is a RangeError', (value) => {
    const tool = toolWith('t', { i: ['I', 'integer'] });
    expect(bad(call('t', { i: value }), { tool })).toThrow(RangeError);
    expect(bad(call('t', { i: value }), { tool })).toThrow('message.params.arguments["i"] must be an integer from -(2^53 - 1) to 2^53 - 1');
  });

  test("each key of an argument's path is quoted in the error", () => {
    const tool = { name: 't', inputSchema: { properties: { 'a-b': { properties: { '0': { type: 'boolean', 'x-mcp-header': 'X' } } } } } };
    expect(bad(call('t', { 'a-b': { '0': 'yes' } }), { tool })).toThrow(new TypeError('message.params.arguments["a-b"]["0"] must be a boolean, got "yes"'));
  });

  test("the schema's keys, a server's text, are quoted bounded and escaped: in an argument's path and in a tool's reasons", () => {
    const hostile = `\u001b[2J\u202e${'k'.repeat(1_000_000)}`;
    const unsafe = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/;
    const argument = { name: 't', inputSchema: { properties: { [hostile]: { type: 'integer', 'x-mcp-header': 'A' } } } };
    const wrongType = (): unknown => mcpRequestHeaders(call('t', { [hostile]: 'x' }), { tool: argument });
    expect(wrongType).toThrow(TypeError);
    expect(wrongType).toThrow(/^message\.params\.arguments\["\\u001b\[2J\\u202ek+…"\] must be an integer, got "x"$/);
    const invalidTool = { name: 't', inputSchema: { properties: { [hostile]: { type: 'number', 'x-mcp-header': 'A' } } } };
    const invalid = (): unknown => mcpRequestHeaders(call('t', {}), { tool: invalidTool });
    expect(invalid).toThrow(/^options\.tool must be a tool with valid x-mcp-header annotations \(\/inputSchema\/properties\/\\u001b\[2J\\u202ek+…\/x-mcp-header: the property's type must be "string", "integer" or "boolean", got "number"\), got "t"$/);
    for (const thrown of [wrongType, invalid]) {
      const message = (() => {
        try {
          thrown();
        } catch (error) {
          return (error as Error).message;
        }
        return '';
      })();
      expect(message.length).toBeLessThan(300);
      expect(message).not.toMatch(unsafe);
    }
  });

  test("a deep argument's path shows its last three keys", () => {
    const nest = (keys: readonly string[], leaf: object): object => keys.reduceRight<object>((inner, key) => ({ properties: { [key]: inner } }), leaf);
    const keys = ['a', 'b', 'c', 'd', 'e'];
    const tool = { name: 't', inputSchema: nest(keys, { type: 'boolean', 'x-mcp-header': 'Deep' }) };
    const args = keys.reduceRight<unknown>((inner, key) => ({ [key]: inner }), 'yes');
    expect(bad(call('t', args as Record<string, unknown>), { tool })).toThrow(new TypeError('message.params.arguments…["c"]["d"]["e"] must be a boolean, got "yes"'));
  });

  test('the codec and the validator check their arguments', () => {
    expect(() => encodeMcpHeaderValue(42 as never)).toThrow(new TypeError('value must be a string, got 42'));
    expect(() => encodeMcpHeaderValue('\ud83d')).toThrow(TypeError);
    expect(() => decodeMcpHeaderValue(null as never)).toThrow(new TypeError('value must be a string, got null'));
    expect(() => checkMcpHeaderParams(null as never)).toThrow(new TypeError('tool must be a tool definition object, got null'));
    expect(() => checkMcpHeaderParams([] as never)).toThrow(TypeError);
  });
});

describe('decodeMcpHeaderValue', () => {
  test.each([
    ['us-west1', 'us-west1'],
    ['', ''],
    ['a\tb', 'a\tb'],
    ['=?base64??=', ''],
    ['=?base64?=', '=?base64?='],
    ['=?BASE64?QQ==?=', '=?BASE64?QQ==?='],
    ['=?base64?QQ==', '=?base64?QQ=='],
    ['=?base64?8J+YgA==?=', '😀'],
    ['=?base64?77u/eA==?=', '\uFEFFx'],
  ])('%j decodes to %j', (value, original) => {
    expect(decodeMcpHeaderValue(value)).toBe(original);
  });

  test.each([
    ['a payload that is not Base64', '=?base64?###?='],
    ['unpadded Base64', '=?base64?QQ?='],
    ['Base64 with whitespace', '=?base64?QQ ==?='],
    ['non-canonical Base64 (unused bits set)', '=?base64?QR==?='],
    ['bytes that are not UTF-8', '=?base64?/w==?='],
    ['an encoded lone surrogate (CESU bytes)', '=?base64?7aCA?='],
    ['a LF', 'a\nb'],
    ['a NUL', 'a\u0000b'],
    ['non-ASCII', 'ü'],
  ])('a value with %s is no header a client sends: undefined', (_, value) => {
    expect(decodeMcpHeaderValue(value)).toBeUndefined();
  });
});

describe('nothing passed in is changed', () => {
  function deepFreeze<T>(value: T): T {
    if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
      Object.freeze(value);
      for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
    }
    return value;
  }

  test('a frozen message, tool and options give the headers, and are equal to their copies afterwards', () => {
    const message = call('execute_sql', { region: 'Hello, 世界', query: 'q' });
    const options = { tool: EXECUTE_SQL, protocolVersion: '2025-11-25' };
    const before = structuredClone({ message, options });
    deepFreeze(message);
    deepFreeze(options);
    const headers = mcpRequestHeaders(message, options);
    expect(headers.get('Mcp-Param-Region')).toBe('=?base64?SGVsbG8sIOS4lueVjA==?=');
    expect(checkMcpHeaderParams(EXECUTE_SQL).valid).toBe(true);
    expect({ message, options }).toStrictEqual(before);
  });

  test('the params a check returns are its own: changing them changes no later check', () => {
    const tool = toolWith('t', { p: ['P', 'string'] });
    const first = checkMcpHeaderParams(tool);
    if (first.valid) (first.params[0]!.path as string[]).push('x');
    expect(checkMcpHeaderParams(tool)).toEqual({ valid: true, params: [{ name: 'P', header: 'Mcp-Param-P', path: ['p'], type: 'string' }] });
    expect(tool).toEqual(toolWith('t', { p: ['P', 'string'] }));
  });
});
