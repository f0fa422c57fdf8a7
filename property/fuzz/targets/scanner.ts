/**
 * The scanner against the reference model (property/scan-reference.ts), any chunking against the
 * whole stream in one chunk, and purity: a state passed in is frozen (a write throws), scanning it
 * again gives the same result, and every chunk is overwritten right after it is scanned (a state
 * that kept a view of it would go wrong). `scanEach` hands a sink the events `scan` lists and
 * leaves the same states.
 */
import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { scan, scanEach, scanEnd, scanEndEach, scanStart, type ScanState, type SseEvent } from '../../../src/index.js';
import { streamArb } from '../../scan-arbitraries.js';
import { referenceScan } from '../../scan-reference.js';
import { chunksOf } from '../bodies.js';
import { cornerCutsArb, cornerStreamArb } from '../corners.js';
import { deepFreeze, show } from '../json-values.js';
import { defineTarget, ensure } from '../target.js';

interface ScanInput {
  readonly bytes: Uint8Array;
  /** Sorted cut offsets; a repeat is an empty chunk. */
  readonly cuts: number[];
  readonly dispatchIncomplete: boolean;
}

/** Scans `chunks` in order, checking purity at every step; the chunks are overwritten once scanned. */
function scanAll(chunks: readonly Uint8Array[]): { state: ScanState; events: SseEvent[] } {
  let state = deepFreeze(scanStart());
  const events: SseEvent[] = [];
  for (const chunk of chunks) {
    const copy = chunk.slice();
    const result = scan(state, chunk);
    ensure(isDeepStrictEqual(Array.from(chunk), Array.from(copy)), 'scan changed the chunk it was given');
    const handed: SseEvent[] = [];
    const each = scanEach(state, copy, (event) => handed.push(event));
    ensure(isDeepStrictEqual(each, result.state), 'scanEach left another state than scan');
    ensure(isDeepStrictEqual(handed, result.events), 'scanEach handed other events than scan listed');
    const again = scan(state, copy);
    ensure(isDeepStrictEqual(again, result), 'scanning the same state and chunk twice gave different results');
    chunk.fill(0x3a); // the caller reuses its buffer: ':' everywhere
    copy.fill(0x0d);
    events.push(...result.events);
    state = deepFreeze(result.state);
  }
  return { state, events };
}

export const scannerTarget = defineTarget<ScanInput>({
  name: 'scanner',
  summary: 'scan/scanEnd against the reference model; any chunking equals one chunk; pure; scanEach equals scan',
  async: false,
  arbitrary: fc
    .oneof({ weight: 2, arbitrary: streamArb }, { weight: 3, arbitrary: cornerStreamArb })
    .chain((bytes) => fc.record({ bytes: fc.constant(bytes), cuts: cornerCutsArb(bytes), dispatchIncomplete: fc.boolean() })),
  check({ bytes, cuts, dispatchIncomplete }) {
    const expected = referenceScan(bytes, dispatchIncomplete);
    const split = scanAll(chunksOf(bytes, cuts));
    const whole = scanAll(chunksOf(bytes, []));
    ensure(isDeepStrictEqual(split.state, whole.state), () => `the state after the chunks is not the state after one chunk: ${show(split.state)} vs ${show(whole.state)}`);

    const end = scanEnd(split.state, { dispatchIncomplete });
    const handed: SseEvent[] = [];
    const endEach = scanEndEach(split.state, (event) => handed.push(event), { dispatchIncomplete });
    ensure(isDeepStrictEqual(endEach, end.state) && isDeepStrictEqual(handed, end.events), 'scanEndEach differs from scanEnd');
    const events = [...split.events, ...end.events];
    ensure(events.length === expected.events.length, () => `${events.length} events, the reference has ${expected.events.length}`);
    events.forEach((event, i) => {
      ensure(isDeepStrictEqual({ ...event }, expected.events[i]), () => `event ${i} is ${show(event)}, the reference has ${show(expected.events[i])}`);
    });
    ensure(end.state.lastEventId === expected.lastEventId, () => `last event id ${show(end.state.lastEventId)}, the reference has ${show(expected.lastEventId)}`);
    ensure(Object.is(end.state.retry, expected.retry), () => `retry ${end.state.retry}, the reference has ${expected.retry}`);
  },
});
