/**
 * Properties of the 2026-07-28 header values (Streamable HTTP, "Value Encoding"): every value
 * `mcpRequestHeaders` and `encodeMcpHeaderValue` write decodes back to the original under a
 * decoder written here from the revision's words (the `=?base64?…?=` sentinel around the Base64 of
 * the UTF-8 bytes; anything else is the value itself); no value can carry CR, LF or a byte a field
 * value may not hold, and `new Headers` keeps each as it is; integers are decimal, booleans
 * lowercase. Then the revision's own examples, copied from its text into a table.
 *
 * A string holding a lone surrogate has no UTF-8 form, so no sentinel can carry it: the encoder
 * refuses it with a TypeError, and the properties check it does so exactly for those strings.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { decodeMcpHeaderValue, encodeMcpHeaderValue, mcpRequestHeaders } from '../src/index.js';
import { numRuns, seed } from './settings.js';
import { EXECUTE_SQL } from '../test/helpers/spec-tools.js';

const VERSION = '2026-07-28';
const META = { 'io.modelcontextprotocol/protocolVersion': VERSION };
const PREFIX = '=?base64?';
const SUFFIX = '?=';

// --- the revision's decoder, written from its text --------------------------------------------

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** RFC 4648 §4 Base64, padded: the bytes, or `undefined` for text that is not Base64. */
function base64Bytes(text: string): Uint8Array | undefined {
  if (text.length % 4 !== 0) return undefined;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i += 4) {
    const quantum = text.slice(i, i + 4);
    const last = i + 4 === text.length;
    const digits = [...quantum].map((c, j) => (last && j >= 4 - padding ? 0 : ALPHABET.indexOf(c)));
    if (digits.includes(-1)) return undefined;
    const [a, b, c, d] = digits as [number, number, number, number];
    const bits = (a << 18) | (b << 12) | (c << 6) | d;
    bytes.push(bits >> 16, (bits >> 8) & 0xff, bits & 0xff);
  }
  return Uint8Array.from(bytes.slice(0, bytes.length - padding));
}

/**
 * "The prefix `=?base64?` and suffix `?=` indicate that the value is Base64-encoded", of "the
 * UTF-8 representation"; a value without them is sent as it is. `undefined`: no original exists.
 */
function decodeAsTheRevisionSays(value: string): string | undefined {
  if (value.length < PREFIX.length + SUFFIX.length || !value.startsWith(PREFIX) || !value.endsWith(SUFFIX)) return value;
  const bytes = base64Bytes(value.slice(PREFIX.length, value.length - SUFFIX.length));
  if (bytes === undefined) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * A value sent as it is, by the revision's rule: visible ASCII (0x21-0x7E) and interior spaces,
 * no control character (tab among them), not looking like the sentinel. Everything else is encoded.
 */
function plainByTheRevision(value: string): boolean {
  return visibleAscii(value) && !(value.startsWith(PREFIX) && value.endsWith(SUFFIX));
}

/** Visible ASCII and interior spaces only. */
function visibleAscii(value: string): boolean {
  for (const c of value) if (c < ' ' || c > '~') return false;
  return !value.startsWith(' ') && !value.endsWith(' ');
}

/** A string with a UTF-8 form: no lone surrogate (the encoder's round trip is the identity on it). */
function wellFormed(value: string): boolean {
  return new TextDecoder().decode(new TextEncoder().encode(value)) === value;
}

/** RFC 9110 §5.5 field-value, without obs-text: visible ASCII, space and tab, no leading or trailing whitespace. */
const FIELD_VALUE = /^(?:[\x21-\x7e](?:[\t\x20-\x7e]*[\x21-\x7e])?)?$/;

/** The value stays as it is in a `Headers`: no CR, LF or NUL (it would throw), no whitespace to trim. */
function expectSafeHeaderValue(value: string): void {
  expect(value).toMatch(FIELD_VALUE);
  expect(value).not.toMatch(/[\r\n]/);
  expect(new Headers([['Mcp-Param-X', value]]).get('mcp-param-x')).toBe(value);
}

// --- arbitraries -----------------------------------------------------------------------------

/** The characters that decide the rule: every edge of the plain set, and the sentinel's own. */
const edgeChar = fc.constantFrom(' ', '\t', '\r', '\n', '\0', '\x7f', '!', '~', '=', '?', 'b', 'a', 's', 'e', '6', '4', 'é', '\u2028', '世', '\u{1f600}');
const edgeText = fc.string({ unit: edgeChar, maxLength: 24 });
/** Values that look like the sentinel, or nearly: prefix and suffix around anything, or one of them alone. */
const lookalike = fc
  .tuple(fc.constantFrom(PREFIX, '', '=?BASE64?', '=?base64'), edgeText, fc.constantFrom(SUFFIX, '', '?', '='))
  .map(([head, body, tail]) => `${head}${body}${tail}`);
/** Any well-formed text: any code point. */
const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary-ascii', maxLength: 40 }),
  edgeText,
  lookalike,
);
/** Any UTF-16 code units, lone surrogates included. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
const surrogateHeavy = fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff', '\ud83d\ude00', 'a', ' ', '=?base64?', '?=');
const anyCodeUnits = fc.oneof(fc.string({ unit: codeUnit, maxLength: 40 }), fc.string({ unit: surrogateHeavy, maxLength: 12 }), anyText);

const TCHAR = "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const headerName = fc.string({ unit: fc.constantFrom(...TCHAR), minLength: 1, maxLength: 10 });
/** Property keys as JSON allows them: any text, `__proto__` and the schema's own keywords included. */
const propertyKey = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('__proto__', 'properties', 'x-mcp-header', 'constructor', ''));

type ParamType = 'string' | 'integer' | 'boolean';
interface Param {
  readonly name: string;
  readonly type: ParamType;
  readonly path: readonly string[];
  /** `undefined`: not in the arguments. */
  readonly value: string | number | boolean | null | undefined;
}

const valueOf = (type: ParamType): fc.Arbitrary<string | number | boolean> =>
  type === 'string' ? anyText : type === 'integer' ? fc.oneof(fc.maxSafeInteger(), fc.integer({ min: -1000, max: 1000 }), fc.constant(-0)) : fc.boolean();

const paramArb = (name: string, index: number): fc.Arbitrary<Param> =>
  fc.constantFrom<ParamType>('string', 'integer', 'boolean').chain((type) =>
    fc.record({
      name: fc.constant(name),
      type: fc.constant(type),
      // The first key is the parameter's own, so no two paths share an object.
      path: fc.array(propertyKey, { maxLength: 2 }).map((rest) => [`p${index}`, ...rest]),
      value: fc.oneof({ weight: 4, arbitrary: valueOf(type) }, fc.constant(null), fc.constant(undefined)),
    }),
  );

/** Header names unique case-insensitively (a tool with two would be invalid), each with its parameter. */
const paramsArb: fc.Arbitrary<readonly Param[]> = fc
  .uniqueArray(headerName, { maxLength: 5, selector: (name) => name.toLowerCase() })
  .chain((names) => (names.length === 0 ? fc.constant<readonly Param[]>([]) : fc.tuple(...names.map((name, i) => paramArb(name, i)))));

/** Sets an own property, even `__proto__`, as `JSON.parse` would. */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The tool's `inputSchema` and the call's `arguments` for `params`. */
function toolAndArguments(toolName: string, params: readonly Param[]): { tool: object; args: Record<string, unknown> } {
  const properties: Record<string, unknown> = {};
  const args: Record<string, unknown> = {};
  for (const param of params) {
    let schemaAt = properties;
    let argsAt = args;
    param.path.forEach((key, i) => {
      if (i === param.path.length - 1) {
        put(schemaAt, key, { type: param.type, 'x-mcp-header': param.name });
        if (param.value !== undefined) put(argsAt, key, param.value);
        return;
      }
      const inner: Record<string, unknown> = {};
      put(schemaAt, key, { type: 'object', properties: inner });
      schemaAt = inner;
      const innerArgs: Record<string, unknown> = {};
      put(argsAt, key, innerArgs);
      argsAt = innerArgs;
    });
  }
  return { tool: { name: toolName, inputSchema: { type: 'object', properties } }, args };
}

/** Every header, by lowercase name. */
function entriesOf(headers: Headers): Record<string, string> {
  const entries: Record<string, string> = {};
  headers.forEach((value, name) => (entries[name] = value));
  return entries;
}

// --- properties ------------------------------------------------------------------------------

describe('encodeMcpHeaderValue', () => {
  test('every well-formed value decodes back to itself, as the revision decodes it and as decodeMcpHeaderValue does', () => {
    fc.assert(
      fc.property(anyText, (value) => {
        const encoded = encodeMcpHeaderValue(value);
        expect(decodeAsTheRevisionSays(encoded)).toBe(value);
        expect(decodeMcpHeaderValue(encoded)).toBe(value);
      }),
      { seed, numRuns },
    );
  });

  test('a value is sent as it is exactly when the revision calls it plain; otherwise in the sentinel, over canonical Base64', () => {
    fc.assert(
      fc.property(anyText, (value) => {
        const encoded = encodeMcpHeaderValue(value);
        if (plainByTheRevision(value)) expect(encoded).toBe(value);
        else expect(encoded).toMatch(/^=\?base64\?(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?\?=$/);
      }),
      { seed, numRuns },
    );
  });

  test('any code units: a TypeError exactly for a lone surrogate; any value returned is a safe header value that decodes back', () => {
    fc.assert(
      fc.property(anyCodeUnits, (value) => {
        if (!wellFormed(value)) {
          expect(() => encodeMcpHeaderValue(value)).toThrow(TypeError);
          return;
        }
        const encoded = encodeMcpHeaderValue(value);
        expectSafeHeaderValue(encoded);
        expect(decodeAsTheRevisionSays(encoded)).toBe(value);
      }),
      { seed, numRuns },
    );
  });

  test('long values (past the encoder\'s 32 KiB chunk) decode back too', () => {
    const long = fc.tuple(anyText.filter((text) => text !== ''), fc.integer({ min: 0x2000, max: 0x6000 })).map(([text, length]) =>
      text.repeat(Math.ceil(length / text.length)),
    );
    fc.assert(
      fc.property(long, (value) => {
        const encoded = encodeMcpHeaderValue(value);
        expect(encoded).not.toMatch(/[\r\n]/);
        expect(decodeAsTheRevisionSays(encoded)).toBe(value);
      }),
      { seed, numRuns: Math.min(numRuns, 50) },
    );
  });
});

describe('decodeMcpHeaderValue', () => {
  /** Sentinels around Base64 of random bytes (valid UTF-8 or not), around near-Base64, and anything at all. */
  const received = fc.oneof(
    fc.uint8Array({ maxLength: 24 }).map((bytes) => `${PREFIX}${btoa(String.fromCharCode(...bytes))}${SUFFIX}`),
    fc.string({ unit: fc.constantFrom(...'AQgw+/=A9z'), maxLength: 12 }).map((payload) => `${PREFIX}${payload}${SUFFIX}`),
    anyCodeUnits,
    lookalike,
  );

  test('never throws on a string; whatever it returns is what the revision\'s decoding gives', () => {
    fc.assert(
      fc.property(received, (value) => {
        const decoded = decodeMcpHeaderValue(value);
        if (decoded !== undefined) expect(decoded).toBe(decodeAsTheRevisionSays(value));
      }),
      { seed, numRuns },
    );
  });
});

describe('mcpRequestHeaders', () => {
  test('a tools/call of any tool: every header is a safe value, Mcp-Name and each Mcp-Param-* decode to the body\'s value, absent and null omitted', () => {
    fc.assert(
      fc.property(anyText, paramsArb, (toolName, params) => {
        const { tool, args } = toolAndArguments(toolName, params);
        const message = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: toolName, arguments: args, _meta: META } };
        const headers = mcpRequestHeaders(message, { tool });
        const entries = entriesOf(headers);
        for (const value of Object.values(entries)) expectSafeHeaderValue(value);
        expect(entriesOf(new Headers(entries))).toEqual(entries);

        expect(entries['mcp-protocol-version']).toBe(VERSION);
        expect(entries['mcp-method']).toBe('tools/call');
        expect(decodeAsTheRevisionSays(entries['mcp-name']!)).toBe(toolName);
        const sent = params.filter((param) => param.value !== undefined && param.value !== null);
        expect(Object.keys(entries)).toHaveLength(3 + sent.length);
        for (const param of params) {
          const header = headers.get(`Mcp-Param-${param.name}`);
          if (param.value === undefined || param.value === null) {
            expect(header).toBeNull();
            continue;
          }
          expect(header).not.toBeNull();
          const decoded = decodeAsTheRevisionSays(header!);
          if (param.type === 'string') expect(decoded).toBe(param.value);
          if (param.type === 'boolean') expect(decoded).toBe(param.value === true ? 'true' : 'false');
          if (param.type === 'integer') {
            // Decimal: digits, a sign only when negative, no leading zero, no exponent; the same integer.
            expect(header).toMatch(/^(?:0|-?[1-9][0-9]*)$/);
            expect(BigInt(header!)).toBe(BigInt(param.value as number));
          }
        }
      }),
      { seed, numRuns },
    );
  });

  /** A tools/call of a tool with one annotated parameter of `type`, given `value`. */
  const oneParam = (type: ParamType, value: unknown): Headers =>
    mcpRequestHeaders(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't', arguments: { v: value }, _meta: META } },
      { tool: { name: 't', inputSchema: { type: 'object', properties: { v: { type, 'x-mcp-header': 'V' } } } } },
    );

  test('integers: any safe integer in decimal; beyond ±(2^53 − 1) a RangeError; a fraction, NaN or infinity a TypeError', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => {
        expect(oneParam('integer', n).get('Mcp-Param-V')).toBe(BigInt(n).toString(10));
      }),
      { seed, numRuns },
    );
    const unsafe = fc.bigInt({ min: 2n ** 53n, max: 2n ** 1000n }).chain((big) => fc.constantFrom(Number(big), -Number(big)));
    fc.assert(
      fc.property(unsafe, (n) => {
        expect(() => oneParam('integer', n)).toThrow(RangeError);
      }),
      { seed, numRuns },
    );
    const notInteger = fc.double().filter((x) => !Number.isInteger(x));
    fc.assert(
      fc.property(notInteger, (x) => {
        expect(() => oneParam('integer', x)).toThrow(TypeError);
      }),
      { seed, numRuns },
    );
  });

  test('booleans: lowercase true and false', () => {
    fc.assert(
      fc.property(fc.boolean(), (b) => {
        expect(oneParam('boolean', b).get('Mcp-Param-V')).toBe(b ? 'true' : 'false');
      }),
      { seed, numRuns: 10 },
    );
  });

  test('any method: Mcp-Method is the method itself when it is visible ASCII, else a TypeError (the header has no encoded form)', () => {
    const named = /^(?:tools\/call|prompts\/get|resources\/read)$/; // these need a name as well
    fc.assert(
      fc.property(anyCodeUnits.filter((method) => !named.test(method)), (method) => {
        const send = (): Headers => mcpRequestHeaders({ jsonrpc: '2.0', id: 1, method, params: { _meta: META } });
        if (method === '' || !visibleAscii(method)) {
          expect(send).toThrow(TypeError);
          return;
        }
        const headers = send();
        for (const value of Object.values(entriesOf(headers))) expectSafeHeaderValue(value);
        expect(headers.get('Mcp-Method')).toBe(method);
      }),
      { seed, numRuns },
    );
  });
});

// --- the revision's own examples -------------------------------------------------------------

describe("the revision's examples (basic/transports/streamable-http), copied from its text", () => {
  // "Encoding examples": Original Value | Reason | Encoded Header Value.
  const ENCODING_EXAMPLES: readonly [original: string, reason: string, header: string][] = [
    ['us-west1', 'Plain ASCII', 'Mcp-Param-Region: us-west1'],
    ['Hello, 世界', 'Contains non-ASCII', 'Mcp-Param-Greeting: =?base64?SGVsbG8sIOS4lueVjA==?='],
    [' padded ', 'Leading/trailing spaces', 'Mcp-Param-Text: =?base64?IHBhZGRlZCA=?='],
    ['line1\nline2', 'Contains newline', 'Mcp-Param-Text: =?base64?bGluZTEKbGluZTI=?='],
    ['=?base64?literal?=', 'Matches sentinel pattern', 'Mcp-Param-Val: =?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?='],
  ];

  test.each(ENCODING_EXAMPLES)('%j (%s) → %s', (original, _reason, line) => {
    const [header, encoded] = line.split(': ') as [string, string];
    const name = header.slice('Mcp-Param-'.length);
    const tool = { name: 't', inputSchema: { type: 'object', properties: { p: { type: 'string', 'x-mcp-header': name } } } };
    const headers = mcpRequestHeaders({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't', arguments: { p: original }, _meta: META } }, { tool });
    expect(headers.get(header)).toBe(encoded);
    expect(encodeMcpHeaderValue(original)).toBe(encoded);
    expect(decodeAsTheRevisionSays(encoded)).toBe(original);
    expect(decodeMcpHeaderValue(encoded)).toBe(original);
  });

  // "Type conversion": integer "e.g., `42`, `-7`"; boolean lowercase "true" or "false".
  test.each([
    ['integer', 42, '42'],
    ['integer', -7, '-7'],
    ['boolean', true, 'true'],
    ['boolean', false, 'false'],
  ] as const)('type conversion: %s %j → %s', (type, value, expected) => {
    const tool = { name: 't', inputSchema: { type: 'object', properties: { p: { type, 'x-mcp-header': 'P' } } } };
    const headers = mcpRequestHeaders({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't', arguments: { p: value }, _meta: META } }, { tool });
    expect(headers.get('Mcp-Param-P')).toBe(expected);
  });

  // "Standard Request Headers" and "Custom Headers from Tool Parameters": the three requests shown.
  const REQUESTS: readonly [title: string, message: object, tool: object | undefined, expected: Record<string, string>][] = [
    [
      'tools/call request',
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_weather', arguments: { location: 'Seattle, WA' }, _meta: META } },
      undefined,
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'get_weather' },
    ],
    [
      'resources/read request',
      { jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 'file:///projects/myapp/config.json', _meta: META } },
      undefined,
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'resources/read', 'mcp-name': 'file:///projects/myapp/config.json' },
    ],
    [
      'execute_sql, the resulting HTTP request',
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: META, name: 'execute_sql', arguments: { region: 'us-west1', query: 'SELECT * FROM users' } } },
      EXECUTE_SQL,
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'execute_sql', 'mcp-param-region': 'us-west1' },
    ],
  ];

  test.each(REQUESTS)('%s', (_title, message, tool, expected) => {
    expect(entriesOf(mcpRequestHeaders(message, tool === undefined ? undefined : { tool }))).toEqual(expected);
  });
});
