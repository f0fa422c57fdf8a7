/** What a typed call makes of its answer: its method's result, or `rpc_error`, `input_required` or `invalid_result` (`request` hands back any answer as it is). @module */

import { nothingRead, said, type Failure } from '../vocabulary/failure.js';
import { objectOf, type JsonObject, type JsonRpcResponse } from '../vocabulary/json-rpc.js';
import { inputRequired } from './input-required.js';
import { describeRpcError } from './refusal.js';

/** The array each method's result carries (the lists' are `list-pages.ts`'s to check). */
const SHAPES: { readonly [method: string]: string } = { 'tools/call': 'content', 'resources/read': 'contents', 'prompts/get': 'messages' };

/** A typed call's result, or why it has none. */
export type TypedResult = { readonly ok: true; readonly result: JsonObject } | { readonly ok: false; readonly failure: Failure };

/** The result of `answer` to `method`, checked as far as the client reads it. */
export function typedResult(method: string, answer: JsonRpcResponse): TypedResult {
  const detail = { ...nothingRead(0), answer };
  if (Object.hasOwn(answer, 'error')) {
    return { ok: false, failure: { code: 'rpc_error', message: said`the server answered ${method} with ${describeRpcError(answer['error'])}`, detail } };
  }
  if (inputRequired(answer) !== undefined) {
    const message = said`the server answered ${method} with input_required, and no onInputRequired answered it within maxInputRounds`;
    return { ok: false, failure: { code: 'input_required', message, detail } };
  }
  const result = objectOf(answer['result']);
  const field = Object.hasOwn(SHAPES, method) ? SHAPES[method] : undefined;
  if (result === undefined || (field !== undefined && !Array.isArray(result[field]))) {
    const what = field === undefined ? 'an object' : `an object with a ${field} list`;
    return { ok: false, failure: { code: 'malformed_answer', reason: 'invalid_result', message: said`the server answered ${method} with a result that is not ${what}`, detail } };
  }
  return { ok: true, result };
}
