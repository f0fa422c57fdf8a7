// AnswerTransport's per-request members, the ones the v2 SDK Client uses: each request its own
// exchange (requestSignal, onRequestStreamEnd, per-send headers), the era each message declares,
// and what it refuses. Against scripted responses, where every request and listener is countable.
import { describe, expect, test } from 'vitest';
import { AnswerTransport, isAnswerError, type FetchFunction, type TransportMessage } from '../src/index.js';
import { jsonResponse, rejection, sseEvent, sseResponse, type SourceBody } from './helpers/bodies.js';
import { followersOf, listenersOn } from './helpers/signals.js';

interface Sent {
  readonly method: string;
  readonly headers: Headers;
  readonly body: unknown;
  readonly signal: AbortSignal | undefined;
}

/** A fetch that answers each request with `respond(sent)`, recording it. */
function recording(respond: (sent: Sent) => Response): { fetch: FetchFunction; sent: Sent[] } {
  const sent: Sent[] = [];
  const fetch: FetchFunction = async (_input, init) => {
    const request: Sent = {
      method: init.method ?? 'GET',
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      signal: init.signal ?? undefined,
    };
    sent.push(request);
    return respond(request);
  };
  return { fetch, sent };
}

const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };
const call = (id: number, name: string): object => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {}, _meta: MODERN_META } });
const answerTo = (sent: Sent): Response =>
  jsonResponse([JSON.stringify({ jsonrpc: '2.0', id: (sent.body as { id: number }).id, result: { ok: true } })]).response;

test('hasPerRequestStream is true, so the v2 Client cancels a 2026 request by aborting its requestSignal', () => {
  expect(new AnswerTransport('http://x.test/mcp').hasPerRequestStream).toBe(true);
});

describe('requestSignal', () => {
  test('its abort ends that exchange alone: its stream is released, a concurrent send is answered', async () => {
    const sources: SourceBody[] = [];
    const { fetch } = recording((sent) => {
      if ((sent.body as { params: { name: string } }).params.name === 'slow') {
        const made = sseResponse([sseEvent({ jsonrpc: '2.0', method: 'notifications/progress', params: {} })], { endless: true });
        sources.push(made.source);
        return made.response;
      }
      return answerTo(sent);
    });
    const transport = new AnswerTransport('http://x.test/mcp', { fetch });
    const received: TransportMessage[] = [];
    const controller = new AbortController();
    transport.onmessage = (message) => {
      received.push(message);
      if (message.method === 'notifications/progress') controller.abort(new Error('user cancelled'));
    };
    const slow = rejection(transport.send(call(1, 'slow'), { requestSignal: controller.signal }));
    await transport.send(call(2, 'fast'));
    const error = await slow;
    expect(isAnswerError(error) && error.code).toBe('aborted');
    expect(await sources[0]!.released).toBe('cancelled');
    expect(received.map((message) => message.method ?? message.id)).toEqual(['notifications/progress', 2]);
    await transport.close();
  });

  test('already aborted: nothing is fetched', async () => {
    const { fetch, sent } = recording(answerTo);
    const transport = new AnswerTransport('http://x.test/mcp', { fetch });
    const error = await rejection(transport.send(call(1, 'x'), { requestSignal: AbortSignal.abort(new Error('no')) }));
    expect(isAnswerError(error) && error.code).toBe('aborted');
    expect(sent).toHaveLength(0);
  });

  test('many concurrent sends on one requestSignal follow it once, and leave no listener on it', async () => {
    const { fetch } = recording(answerTo);
    const transport = new AnswerTransport('http://x.test/mcp', { fetch });
    const signal = new AbortController().signal;
    await Promise.all(Array.from({ length: 20 }, (_, i) => transport.send(call(i, 'x'), { requestSignal: signal })));
    await Promise.all(Array.from({ length: 5 }, (_, i) => transport.send(call(i, 'x'), { requestSignal: signal })));
    expect([listenersOn(signal), followersOf(signal)]).toStrictEqual([0, 1]);
  });
});

describe('onRequestStreamEnd', () => {
  test('called when the stream ends without the answer', async () => {
    const { fetch } = recording(() => sseResponse([sseEvent({ jsonrpc: '2.0', method: 'notifications/progress', params: {} })]).response);
    const transport = new AnswerTransport('http://x.test/mcp', { fetch });
    let ended = 0;
    const error = await rejection(transport.send(call(1, 'x'), { onRequestStreamEnd: () => (ended += 1) }));
    expect(isAnswerError(error) && [error.code, error.detail.reissue]).toEqual(['stream_failed', true]);
    expect(ended).toBe(1);
  });

  test('not called when requestSignal ended the exchange, nor when it was answered', async () => {
    const { fetch } = recording((sent) => ((sent.body as { id: number }).id === 1 ? sseResponse([], { endless: true }).response : answerTo(sent)));
    const transport = new AnswerTransport('http://x.test/mcp', { fetch });
    let ended = 0;
    const controller = new AbortController();
    const pending = rejection(transport.send(call(1, 'x'), { requestSignal: controller.signal, onRequestStreamEnd: () => (ended += 1) }));
    await transport.send(call(2, 'x'), { onRequestStreamEnd: () => (ended += 1) });
    controller.abort();
    expect(isAnswerError(await pending)).toBe(true);
    expect(ended).toBe(0);
  });

  test('one that is not a function is a TypeError before anything is sent', async () => {
    const { fetch, sent } = recording(answerTo);
    const transport = new AnswerTransport('http://x.test/mcp', { fetch });
    await expect(transport.send(call(1, 'x'), { onRequestStreamEnd: 'x' as never })).rejects.toThrow(new TypeError('onRequestStreamEnd must be a function, got "x"'));
    expect(sent).toEqual([]);
  });
});

test.each([
  ['an object with no prototype', () => Object.create(null) as unknown, '[object Object]'],
  ['an object whose toString throws', () => ({ toString: () => { throw new Error('no string'); } }), '[object Object]'],
  ['a symbol', () => Symbol('s'), 'Symbol(s)'],
] as const)("what onmessage throws goes to onerror as an Error, whatever it is (%s), and the send resolves", async (_, make, text) => {
  const { fetch } = recording(answerTo);
  const transport = new AnswerTransport('http://x.test/mcp', { fetch });
  const thrown = make();
  const reported: Error[] = [];
  transport.onmessage = () => {
    throw thrown;
  };
  transport.onerror = (error) => reported.push(error);
  await transport.send(call(1, 'x'));
  expect(reported.map((error) => [error instanceof Error, error.message, error.cause === thrown])).toEqual([[true, text, true]]);
});

test("per-send headers go on that POST alone, over the transport's own", async () => {
  const { fetch, sent } = recording(answerTo);
  const transport = new AnswerTransport('http://x.test/mcp', { fetch, headers: { 'x-team': 'a', 'mcp-param-region': 'old' } });
  await transport.send(call(1, 'execute_sql'), { headers: { 'Mcp-Param-Region': 'us-west1' } });
  await transport.send(call(2, 'execute_sql'));
  expect(sent.map((request) => request.headers.get('mcp-param-region'))).toEqual(['us-west1', 'old']);
  expect(sent[0]!.headers.get('x-team')).toBe('a');
});

describe('the era each message declares', () => {
  test('2026-07-28: the request metadata headers, no session id, even after an initialize that set one', async () => {
    const { fetch, sent } = recording((request) => {
      const response = answerTo(request);
      if ((request.body as { method: string }).method === 'initialize') response.headers.set('mcp-session-id', 's1');
      return response;
    });
    const transport = new AnswerTransport('http://x.test/mcp', { fetch });
    await transport.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: {} });
    expect(transport.sessionId).toBe('s1');
    await transport.send(call(1, 'get_weather'));
    const headers = sent[1]!.headers;
    expect([headers.get('mcp-protocol-version'), headers.get('mcp-method'), headers.get('mcp-name'), headers.get('mcp-session-id')]).toEqual([
      '2026-07-28',
      'tools/call',
      'get_weather',
      null,
    ]);
  });

  test('after setProtocolVersion("2026-07-28") a message without _meta is sent in that era too', async () => {
    const { fetch, sent } = recording(answerTo);
    const transport = new AnswerTransport('http://x.test/mcp', { fetch });
    transport.setProtocolVersion('2026-07-28');
    transport.setSupportedProtocolVersions(['2026-07-28', '2025-11-25']);
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect([sent[0]!.headers.get('mcp-protocol-version'), sent[0]!.headers.get('mcp-method')]).toEqual(['2026-07-28', 'tools/list']);
  });

  test('2025-11-25: the session id and the version, no derived headers', async () => {
    const { fetch, sent } = recording(answerTo);
    const transport = new AnswerTransport('http://x.test/mcp', { fetch });
    transport.sessionId = 's1';
    transport.setProtocolVersion('2025-11-25');
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect([sent[0]!.headers.get('mcp-session-id'), sent[0]!.headers.get('mcp-method')]).toEqual(['s1', null]);
  });
});

describe('a 404 clears the session only when the request carried it', () => {
  /** A transport holding the 2025 session `s1`, whose server answers 404 to what `notFound` picks. */
  async function sessionTransport(notFound: (sent: Sent) => boolean): Promise<{ transport: AnswerTransport; sent: Sent[] }> {
    const { fetch, sent } = recording((request) => {
      if (request.method === 'DELETE') return new Response(null, { status: 200 });
      if (notFound(request)) return jsonResponse(['{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"Method not found"}}'], { status: 404 }).response;
      const response = answerTo(request);
      if ((request.body as { method: string }).method === 'initialize') response.headers.set('mcp-session-id', 's1');
      return response;
    });
    const transport = new AnswerTransport('http://x.test/mcp', { fetch });
    await transport.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: {} });
    transport.setProtocolVersion('2025-11-25');
    return { transport, sent };
  }

  test('a 2026-07-28 request (no session on it) answered 404 leaves the 2025 session: later requests carry it, close() ends it', async () => {
    const { transport, sent } = await sessionTransport((request) => request.headers.get('mcp-protocol-version') === '2026-07-28');
    const error = await rejection(transport.send(call(1, 'x')));
    expect(isAnswerError(error) && [error.code, error.detail.status]).toEqual(['http_status', 404]);
    expect(sent[1]!.headers.get('mcp-session-id')).toBeNull();
    expect(transport.sessionId).toBe('s1');
    await transport.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(sent[2]!.headers.get('mcp-session-id')).toBe('s1');
    await transport.close();
    expect([sent[3]!.method, sent[3]!.headers.get('mcp-session-id')]).toEqual(['DELETE', 's1']);
  });

  test('a 2025 request that carried the session answered 404: the session is gone, close() sends no DELETE', async () => {
    const { transport, sent } = await sessionTransport((request) => (request.body as { method?: string } | undefined)?.method === 'tools/list');
    const error = await rejection(transport.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    expect(isAnswerError(error) && [error.code, error.detail.status]).toEqual(['http_status', 404]);
    expect(sent[1]!.headers.get('mcp-session-id')).toBe('s1');
    expect(transport.sessionId).toBeUndefined();
    await transport.close();
    expect(sent.map((request) => request.method)).toEqual(['POST', 'POST']);
  });
});

describe("the AI SDK's send and close options", () => {
  test("a send's signal ends that exchange as requestSignal does; the transport stays open", async () => {
    const sources: SourceBody[] = [];
    const { fetch } = recording((request) => {
      if ((request.body as { id: number }).id === 2) return answerTo(request);
      const made = sseResponse([], { endless: true });
      sources.push(made.source);
      return made.response;
    });
    const transport = new AnswerTransport('http://x.test/mcp', { fetch });
    const controller = new AbortController();
    const pending = rejection(transport.send(call(1, 'slow'), { signal: controller.signal }));
    await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort(new Error('timed out by the client'));
    const error = await pending;
    expect(isAnswerError(error) && [error.code, (error.cause as Error).message]).toEqual(['aborted', 'timed out by the client']);
    expect(await sources[0]!.released).toBe('cancelled');
    let answered: TransportMessage | undefined;
    transport.onmessage = (message) => (answered = message);
    await transport.send(call(2, 'x'));
    expect(answered?.id).toBe(2);
  });

  test("close({ signal }) ends a DELETE that hangs when the signal aborts; onclose is still called, the failure goes to onerror", async () => {
    const { fetch, sent } = recording((request) => {
      if (request.method !== 'DELETE') {
        const response = answerTo(request);
        response.headers.set('mcp-session-id', 's1');
        return response;
      }
      return new Response(new ReadableStream({ start: () => undefined }), { status: 200 });
    });
    const heldFetch: FetchFunction = (input, init) =>
      init.method === 'DELETE' ? new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason))) : fetch(input, init);
    const transport = new AnswerTransport('http://x.test/mcp', { fetch: heldFetch });
    await transport.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: {} });
    const errors: Error[] = [];
    let closed = 0;
    transport.onerror = (error) => errors.push(error);
    transport.onclose = () => (closed += 1);
    await transport.close({ signal: AbortSignal.timeout(20) });
    expect(closed).toBe(1);
    expect(errors.map((error) => isAnswerError(error) && error.code)).toEqual(['timeout']);
    expect(sent).toHaveLength(1);
  });

  test('a signal that is not an AbortSignal is a TypeError naming it, before anything is sent', async () => {
    const { fetch, sent } = recording(answerTo);
    const transport = new AnswerTransport('http://x.test/mcp', { fetch });
    await expect(transport.send(call(1, 'x'), { signal: {} as AbortSignal })).rejects.toThrow(/signal/);
    await expect(transport.send(call(1, 'x'), { requestSignal: 'x' as unknown as AbortSignal })).rejects.toThrow(/requestSignal/);
    expect(() => new AnswerTransport('http://x.test/mcp', { signal: {} as AbortSignal })).toThrow(TypeError);
    expect(sent).toHaveLength(0);
  });
});

test('subscriptions/listen is refused at once, unsent: unsupported_request', async () => {
  const { fetch, sent } = recording(answerTo);
  const transport = new AnswerTransport('http://x.test/mcp', { fetch });
  const error = await rejection(transport.send({ jsonrpc: '2.0', id: 1, method: 'subscriptions/listen', params: { _meta: MODERN_META } }));
  expect(isAnswerError(error) && error.code).toBe('unsupported_request');
  expect((error as Error).message).toMatch(/standing stream/);
  expect(sent).toHaveLength(0);
});

test('close() aborts every send in flight, and a later send is refused', async () => {
  const sources: SourceBody[] = [];
  const { fetch } = recording(() => {
    const made = sseResponse([], { endless: true });
    sources.push(made.source);
    return made.response;
  });
  const transport = new AnswerTransport('http://x.test/mcp', { fetch });
  const pending = [1, 2, 3].map((id) => rejection(transport.send(call(id, 'x'))));
  await new Promise((resolve) => setTimeout(resolve, 10));
  await transport.close();
  for (const error of await Promise.all(pending)) expect(isAnswerError(error) && error.code).toBe('aborted');
  expect(await Promise.all(sources.map((source) => source.released))).toEqual(['cancelled', 'cancelled', 'cancelled']);
  await expect(transport.send(call(4, 'x'))).rejects.toThrow(/closed/);
});

describe('a 400 with a JSON-RPC error response is the answer (the v2 Client reads its code)', () => {
  const refusal = (id: unknown, status = 400): Response =>
    new Response(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32000, message: 'Bad Request: Server not initialized' } }), {
      status,
      headers: { 'content-type': 'application/json' },
    });

  test('with the request id: delivered as it is, the send resolves', async () => {
    const { fetch } = recording(() => refusal('probe-1'));
    const transport = new AnswerTransport('http://x.test/mcp', { fetch });
    const received: TransportMessage[] = [];
    transport.onmessage = (message) => received.push(message);
    await transport.send({ jsonrpc: '2.0', id: 'probe-1', method: 'server/discover', params: { _meta: MODERN_META } });
    expect(received).toEqual([{ jsonrpc: '2.0', id: 'probe-1', error: { code: -32000, message: 'Bad Request: Server not initialized' } }]);
  });

  test('with id null: given the id of the request the POST carried', async () => {
    const { fetch } = recording(() => refusal(null));
    const transport = new AnswerTransport('http://x.test/mcp', { fetch });
    const received: TransportMessage[] = [];
    transport.onmessage = (message) => received.push(message);
    await transport.send({ jsonrpc: '2.0', id: 7, method: 'server/discover', params: { _meta: MODERN_META } });
    expect(received.map((message) => [message.id, (message.error as { code: number }).code])).toEqual([[7, -32000]]);
  });

  test('another status with the same body, or a 400 without a JSON-RPC body, rejects with http_status', async () => {
    for (const response of [() => refusal(7, 404), () => new Response('no', { status: 400, headers: { 'content-type': 'text/plain' } })]) {
      const { fetch } = recording(response);
      const transport = new AnswerTransport('http://x.test/mcp', { fetch });
      const received: TransportMessage[] = [];
      transport.onmessage = (message) => received.push(message);
      const error = await rejection(transport.send({ jsonrpc: '2.0', id: 7, method: 'tools/list' }));
      expect(isAnswerError(error) && error.code).toBe('http_status');
      expect(received).toEqual([]);
    }
  });
});

describe('server/discover refused with a 4xx or 5xx but 401: said in-band, so the client falls back to initialize', () => {
  const probe = { jsonrpc: '2.0', id: 3, method: 'server/discover', params: { _meta: MODERN_META } };

  test.each([403, 404, 405, 406, 407, 415, 422, 429, 500, 502, 503, 504])('HTTP %i without a JSON-RPC error: a -32601 error for the probe, its status in data; the send resolves', async (status) => {
    const { fetch } = recording(() => new Response('no', { status, headers: { 'content-type': 'text/plain' } }));
    const transport = new AnswerTransport('http://x.test/mcp', { fetch });
    const received: TransportMessage[] = [];
    transport.onmessage = (message) => received.push(message);
    await transport.send(probe);
    expect(received).toEqual([
      { jsonrpc: '2.0', id: 3, error: { code: -32601, message: `server/discover was refused with HTTP ${status} and no JSON-RPC error`, data: { httpStatus: status } } },
    ]);
  });

  test.each([404, 403, 503])('HTTP %i that carries a JSON-RPC error: that error, as the server sent it', async (status) => {
    const body = { jsonrpc: '2.0', id: 3, error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'] } } };
    const { fetch } = recording(() => jsonResponse([JSON.stringify(body)], { status }).response);
    const transport = new AnswerTransport('http://x.test/mcp', { fetch });
    const received: TransportMessage[] = [];
    transport.onmessage = (message) => received.push(message);
    await transport.send(probe);
    expect(received).toEqual([body]);
  });

  test('401, a redirect not followed, or any other request than the probe: the send rejects with http_status, nothing delivered', async () => {
    const cases = [
      [401, probe, {}],
      [307, probe, { location: 'https://elsewhere.test/mcp' }],
      [404, { jsonrpc: '2.0', id: 4, method: 'tools/list' }, {}],
      [503, { jsonrpc: '2.0', id: 4, method: 'tools/list' }, {}],
    ] as const;
    for (const [status, message, headers] of cases) {
      const { fetch } = recording(() => new Response('no', { status, headers: { 'content-type': 'text/plain', ...headers } }));
      const transport = new AnswerTransport('http://x.test/mcp', { fetch });
      const received: TransportMessage[] = [];
      transport.onmessage = (delivered) => received.push(delivered);
      const error = await rejection(transport.send(message));
      expect(isAnswerError(error) && [error.code, error.detail.status]).toEqual(['http_status', status]);
      expect(received).toEqual([]);
    }
  });

  test("a 401 to the probe goes through the authProvider first: answered after its retry, or rejected when the retry's 401 remains", async () => {
    for (const [retry, outcome] of [
      [200, 'answered'],
      [401, 'rejected'],
      [403, 'in-band'],
    ] as const) {
      const { fetch, sent } = recording((request) => {
        if (sent.length === 1) return new Response('who?', { status: 401, headers: { 'www-authenticate': 'Bearer error="invalid_token"' } });
        return retry === 200 ? answerTo(request) : new Response('no', { status: retry, headers: { 'www-authenticate': 'Bearer error="invalid_token"' } });
      });
      let unauthorized = 0;
      const transport = new AnswerTransport('http://x.test/mcp', {
        fetch,
        authProvider: { token: async () => `token-${unauthorized}`, onUnauthorized: async () => void (unauthorized += 1) },
      });
      const received: TransportMessage[] = [];
      transport.onmessage = (message) => received.push(message);
      const error = await transport.send(probe).then(() => undefined, (thrown: unknown) => thrown);
      expect([unauthorized, sent.map((request) => request.headers.get('authorization'))]).toEqual([1, ['Bearer token-0', 'Bearer token-1']]);
      if (outcome === 'answered') expect([error, received]).toEqual([undefined, [{ jsonrpc: '2.0', id: 3, result: { ok: true } }]]);
      if (outcome === 'in-band') expect([error, received.map((message) => (message.error as { data: unknown }).data)]).toEqual([undefined, [{ httpStatus: 403 }]]);
      if (outcome === 'rejected') {
        expect(isAnswerError(error) && [error.code, error.detail.status, error.detail.challenge?.error]).toEqual(['http_status', 401, 'invalid_token']);
        expect(received).toEqual([]);
      }
    }
  });
});
