/**
 * fetch-failure.ts: what a rejected `fetch` says, by the words and codes each runtime uses —
 * Node's (undici's cause), Bun's (the error's own code), Deno's (words only) — and a browser's
 * bare TypeError, which from a page of another origin names CORS. Real rejections from Node's
 * fetch are in failure-cases.test.ts; here each shape is built as the runtime builds it.
 */

import { afterEach, describe, expect, test, vi } from 'vitest';
import { fetchRejected, hostAndPort } from '../../src/client/fetch-failure.js';
import { nothingRead, written } from '../../src/vocabulary/failure.js';

const DETAIL = nothingRead(1000);
const URL_ = 'http://127.0.0.1:4599/mcp';
const HEADERS = new Headers({ accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-method': 'tools/list' });

const withCode = (message: string, code: string): Error => Object.assign(new Error(message), { code });
const undici = (cause: Error): TypeError => new TypeError('fetch failed', { cause });
const said = (error: unknown, url: string | URL = URL_, method = 'POST') => {
  const { failure, unsent } = fetchRejected(error, url, method, HEADERS, DETAIL);
  return { code: failure.code, message: written(failure.message), unsent, cause: failure.cause };
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('could not connect: connect_failed, the host and port, the cause kept', () => {
  test.each([
    ['Node, refused', undici(withCode('connect ECONNREFUSED 127.0.0.1:4599', 'ECONNREFUSED')), 'the connection was refused (ECONNREFUSED); is the server running?'],
    ['Node, no such host', undici(withCode('getaddrinfo ENOTFOUND nowhere.invalid', 'ENOTFOUND')), 'no such host (ENOTFOUND); is the host name right?'],
    ['Node, lookup failed', undici(withCode('getaddrinfo EAI_AGAIN nowhere', 'EAI_AGAIN')), 'the host name could not be looked up (EAI_AGAIN); is the resolver reachable?'],
    ['Node, unreachable', undici(withCode('connect EHOSTUNREACH', 'EHOSTUNREACH')), 'the host cannot be reached (EHOSTUNREACH); is the network up, and the address right?'],
    ['undici, connect timeout', undici(withCode('Connect Timeout Error', 'UND_ERR_CONNECT_TIMEOUT')), 'the connection timed out (UND_ERR_CONNECT_TIMEOUT); is the server running, and reachable from here?'],
    ['Node, bad port', undici(new Error('bad port')), 'fetch refuses to connect to this port ("bad port"); serve it on another port'],
    ['Node, TLS by code', undici(withCode('self-signed certificate', 'DEPTH_ZERO_SELF_SIGNED_CERT')), 'the TLS handshake failed (DEPTH_ZERO_SELF_SIGNED_CERT); does the server speak https on this port, with a certificate this client trusts?'],
    [
      'Node, TLS to a plain port',
      undici(withCode('Client network socket disconnected before secure TLS connection was established', 'ECONNRESET')),
      'the TLS handshake failed (ECONNRESET); does the server speak https on this port, with a certificate this client trusts?',
    ],
    ['Bun, refused', Object.assign(new TypeError('ECONNREFUSED: Unable to connect.'), { code: 'ECONNREFUSED' }), 'the connection was refused (ECONNREFUSED); is the server running?'],
    ['Deno, refused', undici(new Error('client error (Connect): tcp connect error: Connection refused (os error 111)')), 'the connection was refused; is the server running?'],
    ['Deno, dns', undici(new Error('client error (Connect): dns error: failed to lookup address information')), 'no such host; is the host name right?'],
    ['Deno, a blocked port', new TypeError('Fetch failed: Requests to port 9 are blocked'), 'fetch refuses to connect to this port ("bad port"); serve it on another port'],
  ])('%s', (_, error, why) => {
    expect(said(error)).toEqual({ code: 'connect_failed', message: `could not connect to 127.0.0.1:4599: ${why}`, unsent: true, cause: error });
  });

  test('the port is named when the URL leaves it to the scheme', () => {
    expect([hostAndPort('http://example.test/mcp'), hostAndPort('https://example.test/mcp'), hostAndPort(new URL('https://[::1]:8443/'))]).toEqual([
      'example.test:80',
      'example.test:443',
      '[::1]:8443',
    ]);
  });
});

describe('broke before any response: stream_failed, not unsent, what fetch said kept in the message', () => {
  test.each([
    ['undici, other side closed', undici(Object.assign(new Error('other side closed'), { name: 'SocketError', code: 'UND_ERR_SOCKET' })), ' (SocketError: other side closed)'],
    ['Node, reset', undici(withCode('read ECONNRESET', 'ECONNRESET')), ' (Error: read ECONNRESET)'],
    ['not HTTP', undici(Object.assign(new Error('Response does not match the HTTP/1.1 protocol'), { name: 'HTTPParserError', code: 'HPE_INVALID_CONSTANT' })), ' (HTTPParserError: Response does not match the HTTP/1.1 protocol)'],
  ])('%s', (_, error, cause) => {
    expect(said(error)).toEqual({
      code: 'stream_failed',
      message: `the connection to 127.0.0.1:4599 broke before the server responded to the POST: TypeError: fetch failed${cause}`,
      unsent: false,
      cause: error,
    });
  });
});

describe('nothing to tell which', () => {
  test('outside a page: stream_failed, the POST got no response', () => {
    const error = new Error('Network connection lost.');
    expect(said(error)).toEqual({ code: 'stream_failed', message: 'the POST request got no response: Error: Network connection lost.', unsent: false, cause: error });
  });

  test('a rejection whose getters throw still says something, and nothing throws', () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
        getPrototypeOf() {
          throw new Error('trap');
        },
      },
    );
    const result = said(hostile);
    expect(result.code).toBe('stream_failed');
    expect(result.message.startsWith('the POST request got no response: ')).toBe(true);
  });

  test('workerd (a WorkerGlobalScope with no location) is no page', () => {
    vi.stubGlobal('WorkerGlobalScope', function WorkerGlobalScope() {});
    expect(said(new Error('Network connection lost.')).code).toBe('stream_failed');
  });
});

describe('in a browser, which gives no reason', () => {
  const browserError = new TypeError('Failed to fetch');

  test('a page of another origin: connect_failed, CORS named with the headers this request needs allowed', () => {
    vi.stubGlobal('document', {});
    vi.stubGlobal('location', { origin: 'http://127.0.0.1:5173' });
    const result = said(browserError);
    expect(result).toEqual({
      code: 'connect_failed',
      message:
        'could not connect to 127.0.0.1:4599, or the browser refused the response; it gives no reason (TypeError: Failed to fetch): from a page at http://127.0.0.1:5173, that is most often CORS: the server must answer the preflight (OPTIONS) with Access-Control-Allow-Origin: http://127.0.0.1:5173 and Access-Control-Allow-Headers: Content-Type, Mcp-Method; else, is the server running?',
      unsent: false,
      cause: browserError,
    });
  });

  test('a DELETE from another origin needs the method allowed too', () => {
    vi.stubGlobal('document', {});
    vi.stubGlobal('location', { origin: 'http://127.0.0.1:5173' });
    expect(said(browserError, URL_, 'DELETE').message).toContain('Access-Control-Allow-Origin: http://127.0.0.1:5173, Access-Control-Allow-Methods: DELETE and Access-Control-Allow-Headers:');
  });

  test("a browser worker of another origin is held to CORS as a page is", () => {
    vi.stubGlobal('WorkerGlobalScope', function WorkerGlobalScope() {});
    vi.stubGlobal('location', { origin: 'https://app.example' });
    expect(said(browserError).message).toContain('from a page at https://app.example, that is most often CORS');
  });

  test('the same origin: connect_failed, with no word of CORS', () => {
    vi.stubGlobal('document', {});
    vi.stubGlobal('location', { origin: 'http://127.0.0.1:4599' });
    expect(said(browserError)).toEqual({
      code: 'connect_failed',
      message: 'could not connect to 127.0.0.1:4599, or the browser refused the response; it gives no reason (TypeError: Failed to fetch): is the server running?',
      unsent: false,
      cause: browserError,
    });
  });
});
