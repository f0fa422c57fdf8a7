/**
 * input-required.ts: a server that needs input while it answers. 2026-07-28 (MRTR,
 * basic/patterns/mrtr): `inputRequired` reads an `input_required` result's `inputRequests` and
 * `requestState`; `answerInputRequests` answers each by the handler, keyed as asked;
 * `retryParams` re-issues the original params with `inputResponses` and the `requestState`
 * echoed exactly — none when the server sent none. 2025: `serverRequest` finds a server request
 * among passed-over messages, and `replyTo` answers it — `ping` with `{}`, no handler with
 * -32601, a throwing handler with -32603. The rounds under AnswerClient are answer-client.test.ts.
 */

import { describe, expect, test } from 'vitest';
import {
  answerInputRequests,
  INPUT_REQUIRED_METHODS,
  inputRequired,
  replyTo,
  retryParams,
  serverRequest,
  type InputRequestContext,
  type InputRequestHandler,
  type InputRequired,
} from '../../src/client/input-required.js';
import type { JsonObject, JsonRpcResponse } from '../../src/vocabulary/json-rpc.js';

const ELICIT = { method: 'elicitation/create', params: { mode: 'form', message: 'Your GitHub login?', requestedSchema: { type: 'object' } } };
const SAMPLE = { method: 'sampling/createMessage', params: { messages: [], maxTokens: 100 } };
const answerWith = (result: unknown): JsonRpcResponse => ({ jsonrpc: '2.0', id: 1, result }) as JsonRpcResponse;
const signal = new AbortController().signal;

test('the requests that may be answered with input_required: tools/call, prompts/get, resources/read', () => {
  expect([...INPUT_REQUIRED_METHODS].sort()).toEqual(['prompts/get', 'resources/read', 'tools/call']);
});

describe('inputRequired', () => {
  test("the revision's example: every request by its key, and the requestState", () => {
    const asked = inputRequired(
      answerWith({ resultType: 'input_required', inputRequests: { github_login: ELICIT, capital_of_france: SAMPLE }, requestState: 'AEAD-protected blob' }),
    );
    expect(asked).toEqual({ inputRequests: [['github_login', ELICIT], ['capital_of_france', SAMPLE]], requestState: 'AEAD-protected blob' });
  });

  test.each([
    ['a complete result', answerWith({ resultType: 'complete', content: [] })],
    ['a result without resultType', answerWith({ content: [] })],
    ['a result that is not an object', answerWith('input_required')],
    ['an error response', { jsonrpc: '2.0', id: 1, error: { code: 1, message: 'x' } } as JsonRpcResponse],
  ])('%s asks nothing: undefined', (_, answer) => {
    expect(inputRequired(answer)).toBeUndefined();
  });

  test('only a requestState: no requests, the state', () => {
    expect(inputRequired(answerWith({ resultType: 'input_required', requestState: 's1' }))).toEqual({ inputRequests: [], requestState: 's1' });
  });

  test('entries without a string method are skipped; params that are not an object are left out', () => {
    const asked = inputRequired(
      answerWith({ resultType: 'input_required', inputRequests: { a: { params: {} }, b: 'x', c: { method: 7 }, d: { method: 'roots/list', params: [1] }, e: { method: 'ping' } } }),
    );
    expect(asked?.inputRequests).toEqual([['d', { method: 'roots/list' }], ['e', { method: 'ping' }]]);
  });

  test('a requestState that is not a string is none; inputRequests that is not an object is none', () => {
    expect(inputRequired(answerWith({ resultType: 'input_required', inputRequests: [ELICIT], requestState: 42 }))).toEqual({ inputRequests: [], requestState: undefined });
  });
});

describe('answerInputRequests', () => {
  test('each request answered by the handler, in order, keyed as asked, with the era, key and signal', async () => {
    const contexts: InputRequestContext[] = [];
    const seen: string[] = [];
    const handler: InputRequestHandler = async (request, context) => {
      contexts.push(context);
      seen.push(request.method);
      return request.method === 'elicitation/create' ? { action: 'accept', content: { name: 'octocat' } } : { role: 'assistant', content: { type: 'text', text: 'Paris' } };
    };
    const asked: InputRequired = { inputRequests: [['github_login', ELICIT], ['capital', SAMPLE]], requestState: undefined };
    const responses = await answerInputRequests(asked, handler, signal);
    expect(responses).toEqual({ github_login: { action: 'accept', content: { name: 'octocat' } }, capital: { role: 'assistant', content: { type: 'text', text: 'Paris' } } });
    expect(seen).toEqual(['elicitation/create', 'sampling/createMessage']);
    expect(contexts).toEqual([
      { era: 'modern', key: 'github_login', signal },
      { era: 'modern', key: 'capital', signal },
    ]);
  });

  test('a handler that answers synchronously works too; no requests, no calls', async () => {
    let calls = 0;
    const handler: InputRequestHandler = () => {
      calls += 1;
      return { ok: true };
    };
    expect(await answerInputRequests({ inputRequests: [['k', ELICIT]], requestState: 's' }, handler, signal)).toEqual({ k: { ok: true } });
    expect(await answerInputRequests({ inputRequests: [], requestState: 's' }, handler, signal)).toEqual({});
    expect(calls).toBe(1);
  });

  test('what the handler throws goes up as it is', async () => {
    const error = new Error('user declined');
    await expect(
      answerInputRequests({ inputRequests: [['k', ELICIT]], requestState: undefined }, () => {
        throw error;
      }, signal),
    ).rejects.toBe(error);
  });
});

describe('retryParams', () => {
  const asked = (requestState: string | undefined): InputRequired => ({ inputRequests: [], requestState });

  test('the original params, with the answers and the requestState echoed exactly', () => {
    const state = '  eyJ0eXAi…\u0000 ünï\n';
    const params = { name: 'deploy', arguments: { env: 'prod' } };
    expect(retryParams(params, { login: { action: 'accept' } }, asked(state))).toEqual({ name: 'deploy', arguments: { env: 'prod' }, inputResponses: { login: { action: 'accept' } }, requestState: state });
  });

  test('no requestState from the server: none in the retry, even one the previous round carried', () => {
    const previous = { name: 'deploy', inputResponses: { old: {} }, requestState: 'round-1' };
    const retry = retryParams(previous, { login: {} }, asked(undefined));
    expect(retry).toEqual({ name: 'deploy', inputResponses: { login: {} } });
    expect('requestState' in retry).toBe(false);
  });

  test('no answers: no inputResponses, not even the previous round\'s', () => {
    const retry = retryParams({ name: 'x', inputResponses: { old: {} } }, {}, asked('s2'));
    expect(retry).toEqual({ name: 'x', requestState: 's2' });
  });

  test('no params: only what the retry adds; the params given are not changed', () => {
    expect(retryParams(undefined, {}, asked(undefined))).toEqual({});
    const params: JsonObject = { name: 'x', requestState: 'old' };
    retryParams(params, { a: {} }, asked('new'));
    expect(params).toEqual({ name: 'x', requestState: 'old' });
  });
});

describe('serverRequest (2025)', () => {
  test('a message with a string method and a string or number id', () => {
    expect(serverRequest({ jsonrpc: '2.0', id: 'srv-1', method: 'elicitation/create', params: ELICIT.params })).toEqual({ id: 'srv-1', request: ELICIT });
    expect(serverRequest({ jsonrpc: '2.0', id: 0, method: 'ping' })).toEqual({ id: 0, request: { method: 'ping' } });
  });

  test('a notification, a response, or an id of another type is none', () => {
    expect(serverRequest({ jsonrpc: '2.0', method: 'notifications/progress', params: {} })).toBeUndefined();
    expect(serverRequest({ jsonrpc: '2.0', id: 1, result: {} })).toBeUndefined();
    expect(serverRequest({ jsonrpc: '2.0', id: null, method: 'ping' } as never)).toBeUndefined();
    expect(serverRequest({ jsonrpc: '2.0', id: 3, method: 5 } as never)).toBeUndefined();
  });

  test('params that are not an object are left out', () => {
    expect(serverRequest({ jsonrpc: '2.0', id: 1, method: 'roots/list', params: [1] } as never)).toEqual({ id: 1, request: { method: 'roots/list' } });
  });
});

describe('replyTo (2025)', () => {
  test('ping is answered {} without asking the handler', async () => {
    let calls = 0;
    const reply = await replyTo(7, { method: 'ping' }, () => {
      calls += 1;
      return {};
    }, signal);
    expect(reply).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
    expect(calls).toBe(0);
    expect(await replyTo('p', { method: 'ping' }, undefined, signal)).toEqual({ jsonrpc: '2.0', id: 'p', result: {} });
  });

  test('the handler\'s result, with the era, the id and the signal', async () => {
    const contexts: InputRequestContext[] = [];
    const reply = await replyTo('srv-1', ELICIT, async (request, context) => {
      contexts.push(context);
      return { action: 'accept', content: { said: request.method } };
    }, signal);
    expect(reply).toEqual({ jsonrpc: '2.0', id: 'srv-1', result: { action: 'accept', content: { said: 'elicitation/create' } } });
    expect(contexts).toEqual([{ era: 'legacy', id: 'srv-1', signal }]);
  });

  test('no handler: -32601, naming the method', async () => {
    expect(await replyTo(3, { method: 'roots/list' }, undefined, signal)).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32601, message: 'the client does not answer roots/list' },
    });
  });

  test.each([
    ['throws', () => {
      throw new Error('no user here');
    }],
    ['rejects', () => Promise.reject(new Error('no user here'))],
  ])('a handler that %s: -32603 with its error described', async (_, handler) => {
    expect(await replyTo(4, SAMPLE, handler as InputRequestHandler, signal)).toEqual({
      jsonrpc: '2.0',
      id: 4,
      error: { code: -32603, message: 'the client failed to answer sampling/createMessage: Error: no user here' },
    });
  });
});
