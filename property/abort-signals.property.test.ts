/**
 * Property: whatever the caller has put on its signal — listeners, an `onabort`, a listener that
 * throws or stops the event's propagation, `AbortSignal.any` chains — whether it is a controller's
 * signal or an `AbortSignal.timeout`, and whenever it aborts, an exchange (and a read, and a
 * transport's send) waiting on a server that never finishes settles `aborted` (`timeout`, for a
 * timeout signal) within a bound of the abort, and leaves no listener of its own on the signal.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { AnswerTransport, isAnswerError, postJsonRpc, readAnswer, type FetchFunction } from '../src/index.js';
import { NOTE, sseResponse } from '../test/helpers/bodies.js';
import { expectListenerFailures, listenersOn } from '../test/helpers/signals.js';
import { seed } from './settings.js';

/** How long after its abort a wait may take to settle. */
const BOUND_MS = 100;
/** Each run waits up to ~40 ms: a fifth of the usual budget keeps the file near two seconds. */
const RUNS = 100;
const LISTENER_FAILURE = 'a listener of the caller failed (property)';

type Foreign = 'listener' | 'onabort' | 'throws' | 'stops' | 'any';
type Waiting = 'answer-stream' | 'held-post' | 'resume-wait' | 'read' | 'transport-send';

const setupArb = fc.record(
  {
    foreign: fc.array(fc.constantFrom<Foreign>('listener', 'onabort', 'throws', 'stops', 'any'), { maxLength: 4 }),
    waiting: fc.constantFrom<Waiting>('answer-stream', 'held-post', 'resume-wait', 'read', 'transport-send'),
    modern: fc.boolean(),
    abortAfterMs: fc.nat({ max: 25 }),
    /** The caller's signal is `AbortSignal.timeout(abortAfterMs)`, not a controller's. */
    timeout: fc.boolean(),
    alongside: fc.nat({ max: 3 }),
  },
  { noNullPrototype: true },
);

// The throwing listener's error is the platform's to report: expected here, and swallowed.
expectListenerFailures(LISTENER_FAILURE, false);

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The signal given, after the caller's own listeners on `base`; how many listeners of the caller's each signal holds. */
function prepared(base: AbortSignal, foreign: readonly Foreign[]): { signal: AbortSignal; own: Map<AbortSignal, number> } {
  let signal = base;
  const own = new Map<AbortSignal, number>();
  const count = (on: AbortSignal): void => void own.set(on, (own.get(on) ?? 0) + 1);
  for (const kind of foreign) {
    if (kind === 'any') {
      signal = AbortSignal.any([signal]);
      continue;
    }
    // A second onabort replaces the first: one listener either way.
    if (kind !== 'onabort' || signal.onabort === null) count(signal);
    if (kind === 'onabort') signal.onabort = () => undefined;
    else if (kind === 'stops') signal.addEventListener('abort', (event) => event.stopImmediatePropagation());
    else if (kind === 'throws') {
      signal.addEventListener('abort', () => {
        throw new Error(LISTENER_FAILURE);
      });
    } else signal.addEventListener('abort', () => undefined);
  }
  return { signal, own };
}

const REQUEST = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow', arguments: {} } };
const MODERN_REQUEST = { ...REQUEST, params: { ...REQUEST.params, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } };

/** Starts what waits on `signal`: an exchange, a read or a send, each on a server that never finishes. */
function start(waiting: Waiting, modern: boolean, signal: AbortSignal): Promise<unknown> {
  const request = modern ? MODERN_REQUEST : REQUEST;
  const endless: FetchFunction = async () => sseResponse([NOTE], { endless: true }).response;
  switch (waiting) {
    case 'answer-stream':
      return postJsonRpc('http://mcp.test/mcp', request, { fetch: endless, signal });
    case 'held-post':
      return postJsonRpc('http://mcp.test/mcp', request, {
        signal,
        fetch: (_url, init) => new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason))),
      });
    case 'resume-wait':
      return postJsonRpc('http://mcp.test/mcp', REQUEST, { signal, fetch: async () => sseResponse(['id: 1\nretry: 60000\ndata:\n\n']).response });
    case 'read':
      return readAnswer(sseResponse([NOTE], { endless: true }).response, { signal });
    case 'transport-send':
      return new AnswerTransport('http://mcp.test/mcp', { fetch: endless }).send(request, { requestSignal: signal });
  }
}

test('a wait on a never-finishing server settles aborted within the bound of the abort, whatever listens to the signal', async () => {
  await fc.assert(
    fc.asyncProperty(setupArb, async (setup) => {
      const controller = new AbortController();
      const base = setup.timeout ? AbortSignal.timeout(setup.abortAfterMs) : controller.signal;
      // When a timeout signal aborts: a timer of the same delay, armed after its own, fires after
      // it (or, at worst, a moment before it, which only makes the measured delay longer).
      let timedOutAt = 0;
      const timedOut = setup.timeout ? delay(setup.abortAfterMs).then(() => (timedOutAt = performance.now())) : undefined;
      const { signal, own } = prepared(base, setup.foreign);
      let settledAt = 0;
      const outcomes = [start(setup.waiting, setup.modern, signal), ...Array.from({ length: setup.alongside }, () => start('read', setup.modern, signal))].map((pending) =>
        pending.then(
          (value) => ({ value }),
          (error: unknown) => {
            settledAt = Math.max(settledAt, performance.now());
            return { error };
          },
        ),
      );
      let abortedAt: number;
      if (timedOut !== undefined) {
        await timedOut;
        abortedAt = timedOutAt;
        expect(base.aborted, 'the timeout signal had not aborted by its time').toBe(true);
      } else {
        await delay(setup.abortAfterMs);
        abortedAt = performance.now();
        controller.abort(new Error('the caller gave up'));
      }
      const all = Promise.all(outcomes);
      const settled = await Promise.race([all, delay(BOUND_MS * 3).then(() => undefined)]);
      expect(settled, 'not every wait settled after the abort').toBeDefined();
      const code = setup.timeout ? 'timeout' : 'aborted';
      for (const outcome of settled!) expect('error' in outcome && isAnswerError(outcome.error) && outcome.error.code).toBe(code);
      expect(settledAt - abortedAt).toBeLessThan(BOUND_MS);
      for (const on of new Set([base, signal])) expect(listenersOn(on)).toBe(own.get(on) ?? 0);
      await delay(0); // the throwing listener's error is reported on a later turn
    }),
    { seed, numRuns: RUNS },
  );
});
