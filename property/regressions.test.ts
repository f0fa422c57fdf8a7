/**
 * Hand-written regression cases: counterexamples found by the property tests go here, with
 * expected values worked out by hand — for the scanner from WHATWG HTML "Interpreting an event
 * stream" (never computed by the reference model or the scanner).
 *
 * No property in scanner.property.test.ts has found an implementation bug so far. The cases below
 * pin the edges the properties exercise most (chunk boundaries inside CRLF, BOMs and UTF-8
 * sequences; retry and id corner cases), each under every 1- and 2-cut chunking of its bytes.
 */
import { describe, expect, test } from 'vitest';
import { scanEnd, type SseEvent } from '../src/index.js';
import { parseJsonWith } from '../src/reducers/parse-json.js';
import { concat } from '../test/helpers/chunks.js';
import { scanAll } from '../test/helpers/scan.js';


interface Outcome {
  events: SseEvent[];
  lastEventId: string;
  retry: number | undefined;
}

function run(chunks: Uint8Array[], dispatchIncomplete: boolean): Outcome {
  const run = scanAll(chunks);
  const end = scanEnd(run.state, { dispatchIncomplete });
  return { events: [...run.events, ...end.events], lastEventId: end.state.lastEventId, retry: end.state.retry };
}

/** The input whole, in 1-byte chunks, and cut at every pair of offsets (empty chunks included). */
function chunkings(all: Uint8Array): Uint8Array[][] {
  const out: Uint8Array[][] = [[all.slice()], Array.from(all, (b) => Uint8Array.of(b))];
  for (let i = 0; i <= all.length; i++) {
    for (let j = i; j <= all.length; j++) out.push([all.slice(0, i), all.slice(i, j), all.slice(j)]);
  }
  return out;
}

function expectScan(all: Uint8Array, dispatchIncomplete: boolean, expected: Outcome): void {
  for (const chunks of chunkings(all)) {
    expect(run(chunks, dispatchIncomplete), `chunk lengths ${chunks.map((c) => c.length).join(',')}`).toEqual(expected);
  }
}

const msg = (data: string, lastEventId = ''): SseEvent => ({ type: 'message', data, lastEventId });

describe('the scanner at chunk edges: CRLF, BOMs, UTF-8 sequences, retry and id (hand-worked from the spec)', () => {
  test('only the first of two BOMs is stripped; the second starts the field name', () => {
    // Line 1 is "\uFEFFdata: x": the field name "\uFEFFdata" is unknown, so the block has no data.
    const input = concat([[0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf], 'data: x\n\ndata: y\n\n']);
    expectScan(input, false, { events: [msg('y')], lastEventId: '', retry: undefined });
  });

  test('CRLF split across chunks is one line end, not a line end and a blank line', () => {
    const input = concat(['data: a\r\ndata: b\r\n\r\n']);
    expectScan(input, false, { events: [msg('a\nb')], lastEventId: '', retry: undefined });
  });

  test('CR, then an incomplete UTF-8 sequence, then LF: the U+FFFD is a line of its own', () => {
    // Text "data: a\r\uFFFD\n\n": lines "data: a", "\uFFFD" (unknown field), "" (dispatch).
    const input = concat(['data: a\r', [0xe2], '\n\n']);
    expectScan(input, false, { events: [msg('a')], lastEventId: '', retry: undefined });
  });

  test('UTF-8 sequences split across chunks decode as the whole stream would', () => {
    // E2 82 AC is U+20AC. E0 80 80: E0 needs A0..BF next, so each byte is its own U+FFFD.
    // F0 9F 98 80 is U+1F600. ED A0 80 (a surrogate) is three U+FFFD.
    const input = concat(['data: ', [0xe2, 0x82, 0xac, 0xe0, 0x80, 0x80, 0xf0, 0x9f, 0x98, 0x80, 0xed, 0xa0, 0x80], '\n\n']);
    expectScan(input, false, {
      events: [msg('\u20ac\ufffd\ufffd\ufffd\u{1f600}\ufffd\ufffd\ufffd')],
      lastEventId: '',
      retry: undefined,
    });
  });

  test('an incomplete UTF-8 sequence at the end is one U+FFFD, dispatched only when asked', () => {
    const input = concat(['data: ', [0xf0, 0x9f, 0x98]]);
    expectScan(input, false, { events: [], lastEventId: '', retry: undefined });
    expectScan(input, true, { events: [msg('\ufffd')], lastEventId: '', retry: undefined });
  });

  test('a trailing CR ends its line either way', () => {
    const input = concat(['id: 9\ndata: a\r']);
    expectScan(input, false, { events: [], lastEventId: '', retry: undefined });
    expectScan(input, true, { events: [msg('a', '9')], lastEventId: '9', retry: undefined });
  });

  test('retry: digits only, leading zeros and 25 digits; set at once even in a discarded block', () => {
    // "retry:  5" has value " 5" (only one space is removed); "retry" alone has value "".
    expectScan(concat(['retry: 0000000000000000000000042\nretry:  5\nretry: 12a\nretry\ndata: x']), false, {
      events: [],
      lastEventId: '',
      retry: 42,
    });
    expectScan(concat(['retry: 1234567890123456789012345\n']), false, {
      events: [],
      lastEventId: '',
      retry: 1.2345678901234568e24,
    });
  });

  test('id: NUL makes it ignored; dispatch sets the last event ID even with no data', () => {
    // Block 1 has no data but sets lastEventId to "1"; in block 2 "id: 2\0" is ignored; block 3
    // ("id" alone, value "") empties it again.
    expectScan(concat(['id: 1\n\nid: 2\0\ndata: x\n\nid\n\n']), false, {
      events: [msg('x', '1')],
      lastEventId: '',
      retry: undefined,
    });
  });

  test('U+2028 and U+0085 are not line ends; names are case-sensitive', () => {
    expectScan(concat(['Data: no\nEVENT: no\ndata: a\u2028b\u0085c\n\n']), false, {
      events: [msg('a\u2028b\u0085c')],
      lastEventId: '',
      retry: undefined,
    });
  });
});

describe('parseJson: a string in the text that looks like a marker is never taken for one', () => {
  test('a duplicate key whose later value is the string a marker stands for (FC_SEED=-2021064695)', () => {
    // The first "" value is a long string, replaced by the marker "\u00000" while the envelope is
    // parsed; the second "" value is that same string, written in the text, and overwrites it.
    // The reviver saw one marker-like string, as many as it expected, and put the long string
    // back. The text now goes to JSON.parse whole whenever it holds the escape \u0000.
    const text = '["\\u00002",-1.5,{"1":"\\u00001","10":[],"":"zzzzzzzzzzzz","":"\\u00000"}]';
    expect(parseJsonWith(text, 1, 59)).toEqual(['\u00002', -1.5, { 1: '\u00001', 10: [], '': '\u00000' }]);
  });
});
