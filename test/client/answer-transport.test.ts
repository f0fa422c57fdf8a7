/**
 * answer-transport.ts: `AnswerTransport`'s own members that the broad files leave unpinned —
 * `start()`, `setProtocolVersion` / a `protocolVersion` set directly, the session taken only from
 * the `initialize` response (whatever became of its body), a replaced session (or one issued
 * after `close()`) ended with its DELETE, the version the closing DELETE carries, `onclose` once, `onmessage` errors going to `onerror`, a notification's refusal never
 * delivered in-band. The transport under the SDK clients and its per-request options are
 * answer-transport.test.ts, answer-transport-eras.test.ts, answer-transport-requests.test.ts,
 * ai-sdk-client.test.ts, auth.test.ts, abort-signals.test.ts and exchange-network.test.ts.
 */

import { describe, expect, test, vi } from 'vitest';
import { AnswerTransport, type TransportMessage } from '../../src/client/answer-transport.js';
import { answerError, rejection } from '../helpers/bodies.js';
import { empty, json, resultFor, scriptedFetch, sse, trail, type Script } from '../helpers/client-fetch.js';

const URL_ = 'https://mcp.example/mcp';
const INITIALIZE = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list' };

function transportOver(script: Script) {
  const { fetch, sent } = scriptedFetch(script);
  const transport = new AnswerTransport(URL_, { fetch });
  const received: TransportMessage[] = [];
  const errors: Error[] = [];
  transport.onmessage = (message) => received.push(message);
  transport.onerror = (error) => errors.push(error);
  return { transport, sent, received, errors };
}

const answering: Script = (sent) => (sent.method === 'DELETE' ? empty(204) : sent.body?.['id'] === undefined ? empty(202) : json(resultFor(sent, {})));

test.each([['null', null], ['a string', 'x'], ['an array', []]])('send(%s): a TypeError that names the message, and nothing sent', async (_name, message) => {
  const { transport, sent } = transportOver(answering);
  const error = await rejection(transport.send(message as never));
  expect(error).toBeInstanceOf(TypeError);
  expect((error as Error).message).toMatch(/^message must be a JSON-RPC message object, got /);
  expect(sent).toEqual([]);
});

test('a string that is no URL is refused at construction, a TypeError naming it', () => {
  expect(() => new AnswerTransport('not a url')).toThrow(new TypeError('url must be a URL, got "not a url"'));
});

test.each([['null', null], ['a string', 'x'], ['a number', 1]])('close(%s): a TypeError naming the options, and the transport still open', async (_name, options) => {
  const { transport, sent } = transportOver(answering);
  transport.sessionId = 'held-1';
  await expect(transport.close(options as never)).rejects.toThrow(TypeError);
  await expect(transport.close(options as never)).rejects.toThrow(/^options must be an object, got /);
  await transport.start();
  await transport.close();
  expect(trail(sent)).toEqual(['DELETE']);
});

test('sessionId assigned another type than a string: a TypeError naming it; a string or undefined is held as given', () => {
  const { transport } = transportOver(answering);
  expect(() => (transport.sessionId = 5 as never)).toThrow(new TypeError('sessionId must be a string, got 5'));
  transport.sessionId = 'ok';
  transport.sessionId = undefined;
  expect(transport.sessionId).toBeUndefined();
});

test('start() resolves while open and rejects once closed; nothing is sent by either', async () => {
  const { transport, sent } = transportOver(answering);
  await expect(transport.start()).resolves.toBeUndefined();
  await transport.close();
  await expect(transport.start()).rejects.toThrow(new Error('AnswerTransport: the transport is closed'));
  expect(sent).toEqual([]);
});

describe('the protocol version', () => {
  test('setProtocolVersion sets the property every later request carries; setSupportedProtocolVersions changes nothing', async () => {
    const { transport, sent } = transportOver(answering);
    expect(transport.protocolVersion).toBeUndefined();
    transport.setProtocolVersion('2025-06-18');
    transport.setSupportedProtocolVersions(['2026-07-28']);
    expect(transport.protocolVersion).toBe('2025-06-18');
    await transport.send(LIST);
    expect([sent[0]!.headers.get('mcp-protocol-version'), sent[0]!.headers.has('mcp-method')]).toEqual(['2025-06-18', false]);
  });

  test('a protocolVersion assigned directly (as the AI SDK does) picks the era as well', async () => {
    const { transport, sent } = transportOver(answering);
    transport.protocolVersion = '2026-07-28';
    await transport.send(LIST);
    expect([sent[0]!.headers.get('mcp-protocol-version'), sent[0]!.headers.get('mcp-method')]).toEqual(['2026-07-28', 'tools/list']);
  });
});

describe('the session', () => {
  test('taken from the initialize response whatever became of its body; close() ends it', async () => {
    const { transport, sent } = transportOver((request) => (request.method === 'DELETE' ? empty(204) : empty(500, { 'mcp-session-id': 'issued' })));
    const error = await answerError(transport.send(INITIALIZE));
    expect([error.code, error.detail.status]).toEqual(['http_status', 500]);
    expect(transport.sessionId).toBe('issued');
    await transport.close();
    expect(trail(sent)).toEqual(['POST initialize', 'DELETE']);
    expect(sent[1]!.headers.get('mcp-session-id')).toBe('issued');
    expect(transport.sessionId).toBeUndefined();
  });

  test('a session id on any other response is not taken', async () => {
    const { transport } = transportOver((request) => json(resultFor(request, {}), { headers: { 'mcp-session-id': 'stray' } }));
    await transport.send(LIST);
    expect(transport.sessionId).toBeUndefined();
  });

  test('a later initialize that brings another session id: the replaced session gets its DELETE, with its version; the new one is used and ended by close()', async () => {
    let issued = 0;
    const { transport, sent, received, errors } = transportOver((request) => {
      if (request.method === 'DELETE') return empty(204);
      if (request.rpc === 'initialize') return json(resultFor(request, {}), { headers: { 'mcp-session-id': `session-${(issued += 1)}` } });
      return json(resultFor(request, {}));
    });
    await transport.send(INITIALIZE);
    transport.setProtocolVersion('2025-06-18');
    await transport.send({ ...INITIALIZE, id: 5 });
    // The DELETE went out before the second send resolved, the answer was delivered all the same.
    expect(trail(sent)).toEqual(['POST initialize', 'POST initialize', 'DELETE']);
    expect([sent[2]!.headers.get('mcp-session-id'), sent[2]!.headers.get('mcp-protocol-version')]).toEqual(['session-1', '2025-06-18']);
    expect(received.map((message) => message.id)).toEqual([0, 5]);
    expect(transport.sessionId).toBe('session-2');
    await transport.send(LIST);
    expect(sent[3]!.headers.get('mcp-session-id')).toBe('session-2');
    await transport.close();
    expect(trail(sent).slice(4)).toEqual(['DELETE']);
    expect(sent[4]!.headers.get('mcp-session-id')).toBe('session-2');
    expect(errors).toEqual([]);
  });

  test("close() while the replaced session's DELETE is on its way: that DELETE is not cut short, and the held session gets its own", async () => {
    let issued = 0;
    let finished = '';
    const { transport, sent, errors } = transportOver((request) => {
      if (request.method === 'DELETE' && request.headers.get('mcp-session-id') === 'session-1') {
        return new Promise<Response>((resolve, reject) => {
          const timer = setTimeout(() => {
            finished = 'answered';
            resolve(empty(204));
          }, 50);
          request.signal?.addEventListener('abort', () => {
            clearTimeout(timer);
            finished = 'aborted';
            reject(request.signal?.reason);
          });
        });
      }
      if (request.method === 'DELETE') return empty(204);
      return json(resultFor(request, {}), { headers: { 'mcp-session-id': `session-${(issued += 1)}` } });
    });
    await transport.send(INITIALIZE);
    const second = transport.send({ ...INITIALIZE, id: 5 });
    await vi.waitFor(() => expect(trail(sent)).toEqual(['POST initialize', 'POST initialize', 'DELETE']));
    await transport.close();
    await second;
    expect(finished).toBe('answered');
    expect(sent.filter((one) => one.method === 'DELETE').map((one) => one.headers.get('mcp-session-id'))).toEqual(['session-1', 'session-2']);
    expect(errors).toEqual([]);
  });

  test('the same session id again: no DELETE', async () => {
    const { transport, sent } = transportOver((request) => (request.method === 'DELETE' ? empty(204) : json(resultFor(request, {}), { headers: { 'mcp-session-id': 'same' } })));
    await transport.send(INITIALIZE);
    await transport.send({ ...INITIALIZE, id: 5 });
    expect(trail(sent)).toEqual(['POST initialize', 'POST initialize']);
    expect(transport.sessionId).toBe('same');
  });

  test("the replaced session's DELETE refused or failing: the error goes to onerror, the send resolves with its answer delivered", async () => {
    for (const [failing, code] of [
      [() => empty(500), 'http_status'],
      [() => Promise.reject(new TypeError('fetch failed')), 'stream_failed'],
    ] as const) {
      let issued = 0;
      const { transport, sent, received, errors } = transportOver((request) => {
        if (request.method === 'DELETE') return failing();
        return json(resultFor(request, {}), { headers: { 'mcp-session-id': `session-${(issued += 1)}` } });
      });
      await transport.send(INITIALIZE);
      await expect(transport.send({ ...INITIALIZE, id: 5 })).resolves.toBeUndefined();
      expect(trail(sent)).toEqual(['POST initialize', 'POST initialize', 'DELETE']);
      expect([received.map((message) => message.id), transport.sessionId]).toEqual([[0, 5], 'session-2']);
      expect(errors.map((error) => (error as { code?: unknown }).code)).toEqual([code]);
    }
  });

  test('a session id that arrives after close() (the initialize read was cut short by it) is ended too', async () => {
    const { transport, sent, received, errors } = transportOver((request) =>
      request.method === 'DELETE'
        ? empty(204)
        : sse([`data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } })}\n\n`], {
            headers: { 'mcp-session-id': 'late' },
            endless: true,
          }),
    );
    const closing = new Promise<void>((resolve) => {
      transport.onmessage = (message) => {
        received.push(message);
        // The response's headers are in: close now, while the answer is still to come.
        void transport.close().then(resolve);
      };
    });
    const error = await answerError(transport.send(INITIALIZE));
    await closing;
    expect(error.code).toBe('aborted');
    expect(trail(sent)).toEqual(['POST initialize', 'DELETE']);
    expect(sent[1]!.headers.get('mcp-session-id')).toBe('late');
    expect(errors).toEqual([]);
  });

  test('the closing DELETE carries the version only when it is a 2025 one', async () => {
    for (const [version, expected] of [
      ['2025-11-25', '2025-11-25'],
      ['2026-07-28', null],
      [undefined, null],
    ] as const) {
      const { transport, sent } = transportOver(answering);
      transport.sessionId = 's';
      if (version !== undefined) transport.setProtocolVersion(version);
      await transport.close();
      expect([sent[0]!.method, sent[0]!.headers.get('mcp-session-id'), sent[0]!.headers.get('mcp-protocol-version')]).toEqual(['DELETE', 's', expected]);
    }
  });
});

describe('onclose, onmessage and onerror', () => {
  test('onclose is called once, however many times close() is', async () => {
    const { transport } = transportOver(answering);
    let closes = 0;
    transport.onclose = () => (closes += 1);
    await transport.close();
    await transport.close();
    expect(closes).toBe(1);
  });

  test('an onmessage that throws: the error goes to onerror (an Error made for a non-Error), and the send resolves', async () => {
    const { transport, errors } = transportOver(answering);
    const thrown = new Error('handler bug');
    transport.onmessage = () => {
      throw thrown;
    };
    await expect(transport.send(LIST)).resolves.toBeUndefined();
    transport.onmessage = () => {
      throw 'a string';
    };
    await transport.send({ ...LIST, id: 2 });
    expect(errors[0]).toBe(thrown);
    expect([errors[1]!.message, errors[1]!.cause]).toEqual(['a string', 'a string']);
  });

  test("a notification refused with a 400 and a JSON-RPC error: the send rejects, nothing reaches onmessage", async () => {
    const { transport, received } = transportOver(() => json({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'no' } }, { status: 400 }));
    const error = await rejection(transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    expect((error as { code?: string }).code).toBe('http_status');
    expect(received).toEqual([]);
  });

  test('a send after close() is refused before anything is sent', async () => {
    const { transport, sent } = transportOver(answering);
    await transport.close();
    await expect(transport.send(LIST)).rejects.toThrow(new Error('AnswerTransport: the transport is closed'));
    expect(sent).toEqual([]);
  });
});
