/** The server's requests for input, one handler for both eras: 2026's `input_required` results (MRTR: the request re-issued) and 2025's server requests (replied to). @module */

import { describeValue } from '../vocabulary/describe-value.js';
import { objectOf, type JsonObject, type JsonRpcMessage, type JsonRpcRequestId, type JsonRpcResponse } from '../vocabulary/json-rpc.js';
import type { McpEra } from './era.js';

/** A request of the server's to the client: `elicitation/create`, `sampling/createMessage`, `roots/list`, …. */
export interface InputRequest {
  /** The request's method: `elicitation/create`, `sampling/createMessage`, `roots/list`, …. */
  readonly method: string;
  /** Its params, exactly as the server sent them. */
  readonly params?: JsonObject | undefined;
}

/** What a handler is told of the request it answers. */
export interface InputRequestContext {
  /** The era it came in: an `inputRequests` entry (2026-07-28) or a server request (2025). */
  readonly era: McpEra;
  /** The `inputRequests` key it came under (2026-07-28). */
  readonly key?: string | undefined;
  /** The server request's id (2025). */
  readonly id?: JsonRpcRequestId | undefined;
  /** Aborts when the client's request ends without needing the answer: give up then. */
  readonly signal: AbortSignal;
}

/** Answers a request of the server's with its result (an `ElicitResult`, …), as the user or model would; what it throws fails a 2026 request as it is, and answers a 2025 one with a JSON-RPC error. */
export type InputRequestHandler = (request: InputRequest, context: InputRequestContext) => JsonObject | Promise<JsonObject>;

/** The requests that may be answered with `input_required` (basic/patterns/mrtr, "Supported Requests"). */
export const INPUT_REQUIRED_METHODS: ReadonlySet<string> = new Set(['tools/call', 'prompts/get', 'resources/read']);

/** What an `input_required` result asks: its `inputRequests` (possibly none) and its `requestState`, echoed exactly. */
export interface InputRequired {
  readonly inputRequests: readonly (readonly [string, InputRequest])[];
  readonly requestState: string | undefined;
}

/** What `answer` asks for, if it is an `input_required` result. */
export function inputRequired(answer: JsonRpcResponse): InputRequired | undefined {
  const result = objectOf(answer['result']);
  if (result?.['resultType'] !== 'input_required') return undefined;
  const requests = objectOf(result['inputRequests']) ?? {};
  const inputRequests = Object.keys(requests).flatMap((key): [string, InputRequest][] => {
    const request = objectOf(requests[key]);
    const method = request?.['method'];
    if (typeof method !== 'string') return [];
    const params = objectOf(request?.['params']);
    return [[key, params === undefined ? { method } : { method, params }]];
  });
  const state = result['requestState'];
  return { inputRequests, requestState: typeof state === 'string' ? state : undefined };
}

/** Each input request answered by `handler`, keyed as they were asked. */
export async function answerInputRequests(asked: InputRequired, handler: InputRequestHandler, signal: AbortSignal): Promise<JsonObject> {
  const responses: [string, JsonObject][] = [];
  for (const [key, request] of asked.inputRequests) responses.push([key, await handler(request, { era: 'modern', key, signal })]);
  // Entries, not assignments: a key `__proto__` is a key like any other.
  return Object.fromEntries(responses) as JsonObject;
}

/** The retry's params: the original's, with `inputResponses` (when any) and `requestState` exactly as sent (none when none). */
export function retryParams(params: JsonObject | undefined, responses: JsonObject, asked: InputRequired): JsonObject {
  const retry: JsonObject = { ...(params ?? {}) };
  delete retry['inputResponses'];
  delete retry['requestState'];
  if (Object.keys(responses).length > 0) retry['inputResponses'] = responses;
  if (asked.requestState !== undefined) retry['requestState'] = asked.requestState;
  return retry;
}

/** A server request among passed-over messages (2025): a message with a string `method` and an `id`. */
export function serverRequest(message: JsonRpcMessage): { readonly id: JsonRpcRequestId; readonly request: InputRequest } | undefined {
  const { method, id } = message as { method?: unknown; id?: unknown };
  if (typeof method !== 'string' || (typeof id !== 'string' && typeof id !== 'number')) return undefined;
  const params = objectOf(message['params']);
  return { id, request: params === undefined ? { method } : { method, params } };
}

/** The reply to a 2025 server request: `ping` answered empty; else `handler`'s result, or a JSON-RPC error (-32601 with no handler, -32603 when it throws). */
export async function replyTo(id: JsonRpcRequestId, request: InputRequest, handler: InputRequestHandler | undefined, signal: AbortSignal): Promise<JsonObject> {
  if (request.method === 'ping') return { jsonrpc: '2.0', id, result: {} };
  if (handler === undefined) return { jsonrpc: '2.0', id, error: { code: -32601, message: `the client does not answer ${request.method}` } };
  try {
    const reply = { jsonrpc: '2.0', id, result: await handler(request, { era: 'legacy', id, signal }) };
    JSON.stringify(reply); // a result that cannot be sent (a BigInt, a cycle) is the handler's failure
    return reply;
  } catch (error) {
    return { jsonrpc: '2.0', id, error: { code: -32603, message: `the client failed to answer ${request.method}: ${describeValue(error)}` } };
  }
}
