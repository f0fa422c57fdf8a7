/** JSON-RPC message types, as loose as what the selector checks and no looser: the values are exactly what `JSON.parse` produced. @module */

/** Any value `JSON.parse` can produce. */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;

/** A JSON object, as `JSON.parse` produces it. */
export interface JsonObject {
  [key: string]: JsonValue;
}

/** A JSON-RPC request id as a client sends it. `null` is reserved for "unknown" in error responses. */
export type JsonRpcRequestId = string | number;

/** A message that carries `method`: a notification, or (with an `id`) a request from the server to the client. */
export interface JsonRpcRequest extends JsonObject {
  /** The method name; not checked to be a string. */
  method: JsonValue;
}

/** A response that carries `result`. */
export interface JsonRpcResultResponse extends JsonObject {
  /** The result, exactly as parsed. */
  result: JsonValue;
}

/** A response that carries `error`. */
export interface JsonRpcErrorResponse extends JsonObject {
  /** The error object, exactly as parsed; a well-formed one has `code` and `message`. */
  error: JsonValue;
}

/** A response: an object that carries `result` or `error` and no `method`. */
export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;

/** Any JSON-RPC message: an object carrying `method`, `result` or `error`. */
export type JsonRpcMessage = JsonRpcRequest | JsonRpcResponse;

/** What a parsed JSON value is to the selector. */
export type MessageKind = 'request' | 'response' | 'not_a_message';

const { hasOwn } = Object;

/** Whether `value` is an object whose own fields can be read: not `null`, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value` as an object whose own fields can be read, or `undefined`. */
export function objectOf(value: JsonValue | undefined): JsonObject | undefined {
  return isRecord(value) ? (value as JsonObject) : undefined;
}

/** An own property's value; `undefined` when absent (never an inherited one). */
export function ownValue(value: object, key: string): unknown {
  return hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}

/** Classifies one JSON value (not a batch): anything carrying `method` is a request, even with a `result`, and never a client's answer. */
export function messageKind(value: unknown): MessageKind {
  if (!isRecord(value)) return 'not_a_message';
  if (hasOwn(value, 'method')) return 'request';
  if (hasOwn(value, 'result') || hasOwn(value, 'error')) return 'response';
  return 'not_a_message';
}

/** Whether `response` answers the request `requestId`: any when none is given; else its id, strictly (`1` is not `"1"`), or an error with `id: null` (the server could not read the request). */
export function answers(response: JsonRpcResponse, requestId: JsonRpcRequestId | undefined): boolean {
  if (requestId === undefined) return true;
  const id = response['id'];
  if (id === requestId) return true;
  return id === null && hasOwn(response, 'error');
}
