/**
 * Property: whatever the caller has put on its signal — listeners, an `onabort`, a listener that
 * throws or stops the event's propagation, `AbortSignal.any` chains — and whenever it aborts, an
 * exchange (and a read, and a transport's send) waiting on a server that never finishes settles
 * `aborted` within a bound of the abort, and leaves no listener of its own on the signal.
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
    alongside: fc.nat({ max: 3 }),
  },
  { noNullPrototype: true },
);

// The throwing listener's error is the platform's to report: expected here, and swallowed.
expectListenerFailures(LISTENER_FAILURE, false);

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The signal given, after the caller's own listeners; how many listeners of the caller's each signal holds. */
function prepared(controller: AbortController, foreign: readonly Foreign[]): { signal: AbortSignal; own: Map<AbortSignal, number> } {
  let signal = controller.signal;
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
      const { signal, own } = prepared(controller, setup.foreign);
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
      await delay(setup.abortAfterMs);
      const abortedAt = performance.now();
      controller.abort(new Error('the caller gave up'));
      const all = Promise.all(outcomes);
      const settled = await Promise.race([all, delay(BOUND_MS * 3).then(() => undefined)]);
      expect(settled, 'not every wait settled after the abort').toBeDefined();
      for (const outcome of settled!) expect('error' in outcome && isAnswerError(outcome.error) && outcome.error.code).toBe('aborted');
      expect(settledAt - abortedAt).toBeLessThan(BOUND_MS);
      for (const on of new Set([controller.signal, signal])) expect(listenersOn(on)).toBe(own.get(on) ?? 0);
      await delay(0); // the throwing listener's error is reported on a later turn
    }),
    { seed, numRuns: RUNS },
  );
});
