/** The `x-mcp-header` annotations of a tool (2026-07-28): which parameters a `tools/call` mirrors into `Mcp-Param-*`, or why the tool is invalid. @module */

import { invalid } from '../vocabulary/check-argument.js';
import { describeValue, shortText } from '../vocabulary/describe-value.js';
import { isRecord, ownValue } from '../vocabulary/json-rpc.js';

/** The parameter types an `x-mcp-header` may annotate: primitives, and not `number`. */
export type McpHeaderParamType = 'string' | 'integer' | 'boolean';

/** One parameter a `tools/call` mirrors into a header. */
export interface McpHeaderParam {
  /** The `x-mcp-header` value, as written: the `{Name}` of `Mcp-Param-{Name}`. */
  readonly name: string;
  /** The header's full name: `Mcp-Param-{Name}`. */
  readonly header: string;
  /** The chain of `properties` keys from the arguments object to the parameter. */
  readonly path: readonly string[];
  /** The parameter's type, which decides how its value is written. */
  readonly type: McpHeaderParamType;
}

/** A tool whose annotations are all valid: its header parameters, in schema order (none for a tool without any). */
export interface McpHeaderParamsValid {
  /** The tool may be listed and called. */
  readonly valid: true;
  /** The parameters mirrored into headers. */
  readonly params: readonly McpHeaderParam[];
}

/** A tool a Streamable HTTP client must exclude from `tools/list`, and why. */
export interface McpHeaderParamsInvalid {
  /** The tool must not be listed. */
  readonly valid: false;
  /** One sentence a broken rule, starting with the JSON Pointer it is about; what it quotes of the tool is escaped and bounded, so it may be shown as it is. */
  readonly reasons: readonly string[];
}

/** What {@link checkMcpHeaderParams} finds. */
export type McpHeaderParamsCheck = McpHeaderParamsValid | McpHeaderParamsInvalid;

/** RFC 9110 §5.6.2 `token` (`1*tchar`); it also rules out empty names and every control character. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const CONTROL = /[\x00-\x1f\x7f]/;

/** Keywords whose entries are each a subschema under a key that is not a keyword. */
const SCHEMA_MAP = /^(?:properties|patternProperties|\$defs|definitions|dependentSchemas|dependencies)$/;
/** Keywords that hold instance data, not schemas: an `x-mcp-header` key in there is not an annotation. */
const DATA = /^(?:const|enum|default|examples)$/;
// Regexes, not Sets: a module-level `new` would keep this file in bundles that never call it.
const PARAM_TYPE = /^(?:string|integer|boolean)$/;

/** A `properties` chain, innermost key first: `null` at the root. Shared, so a deep schema costs no copies. */
type Chain = { readonly key: string; readonly up: Chain } | null;

interface Node {
  readonly value: unknown;
  /** JSON Pointer from the tool. */
  readonly at: string;
  /** The `properties` chain to here, or `undefined` once any other keyword was passed through. */
  readonly chain: Chain | undefined;
}

/**
 * Checks every `x-mcp-header` annotation in `tool.inputSchema` against the revision's rules (the
 * request-headers guide, "Valid annotations"): a non-empty HTTP token, unique case-insensitively,
 * on a `string`, `integer` or `boolean` property reached through `properties` keys alone. A tool
 * without annotations is valid, one whose `inputSchema` is no object is not; the tool is never changed.
 * @throws TypeError when `tool` is not an object.
 */
export function checkMcpHeaderParams(tool: object): McpHeaderParamsCheck {
  if (!isRecord(tool)) throw invalid('tool', 'a tool definition object', tool);
  const schema = ownValue(tool, 'inputSchema');
  if (!isRecord(schema)) return { valid: false, reasons: [`/inputSchema: must be a JSON Schema object, got ${describeValue(schema)}`] };

  const params: McpHeaderParam[] = [];
  const reasons: string[] = [];
  const seen = new Map<string, string>(); // lowercased name → where it first appears
  const visited = new Set<object>(); // only a JS object (not JSON) can be cyclic; each is read once
  // Depth first, children pushed in reverse: document order, and no recursion for a deep schema to overflow.
  const stack: Node[] = [{ value: schema, at: '/inputSchema', chain: null }];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    const { value, at, chain } = node;
    if (typeof value !== 'object' || value === null || visited.has(value)) continue;
    visited.add(value);
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], at: `${at}/${i}`, chain: undefined });
      continue;
    }
    const children: Node[] = [];
    for (const key of Object.keys(value)) {
      const child = ownValue(value, key);
      const childAt = `${at}/${pointerToken(key)}`;
      if (key === 'x-mcp-header') {
        const param = checkAnnotation(child, childAt, value, chain, seen, reasons);
        if (param !== undefined) params.push(param);
      } else if (SCHEMA_MAP.test(key) && isRecord(child)) {
        for (const name of Object.keys(child)) {
          const reachable = key === 'properties' && chain !== undefined ? { key: name, up: chain } : undefined;
          children.push({ value: ownValue(child, name), at: `${childAt}/${pointerToken(name)}`, chain: reachable });
        }
      } else if (!DATA.test(key)) {
        children.push({ value: child, at: childAt, chain: undefined });
      }
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return reasons.length === 0 ? { valid: true, params } : { valid: false, reasons };
}

function checkAnnotation(
  name: unknown,
  at: string,
  schema: object,
  chain: Chain | undefined,
  seen: Map<string, string>,
  reasons: string[],
): McpHeaderParam | undefined {
  const before = reasons.length;
  if (typeof name !== 'string') reasons.push(`${pointerText(at)}: must be a string, got ${describeValue(name)}`);
  else if (name === '') reasons.push(`${pointerText(at)}: must not be empty`);
  else if (CONTROL.test(name)) reasons.push(`${pointerText(at)}: ${describeValue(name)} holds a control character`);
  else if (!TOKEN.test(name)) reasons.push(`${pointerText(at)}: ${describeValue(name)} is not an HTTP token (RFC 9110)`);
  if (typeof name === 'string' && name !== '') {
    // Header names compare case-insensitively, so "Region" and "region" would be one header.
    const key = name.toLowerCase();
    const first = seen.get(key);
    if (first === undefined) seen.set(key, at);
    else reasons.push(`${pointerText(at)}: ${describeValue(name)} repeats the name at ${pointerText(first)} (case-insensitively)`);
  }
  if (chain === undefined) reasons.push(`${pointerText(at)}: not reachable through "properties" alone`);
  else if (chain === null) reasons.push(`${pointerText(at)}: on the schema root, not on a property`);
  const type = paramType(ownValue(schema, 'type'));
  if (type === undefined) {
    reasons.push(`${pointerText(at)}: the property's type must be "string", "integer" or "boolean", got ${describeValue(ownValue(schema, 'type'))}`);
  }
  if (reasons.length > before || typeof name !== 'string' || !chain || type === undefined) return undefined;
  const path: string[] = [];
  for (let link: Chain = chain; link !== null; link = link.up) path.push(link.key);
  return { name, header: `Mcp-Param-${name}`, path: path.reverse(), type };
}

/** The one primitive a `type` keyword names, alone or with `"null"`; `undefined` for any other. */
function paramType(type: unknown): McpHeaderParamType | undefined {
  if (typeof type === 'string') return PARAM_TYPE.test(type) ? (type as McpHeaderParamType) : undefined;
  if (!Array.isArray(type)) return undefined;
  const types = type.filter((each) => each !== 'null');
  if (types.length !== 1 || type.length - types.length > 1) return undefined;
  return paramType(types[0]);
}

/** The most reference tokens of a pointer a reason shows: the last ones, which say where. */
const POINTER_TOKENS = 8;

/** A JSON Pointer as a reason shows it: each token (the server's keys) escaped and bounded, and of a deep one only the last tokens. */
function pointerText(at: string): string {
  const tokens = at.split('/').slice(1).map(shortText);
  return `${tokens.length > POINTER_TOKENS ? '/…' : ''}/${tokens.slice(-POINTER_TOKENS).join('/')}`;
}

function pointerToken(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
