// A caller's signal aborts every API promptly, whatever else listens to it: earlier listeners, an
// onabort, a listener that throws (alone, or before another), one that stops the propagation,
// AbortSignal.any and AbortSignal.timeout. Each API waits on a body (or a fetch, a resumption, a
// DELETE) that never ends, so a missed abort is a hang, and the bound is the issue's: settled
// within 100 ms of the abort.
//
// What would fail on the watch before the fix (ae40d72^), and what only guards a shape: every
// test here fails on it, but for these. A lone listener that throws: Node hands the listener
// after a throwing one its currentTarget back, so the old watch saw that abort in every API
// (the next shape, a throwing listener and then another, is the one it missed). SseEventStream
// piped with a signal: no watch of the package is involved, the platform's pipe ends it, so those
// tests guard that claim for each shape, and no shape makes them fail on the old watch. (Its own
// `signal` option, which the package watches, came later than that watch.)
import { describe, expect, test } from 'vitest';
import {
  AnswerClient,
  AnswerTransport,
  isAnswerError,
  postJsonRpc,
  readAnswer,
  readAnswerBody,
  scanEvents,
  SseEventStream,
  type FetchFunction,
} from '../src/index.js';
import { ANSWER, bytes, nextTurn, NOTE, sourceBody, sseResponse } from './helpers/bodies.js';
import { endlessServer } from './helpers/servers.js';
import { LISTENER_FAILURE, SIGNAL_SHAPES, type ShapedSignal } from './runtimes/signal-tests.mjs';
import { expectListenerFailures, followersOf, listenersOn } from './helpers/signals.js';
import { checkSignal, untilAborted } from '../src/drivers/abort-watch.js';

/** How long after its abort an API may take to settle. */
const BOUND_MS = 100;
/** When the tests abort, after the API started waiting (before a timeout shape aborts itself). */
const ABORT_AFTER_MS = 40;

const noop = (): void => undefined;

// The throwing listener's error is the platform's to report: here it is expected, and swallowed.
expectListenerFailures(LISTENER_FAILURE);

/** What an API did once its signal aborted: how long it took to settle, and how it settled. */
interface Settled {
  readonly ms: number;
  readonly outcome: unknown;
  readonly rejected: boolean;
}

/** Starts `run`, lets it wait, aborts the signal, and times the settling from the abort. */
async function abortedAfterWaiting(shaped: ShapedSignal, run: () => Promise<unknown>, waited: () => boolean = () => true): Promise<Settled> {
  let settledAt = 0;
  let outcome: unknown;
  let rejected = false;
  const running = run().then(
    (value) => {
      settledAt = performance.now();
      outcome = value;
    },
    (error: unknown) => {
      settledAt = performance.now();
      outcome = error;
      rejected = true;
    },
  );
  const started = performance.now();
  while (!waited() && performance.now() - started < 2000) await delay(2);
  expect(waited(), 'the API never reached its wait').toBe(true);
  await delay(ABORT_AFTER_MS);
  expect(settledAt, 'the API settled before its signal aborted').toBe(0);
  await shaped.abort();
  const abortedAt = performance.now();
  // A missed abort hangs: race it against twice the bound, to fail with a figure, not a timeout.
  await Promise.race([running, delay(BOUND_MS * 2)]);
  return { ms: settledAt === 0 ? Infinity : settledAt - abortedAt, outcome, rejected };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The code of an `AnswerError`, or what else settled. */
function codeOf(settled: Settled): unknown {
  return isAnswerError(settled.outcome) ? settled.outcome.code : settled.outcome;
}

/** A fetch that answers each request with the next of `answers` and records what it was sent. */
function scriptedFetch(answers: readonly ((init: RequestInit) => Response | Promise<Response>)[]): FetchFunction & { calls: RequestInit[] } {
  const calls: RequestInit[] = [];
  const fetch = async (_input: string | URL, init: RequestInit): Promise<Response> => {
    calls.push(init);
    const answer = answers[calls.length - 1];
    if (answer === undefined) throw new Error(`unexpected request ${calls.length}`);
    return answer(init);
  };
  return Object.assign(fetch, { calls });
}

/** A fetch that never answers until its signal aborts, as a server that holds the request would. */
function heldFetch(init: RequestInit): Promise<Response> {
  return new Promise((_resolve, reject) => {
    init.signal?.addEventListener('abort', () => reject(init.signal?.reason));
  });
}

/** A JSON answer to the request `init` carries, with `result`. */
function answered(init: RequestInit, result: object, headers: Record<string, string> = {}, status = 200): Response {
  const { id } = JSON.parse(String(init.body)) as { id: unknown };
  return new Response(JSON.stringify({ jsonrpc: '2.0', id, result }), { status, headers: { 'content-type': 'application/json', ...headers } });
}

/** A server/discover answered by a 2026-07-28 server. */
const discovered = (init: RequestInit): Response => answered(init, { supportedVersions: ['2026-07-28'], capabilities: {} });

/** A server/discover refused as a 2025 server refuses it, so that the client falls back to initialize. */
const refusedDiscover = (): Response =>
  new Response(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: No valid session ID provided' } }), {
    status: 400,
    headers: { 'content-type': 'application/json' },
  });

/** An initialize answered in 2025, with a session. */
const initializedWithSession = (init: RequestInit): Response =>
  answered(init, { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } }, { 'mcp-session-id': 'session-1' });

const REQUEST = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow', arguments: {} } } as const;
const MODERN_REQUEST = {
  ...REQUEST,
  params: { ...REQUEST.params, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
} as const;
const URL_ = 'http://mcp.test/mcp';

describe.each(SIGNAL_SHAPES)('a signal with $name', (shape) => {
  test('readAnswer: aborted within the bound, the body released', async () => {
    const shaped = shape.make();
    const { response, source } = sseResponse([NOTE], { endless: true });
    const settled = await abortedAfterWaiting(shaped, () => readAnswer(response, { signal: shaped.signal }), () => source.pulls >= 2);
    expect(settled.ms).toBeLessThan(BOUND_MS);
    expect(codeOf(settled)).toBe(shaped.code);
    expect(source.cancelled).toBe(true);
  });

  test('readAnswerBody over an async iterable: aborted within the bound, the iterator returned', async () => {
    const shaped = shape.make();
    let returned = false;
    let reads = 0;
    const body: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => ({
        next: () => (++reads === 1 ? Promise.resolve({ done: false, value: bytes(NOTE) }) : new Promise(() => undefined)),
        return: async () => {
          returned = true;
          return { done: true, value: undefined };
        },
      }),
    };
    const settled = await abortedAfterWaiting(shaped, () => readAnswerBody(body, 'text/event-stream', { signal: shaped.signal }), () => reads >= 2);
    expect(settled.ms).toBeLessThan(BOUND_MS);
    expect(codeOf(settled)).toBe(shaped.code);
    expect(returned).toBe(true);
  });

  test('scanEvents: the loop throws the reason within the bound, the source released', async () => {
    const shaped = shape.make();
    const source = sourceBody([NOTE], { endless: true });
    const seen: string[] = [];
    const settled = await abortedAfterWaiting(
      shaped,
      async () => {
        for await (const event of scanEvents(source.body, { signal: shaped.signal })) seen.push(event.data);
      },
      () => source.pulls >= 2,
    );
    expect(settled.ms).toBeLessThan(BOUND_MS);
    expect(settled.rejected).toBe(true);
    expect(settled.outcome).toBe(shaped.signal.reason);
    expect(seen).toHaveLength(1);
    expect(source.cancelled).toBe(true);
  });

  // Piped with the signal, the platform's pipe holds it and no watch of the package is involved:
  // a guard of the shape, not of the defect, which passes on the watch before the fix too. Given
  // the signal, the stream's own watch ends it.
  test.each([
    ['given the signal', (body: ReadableStream<Uint8Array>, signal: AbortSignal) => body.pipeThrough(new SseEventStream({ signal }))],
    ["piped with the signal (the platform's pipe)", (body: ReadableStream<Uint8Array>, signal: AbortSignal) => body.pipeThrough(new SseEventStream(), { signal })],
  ])('SseEventStream %s: its events error within the bound, the piped source released', async (_how, events) => {
    const shaped = shape.make();
    const source = sourceBody([NOTE], { endless: true });
    const reader = events(source.body, shaped.signal).getReader();
    const first = await reader.read();
    expect(first.value?.type).toBe('message');
    const settled = await abortedAfterWaiting(shaped, () => reader.read(), () => source.pulls >= 2);
    expect(settled.ms).toBeLessThan(BOUND_MS);
    expect(settled.rejected).toBe(true);
    expect(settled.outcome).toBe(shaped.signal.reason);
    await source.released;
    expect(source.cancelled).toBe(true);
  });

  test('postJsonRpc, 2025 era: aborted within the bound while the answer stream is open', async () => {
    const shaped = shape.make();
    const { response, source } = sseResponse([NOTE], { endless: true });
    const fetch = scriptedFetch([() => response]);
    const settled = await abortedAfterWaiting(shaped, () => postJsonRpc(URL_, REQUEST, { fetch, signal: shaped.signal }), () => source.pulls >= 2);
    expect(settled.ms).toBeLessThan(BOUND_MS);
    expect(codeOf(settled)).toBe(shaped.code);
    expect(source.cancelled).toBe(true);
  });

  test('postJsonRpc, 2026-07-28: the stream is closed within the bound (the cancellation of the request)', async () => {
    const shaped = shape.make();
    const { response, source } = sseResponse([NOTE], { endless: true });
    const fetch = scriptedFetch([() => response]);
    const settled = await abortedAfterWaiting(shaped, () => postJsonRpc(URL_, MODERN_REQUEST, { fetch, signal: shaped.signal }), () => source.pulls >= 2);
    expect(settled.ms).toBeLessThan(BOUND_MS);
    expect(codeOf(settled)).toBe(shaped.code);
    expect(source.cancelled).toBe(true);
  });

  test('postJsonRpc: aborted within the bound while the POST waits for its response', async () => {
    const shaped = shape.make();
    const fetch = scriptedFetch([heldFetch]);
    const settled = await abortedAfterWaiting(shaped, () => postJsonRpc(URL_, REQUEST, { fetch, signal: shaped.signal }), () => fetch.calls.length === 1);
    expect(settled.ms).toBeLessThan(BOUND_MS);
    expect(codeOf(settled)).toBe(shaped.code);
    expect(fetch.calls[0]?.signal?.aborted).toBe(true);
  });

  test('the resumption GET: aborted within the bound while the resumed stream is open', async () => {
    const shaped = shape.make();
    const resumed = sseResponse([NOTE], { endless: true });
    const fetch = scriptedFetch([() => sseResponse(['id: 7\nretry: 0\ndata:\n\n']).response, () => resumed.response]);
    const settled = await abortedAfterWaiting(
      shaped,
      () => postJsonRpc(URL_, REQUEST, { fetch, signal: shaped.signal }),
      () => resumed.source.pulls >= 2,
    );
    expect(fetch.calls.map((call) => call.method)).toStrictEqual(['POST', 'GET']);
    expect(settled.ms).toBeLessThan(BOUND_MS);
    expect(codeOf(settled)).toBe(shaped.code);
    expect(resumed.source.cancelled).toBe(true);
  });

  test("the wait before a resumption: aborted within the bound, no GET sent", async () => {
    const shaped = shape.make();
    const fetch = scriptedFetch([() => sseResponse(['id: 7\nretry: 60000\ndata:\n\n']).response]);
    const settled = await abortedAfterWaiting(shaped, () => postJsonRpc(URL_, REQUEST, { fetch, signal: shaped.signal }), () => fetch.calls.length === 1);
    expect(settled.ms).toBeLessThan(BOUND_MS);
    expect(codeOf(settled)).toBe(shaped.code);
    expect(fetch.calls).toHaveLength(1);
  });

  // requestSignal is the MCP SDK's name for a send's signal; signal, the AI SDK's.
  test.each(['requestSignal', 'signal'] as const)('AnswerTransport.send with %s: aborted within the bound, the transport still open', async (option) => {
    const shaped = shape.make();
    const { response, source } = sseResponse([NOTE], { endless: true });
    const fetch = scriptedFetch([() => response, () => sseResponse([ANSWER]).response]);
    const transport = new AnswerTransport(URL_, { fetch });
    const settled = await abortedAfterWaiting(shaped, () => transport.send(REQUEST, { [option]: shaped.signal }), () => source.pulls >= 2);
    expect(settled.ms).toBeLessThan(BOUND_MS);
    expect(codeOf(settled)).toBe(shaped.code);
    expect(source.cancelled).toBe(true);
    await transport.send(REQUEST); // the next send goes out as usual
    expect(fetch.calls).toHaveLength(2);
  });

  test("AnswerTransport with the constructor's signal: a send in flight aborted within the bound", async () => {
    const shaped = shape.make();
    const { response, source } = sseResponse([NOTE], { endless: true });
    const fetch = scriptedFetch([() => response]);
    const transport = new AnswerTransport(URL_, { fetch, signal: shaped.signal });
    const settled = await abortedAfterWaiting(shaped, () => transport.send(REQUEST), () => source.pulls >= 2);
    expect(settled.ms).toBeLessThan(BOUND_MS);
    expect(codeOf(settled)).toBe(shaped.code);
    expect(source.cancelled).toBe(true);
  });

  test('AnswerClient.request, 2026-07-28: the stream is closed within the bound, nothing else sent', async () => {
    const { response, source } = sseResponse([NOTE], { endless: true });
    const fetch = scriptedFetch([discovered, () => response]);
    const client = await AnswerClient.connect(URL_, { fetch });
    expect(client.era).toBe('modern');
    const shaped = shape.make();
    const settled = await abortedAfterWaiting(shaped, () => client.request('tools/list', {}, { signal: shaped.signal }), () => source.pulls >= 2);
    expect(settled.ms).toBeLessThan(BOUND_MS);
    expect(codeOf(settled)).toBe(shaped.code);
    expect(source.cancelled).toBe(true);
    await delay(10);
    expect(fetch.calls).toHaveLength(2);
  });

  test('AnswerClient.request, 2025 session: aborted within the bound, then cancelled on the server', async () => {
    const { response, source } = sseResponse([NOTE], { endless: true });
    const accepted = (): Response => new Response(null, { status: 202 });
    const fetch = scriptedFetch([refusedDiscover, initializedWithSession, accepted, () => response, accepted]);
    const client = await AnswerClient.connect(URL_, { fetch });
    expect([client.era, client.sessionId]).toStrictEqual(['legacy', 'session-1']);
    const shaped = shape.make();
    const settled = await abortedAfterWaiting(shaped, () => client.request('tools/list', {}, { signal: shaped.signal }), () => source.pulls >= 2);
    expect(settled.ms).toBeLessThan(BOUND_MS);
    expect(codeOf(settled)).toBe(shaped.code);
    expect(source.cancelled).toBe(true);
    for (let turns = 0; fetch.calls.length < 5 && turns < 100; turns++) await delay(2);
    const [request, cancelled] = fetch.calls.slice(3).map((call) => JSON.parse(String(call.body)) as { id?: unknown; method: string; params?: unknown });
    expect(cancelled).toStrictEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: request?.id, reason: shaped.code === 'timeout' ? 'timed out' : 'aborted by the client' },
    });
  });

  test("AnswerClient.connect with a signal: the handshake aborted within the bound", async () => {
    const shaped = shape.make();
    const fetch = scriptedFetch([heldFetch]);
    const settled = await abortedAfterWaiting(shaped, () => AnswerClient.connect(URL_, { fetch, signal: shaped.signal }), () => fetch.calls.length === 1);
    expect(settled.ms).toBeLessThan(BOUND_MS);
    expect(codeOf(settled)).toBe(shaped.code);
    expect(fetch.calls[0]?.signal?.aborted).toBe(true);
  });

  test("AnswerClient with connect's signal: a request in flight aborted within the bound", async () => {
    const shaped = shape.make();
    const { response, source } = sseResponse([NOTE], { endless: true });
    const fetch = scriptedFetch([discovered, () => response]);
    const client = await AnswerClient.connect(URL_, { fetch, signal: shaped.signal });
    const settled = await abortedAfterWaiting(shaped, () => client.request('tools/list'), () => source.pulls >= 2);
    expect(settled.ms).toBeLessThan(BOUND_MS);
    expect(codeOf(settled)).toBe(shaped.code);
    expect(source.cancelled).toBe(true);
  });

  test('AnswerClient.notify({ signal }): aborted within the bound while its POST waits', async () => {
    const shaped = shape.make();
    const fetch = scriptedFetch([discovered, heldFetch]);
    const client = await AnswerClient.connect(URL_, { fetch });
    const settled = await abortedAfterWaiting(shaped, () => client.notify('notifications/progress', { progressToken: 1, progress: 1 }, { signal: shaped.signal }), () => fetch.calls.length === 2);
    expect(settled.ms).toBeLessThan(BOUND_MS);
    expect(codeOf(settled)).toBe(shaped.code);
  });

  test('AnswerClient.close({ signal }): the DELETE aborted within the bound', async () => {
    const shaped = shape.make();
    const accepted = (): Response => new Response(null, { status: 202 });
    const fetch = scriptedFetch([refusedDiscover, initializedWithSession, accepted, heldFetch]);
    const client = await AnswerClient.connect(URL_, { fetch });
    expect(client.sessionId).toBe('session-1');
    const settled = await abortedAfterWaiting(shaped, () => client.close({ signal: shaped.signal }), () => fetch.calls.length === 4);
    expect(fetch.calls[3]?.method).toBe('DELETE');
    expect(settled.ms).toBeLessThan(BOUND_MS);
    expect(codeOf(settled)).toBe(shaped.code);
  });

  test.each([
    ["the transport's signal", 'constructor'],
    ["close()'s own signal", 'close'],
  ] as const)('the DELETE of close(), under %s: ended within the bound, onclose called', async (_where, given) => {
    const shaped = shape.make();
    const initialized = new Response('{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25"}}', {
      headers: { 'content-type': 'application/json', 'mcp-session-id': 'session-1' },
    });
    const fetch = scriptedFetch([() => initialized, heldFetch]);
    const transport = new AnswerTransport(URL_, given === 'constructor' ? { fetch, signal: shaped.signal } : { fetch });
    const errors: Error[] = [];
    let closed = 0;
    transport.onerror = (error) => errors.push(error);
    transport.onclose = () => (closed += 1);
    await transport.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: {} });
    expect(transport.sessionId).toBe('session-1');
    const settled = await abortedAfterWaiting(shaped, () => (given === 'close' ? transport.close({ signal: shaped.signal }) : transport.close()), () => fetch.calls.length === 2);
    expect(fetch.calls[1]?.method).toBe('DELETE');
    expect(settled.ms).toBeLessThan(BOUND_MS);
    expect(settled.rejected).toBe(false);
    expect(closed).toBe(1);
    expect(errors.map((error) => (isAnswerError(error) ? error.code : error))).toStrictEqual([shaped.code]);
  });
});

describe('checkSignal', () => {
  test('undefined and a real signal pass; anything else is a TypeError naming it', () => {
    const signal = AbortSignal.abort();
    expect(checkSignal('requestSignal', undefined)).toBeUndefined();
    expect(checkSignal('requestSignal', signal)).toBe(signal);
    expect(() => checkSignal('requestSignal', { aborted: true })).toThrow(new TypeError('requestSignal must be an AbortSignal, got [object Object]'));
    expect(() => checkSignal('signal', null)).toThrow(new TypeError('signal must be an AbortSignal, got null'));
  });
});

describe('untilAborted', () => {
  test('settles as the promise does, and leaves no listener', async () => {
    const controller = new AbortController();
    expect(await untilAborted(Promise.resolve(7), controller.signal)).toBe(7);
    const error = new Error('no');
    await expect(untilAborted(Promise.reject(error), controller.signal)).rejects.toBe(error);
    expect(listenersOn(controller.signal)).toBe(0);
  });

  test("rejects with the signal's reason when it aborts first; the value that comes later goes to late, once", async () => {
    const controller = new AbortController();
    let resolve!: (value: string) => void;
    const late: string[] = [];
    const pending = untilAborted(new Promise<string>((done) => (resolve = done)), controller.signal, (value) => late.push(value));
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    resolve('after');
    await nextTurn();
    expect(late).toEqual(['after']);
  });

  test('an aborted signal rejects at once, and a late rejection is swallowed', async () => {
    const reason = new Error('already');
    const late: unknown[] = [];
    await expect(untilAborted(Promise.reject(new Error('ignored')), AbortSignal.abort(reason), (value) => late.push(value))).rejects.toBe(reason);
    await nextTurn();
    expect(late).toEqual([]);
  });
});

describe('one follower per signal, whatever else listens to it', () => {
  test('reads and exchanges on a listened-to signal add no listener to it and follow it once', async () => {
    const controller = new AbortController();
    controller.signal.addEventListener('abort', noop);
    controller.signal.onabort = noop;
    const reads = Array.from({ length: 20 }, () => sseResponse([NOTE], { endless: true }));
    const pending = reads.map(({ response }) => readAnswer(response, { signal: controller.signal }).catch((error: unknown) => error));
    const fetch = scriptedFetch(Array.from({ length: 5 }, () => () => sseResponse([NOTE], { endless: true }).response));
    const exchanges = Array.from({ length: 5 }, (_, i) =>
      postJsonRpc(URL_, { ...REQUEST, id: i }, { fetch, signal: controller.signal }).catch((error: unknown) => error),
    );
    await delay(20);
    expect([listenersOn(controller.signal), followersOf(controller.signal)]).toStrictEqual([2, 1]);
    controller.abort();
    for (const outcome of await Promise.all([...pending, ...exchanges])) expect(isAnswerError(outcome) && outcome.code).toBe('aborted');
    expect([listenersOn(controller.signal), followersOf(controller.signal)]).toStrictEqual([2, 1]);
  });
});

describe('a signal that aborts while another read of it is settling', () => {
  /** What waits on an open stream with a signal: settles (with anything) once it is stopped. */
  interface Waiting {
    readonly settled: Promise<unknown>;
    readonly released: () => boolean;
  }

  /** Each API, waiting on a stream that never ends under `signal`. */
  const WAITING_APIS: readonly (readonly [string, (signal: AbortSignal) => Waiting])[] = [
    [
      'readAnswer',
      (signal) => {
        const { response, source } = sseResponse([NOTE], { endless: true });
        return { settled: readAnswer(response, { signal }).catch((error: unknown) => error), released: () => source.cancelled };
      },
    ],
    [
      'readAnswerBody',
      (signal) => {
        const source = sourceBody([NOTE], { endless: true });
        return { settled: readAnswerBody(source.body, 'text/event-stream', { signal }).catch((error: unknown) => error), released: () => source.cancelled };
      },
    ],
    [
      'scanEvents',
      (signal) => {
        const source = sourceBody([NOTE], { endless: true });
        const loop = async (): Promise<void> => {
          for await (const event of scanEvents(source.body, { signal })) expect(event.type).toBe('message');
        };
        return { settled: loop().catch((error: unknown) => error), released: () => source.cancelled };
      },
    ],
    [
      'SseEventStream',
      (signal) => {
        const source = sourceBody([NOTE], { endless: true });
        const reader = source.body.pipeThrough(new SseEventStream({ signal })).getReader();
        const drain = async (): Promise<void> => {
          for (;;) if ((await reader.read()).done) return;
        };
        return { settled: drain().catch((error: unknown) => error), released: () => source.cancelled };
      },
    ],
    [
      'postJsonRpc',
      (signal) => {
        const { response, source } = sseResponse([NOTE], { endless: true });
        const fetch = scriptedFetch([() => response]);
        return { settled: postJsonRpc(URL_, REQUEST, { fetch, signal }).catch((error: unknown) => error), released: () => source.cancelled };
      },
    ],
    [
      'AnswerTransport.send',
      (signal) => {
        const { response, source } = sseResponse([NOTE], { endless: true });
        const transport = new AnswerTransport(URL_, { fetch: scriptedFetch([() => response]) });
        return { settled: transport.send(REQUEST, { requestSignal: signal }).catch((error: unknown) => error), released: () => source.cancelled };
      },
    ],
  ];

  /** How the first read settles, and where in its settling the signal aborts. */
  const SETTLINGS: readonly (readonly [string, (signal: AbortSignal, abort: () => void) => Promise<void>])[] = [
    [
      "from the first read's onMessage",
      async (signal, abort) => {
        const error = await readAnswer(sseResponse([NOTE, ANSWER]).response, { signal, onMessage: abort }).catch((thrown: unknown) => thrown);
        expect(isAnswerError(error) && error.code).toBe('aborted');
      },
    ],
    [
      'as the first read settles with its answer',
      async (signal, abort) => {
        // Aborted in the microtask turn the first read resolves in, before its own promise is observed.
        const first = readAnswer(sseResponse([ANSWER]).response, { signal });
        void first.then(abort);
        expect(await first).toMatchObject({ id: 1 });
      },
    ],
  ];

  describe.each(WAITING_APIS)('%s, waiting on an open stream', (_api, start) => {
    test.each(SETTLINGS)('aborted %s: the waiting one ends within the bound, its stream released', async (_how, settleFirst) => {
      const controller = new AbortController();
      controller.signal.addEventListener('abort', noop);
      const waiting = start(controller.signal);
      let settledAt = 0;
      void waiting.settled.then(() => (settledAt = performance.now()));
      await delay(10);
      expect(settledAt).toBe(0);
      let abortedAt = 0;
      await settleFirst(controller.signal, () => {
        abortedAt = performance.now();
        controller.abort();
      });
      await Promise.race([waiting.settled, delay(BOUND_MS * 2)]);
      expect(settledAt).toBeGreaterThan(0);
      expect(settledAt - abortedAt).toBeLessThan(BOUND_MS);
      const outcome = await waiting.settled;
      expect(isAnswerError(outcome) ? outcome.code : outcome).toEqual(isAnswerError(outcome) ? 'aborted' : controller.signal.reason);
      expect(waiting.released()).toBe(true);
    });
  });
});

describe('what the package hands a signal of its own to cannot keep the abort from it', () => {
  /** A fetch whose listener on the signal it is given stops the event, then does what `answer` does. */
  function stoppingFetch(answer: (init: RequestInit) => Response | Promise<Response>): FetchFunction & { calls: RequestInit[] } {
    return scriptedFetch([
      (init) => {
        init.signal?.addEventListener('abort', (event) => event.stopImmediatePropagation());
        return answer(init);
      },
    ]);
  }

  test.each([
    ['while the answer stream is open', () => sseResponse([NOTE], { endless: true }).response],
    ['while the POST waits for its response', heldFetch],
    ['in the wait before a resumption', () => sseResponse(['id: 7\nretry: 60000\ndata:\n\n']).response],
  ])("postJsonRpc, a fetch that stops its signal's event: aborted within the bound %s", async (_when, answer) => {
    const controller = new AbortController();
    const fetch = stoppingFetch(answer);
    const settled = await abortedAfterWaiting(
      { signal: controller.signal, abort: async () => controller.abort(), code: 'aborted' },
      () => postJsonRpc(URL_, REQUEST, { fetch, signal: controller.signal }),
      () => fetch.calls.length === 1,
    );
    expect(settled.ms).toBeLessThan(BOUND_MS);
    expect(codeOf(settled)).toBe('aborted');
    expect(fetch.calls).toHaveLength(1);
  });

  test("postJsonRpc, a fetch that stops its signal's event: the deadline still ends the exchange", async () => {
    const fetch = stoppingFetch(() => sseResponse([NOTE], { endless: true }).response);
    const started = performance.now();
    const error = await Promise.race([postJsonRpc(URL_, REQUEST, { fetch, timeoutMs: 60 }).catch((thrown: unknown) => thrown), delay(60 + BOUND_MS * 2)]);
    expect(isAnswerError(error) && error.code).toBe('timeout');
    expect(performance.now() - started).toBeLessThan(60 + BOUND_MS);
  });

  test("onInputRequired, whose listener on its signal stops the event: the request is aborted within the bound", async () => {
    const fetch = scriptedFetch([discovered, (init) => answered(init, { resultType: 'input_required', inputRequests: { login: { method: 'elicitation/create', params: { message: 'Login?' } } } })]);
    let asked = 0;
    const client = await AnswerClient.connect(URL_, {
      fetch,
      onInputRequired: (_request, context) => {
        asked += 1;
        context.signal.addEventListener('abort', (event) => event.stopImmediatePropagation());
        return new Promise(() => undefined); // a handler that ignores its signal
      },
    });
    const controller = new AbortController();
    const settled = await abortedAfterWaiting(
      { signal: controller.signal, abort: async () => controller.abort(), code: 'aborted' },
      () => client.request('prompts/get', { name: 'deploy' }, { signal: controller.signal }),
      () => asked === 1,
    );
    expect(settled.ms).toBeLessThan(BOUND_MS);
    expect(codeOf(settled)).toBe('aborted');
  });
});

describe("a request waiting for another's tools/list page", () => {
  test.each(SIGNAL_SHAPES)('its signal with $name: aborted within the bound, the other request going on', async (shape) => {
    const fetch = scriptedFetch([discovered, heldFetch]);
    const client = await AnswerClient.connect(URL_, { fetch });
    const reading = new AbortController();
    const first = client.request('tools/call', { name: 'first', arguments: {} }, { signal: reading.signal }).catch((error: unknown) => error);
    const shaped = shape.make();
    const settled = await abortedAfterWaiting(shaped, () => client.request('tools/call', { name: 'second', arguments: {} }, { signal: shaped.signal }), () => fetch.calls.length === 2);
    expect(settled.ms).toBeLessThan(BOUND_MS);
    expect(codeOf(settled)).toBe(shaped.code);
    // The page is still being read for the first call, and nothing else was sent.
    expect(fetch.calls.map((call) => (JSON.parse(String(call.body)) as { method: string }).method)).toStrictEqual(['server/discover', 'tools/list']);
    expect(fetch.calls[1]?.signal?.aborted).toBe(false);
    reading.abort();
    const error = await first;
    expect(isAnswerError(error) && error.code).toBe('aborted');
  });
});

describe('over real HTTP', () => {
  test('postJsonRpc with a listened-to signal: the server sees the stream closed within the bound of the abort', async () => {
    const server = await endlessServer('text/event-stream', NOTE);
    try {
      const controller = new AbortController();
      controller.signal.addEventListener('abort', noop);
      const exchange = postJsonRpc(server.url, MODERN_REQUEST, { signal: controller.signal }).catch((error: unknown) => error);
      await delay(150);
      const abortedAt = performance.now();
      controller.abort();
      await Promise.race([server.closed, delay(1000)]);
      const closedAt = performance.now();
      expect(closedAt - abortedAt).toBeLessThan(BOUND_MS);
      const error = await exchange;
      expect(isAnswerError(error) && error.code).toBe('aborted');
    } finally {
      await server.stop();
    }
  });
});
