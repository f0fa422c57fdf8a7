/** The requests an `AnswerClient` sends, as each era writes them: in 2026-07-28, the protocol version, client info and capabilities in every request's `_meta`. @module */

import { invalid } from '../vocabulary/check-argument.js';
import { isRecord, objectOf, type JsonObject, type JsonRpcRequestId, type JsonValue } from '../vocabulary/json-rpc.js';
import { PROTOCOL_VERSION_META, type McpEra } from './era.js';

/** The package's version, in the client info an `AnswerClient` sends by default. Kept equal to `package.json`'s by a test: the library reads no file, in any runtime. */
export const PACKAGE_VERSION = '0.1.0';

/** Who the client is: its `Implementation` (name and version, and any other field the revision allows). */
export interface ClientInfo {
  /** The client's name. */
  readonly name: string;
  /** The client's version. */
  readonly version: string;
  /** Any other field of `Implementation` (`title`, `websiteUrl`, …). */
  readonly [field: string]: JsonValue;
}

/** The client's info and capabilities, as every request of its era declares them. */
export interface ClientIdentity {
  readonly clientInfo: ClientInfo;
  readonly capabilities: JsonObject;
}

/** A request as a client writes it: a message with an id and a method. */
export interface RequestObject extends JsonObject {
  readonly id: JsonRpcRequestId;
  readonly method: string;
}

/** The `_meta` keys that are the client's own in every 2026 request: no caller's `meta` may set them. */
export const CLIENT_META_KEYS: readonly string[] = [PROTOCOL_VERSION_META, 'io.modelcontextprotocol/clientInfo', 'io.modelcontextprotocol/clientCapabilities'];

/**
 * `params` with `meta` merged into its `_meta`, the caller's params unchanged.
 * @throws TypeError for a `meta` that is no object or sets a key of {@link CLIENT_META_KEYS}, or array params.
 */
export function withMeta(params: JsonObject | JsonValue[] | undefined, meta: unknown): JsonObject | JsonValue[] | undefined {
  if (meta === undefined) return params;
  if (!isRecord(meta)) throw invalid('meta', 'an object', meta);
  const own = CLIENT_META_KEYS.find((key) => Object.hasOwn(meta, key));
  if (own !== undefined) throw invalid('meta', `an object without the client's own "${own}"`, meta);
  if (Array.isArray(params)) throw invalid('params', 'an object when meta is given: an array has no place for _meta', params);
  return { ...params, _meta: { ...objectOf(params?.['_meta']), ...(meta as JsonObject) } };
}

/** The client info of an `AnswerClient` given none. */
export const DEFAULT_CLIENT_INFO: ClientInfo = { name: 'sse-answer', version: PACKAGE_VERSION };

/**
 * The request `method` with `id` (none: a notification) as a client of `era` speaking `version` sends it: in 2026-07-28, `params` gains the per-request `_meta`, its version always `version`.
 * @throws TypeError for params that are neither an object nor (2025 only) an array.
 */
export function requestMessage(id: JsonRpcRequestId, method: string, params: unknown, era: McpEra, version: string | undefined, identity: ClientIdentity): RequestObject;
export function requestMessage(id: undefined, method: string, params: unknown, era: McpEra, version: string | undefined, identity: ClientIdentity): JsonObject;
export function requestMessage(id: JsonRpcRequestId | undefined, method: string, params: unknown, era: McpEra, version: string | undefined, identity: ClientIdentity): JsonObject {
  const base: JsonObject = id === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', id, method };
  if (era === 'legacy' || version === undefined) {
    if (params === undefined) return base;
    if (typeof params !== 'object' || params === null) throw invalid('params', 'an object or an array', params);
    return { ...base, params: params as JsonObject };
  }
  if (params !== undefined && !isRecord(params)) {
    throw invalid('params', 'an object in the 2026-07-28 era, which carries _meta there', params);
  }
  const given = (params ?? {}) as JsonObject;
  const meta = given['_meta'];
  return {
    ...base,
    params: {
      ...given,
      _meta: {
        'io.modelcontextprotocol/clientInfo': { ...identity.clientInfo },
        'io.modelcontextprotocol/clientCapabilities': identity.capabilities,
        ...objectOf(meta),
        [PROTOCOL_VERSION_META]: version,
      },
    },
  };
}
