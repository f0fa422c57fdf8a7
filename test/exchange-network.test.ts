// The exchange under a hostile network: redirects (over real connections, where fetch's own
// manual mode is what answers), and a fetch that ignores its signal or throws. Nothing the caller
// gave may reach an origin it did not name, and one deadline bounds everything.
import { getEventListeners } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AnswerTransport, isAnswerError, postJsonRpc, type AnswerError, type FetchFunction } from '../src/index.js';
import { followersOf, listenersOn } from './helpers/signals.js';
import { rejection, sourceBody } from './helpers/bodies.js';

interface Seen {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

interface Site {
  readonly origin: string;
  readonly seen: Seen[];
  stop(): Promise<void>;
}

/** A server whose every request is answered by `route`; it records what reached it. */
async function site(route: (seen: Seen, res: ServerResponse) => void): Promise<Site> {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const request = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
      seen.push(request);
      route(request, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const REQUEST = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x' } };
const answer = (res: ServerResponse, id: unknown = 1): void => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id, result: { ok: true } }));
};

describe('redirects', () => {
  let other: Site;
  let home: Site;
  beforeAll(async () => {
    other = await site((_seen, res) => answer(res));
    home = await site((seen, res) => {
      const [path, status, to] = seen.path.slice(1).split('/');
      if (path === 'ok') return answer(res);
      if (path === 'loop') {
        res.writeHead(307, { location: '/loop' });
        return res.end();
      }
      if (path === 'stream') {
        // A 2025 stream that closes after its priming event; its resumption GET is redirected away.
        if (seen.method === 'POST') {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          return res.end('id: e1\nretry: 1\ndata:\n\n');
        }
        res.writeHead(307, { location: `${other.origin}/stolen` });
        return res.end();
      }
      const location = to === 'home' ? '/ok' : to === 'other' ? `${other.origin}/ok` : undefined;
      res.writeHead(Number(status), location === undefined ? {} : { location });
      res.end('moved');
    });
  });
  afterAll(async () => {
    await home.stop();
    await other.stop();
  });

  test.each([307, 308])('%i within the origin: followed, with the same method, body and headers', async (status) => {
    const from = home.seen.length;
    const result = await postJsonRpc(`${home.origin}/r/${status}/home`, REQUEST, { headers: { 'x-api-key': 'k' } });
    expect(result.answer).toMatchObject({ id: 1, result: { ok: true } });
    const seen = home.seen.slice(from);
    expect(seen.map((request) => [request.method, request.path])).toEqual([['POST', `/r/${status}/home`], ['POST', '/ok']]);
    expect(seen[1]!.body).toBe(JSON.stringify(REQUEST));
    expect(seen[1]!.headers['x-api-key']).toBe('k');
  });

  test.each([301, 302, 303, 307, 308])('%i to another origin: http_status with the Location, and nothing reaches it', async (status) => {
    const before = other.seen.length;
    const error = await rejection(postJsonRpc(`${home.origin}/r/${status}/other`, REQUEST, { headers: { 'x-api-key': 'k', 'mcp-session-id': 's' } }));
    expect(isAnswerError(error) && error.code).toBe('http_status');
    expect((error as AnswerError).detail).toMatchObject({ status, location: `${other.origin}/ok` });
    expect(other.seen.length).toBe(before);
  });

  test.each([301, 302, 303])('%i within the origin: refused, never turned into a GET', async (status) => {
    const from = home.seen.length;
    const error = await rejection(postJsonRpc(`${home.origin}/r/${status}/home`, REQUEST));
    expect(isAnswerError(error) && [error.code, error.detail.status, error.detail.location]).toEqual(['http_status', status, '/ok']);
    expect((error as Error).message).toMatch(/only 307 and 308 are followed/);
    expect(home.seen.slice(from).map((request) => request.method)).toEqual(['POST']);
  });

  test('a 3xx without a Location is http_status', async () => {
    const error = await rejection(postJsonRpc(`${home.origin}/r/307/none`, REQUEST));
    expect(isAnswerError(error) && [error.code, error.detail.status, error.detail.location]).toEqual(['http_status', 307, undefined]);
  });

  test("redirect: 'error' refuses even a 307 within the origin", async () => {
    const error = await rejection(postJsonRpc(`${home.origin}/r/307/home`, REQUEST, { redirect: 'error' }));
    expect(isAnswerError(error) && error.code).toBe('http_status');
    expect((error as Error).message).toMatch(/redirects are refused/);
  });

  test('a redirect loop ends after five redirects', async () => {
    const from = home.seen.length;
    const error = await rejection(postJsonRpc(`${home.origin}/loop`, REQUEST));
    expect(isAnswerError(error) && error.code).toBe('http_status');
    expect((error as Error).message).toMatch(/after 5 redirects/);
    expect(home.seen.length - from).toBe(6);
  });

  test('a resumption GET redirected to another origin: http_status, and Last-Event-ID never leaves', async () => {
    const before = other.seen.length;
    const error = await rejection(postJsonRpc(`${home.origin}/stream`, REQUEST, { headers: { 'mcp-session-id': 's' } }));
    expect(isAnswerError(error) && [error.code, error.detail.status]).toEqual(['http_status', 307]);
    expect(other.seen.length).toBe(before);
  });

  test('the DELETE of AnswerTransport.close() is not followed to another origin either: onerror gets http_status', async () => {
    const sessionSite = await site((seen, res) => {
      if (seen.method === 'DELETE') {
        res.writeHead(307, { location: `${other.origin}/delete` });
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'sess-1' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25' } }));
    });
    try {
      const transport = new AnswerTransport(`${sessionSite.origin}/mcp`);
      const errors: Error[] = [];
      transport.onerror = (error) => errors.push(error);
      await transport.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: {} });
      const before = other.seen.length;
      await transport.close();
      expect(errors.map((error) => isAnswerError(error) && [error.code, error.detail.status])).toEqual([['http_status', 307]]);
      expect(other.seen.length).toBe(before);
    } finally {
      await sessionSite.stop();
    }
  });

  test('a bad redirect option is a TypeError', async () => {
    await expect(postJsonRpc(`${home.origin}/ok`, REQUEST, { redirect: 'follow' as never })).rejects.toThrow(TypeError);
    expect(() => new AnswerTransport(`${home.origin}/ok`, { redirect: 'manual' as never })).toThrow(TypeError);
  });
});

describe('one deadline, whatever fetch does', () => {
  test('a fetch that ignores its signal and never settles ends at the deadline as timeout', async () => {
    const fetch: FetchFunction = () => new Promise<Response>(() => {});
    const started = Date.now();
    const error = await rejection(postJsonRpc('http://x.test/mcp', REQUEST, { fetch, timeoutMs: 50 }));
    expect(isAnswerError(error) && error.code).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  test('a Response that arrives after the deadline is released when it arrives', async () => {
    const source = sourceBody(['{}'], { endless: true });
    let deliver!: (response: Response) => void;
    const fetch: FetchFunction = () => new Promise<Response>((resolve) => (deliver = resolve));
    const error = await rejection(postJsonRpc('http://x.test/mcp', REQUEST, { fetch, timeoutMs: 20 }));
    expect(isAnswerError(error) && error.code).toBe('timeout');
    deliver(new Response(source.body, { headers: { 'content-type': 'application/json' } }));
    expect(await source.released).toBe('cancelled');
  });

  test('a fetch that throws instead of rejecting is stream_failed with its error as the cause', async () => {
    const thrown = new TypeError('bad init');
    const fetch: FetchFunction = () => {
      throw thrown;
    };
    const error = await rejection(postJsonRpc('http://x.test/mcp', REQUEST, { fetch }));
    expect(isAnswerError(error) && error.code).toBe('stream_failed');
    expect((error as AnswerError).cause).toBe(thrown);
  });

  test.each([
    ['null', null],
    ['a string', '{"jsonrpc":"2.0","id":1,"result":{}}'],
    ['an object without status or headers', {}],
  ])('a fetch that resolves with %s, not a Response, is stream_failed with a TypeError naming it', async (_what, value) => {
    const fetch = (async () => value) as unknown as FetchFunction;
    const error = await rejection(postJsonRpc('http://x.test/mcp', REQUEST, { fetch }));
    expect(isAnswerError(error) && error.code).toBe('stream_failed');
    expect((error as AnswerError).cause).toBeInstanceOf(TypeError);
    expect(((error as AnswerError).cause as Error).message).toMatch(/must be a Response/);
  });

  test('a fetch that returns a Response itself, not a promise of one, is awaited as await would', async () => {
    const fetch = (() => new Response(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { ok: true } }), { headers: { 'content-type': 'application/json' } })) as unknown as FetchFunction;
    expect((await postJsonRpc('http://x.test/mcp', REQUEST, { fetch })).answer).toMatchObject({ result: { ok: true } });
  });

  test('a fetch that returns a thenable whose then throws is stream_failed, and leaves no listener on the signal it was given', async () => {
    let given: AbortSignal | undefined;
    const thrown = new Error('then threw');
    const fetch = ((_url: string | URL, init: RequestInit) => {
      given = init.signal ?? undefined;
      return {
        then() {
          throw thrown;
        },
      };
    }) as unknown as FetchFunction;
    const error = await rejection(postJsonRpc('http://x.test/mcp', REQUEST, { fetch }));
    expect(isAnswerError(error) && [error.code, error.cause]).toEqual(['stream_failed', thrown]);
    expect(getEventListeners(given!, 'abort')).toHaveLength(0);
  });

  test('the DELETE is bounded by its deadline too', async () => {
    const fetch: FetchFunction = async (_url, init) => {
      if (init.method === 'DELETE') return new Promise<Response>(() => {});
      return new Response(JSON.stringify({ jsonrpc: '2.0', id: 0, result: {} }), { headers: { 'content-type': 'application/json', 'mcp-session-id': 's' } });
    };
    const transport = new AnswerTransport('http://x.test/mcp', { fetch, timeoutMs: 50 });
    const errors: Error[] = [];
    transport.onerror = (error) => errors.push(error);
    await transport.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: {} });
    await transport.close();
    expect(errors.map((error) => isAnswerError(error) && error.code)).toEqual(['timeout']);
  });
});

describe('every HTTP status has one meaning (the reliability guide\'s table)', () => {
  const json = 'application/json';
  const ANSWER_BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { ok: true } });
  const ERROR_BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'no' } });
  const responder = (status: number, contentType: string | null, body: string | null): FetchFunction => async () =>
    new Response(body, { status, headers: contentType === null ? {} : { 'content-type': contentType } });

  test('1xx: a Response cannot carry one, so an exchange never sees it', () => {
    expect(() => new Response(null, { status: 101 })).toThrow(RangeError);
  });

  test.each([200, 201, 203, 206, 299])('%i with a body: the answer', async (status) => {
    expect((await postJsonRpc('http://x.test/', REQUEST, { fetch: responder(status, json, ANSWER_BODY) })).answer).toMatchObject({ result: { ok: true } });
  });

  test.each([
    [202, json, ANSWER_BODY],
    [204, null, null],
    [205, null, null],
    [200, null, null],
  ])('%i, %s, no answer expected or no body at all: malformed_answer no_message, the body unread', async (status, contentType, body) => {
    const error = await rejection(postJsonRpc('http://x.test/', REQUEST, { fetch: responder(status, contentType, body) }));
    expect(isAnswerError(error) && [error.code, error.reason]).toEqual(['malformed_answer', 'no_message']);
  });

  test.each([
    [json, 'malformed_answer'],
    ['text/event-stream', 'malformed_answer'],
  ])('200 with an empty %s body: %s no_message', async (contentType, code) => {
    const error = await rejection(postJsonRpc('http://x.test/', REQUEST, { fetch: responder(200, contentType, '') }));
    expect(isAnswerError(error) && [error.code, error.reason]).toEqual([code, 'no_message']);
  });

  test('200 with an empty body and no content type: unsupported_content_type', async () => {
    const fetch: FetchFunction = async () => {
      const response = new Response('', { status: 200 });
      response.headers.delete('content-type');
      return response;
    };
    const error = await rejection(postJsonRpc('http://x.test/', REQUEST, { fetch }));
    expect(isAnswerError(error) && error.code).toBe('unsupported_content_type');
  });

  test.each([300, 301, 302, 303, 304, 305, 306, 307, 308, 399])('%i without a Location: http_status', async (status) => {
    const error = await rejection(postJsonRpc('http://x.test/', REQUEST, { fetch: responder(status, null, null) }));
    expect(isAnswerError(error) && [error.code, error.detail.status]).toEqual(['http_status', status]);
  });

  test.each([400, 401, 403, 404, 405, 406, 409, 429, 500, 502, 503, 599])('%i: http_status, the JSON-RPC error in detail.answer', async (status) => {
    const error = await rejection(postJsonRpc('http://x.test/', REQUEST, { fetch: responder(status, json, ERROR_BODY) }));
    expect(isAnswerError(error) && [error.code, error.detail.status, error.detail.answer]).toEqual(['http_status', status, JSON.parse(ERROR_BODY)]);
  });

  test.each([400, 404, 500])('%i without a JSON-RPC body: http_status without an answer', async (status) => {
    const error = await rejection(postJsonRpc('http://x.test/', REQUEST, { fetch: responder(status, 'text/html', '<h1>no</h1>') }));
    expect(isAnswerError(error) && [error.code, error.detail.status, error.detail.answer]).toEqual(['http_status', status, undefined]);
  });

  test.each([200, 202, 204])('a notification: %i is accepted, nothing read', async (status) => {
    const result = await postJsonRpc('http://x.test/', { jsonrpc: '2.0', method: 'notifications/x' }, { fetch: responder(status, json, status === 204 ? null : ANSWER_BODY) });
    expect([result.answer, result.status]).toEqual([undefined, status]);
  });

  test('a notification refused with 400: http_status', async () => {
    const error = await rejection(postJsonRpc('http://x.test/', { jsonrpc: '2.0', method: 'notifications/x' }, { fetch: responder(400, json, ERROR_BODY) }));
    expect(isAnswerError(error) && [error.code, error.detail.status]).toEqual(['http_status', 400]);
  });
});

describe('signals: watched as readAnswer watches them', () => {
  const answering: FetchFunction = async () => new Response(JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} }), { headers: { 'content-type': 'application/json' } });

  test('forty concurrent exchanges on one signal follow it once, add no listener to it, and warn nothing', async () => {
    const signal = new AbortController().signal;
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning);
    process.on('warning', onWarning);
    try {
      await Promise.all(Array.from({ length: 40 }, () => postJsonRpc('http://x.test/', REQUEST, { fetch: answering, signal })));
    } finally {
      await new Promise((resolve) => setTimeout(resolve, 10));
      process.off('warning', onWarning);
    }
    expect([listenersOn(signal), followersOf(signal)]).toStrictEqual([0, 1]);
    expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
  });

  test("a signal whose own methods were replaced still ends the exchange when it aborts", async () => {
    const controller = new AbortController();
    const signal = controller.signal;
    Object.assign(signal, { addEventListener: () => undefined, removeEventListener: () => undefined });
    const fetch: FetchFunction = () => new Promise<Response>(() => {});
    const pending = rejection(postJsonRpc('http://x.test/', REQUEST, { fetch, signal, timeoutMs: Infinity }));
    controller.abort(new Error('stop'));
    const error = await pending;
    expect(isAnswerError(error) && error.code).toBe('aborted');
  });
});
