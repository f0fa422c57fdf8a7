/**
 * Property tests of the SSE scanner (src/reducers/scanner.ts): chunking invariance, agreement with an
 * independent whole-input reference model of the spec, purity of states and chunks, and agreement
 * with eventsource-parser on the streams where both should agree.
 *
 * Budget and seed: ./settings.ts (set FC_SEED to replay a run).
 */
import { createParser } from 'eventsource-parser';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { scan, scanEach, scanEnd, scanEndEach, scanStart, type ScanState, type SseEvent } from '../src/index.js';
import { boundsOf, chunkedStreamArb, chunksOf, type ChunkedStream, streamArb } from './scan-arbitraries.js';
import { referenceScan } from './scan-reference.js';
import { concat } from '../test/helpers/chunks.js';
import { scanAll } from '../test/helpers/scan.js';
import { fcParams } from './settings.js';

const ENDINGS = [false, true] as const;
const LF_BYTE = Uint8Array.of(0x0a);

/** Ends a run with `scanEnd`, returning all its events and the state after the end. */
function endAll(run: { events: SseEvent[]; state: ScanState }, dispatchIncomplete: boolean) {
  const end = scanEnd(run.state, { dispatchIncomplete });
  return { events: [...run.events, ...end.events], state: end.state };
}

/** Asserts that a run, ended both ways, matches the reference model on `bytes`. */
function expectMatchesReference(run: { events: SseEvent[]; state: ScanState }, bytes: Uint8Array): void {
  for (const dispatchIncomplete of ENDINGS) {
    const expected = referenceScan(bytes, dispatchIncomplete);
    const actual = endAll(run, dispatchIncomplete);
    expect(actual.events, `events (dispatchIncomplete: ${dispatchIncomplete})`).toEqual(expected.events);
    expect(actual.state.lastEventId, `lastEventId (dispatchIncomplete: ${dispatchIncomplete})`).toBe(expected.lastEventId);
    expect(actual.state.retry, `retry (dispatchIncomplete: ${dispatchIncomplete})`).toBe(expected.retry);
  }
}


describe("the reference model gives the spec's own examples and edges (hand-worked)", () => {
  const enc = (s: string) => new TextEncoder().encode(s);
  test('spec examples', () => {
    // The spec's "data: YHOO / data: +2 / data: 10" example: one event, lines joined with LF.
    expect(referenceScan(enc('data: YHOO\ndata: +2\ndata: 10\n\n'), false).events).toEqual([
      { type: 'message', data: 'YHOO\n+2\n10', lastEventId: '' },
    ]);
    // The spec's four-block example: a comment, an id, an empty data, and a block not dispatched.
    const r = referenceScan(enc(': test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event'), false);
    expect(r.events).toEqual([
      { type: 'message', data: 'first event', lastEventId: '1' },
      { type: 'message', data: 'second event', lastEventId: '' },
    ]);
    // The spec's "data / data / data / data:" example: two events, '' and '\n'.
    expect(referenceScan(enc('data\n\ndata\ndata\n\ndata:'), false).events).toEqual([
      { type: 'message', data: '', lastEventId: '' },
      { type: 'message', data: '\n', lastEventId: '' },
    ]);
    // "data:test" and "data: test" are the same.
    expect(referenceScan(enc('data:test\n\ndata: test\n\n'), false).events).toEqual([
      { type: 'message', data: 'test', lastEventId: '' },
      { type: 'message', data: 'test', lastEventId: '' },
    ]);
  });
  test('edges', () => {
    // One BOM stripped, the second is part of the name "\ufeffid" (ignored); CR and CRLF end
    // lines; an id with NUL is ignored; retry takes effect at once with leading zeros.
    const r = referenceScan(
      Uint8Array.from([0xef, 0xbb, 0xbf, ...enc('\ufeffid: a\revent: e\r\ndata: x\nid: b\0\nretry: 007\n\n')]),
      false,
    );
    expect(r).toEqual({ events: [{ type: 'e', data: 'x', lastEventId: '' }], lastEventId: '', retry: 7 });
    // A trailing CR ends its line; the block is dispatched only with dispatchIncomplete.
    expect(referenceScan(enc('id: 3\ndata: a\r'), false)).toEqual({ events: [], lastEventId: '', retry: undefined });
    expect(referenceScan(enc('id: 3\ndata: a\r'), true)).toEqual({
      events: [{ type: 'message', data: 'a', lastEventId: '3' }],
      lastEventId: '3',
      retry: undefined,
    });
    // An incomplete UTF-8 sequence at the end is U+FFFD; an empty event name means "message".
    expect(referenceScan(Uint8Array.from([...enc('event:\ndata:'), 0xe2, 0x82]), true).events).toEqual([
      { type: 'message', data: '\ufffd', lastEventId: '' },
    ]);
  });
});

describe('on generated streams: the scanner is chunking-invariant, agrees with the reference model and eventsource-parser, and stays pure', () => {
  test('chunking invariance: any split gives the same events, state and end', () => {
    fc.assert(
      fc.property(chunkedStreamArb, (s) => {
        const whole = scanAll([s.bytes.slice()]);
        const parts = scanAll(chunksOf(s));
        expect(parts.events).toEqual(whole.events);
        // States are canonical: the whole state object, internals included, is the same.
        expect(parts.state).toEqual(whole.state);
        // ... and so after every chunk: it equals the state after that prefix in one chunk.
        const bounds = boundsOf(s);
        parts.states.forEach((state, i) => {
          expect(state, `state after chunk ${i}`).toEqual(scanAll([s.bytes.slice(0, bounds[i + 1])]).state);
        });
        for (const dispatchIncomplete of ENDINGS) {
          expect(scanEnd(parts.state, { dispatchIncomplete })).toEqual(scanEnd(whole.state, { dispatchIncomplete }));
        }
      }),
      fcParams,
    );
  });

  test('differential: scanner (any chunking) + scanEnd equals the reference model', () => {
    fc.assert(
      fc.property(chunkedStreamArb, (s) => {
        const run = scanAll(chunksOf(s));
        // Before the end, what was dispatched is what the reference dispatches when it discards.
        const discarding = referenceScan(s.bytes, false);
        expect(run.events).toEqual(discarding.events);
        expect(run.state.lastEventId).toBe(discarding.lastEventId);
        expect(run.state.retry).toBe(discarding.retry);
        expectMatchesReference(run, s.bytes);
      }),
      fcParams,
    );
  });

  test('chunks of more than 16 KiB (read in pieces that end at a LF) give what the reference model gives', () => {
    // A stream of streams, each block after the first on a line of its own, grown past 48 KiB so
    // that its chunks are read in pieces; cut into chunks of 16 KiB and more at random points,
    // so that a chunk, and so its first piece, begins inside a UTF-8 sequence, after a CR, or
    // with a short line pending.
    const longStreamArb = fc.array(streamArb, { minLength: 1, maxLength: 8 }).map((streams) => {
      const parts: Uint8Array[] = [];
      let length = 0;
      for (let i = 0; length < 48 * 1024; i++) {
        const part = streams[i % streams.length]!;
        parts.push(part, LF_BYTE);
        length += part.length + 1;
      }
      return concat(parts);
    });
    fc.assert(
      fc.property(longStreamArb, fc.array(fc.integer({ min: 1, max: 9000 }), { minLength: 1, maxLength: 6 }), (bytes, sizes) => {
        const cuts: number[] = [];
        for (let at = 0, k = 0; ; k++) {
          at += sizes[k % sizes.length]! + (k % 2 === 0 ? 16_384 : 0);
          if (at >= bytes.length) break;
          cuts.push(at);
        }
        expectMatchesReference(scanAll(chunksOf({ bytes, cuts })), bytes);
      }),
      // Each run scans more than 48 KiB against the reference model: a fifth of the usual runs.
      { ...fcParams, numRuns: Math.max(20, Math.floor(fcParams.numRuns / 5)) },
    );
  });

  test('scanEach hands a sink the events scan lists, in order, and leaves the same states', () => {
    fc.assert(
      fc.property(chunkedStreamArb, (s) => {
        let listed = scanStart();
        let each = scanStart();
        for (const chunk of chunksOf(s)) {
          const handed: SseEvent[] = [];
          const chunkCopy = chunk.slice();
          each = scanEach(each, chunk, (event) => handed.push(event));
          expect(chunk).toEqual(chunkCopy);
          const result = scan(listed, chunk);
          expect(handed).toEqual(result.events);
          expect(each).toEqual(result.state);
          listed = result.state;
        }
        for (const dispatchIncomplete of ENDINGS) {
          const handed: SseEvent[] = [];
          const end = scanEnd(listed, { dispatchIncomplete });
          expect(scanEndEach(each, (event) => handed.push(event), { dispatchIncomplete })).toEqual(end.state);
          expect(handed).toEqual(end.events);
        }
      }),
      fcParams,
    );
  });

  test('purity: scan changes neither state nor chunk, and is deterministic', () => {
    fc.assert(
      fc.property(chunkedStreamArb, (s) => {
        let state = scanStart();
        for (const chunk of chunksOf(s)) {
          const snapshot = structuredClone(state);
          const chunkCopy = chunk.slice();
          const first = scan(state, chunk);
          // (i) the state given is unchanged, and so is the chunk.
          expect(state).toEqual(snapshot);
          expect(chunk).toEqual(chunkCopy);
          // (ii) the same state and chunk again give an equal result, in a fresh events array.
          const second = scan(state, chunk);
          expect(second).toEqual(first);
          expect(second.events).not.toBe(first.events);
          state = first.state;
        }
        for (const dispatchIncomplete of ENDINGS) {
          const snapshot = structuredClone(state);
          const first = scanEnd(state, { dispatchIncomplete });
          expect(state).toEqual(snapshot);
          expect(scanEnd(state, { dispatchIncomplete })).toEqual(first);
        }
      }),
      fcParams,
    );
  });

  test('purity: old states stay valid when another branch was taken from them', () => {
    fc.assert(
      fc.property(chunkedStreamArb, streamArb, fc.nat(), (s, other, pick) => {
        const chunks = chunksOf(s);
        const bounds = boundsOf(s);
        const k = pick % chunks.length;
        const before = scanAll(chunks.slice(0, k));
        const old = before.state;

        // Branch A: the stream's own next chunk.
        const a = scan(old, chunks[k]!);
        // Branch B: another chunk from the same old state, carried to its end.
        const b = scan(old, other);
        expectMatchesReference(
          { events: [...before.events, ...b.events], state: b.state },
          concat([s.bytes.subarray(0, bounds[k]!), other]),
        );
        // The old state still takes branch A the same way.
        expect(scan(old, chunks[k]!)).toEqual(a);
        // Branch A, continued, gives the reference result for the whole stream.
        const rest = scanAll(chunks.slice(k + 1), a.state);
        expectMatchesReference({ events: [...before.events, ...a.events, ...rest.events], state: rest.state }, s.bytes);
      }),
      fcParams,
    );
  });

  test('purity: overwriting each chunk right after scan changes nothing', () => {
    fc.assert(
      fc.property(chunkedStreamArb, fc.constantFrom(0x41, 0x0a, 0x0d, 0x00, 0x80, 0xe2, 0xff), (s, fill) => {
        const clean = scanAll(chunksOf(s));
        let state = scanStart();
        const events: SseEvent[] = [];
        const states: ScanState[] = [];
        for (const chunk of chunksOf(s)) {
          const r = scan(state, chunk);
          // Overwrite the chunk and the whole buffer it is a view of.
          new Uint8Array(chunk.buffer).fill(fill);
          events.push(...r.events);
          states.push(r.state);
          state = r.state;
        }
        expect(events).toEqual(clean.events);
        // Compared after all overwrites: no state may hold a view of any chunk.
        expect(states).toEqual(clean.states);
        for (const dispatchIncomplete of ENDINGS) {
          expect(scanEnd(state, { dispatchIncomplete })).toEqual(scanEnd(clean.state, { dispatchIncomplete }));
        }
      }),
      fcParams,
    );
  });

  test('purity: a structuredClone of any intermediate state continues the same way', () => {
    fc.assert(
      fc.property(chunkedStreamArb, (s) => {
        const plain = scanAll(chunksOf(s));
        let state = structuredClone(scanStart());
        const events: SseEvent[] = [];
        for (const chunk of chunksOf(s)) {
          const r = scan(state, chunk);
          events.push(...r.events);
          state = structuredClone(r.state);
        }
        expect(events).toEqual(plain.events);
        expect(state).toEqual(plain.state);
        for (const dispatchIncomplete of ENDINGS) {
          expect(scanEnd(state, { dispatchIncomplete })).toEqual(scanEnd(plain.state, { dispatchIncomplete }));
        }
      }),
      fcParams,
    );
  });

  test('differential: events agree with eventsource-parser (type and data)', () => {
    fc.assert(
      fc.property(chunkedStreamArb, (s: ChunkedStream) => {
        // eventsource-parser takes text: decode in streaming mode, keeping the BOM for it to strip.
        const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
        const texts = chunksOf(s).map((chunk) => decoder.decode(chunk, { stream: true }));
        texts.push(decoder.decode());
        // Caveat: it also strips a leading "\xEF\xBB\xBF" *text* (a BOM decoded as Latin-1).
        fc.pre(!texts.join('').startsWith('\u00ef\u00bb\u00bf'));

        const theirs: { type: string; data: string }[] = [];
        const parser = createParser({
          onEvent: (event) => theirs.push({ type: event.event ?? 'message', data: event.data }),
        });
        for (const text of texts) parser.feed(text);

        // The stream is not ended: compare events dispatched by blank lines only (no id: they
        // treat the id of an event differently).
        const ours = scanAll(chunksOf(s)).events.map((e) => ({ type: e.type, data: e.data }));
        expect(ours).toEqual(theirs);
      }),
      fcParams,
    );
  });
});
