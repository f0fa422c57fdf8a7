/**
 * A request of the 2026-07-28 era as the CLI sends it: the protocol version, the client's info
 * and capabilities in `params._meta` (the revision's per-request fields), and the `Mcp-Param-*`
 * headers of a tool's arguments.
 * @module
 */

import { mcpRequestHeaders, type JsonObject, type JsonRpcRequestId, type JsonValue } from '../index.js';
import { PROTOCOL_VERSION_META } from '../client/era.js';
import { clientInfo, objectOf, type ExchangeSettings } from './exchange-settings.js';
import { UsageError } from './usage-error.js';

/** A JSON-RPC request object. */
export interface RequestMessage extends JsonObject {
  jsonrpc: '2.0';
  id: JsonRpcRequestId;
  method: string;
}

/**
 * `method` with `params` (an object, or none) and the per-request `_meta` of `version`. A
 * `_meta` in `params` is kept, but its protocol version is `version`: the header must match it.
 * @throws UsageError for array params, which have no place for `_meta`.
 */
export function modernRequest(settings: ExchangeSettings, id: JsonRpcRequestId, method: string, params: JsonValue | undefined, version: string): RequestMessage {
  if (params !== undefined && objectOf(params) === undefined) {
    throw new UsageError('PARAMS_JSON must be a JSON object in the 2026-07-28 era: the request carries its _meta there');
  }
  const given = objectOf(params) ?? {};
  const meta = objectOf(given['_meta']) ?? {};
  return {
    jsonrpc: '2.0',
    id,
    method,
    params: {
      ...given,
      _meta: {
        'io.modelcontextprotocol/clientInfo': clientInfo(settings),
        'io.modelcontextprotocol/clientCapabilities': {},
        ...meta,
        [PROTOCOL_VERSION_META]: version,
      },
    },
  };
}

/**
 * The caller's headers with the `Mcp-Param-*` a `tools/call` of `tool` mirrors from its
 * arguments. Only those: `postJsonRpc` mirrors `MCP-Protocol-Version`, `Mcp-Method` and
 * `Mcp-Name` from every modern request itself, but the tool's definition is the CLI's to give.
 */
export function withParamHeaders(callerHeaders: Headers, request: RequestMessage, tool: object): Headers {
  const headers = new Headers(callerHeaders);
  mcpRequestHeaders(request, { tool }).forEach((value, name) => headers.set(name, value));
  return headers;
}
