// Hostile signals (#49): a signal is read through the platform's own `aborted` and `reason`
// getters, taken when abort-watch loads, so neither an own property on the signal nor a later
// change to AbortSignal.prototype stands in for them; and an abort reason that is a Proxy whose
// every trap throws never throws from inside the drivers: it is carried as it is, described as
// "a value that cannot be described". (The client's own reads of `signal.aborted` are outside
// this file: see the report of #49.)
import { describe, expect, test, vi } from 'vitest';
import { AnswerClient, AnswerTransport, isAnswerError, postJsonRpc, readAnswer, readAnswerBody, scanEvents, SseEventStream } from '../src/index.js';
import { ownController, followAborts, untilAborted } from '../src/drivers/abort-watch.js';
import { ANSWER, NOTE, sourceBody, sseResponse } from './helpers/bodies.js';

/** A value every trap of which throws: reading anything of it, or its prototype, throws. */
function hostileReason(): object {
  const traps = new Proxy({}, { get: (_target, trap) => () => {
    throw new Error(`trap ${String(trap)}`);
  } });
  return new Proxy({}, traps);
}

/** A controller whose signal has own `aborted` and `reason` properties that lie: never aborted, a forged reason. */
function lyingController(): AbortController {
  const controller = new AbortController();
  Object.defineProperty(controller.signal, 'aborted', { value: false });
  Object.defineProperty(controller.signal, 'reason', { value: 'forged' });
  return controller;
}

/** The error a promise rejects with, boxed: a promise resolved with a hostile value would read its `then`. */
async function rejectionOf(pending: Promise<unknown>): Promise<{ readonly error: unknown }> {
  try {
    await pending;
  } catch (error) {
    return { error };
  }
  throw new Error('it did not reject');
}

describe('the platform getters, taken at load', () => {
  test('a later change to AbortSignal.prototype does not stand in for them', async () => {
    vi.resetModules();
    const watch = await import('../src/drivers/abort-watch.js'); // loaded now, before the change
    const aborted = Object.getOwnPropertyDescriptor(AbortSignal.prototype, 'aborted')!;
    const reason = Object.getOwnPropertyDescriptor(AbortSignal.prototype, 'reason')!;
    Object.defineProperty(AbortSignal.prototype, 'aborted', { ...aborted, get: () => false });
    Object.defineProperty(AbortSignal.prototype, 'reason', { ...reason, get: () => 'forged' });
    try {
      const real = new Error('real');
      const signal = AbortSignal.abort(real);
      expect([watch.isAborted(signal), watch.abortReason(signal)]).toEqual([true, real]);
      expect(watch.isAborted(new AbortController().signal)).toBe(false);
      expect(watch.isAbortSignal({ aborted: false })).toBe(false);
    } finally {
      Object.defineProperty(AbortSignal.prototype, 'aborted', aborted);
      Object.defineProperty(AbortSignal.prototype, 'reason', reason);
    }
  });

  test('a runtime without them takes no value for a signal, and reads its own signals by their properties', async () => {
    const aborted = Object.getOwnPropertyDescriptor(AbortSignal.prototype, 'aborted')!;
    const reason = Object.getOwnPropertyDescriptor(AbortSignal.prototype, 'reason')!;
    const signal = new AbortController().signal;
    Object.defineProperty(signal, 'aborted', { value: true });
    Object.defineProperty(signal, 'reason', { value: 'said' });
    delete (AbortSignal.prototype as { aborted?: unknown }).aborted;
    delete (AbortSignal.prototype as { reason?: unknown }).reason;
    try {
      vi.resetModules();
      const watch = await import('../src/drivers/abort-watch.js'); // loaded without the getters
      expect(watch.isAbortSignal(signal)).toBe(false);
      expect(() => watch.checkSignal('signal', signal)).toThrow(new TypeError('signal must be an AbortSignal, got [object AbortSignal]'));
      expect([watch.isAborted(signal), watch.abortReason(signal)]).toEqual([true, 'said']);
    } finally {
      Object.defineProperty(AbortSignal.prototype, 'aborted', aborted);
      Object.defineProperty(AbortSignal.prototype, 'reason', reason);
    }
  });
});

describe("a signal's own aborted and reason properties are not read", () => {
  test('readAnswer: an own `aborted: true` on a live signal does not stop the read', async () => {
    const controller = new AbortController();
    Object.defineProperty(controller.signal, 'aborted', { value: true });
    await expect(readAnswer(sseResponse([NOTE, ANSWER]).response, { signal: controller.signal })).resolves.toMatchObject({ id: 1 });
  });

  test('readAnswer and readAnswerBody: an own `aborted: false` does not hide the abort, nor an own reason the real one', async () => {
    for (const read of [
      (signal: AbortSignal) => readAnswer(sseResponse([NOTE], { endless: true }).response, { signal }),
      (signal: AbortSignal) => readAnswerBody(sourceBody([NOTE], { endless: true }).body, 'text/event-stream', { signal }),
    ]) {
      const controller = lyingController();
      const pending = rejectionOf(read(controller.signal));
      const real = new Error('real');
      controller.abort(real);
      const { error } = await pending;
      expect(isAnswerError(error) && [error.code, error.cause]).toEqual(['aborted', real]);
    }
  });

  test('readAnswer: a signal aborted before the read, with own lying properties, is seen aborted', async () => {
    const controller = lyingController();
    const real = new Error('real');
    controller.abort(real);
    const { response, source } = sseResponse([ANSWER]);
    const { error } = await rejectionOf(readAnswer(response, { signal: controller.signal }));
    expect(isAnswerError(error) && [error.code, error.cause]).toEqual(['aborted', real]);
    expect(source.cancelReason).toBe(real);
  });

  test("scanEvents and SseEventStream end with the real reason", async () => {
    const real = new Error('real');
    const scanning = lyingController();
    const loop = rejectionOf((async () => {
      for await (const _event of scanEvents(sourceBody([NOTE], { endless: true }).body, { signal: scanning.signal })) scanning.abort(real);
    })());
    expect((await loop).error).toBe(real);
    const piping = lyingController();
    const reader = sourceBody([NOTE], { endless: true }).body.pipeThrough(new SseEventStream({ signal: piping.signal })).getReader();
    await reader.read();
    piping.abort(real);
    expect((await rejectionOf(reader.read())).error).toBe(real);
  });

  test('untilAborted and followAborts see the abort and its real reason', async () => {
    const real = new Error('real');
    const waiting = lyingController();
    const pending = rejectionOf(untilAborted(new Promise(() => undefined), waiting.signal));
    waiting.abort(real);
    expect((await pending).error).toBe(real);
    const followed = lyingController();
    const own = ownController();
    const stop = followAborts(own, [followed.signal]);
    followed.abort(real);
    expect(own.signal.reason).toBe(real);
    stop();
    const already = lyingController();
    already.abort(real);
    const second = ownController();
    followAborts(second, [already.signal])();
    expect(second.signal.reason).toBe(real);
  });
});

describe('an abort reason whose every trap throws', () => {
  test('readAnswer and readAnswerBody, aborted before and during the read: an `aborted` AnswerError that carries it', async () => {
    const reads = [
      (signal: AbortSignal) => readAnswer(sseResponse([NOTE], { endless: true }).response, { signal }),
      (signal: AbortSignal) => readAnswerBody(sourceBody([NOTE], { endless: true }).body, 'text/event-stream', { signal }),
    ];
    for (const read of reads) {
      for (const when of ['before', 'during'] as const) {
        const reason = hostileReason();
        const controller = new AbortController();
        if (when === 'before') controller.abort(reason);
        const pending = rejectionOf(read(controller.signal));
        if (when === 'during') controller.abort(reason);
        const { error } = await pending;
        expect(isAnswerError(error)).toBe(true);
        expect((error as Error).message).toBe('reading the answer was aborted: a value that cannot be described');
        expect((error as Error).cause === reason).toBe(true);
      }
    }
  });

  test('scanEvents throws it, SseEventStream errors with it, as they do any reason', async () => {
    const reason = hostileReason();
    const scanning = new AbortController();
    const { error: thrown } = await rejectionOf((async () => {
      for await (const _event of scanEvents(sourceBody([NOTE], { endless: true }).body, { signal: scanning.signal })) scanning.abort(reason);
    })());
    expect(thrown === reason).toBe(true);
    const reader = sourceBody([NOTE]).body.pipeThrough(new SseEventStream({ signal: AbortSignal.abort(reason) })).getReader();
    expect((await rejectionOf(reader.read())).error === reason).toBe(true);
  });

  test('untilAborted rejects with it, followAborts aborts with it', async () => {
    const reason = hostileReason();
    const controller = new AbortController();
    const pending = rejectionOf(untilAborted(new Promise(() => undefined), controller.signal));
    const own = ownController();
    const stop = followAborts(own, [controller.signal]);
    controller.abort(reason);
    expect((await pending).error === reason).toBe(true);
    expect(own.signal.reason === reason).toBe(true);
    stop();
  });
});

describe('the client APIs: a hostile signal is read by the platform, and a hostile reason never throws from inside', () => {
  const URL_ = 'http://127.0.0.1:9/mcp';
  const REQUEST = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
  /** A fetch that answers nothing until its signal aborts, then rejects with the signal's reason. */
  const hanging = (_input: string | URL, init: RequestInit): Promise<Response> =>
    new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(new Error('aborted fetch'))));

  test('postJsonRpc, AnswerTransport.send and AnswerClient.request, aborted with a reason whose every trap throws: aborted AnswerErrors', async () => {
    const client = await AnswerClient.connect(URL_, { fetch: hanging, versionNegotiation: { pin: '2026-07-28' } });
    const runs: ((signal: AbortSignal) => Promise<unknown>)[] = [
      (signal) => postJsonRpc(URL_, REQUEST, { fetch: hanging, signal, secretHeaders: ['x-key'], headers: { 'x-key': 'a-secret-value' } }),
      (signal) => new AnswerTransport(URL_, { fetch: hanging, signal }).send(REQUEST),
      (signal) => client.request('tools/list', {}, { signal }),
    ];
    for (const run of runs) {
      const controller = new AbortController();
      const pending = run(controller.signal);
      controller.abort(hostileReason());
      const { error } = await rejectionOf(pending);
      expect(isAnswerError(error)).toBe(true);
      expect((error as { code: string }).code).toBe('aborted');
    }
  });

  test("an own lying `aborted` on a request's signal does not hide its abort from AnswerClient", async () => {
    const client = await AnswerClient.connect(URL_, { fetch: hanging, versionNegotiation: { pin: '2026-07-28' } });
    const controller = lyingController();
    controller.abort(new Error('stop'));
    const { error } = await rejectionOf(client.request('tools/list', {}, { signal: controller.signal }));
    expect(isAnswerError(error) && (error as { code: string }).code).toBe('aborted');
  });
});
