// authProvider on the exchange, against scripted responses where every request, header, body
// and listener can be counted: the bearer token on the POST, each resumption GET and the
// DELETE; a 401 answered once by onUnauthorized, under the same deadline and byte cap; what a
// refusal says (the parsed challenge); a provider that throws, hangs or returns a bad token; and
// a token that never reaches another origin nor any error message.
import { describe, expect, test } from 'vitest';
import { AnswerTransport, postJsonRpc, type AuthProvider, type FetchFunction, type UnauthorizedContext } from '../src/index.js';
import { ANSWER, ANSWER_VALUE, answerError, rejection, sourceBody, sseEvent, type SourceBody } from './helpers/bodies.js';

const REQUEST = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
const SECRET = 'tok-secret-0123456789';
const URL_ = 'https://mcp.example.com/mcp';
const CHALLENGE = 'Bearer error="invalid_token", error_description="expired, renew it", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", scope="mcp files:read"';

interface Sent {
  readonly method: string;
  readonly url: string;
  readonly authorization: string | null;
  readonly headers: Headers;
}

/** A fetch that answers each request with the next of `answers` (the last one repeats) and records it. */
function scripted(answers: ((sent: Sent) => Response)[]): { fetch: FetchFunction; sent: Sent[] } {
  const sent: Sent[] = [];
  const fetch: FetchFunction = async (input, init) => {
    const headers = new Headers(init.headers);
    const one = { method: init.method ?? 'GET', url: String(input), authorization: headers.get('authorization'), headers };
    sent.push(one);
    return answers[Math.min(sent.length - 1, answers.length - 1)]!(one);
  };
  return { fetch, sent };
}

/** A 401 (or `status`) with `challenge`, its body a source whose release can be checked. */
function refusal(challenge: string | null = CHALLENGE, status = 401): { response: () => Response; source: SourceBody } {
  const source = sourceBody(['{"error":"invalid_token"}']);
  const headers = new Headers({ 'content-type': 'application/json' });
  if (challenge !== null) headers.set('www-authenticate', challenge);
  return { response: () => new Response(source.body, { status, statusText: status === 401 ? 'Unauthorized' : 'Forbidden', headers }), source };
}

const answered = (): Response => new Response(JSON.stringify(ANSWER_VALUE), { headers: { 'content-type': 'application/json' } });

/** A provider over a list of tokens: each onUnauthorized moves to the next. */
function rotating(tokens: (string | undefined)[], onUnauthorized?: (context: UnauthorizedContext) => Promise<void>) {
  let at = 0;
  const calls: UnauthorizedContext[] = [];
  const provider: AuthProvider & { calls: UnauthorizedContext[]; tokenCalls: number } = {
    calls,
    tokenCalls: 0,
    async token() {
      provider.tokenCalls += 1;
      return tokens[Math.min(at, tokens.length - 1)];
    },
    async onUnauthorized(context) {
      calls.push(context);
      await onUnauthorized?.(context);
      at += 1;
    },
  };
  return provider;
}

function released(source: SourceBody): Promise<string> {
  return Promise.race([source.released, new Promise<string>((resolve) => setTimeout(() => resolve('not released'), 200))]);
}

describe('the bearer token', () => {
  test('a provider with only token(): Authorization: Bearer on the POST', async () => {
    const { fetch, sent } = scripted([answered]);
    const result = await postJsonRpc(URL_, REQUEST, { fetch, authProvider: { token: async () => SECRET } });
    expect(result.answer).toEqual(ANSWER_VALUE);
    expect(sent.map((one) => one.authorization)).toEqual([`Bearer ${SECRET}`]);
  });

  test('token() resolving undefined or "" sends no Authorization', async () => {
    for (const token of [undefined, '']) {
      const { fetch, sent } = scripted([answered]);
      await postJsonRpc(URL_, REQUEST, { fetch, authProvider: { token: async () => token } });
      expect(sent[0]?.authorization).toBeNull();
    }
  });

  test('token() is called before every request, as a method of the provider', async () => {
    class Provider {
      readonly seen: unknown[] = [];
      async token(): Promise<string> {
        this.seen.push(this);
        return SECRET;
      }
    }
    const provider = new Provider();
    const { fetch } = scripted([answered]);
    await postJsonRpc(URL_, REQUEST, { fetch, authProvider: provider });
    await postJsonRpc(URL_, REQUEST, { fetch, authProvider: provider });
    expect(provider.seen).toEqual([provider, provider]);
  });

  test('each resumption GET carries the token, fetched again for it', async () => {
    const provider = rotating([SECRET]);
    const primed = (): Response => new Response(sseEvent('', ['id: e1', 'retry: 1']), { headers: { 'content-type': 'text/event-stream' } });
    const resumed = (): Response => new Response(ANSWER, { headers: { 'content-type': 'text/event-stream' } });
    const { fetch, sent } = scripted([primed, resumed]);
    const result = await postJsonRpc(URL_, REQUEST, { fetch, authProvider: provider, headers: { 'mcp-protocol-version': '2025-11-25' } });
    expect(result.answer).toEqual(ANSWER_VALUE);
    expect(sent.map((one) => [one.method, one.authorization, one.headers.get('last-event-id')])).toEqual([
      ['POST', `Bearer ${SECRET}`, null],
      ['GET', `Bearer ${SECRET}`, 'e1'],
    ]);
    expect(provider.tokenCalls).toBe(2);
  });

  test('a same-origin redirect keeps the token; a cross-origin one is refused before anything is sent there', async () => {
    const same = scripted([() => new Response(null, { status: 307, headers: { location: '/elsewhere/mcp' } }), answered]);
    await postJsonRpc(URL_, REQUEST, { fetch: same.fetch, authProvider: { token: async () => SECRET } });
    expect(same.sent.map((one) => [one.url, one.authorization])).toEqual([
      [URL_, `Bearer ${SECRET}`],
      ['https://mcp.example.com/elsewhere/mcp', `Bearer ${SECRET}`],
    ]);

    const cross = scripted([() => new Response(null, { status: 307, headers: { location: 'https://attacker.example/mcp' } }), answered]);
    const error = await answerError(postJsonRpc(URL_, REQUEST, { fetch: cross.fetch, authProvider: { token: async () => SECRET } }));
    expect(error.code).toBe('http_status');
    expect(error.detail.location).toBe('https://attacker.example/mcp');
    expect(cross.sent.map((one) => one.url)).toEqual([URL_]);
  });

  test('the DELETE that ends a session carries the token', async () => {
    const initialized = (): Response =>
      new Response(JSON.stringify({ jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } } }), {
        headers: { 'content-type': 'application/json', 'mcp-session-id': 'session-1' },
      });
    const { fetch, sent } = scripted([initialized, () => new Response(null, { status: 200 })]);
    const transport = new AnswerTransport(URL_, { fetch, authProvider: { token: async () => SECRET } });
    await transport.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: {} });
    await transport.close();
    expect(sent.map((one) => [one.method, one.authorization, one.headers.get('mcp-session-id')])).toEqual([
      ['POST', `Bearer ${SECRET}`, null],
      ['DELETE', `Bearer ${SECRET}`, 'session-1'],
    ]);
  });
});

describe('caller misuse, refused up front', () => {
  test('an Authorization header and an authProvider together: TypeError, nothing sent', async () => {
    const { fetch, sent } = scripted([answered]);
    const authProvider = { token: async () => SECRET };
    await expect(postJsonRpc(URL_, REQUEST, { fetch, authProvider, headers: { Authorization: 'Bearer mine' } })).rejects.toThrow(TypeError);
    expect(() => new AnswerTransport(URL_, { fetch, authProvider, headers: [['authorization', 'Bearer mine']] })).toThrow(TypeError);
    const transport = new AnswerTransport(URL_, { fetch, authProvider });
    await expect(transport.send(REQUEST, { headers: { authorization: 'Bearer mine' } })).rejects.toThrow(TypeError);
    expect(sent).toEqual([]);
  });

  test('a provider without token(), or with an onUnauthorized that is not a function: TypeError', async () => {
    const { fetch } = scripted([answered]);
    for (const authProvider of [null, 'token', {}, { token: 'x' }, { token: async () => 'x', onUnauthorized: 1 }]) {
      await expect(postJsonRpc(URL_, REQUEST, { fetch, authProvider: authProvider as never })).rejects.toThrow(TypeError);
      expect(() => new AnswerTransport(URL_, { fetch, authProvider: authProvider as never })).toThrow(TypeError);
    }
  });

  test('an OAuthClientProvider passed as is: TypeError that says to adapt it', () => {
    const oauth = { tokens: () => undefined, clientInformation: () => undefined, redirectUrl: undefined };
    expect(() => new AnswerTransport(URL_, { authProvider: oauth as never })).toThrow(/OAuthClientProvider\? adapt it/);
  });
});

describe('a 401', () => {
  test('onUnauthorized is awaited with the response, the server URL and a fetch; the request is retried once with the new token', async () => {
    const first = refusal();
    const provider = rotating(['old', SECRET]);
    const { fetch, sent } = scripted([first.response, answered]);
    const result = await postJsonRpc(URL_, REQUEST, { fetch, authProvider: provider });
    expect(result.answer).toEqual(ANSWER_VALUE);
    expect(sent.map((one) => one.authorization)).toEqual(['Bearer old', `Bearer ${SECRET}`]);
    expect(provider.calls).toHaveLength(1);
    const [context] = provider.calls;
    expect(context?.response.status).toBe(401);
    expect(context?.response.headers.get('www-authenticate')).toBe(CHALLENGE);
    expect(context?.serverUrl).toEqual(new URL(URL_));
    expect(await released(first.source)).toBe('cancelled');
  });

  test("onUnauthorized's fetchFn is the exchange's fetch, with nothing of the exchange on it", async () => {
    const { fetch, sent } = scripted([refusal().response, () => new Response('{}', { headers: { 'content-type': 'application/json' } }), answered]);
    const provider = rotating(['old', SECRET], async ({ fetchFn }) => {
      await fetchFn('https://auth.example.com/token', { method: 'POST' });
    });
    await postJsonRpc(URL_, REQUEST, { fetch, authProvider: provider, headers: { 'mcp-session-id': 's' } });
    expect(sent.map((one) => [one.url, one.authorization, one.headers.get('mcp-session-id')])).toEqual([
      [URL_, 'Bearer old', 's'],
      ['https://auth.example.com/token', null, null],
      [URL_, `Bearer ${SECRET}`, 's'],
    ]);
  });

  test('a second 401: http_status with the status and the parsed challenge; both bodies released; no token in the error', async () => {
    const first = refusal();
    const second = refusal('Bearer error="invalid_token", resource_metadata="https://mcp.example.com/prm"');
    const { fetch, sent } = scripted([first.response, second.response]);
    const provider = rotating([SECRET, `${SECRET}-2`]);
    const error = await answerError(postJsonRpc(URL_, REQUEST, { fetch, authProvider: provider }));
    expect(error.code).toBe('http_status');
    expect(error.detail.status).toBe(401);
    expect(error.detail.challenge).toMatchObject({ scheme: 'Bearer', error: 'invalid_token', resourceMetadata: 'https://mcp.example.com/prm' });
    expect(error.message).toContain('HTTP 401 Unauthorized (Bearer error "invalid_token")');
    expect(sent).toHaveLength(2);
    expect(provider.calls).toHaveLength(1);
    expect(await released(first.source)).toBe('cancelled');
    expect(['cancelled', 'closed']).toContain(await released(second.source));
    expect(JSON.stringify({ message: error.message, detail: error.detail, stack: error.stack })).not.toContain(SECRET);
  });

  test('a 401 with no onUnauthorized: http_status at once, the challenge parsed (quoted commas too)', async () => {
    const first = refusal();
    const { fetch, sent } = scripted([first.response]);
    const error = await answerError(postJsonRpc(URL_, REQUEST, { fetch, authProvider: { token: async () => SECRET } }));
    expect(error.code).toBe('http_status');
    expect(error.detail.challenge).toEqual({
      scheme: 'Bearer',
      error: 'invalid_token',
      errorDescription: 'expired, renew it',
      resourceMetadata: 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
      scope: 'mcp files:read',
      params: {
        error: 'invalid_token',
        error_description: 'expired, renew it',
        resource_metadata: 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
        scope: 'mcp files:read',
      },
    });
    expect(sent).toHaveLength(1);
    expect(['cancelled', 'closed']).toContain(await released(first.source));
  });

  test('a 401 without an authProvider still carries its challenge', async () => {
    const { fetch } = scripted([refusal().response]);
    const error = await answerError(postJsonRpc(URL_, REQUEST, { fetch }));
    expect(error.detail.challenge?.resourceMetadata).toBe('https://mcp.example.com/.well-known/oauth-protected-resource/mcp');
  });

  test('onUnauthorized that throws: http_status 401 with its error as the cause, the body released, nothing retried', async () => {
    const first = refusal();
    const failure = new Error('the token endpoint said no');
    const { fetch, sent } = scripted([first.response, answered]);
    const provider = rotating([SECRET], async () => {
      throw failure;
    });
    const error = await answerError(postJsonRpc(URL_, REQUEST, { fetch, authProvider: provider }));
    expect(error.code).toBe('http_status');
    expect(error.detail.status).toBe(401);
    expect(error.detail.challenge?.error).toBe('invalid_token');
    expect(error.cause).toBe(failure);
    expect(error.message).toMatch(/authProvider\.onUnauthorized failed: Error: the token endpoint said no/);
    expect(sent).toHaveLength(1);
    expect(await released(first.source)).toBe('cancelled');
  });

  test('onUnauthorized that never settles: timeout at the deadline, the body released, no listener left on the caller signal', async () => {
    const first = refusal();
    const { fetch } = scripted([first.response, answered]);
    const provider = rotating([SECRET], () => new Promise<void>(() => {}));
    const caller = new AbortController();
    let listeners = 0;
    const add = caller.signal.addEventListener.bind(caller.signal);
    const remove = caller.signal.removeEventListener.bind(caller.signal);
    caller.signal.addEventListener = ((...args: Parameters<typeof add>) => {
      listeners += 1;
      add(...args);
    }) as typeof add;
    caller.signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
      listeners -= 1;
      remove(...args);
    }) as typeof remove;
    const started = Date.now();
    const error = await answerError(postJsonRpc(URL_, REQUEST, { fetch, authProvider: provider, timeoutMs: 100, signal: caller.signal }));
    expect(error.code).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await released(first.source)).toBe('cancelled');
    expect(listeners).toBe(0);
  });

  test('onUnauthorized and the retry share one deadline', async () => {
    const { fetch, sent } = scripted([refusal().response, answered]);
    const provider = rotating(['old', SECRET], () => new Promise<void>((resolve) => setTimeout(resolve, 150)));
    const error = await answerError(postJsonRpc(URL_, REQUEST, { fetch: async (input, init) => {
      if (sent.length === 1) await new Promise((resolve) => setTimeout(resolve, 150)); // the retry is slow
      return fetch(input, init);
    }, authProvider: provider, timeoutMs: 200 }));
    expect(error.code).toBe('timeout');
  });

  test('the byte cap is the same over the retry: an answer past it is budget_exceeded', async () => {
    const big = (): Response => new Response(JSON.stringify({ ...ANSWER_VALUE, result: { text: 'x'.repeat(500) } }), { headers: { 'content-type': 'application/json' } });
    const { fetch } = scripted([refusal().response, big]);
    const error = await answerError(postJsonRpc(URL_, REQUEST, { fetch, authProvider: rotating(['old', SECRET]), maxBytes: 100 }));
    expect(error.code).toBe('budget_exceeded');
    expect(error.detail.maxBytes).toBe(100);
  });

  test('a resumption GET answered 401 is retried once after onUnauthorized', async () => {
    const primed = (): Response => new Response(sseEvent('', ['id: e1', 'retry: 1']), { headers: { 'content-type': 'text/event-stream' } });
    const resumed = (): Response => new Response(ANSWER, { headers: { 'content-type': 'text/event-stream' } });
    const { fetch, sent } = scripted([primed, refusal().response, resumed]);
    const provider = rotating(['old', SECRET]);
    const result = await postJsonRpc(URL_, REQUEST, { fetch, authProvider: provider, headers: { 'mcp-protocol-version': '2025-11-25' } });
    expect(result.answer).toEqual(ANSWER_VALUE);
    expect(sent.map((one) => [one.method, one.authorization])).toEqual([
      ['POST', 'Bearer old'],
      ['GET', 'Bearer old'],
      ['GET', `Bearer ${SECRET}`],
    ]);
  });

  test('a resumption GET refused 401 twice ends the exchange as http_status with the challenge', async () => {
    const primed = (): Response => new Response(sseEvent('', ['id: e1', 'retry: 1']), { headers: { 'content-type': 'text/event-stream' } });
    const { fetch } = scripted([primed, refusal().response, refusal().response]);
    const error = await answerError(postJsonRpc(URL_, REQUEST, { fetch, authProvider: rotating(['a', 'b']), headers: { 'mcp-protocol-version': '2025-11-25' } }));
    expect(error.code).toBe('http_status');
    expect(error.detail.status).toBe(401);
    expect(error.detail.challenge?.error).toBe('invalid_token');
    expect(error.message).toContain('to the GET that resumes the stream');
  });

  test('the DELETE retried once after onUnauthorized', async () => {
    const initialized = (): Response =>
      new Response(JSON.stringify({ jsonrpc: '2.0', id: 0, result: {} }), { headers: { 'content-type': 'application/json', 'mcp-session-id': 'session-1' } });
    const { fetch, sent } = scripted([initialized, refusal().response, () => new Response(null, { status: 204 })]);
    const transport = new AnswerTransport(URL_, { fetch, authProvider: rotating(['old', SECRET]) });
    const errors: Error[] = [];
    transport.onerror = (error) => errors.push(error);
    await transport.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: {} });
    await transport.close();
    expect(sent.map((one) => [one.method, one.authorization])).toEqual([
      ['POST', 'Bearer old'],
      ['DELETE', 'Bearer old'],
      ['DELETE', `Bearer ${SECRET}`],
    ]);
    expect(errors).toEqual([]);
  });
});

describe('a 403', () => {
  test('insufficient_scope: http_status with the challenge and the scope it needs; neither onUnauthorized nor a retry', async () => {
    const forbidden = refusal('Bearer error="insufficient_scope", scope="admin mcp", resource_metadata="https://mcp.example.com/prm"', 403);
    const { fetch, sent } = scripted([forbidden.response, answered]);
    const provider = rotating([SECRET]);
    const error = await answerError(postJsonRpc(URL_, REQUEST, { fetch, authProvider: provider }));
    expect(error.code).toBe('http_status');
    expect(error.detail.status).toBe(403);
    expect(error.detail.challenge).toMatchObject({ error: 'insufficient_scope', scope: 'admin mcp', resourceMetadata: 'https://mcp.example.com/prm' });
    expect(error.message).toContain('(Bearer error "insufficient_scope", scope "admin mcp")');
    expect(sent).toHaveLength(1);
    expect(provider.calls).toEqual([]);
  });
});

describe('a provider that fails', () => {
  test('token() that throws: stream_failed, nothing sent, its error the cause', async () => {
    const failure = new Error('no credentials');
    const { fetch, sent } = scripted([answered]);
    const error = await answerError(postJsonRpc(URL_, REQUEST, { fetch, authProvider: { token: () => Promise.reject(failure) } }));
    expect(error.code).toBe('stream_failed');
    expect(error.cause).toBe(failure);
    expect(error.message).toMatch(/the POST request was not sent: authProvider.token\(\) failed/);
    expect(error.detail.reissue).toBeUndefined();
    expect(sent).toEqual([]);
  });

  test('token() that throws synchronously is the same', async () => {
    const { fetch } = scripted([answered]);
    const authProvider = {
      token(): Promise<string> {
        throw new Error('sync');
      },
    };
    expect((await answerError(postJsonRpc(URL_, REQUEST, { fetch, authProvider }))).code).toBe('stream_failed');
  });

  test('token() that never settles: timeout', async () => {
    const { fetch, sent } = scripted([answered]);
    const error = await answerError(postJsonRpc(URL_, REQUEST, { fetch, authProvider: { token: () => new Promise(() => {}) }, timeoutMs: 50 }));
    expect(error.code).toBe('timeout');
    expect(sent).toEqual([]);
  });

  test('a token a header cannot carry: stream_failed that does not quote it; nothing sent', async () => {
    for (const bad of [`${SECRET}\r\nX-Injected: 1`, `${SECRET} with spaces`, `${SECRET}é`, 42]) {
      const { fetch, sent } = scripted([answered]);
      const error = await answerError(postJsonRpc(URL_, REQUEST, { fetch, authProvider: { token: async () => bad as string } }));
      expect(error.code).toBe('stream_failed');
      expect(error.message).toContain('authProvider.token() must resolve with a bearer token');
      expect(error.message).not.toContain(SECRET);
      expect(String(error.cause)).not.toContain(SECRET);
      expect(sent).toEqual([]);
    }
  });

  test('a fetch that fails does not bring the token into the error', async () => {
    const fetch: FetchFunction = async () => {
      throw new TypeError('fetch failed');
    };
    const error = await answerError(postJsonRpc(URL_, REQUEST, { fetch, authProvider: { token: async () => SECRET } }));
    expect(error.code).toBe('stream_failed');
    expect(JSON.stringify({ message: error.message, detail: error.detail })).not.toContain(SECRET);
  });

  test('an AnswerTransport send rejected by a 401 reports it once, to the send', async () => {
    const { fetch } = scripted([refusal().response]);
    const transport = new AnswerTransport(URL_, { fetch, authProvider: { token: async () => SECRET } });
    const errors: Error[] = [];
    transport.onerror = (error) => errors.push(error);
    const error = await rejection(transport.send(REQUEST));
    expect((error as { code?: unknown }).code).toBe('http_status');
    expect(errors).toEqual([]);
  });
});
