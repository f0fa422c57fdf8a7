/** `mcpRequestHeaders`: the 2026-07-28 request metadata headers of one message, mirrored from its body (SEP-2243). @module */

import { checkType, invalid, optionsObject } from '../vocabulary/check-argument.js';
import { describeValue, quoteText } from '../vocabulary/describe-value.js';
import { PROTOCOL_VERSION_META } from './era.js';
import { encodeValue, plainValue } from './mcp-header-value.js';
import { isRecord, ownValue } from '../vocabulary/json-rpc.js';
import { checkMcpHeaderParams, type McpHeaderParam } from './mcp-param-headers.js';


/** Options for {@link mcpRequestHeaders}. */
export interface McpRequestHeadersOptions {
  /** The `MCP-Protocol-Version` of a message whose `_meta` names none; a message's own always wins, as the header must match the body. */
  readonly protocolVersion?: string | undefined;
  /** The called tool's definition as `tools/list` returned it, for its `Mcp-Param-*`; refused for another method or tool, or an invalid one ({@link checkMcpHeaderParams}). */
  readonly tool?: object | undefined;
}

/**
 * The headers a Streamable HTTP POST of `message` carries under MCP 2026-07-28, mirrored from its body (the request-headers guide); `Accept`, `Content-Type` and the caller's own are the caller's.
 * @throws TypeError for a message that is no request or notification, a missing source field, an argument of another type than its parameter's,
 *   a value no header can carry, or a bad option; RangeError for an integer argument outside ±(2^53 − 1).
 */
export function mcpRequestHeaders(message: object, options?: McpRequestHeadersOptions): Headers {
  if (!isRecord(message)) throw invalid('message', 'a JSON-RPC request or notification object', message);
  const checked = optionsObject(options);
  const fallbackVersion = ownValue(checked, 'protocolVersion');
  if (fallbackVersion !== undefined) checkType('options.protocolVersion', fallbackVersion, 'string');
  const tool = ownValue(checked, 'tool');
  if (tool !== undefined && !isRecord(tool)) throw invalid('options.tool', 'a tool definition object', tool);

  const method = ownValue(message, 'method');
  if (typeof method !== 'string') throw invalid('message.method', 'a string (a client sends only requests and notifications)', method);
  const params = ownValue(message, 'params');
  if (params !== undefined && !isRecord(params)) throw invalid('message.params', 'an object', params);

  const headers = new Headers();
  headers.set('MCP-Protocol-Version', protocolVersion(params, fallbackVersion));
  headers.set('Mcp-Method', plainValue('message.method', method));
  const nameField = nameFieldOf(method);
  if (nameField !== undefined) {
    headers.set('Mcp-Name', encodeValue(`message.params.${nameField}`, params === undefined ? undefined : ownValue(params, nameField)));
  }
  if (tool !== undefined) {
    for (const [name, value] of paramHeaders(method, params, tool)) headers.set(name, value);
  }
  return headers;
}

/** The body field `Mcp-Name` mirrors, by method: the core three, and the tasks extension's `tasks/*` (SEP-2663). */
const NAME_FIELDS: ReadonlyMap<string, 'name' | 'uri' | 'taskId'> = /* @__PURE__ */ new Map([
  ['tools/call', 'name'],
  ['prompts/get', 'name'],
  ['resources/read', 'uri'],
  ['tasks/get', 'taskId'],
  ['tasks/update', 'taskId'],
  ['tasks/cancel', 'taskId'],
]);

function nameFieldOf(method: string): 'name' | 'uri' | 'taskId' | undefined {
  return NAME_FIELDS.get(method);
}

/** The message's own `_meta` version wins, as the header must match the body; the option serves a message without one. */
function protocolVersion(params: Record<string, unknown> | undefined, fallback: string | undefined): string {
  const meta = params === undefined ? undefined : ownValue(params, '_meta');
  if (meta !== undefined && !isRecord(meta)) throw invalid('message.params._meta', 'an object', meta);
  const version = meta === undefined ? undefined : ownValue(meta, PROTOCOL_VERSION_META);
  const name = `message.params._meta["${PROTOCOL_VERSION_META}"]`;
  if (version !== undefined) {
    checkType(name, version, 'string');
    return plainValue(name, version);
  }
  if (fallback === undefined) throw invalid('options.protocolVersion', `a string when the message has no ${name}`, fallback);
  return plainValue('options.protocolVersion', fallback);
}

/** The `Mcp-Param-{Name}` headers of a `tools/call` of `tool` (Streamable HTTP, "Client Behavior"). */
function paramHeaders(method: string, params: Record<string, unknown> | undefined, tool: object): [string, string][] {
  if (method !== 'tools/call') throw invalid('options.tool', 'given only for tools/call', tool);
  const called = params === undefined ? undefined : ownValue(params, 'name'); // a string: Mcp-Name checked it
  const toolName = ownValue(tool, 'name');
  if (toolName !== called) throw invalid('options.tool', `the definition of the called tool ${describeValue(called)}`, toolName);
  const check = checkMcpHeaderParams(tool);
  if (!check.valid) {
    const more = check.reasons.length > 1 ? ` and ${check.reasons.length - 1} more` : '';
    // A reason quotes the schema's own keys and values, escaped and bounded where it was written.
    throw invalid('options.tool', `a tool with valid x-mcp-header annotations (${check.reasons[0]!}${more})`, toolName);
  }
  const args = params === undefined ? undefined : ownValue(params, 'arguments');
  if (args === undefined) return [];
  if (!isRecord(args)) throw invalid('message.params.arguments', 'an object', args);
  const headers: [string, string][] = [];
  for (const param of check.params) {
    const value = valueAt(args, param.path);
    // "Parameter value is null" and "not in arguments": the client omits the header.
    if (value === undefined || value === null) continue;
    headers.push([param.header, headerValue(param, value)]);
  }
  return headers;
}

function valueAt(args: Record<string, unknown>, path: readonly string[]): unknown {
  let value: unknown = args;
  for (const key of path) {
    if (!isRecord(value)) return undefined;
    value = ownValue(value, key);
  }
  return value;
}

/** "Type conversion", then "Value Encoding": the header value of one argument. */
function headerValue(param: McpHeaderParam, value: unknown): string {
  // The path's keys are the server's: each quoted, and of a deeper path only the last three.
  const keys = param.path.map((key) => `[${quoteText(key)}]`);
  const name = `message.params.arguments${keys.length > 3 ? '…' : ''}${keys.slice(-3).join('')}`;
  switch (param.type) {
    case 'string':
      return encodeValue(name, value);
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) throw invalid(name, 'an integer', value);
      // Outside the safe range a server's JSON parser may read another number than was sent.
      if (!Number.isSafeInteger(value)) throw invalid(name, 'an integer from -(2^53 - 1) to 2^53 - 1', value, RangeError);
      return String(value); // decimal: a safe integer never prints with an exponent, and -0 prints as 0
    case 'boolean':
      checkType(name, value, 'boolean');
      return String(value);
  }
}
