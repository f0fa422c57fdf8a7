/**
 * Unit tests for the SSE scanner against WHATWG HTML "Interpreting an event stream" and the
 * WHATWG Encoding "UTF-8 decode". Every expected value below is written by hand from the spec
 * text (byte sequences were derived from the UTF-8 decoder algorithm and double-checked once
 * against Node's TextDecoder while writing, then hard-coded).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { scan, scanEach, scanEnd, scanEndEach, scanStart } from '../src/index.js';
import type { ScanEndOptions, ScanState, SseEvent } from '../src/index.js';
import { concat, cutAt, type BytePart } from './helpers/chunks.js';
import { scanAll } from './helpers/scan.js';

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const encoder = new TextEncoder();

/** Splits `all` at the given byte offsets (ascending) into chunks. */
const splitAt = (all: Uint8Array, cuts: readonly number[]): Uint8Array[] => cutAt(all, cuts);

/** One chunk per byte. */
function byteByByte(all: Uint8Array): Uint8Array[] {
  return Array.from(all, (b) => Uint8Array.of(b));
}

type Run = { state: ScanState; events: SseEvent[] };

/** Feeds `input` (string as UTF-8, or bytes), optionally cut at the given byte offsets. */
function feed(input: string | Uint8Array, cuts: readonly number[] = [], state?: ScanState): Run {
  const all = typeof input === 'string' ? encoder.encode(input) : input;
  return scanAll(splitAt(all, cuts), state);
}

/** Feeds each part as its own chunk. */
function feedParts(parts: readonly BytePart[], state?: ScanState): Run {
  return scanAll(
    parts.map((p) => concat([p])),
    state,
  );
}

/** Feeds `input` then ends the stream; the events of both steps are returned together. */
function feedEnd(input: string | Uint8Array | readonly BytePart[], options?: ScanEndOptions): Run {
  const r = typeof input === 'string' || input instanceof Uint8Array ? feed(input) : feedParts(input);
  const e = options === undefined ? scanEnd(r.state) : scanEnd(r.state, options);
  return { state: e.state, events: [...r.events, ...e.events] };
}

/** All ascending pairs of cut positions strictly inside [0, n]. */
function allCutPairs(n: number): number[][] {
  const out: number[][] = [];
  for (let i = 1; i < n; i++) for (let j = i + 1; j < n; j++) out.push([i, j]);
  return out;
}

/** All non-empty subsets of the given cut positions, each ascending. */
function subsetsOf(cuts: readonly number[]): number[][] {
  const out: number[][] = [];
  for (let mask = 1; mask < 1 << cuts.length; mask++) {
    out.push(cuts.filter((_, i) => (mask & (1 << i)) !== 0));
  }
  return out;
}

const INCOMPLETE = { dispatchIncomplete: true } as const;

/** An event as the scanner dispatches it. */
const msg = (data: string, type = 'message', lastEventId = ''): SseEvent => ({ type, data, lastEventId });

// ---------------------------------------------------------------------------------------------
// Start state
// ---------------------------------------------------------------------------------------------

describe('scanStart', () => {
  test('begins with an empty last event ID and no retry', () => {
    const s = scanStart();
    expect(s.lastEventId).toBe('');
    expect(s.retry).toBe(undefined);
  });

  test('a simple event', () => {
    expect(feed('data: hello\n\n').events).toEqual([{ type: 'message', data: 'hello', lastEventId: '' }]);
  });
});

// ---------------------------------------------------------------------------------------------
// Decoding & BOM
// ---------------------------------------------------------------------------------------------

describe('decoding & BOM', () => {
  test('multi-byte UTF-8 text is decoded', () => {
    expect(feed('data: h\u00e9llo \u65e5\u672c \u{1F600}\n\n').events).toEqual([
      { type: 'message', data: 'h\u00e9llo \u65e5\u672c \u{1F600}', lastEventId: '' },
    ]);
  });

  test('one leading BOM is stripped', () => {
    expect(feed(concat([[0xef, 0xbb, 0xbf], 'data: x\n\n'])).events).toEqual([
      { type: 'message', data: 'x', lastEventId: '' },
    ]);
  });

  test('a leading BOM before a comment line is stripped (the comment stays a comment)', () => {
    expect(feed(concat([[0xef, 0xbb, 0xbf], ':c\ndata: x\n\n'])).events).toEqual([
      { type: 'message', data: 'x', lastEventId: '' },
    ]);
  });

  test('a second BOM is data: the first line becomes field "\\uFEFFdata", which is ignored', () => {
    const r = feed(concat([[0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf], 'data: x\n\ndata: y\n\n']));
    expect(r.events).toEqual([{ type: 'message', data: 'y', lastEventId: '' }]);
  });

  test('a BOM inside a value is data', () => {
    expect(feed(concat(['data: ', [0xef, 0xbb, 0xbf], 'x\n\n'])).events).toEqual([
      { type: 'message', data: '\uFEFFx', lastEventId: '' },
    ]);
  });

  test('a BOM at the start of a later line is data (the line is ignored)', () => {
    expect(feed(concat(['data: a\n\n', [0xef, 0xbb, 0xbf], 'data: b\n\n'])).events).toEqual([
      { type: 'message', data: 'a', lastEventId: '' },
    ]);
  });

  test('a BOM at the start of a later chunk is data', () => {
    expect(feedParts(['data: a\n\n', [0xef, 0xbb, 0xbf, ...encoder.encode('data: b\n\n')]]).events).toEqual([
      { type: 'message', data: 'a', lastEventId: '' },
    ]);
  });

  test('a BOM in the first chunk after a non-BOM first character is data', () => {
    // The stream's first character is "d"; the BOM in the second chunk starts a value.
    expect(feedParts(['data: ', [0xef, 0xbb, 0xbf, 0x0a, 0x0a]]).events).toEqual([
      { type: 'message', data: '\uFEFF', lastEventId: '' },
    ]);
  });

  test('an incomplete BOM (EF BB then ASCII) is one U+FFFD, not stripped', () => {
    // EF BB 64 ... → U+FFFD then "data: x": the field name is "\uFFFDdata", ignored.
    const r = feed(concat([[0xef, 0xbb], 'data: x\n\ndata: y\n\n']));
    expect(r.events).toEqual([{ type: 'message', data: 'y', lastEventId: '' }]);
  });

  test('EF BB BE (U+FEFE) at the start is not a BOM', () => {
    const r = feed(concat([[0xef, 0xbb, 0xbe], 'data: x\n\ndata: y\n\n']));
    expect(r.events).toEqual([{ type: 'message', data: 'y', lastEventId: '' }]);
  });

  test('FF byte → U+FFFD', () => {
    expect(feed(concat(['data: ', [0xff], '\n\n'])).events).toEqual([
      { type: 'message', data: '\uFFFD', lastEventId: '' },
    ]);
  });

  test('FF followed by ASCII → U+FFFD then the ASCII', () => {
    expect(feed(concat(['data: ', [0xff, 0x41], '\n\n'])).events).toEqual([
      { type: 'message', data: '\uFFFDA', lastEventId: '' },
    ]);
  });

  test('F5 (never a lead byte) → U+FFFD', () => {
    expect(feed(concat(['data: ', [0xf5], 'z\n\n'])).events).toEqual([
      { type: 'message', data: '\uFFFDz', lastEventId: '' },
    ]);
  });

  test('overlong C0 AF → two U+FFFD', () => {
    expect(feed(concat(['data: ', [0xc0, 0xaf], '\n\n'])).events).toEqual([
      { type: 'message', data: '\uFFFD\uFFFD', lastEventId: '' },
    ]);
  });

  test('overlong E0 80 → two U+FFFD', () => {
    expect(feed(concat(['data: ', [0xe0, 0x80], 'A\n\n'])).events).toEqual([
      { type: 'message', data: '\uFFFD\uFFFDA', lastEventId: '' },
    ]);
  });

  test('overlong F0 80 → two U+FFFD', () => {
    expect(feed(concat(['data: ', [0xf0, 0x80], '\n\n'])).events).toEqual([
      { type: 'message', data: '\uFFFD\uFFFD', lastEventId: '' },
    ]);
  });

  test('overlong F0 80 80 80 → four U+FFFD', () => {
    expect(feed(concat(['data: ', [0xf0, 0x80, 0x80, 0x80], '\n\n'])).events).toEqual([
      { type: 'message', data: '\uFFFD\uFFFD\uFFFD\uFFFD', lastEventId: '' },
    ]);
  });

  test('surrogate ED A0 80 → three U+FFFD', () => {
    expect(feed(concat(['data: ', [0xed, 0xa0, 0x80], '\n\n'])).events).toEqual([
      { type: 'message', data: '\uFFFD\uFFFD\uFFFD', lastEventId: '' },
    ]);
  });

  test('past U+10FFFF (F4 90 80 80) → four U+FFFD', () => {
    expect(feed(concat(['data: ', [0xf4, 0x90, 0x80, 0x80], '\n\n'])).events).toEqual([
      { type: 'message', data: '\uFFFD\uFFFD\uFFFD\uFFFD', lastEventId: '' },
    ]);
  });

  test('a lone continuation byte → U+FFFD', () => {
    expect(feed(concat(['data: a', [0x80], 'b\n\n'])).events).toEqual([
      { type: 'message', data: 'a\uFFFDb', lastEventId: '' },
    ]);
  });

  test('a truncated 4-byte sequence followed by ASCII → one U+FFFD then the ASCII', () => {
    expect(feed(concat(['data: ', [0xf0, 0x9f, 0x98, 0x41], '\n\n'])).events).toEqual([
      { type: 'message', data: '\uFFFDA', lastEventId: '' },
    ]);
  });

  test('a truncated sequence does not swallow the LF that follows it', () => {
    expect(feed(concat(['data: ', [0xe2, 0x82], '\n\ndata: b\n\n'])).events).toEqual([
      { type: 'message', data: '\uFFFD', lastEventId: '' },
      { type: 'message', data: 'b', lastEventId: '' },
    ]);
  });

  test('a truncated sequence followed by a new lead byte → U+FFFD then the new character', () => {
    expect(feed(concat(['data: ', [0xe2, 0x82, 0xe2, 0x82, 0xac], '\n\n'])).events).toEqual([
      { type: 'message', data: '\uFFFD\u20AC', lastEventId: '' },
    ]);
  });

  test('a sequence broken by a lead byte that begins a held sequence → U+FFFD, in a chunk led by multi-byte text', () => {
    // The first chunk's text ends before F4, the start of the sequence it carries over; the EF
    // before it is broken by that F4. The decoder for multi-byte text must not hold the EF, or
    // the next chunk's text would come out wrong.
    const parts: BytePart[] = ['data: ', [0xe6, 0x97, 0xa5, 0xef, 0xf4], [0x8f, 0xbf, 0xbf], '\u65e5\n\ndata: \u65e5\n\n'];
    const expected = [
      { type: 'message', data: '\u65e5\uFFFD\u{10FFFF}\u65e5', lastEventId: '' },
      { type: 'message', data: '\u65e5', lastEventId: '' },
    ];
    expect(feed(concat(parts)).events).toEqual(expected);
    expect(feedParts(parts).events).toEqual(expected);
  });

  test('a chunk that ends with a CR and the start of a character: the LF after the character is a line end of its own', () => {
    // The state after the first chunk holds both the CR and the lead byte of 日. The CR ended
    // "data: a"; the LF after 日 ends the line 日 (an unknown field): it is not the LF of a CRLF.
    const parts: BytePart[] = [concat(['data: a\r', [0xe6]]), concat([[0x97, 0xa5], '\ndata: b\n\n'])];
    const split = feedParts(parts).events;
    expect(split).toEqual([{ type: 'message', data: 'a\nb', lastEventId: '' }]);
    expect(split).toEqual(feed(concat(parts)).events);
  });

  test('U+0000 in data is data', () => {
    expect(feed('data: a\u0000b\n\n').events).toEqual([{ type: 'message', data: 'a\u0000b', lastEventId: '' }]);
  });
});

// ---------------------------------------------------------------------------------------------
// Line ends
// ---------------------------------------------------------------------------------------------

describe('line ends', () => {
  test('LF', () => {
    expect(feed('data: a\ndata: b\n\n').events).toEqual([{ type: 'message', data: 'a\nb', lastEventId: '' }]);
  });

  test('CRLF is one line end', () => {
    expect(feed('data: a\r\ndata: b\r\n\r\n').events).toEqual([
      { type: 'message', data: 'a\nb', lastEventId: '' },
    ]);
  });

  test('CR', () => {
    expect(feed('data: a\rdata: b\r\r').events).toEqual([{ type: 'message', data: 'a\nb', lastEventId: '' }]);
  });

  test('mixed line ends', () => {
    expect(feed('data: a\r\ndata: b\rdata: c\n\r\n').events).toEqual([
      { type: 'message', data: 'a\nb\nc', lastEventId: '' },
    ]);
  });

  test('LF CR is two line ends (the CR ends an empty line)', () => {
    expect(feed('data: a\n\rdata: b\n\n').events).toEqual([
      { type: 'message', data: 'a', lastEventId: '' },
      { type: 'message', data: 'b', lastEventId: '' },
    ]);
  });

  test('CR CR is a line end and a blank line', () => {
    expect(feed('data: a\r\r').events).toEqual([{ type: 'message', data: 'a', lastEventId: '' }]);
  });

  test('CR LF CR LF is a line end and one blank line', () => {
    expect(feed('data: a\r\n\r\ndata: b\r\n\r\n').events).toEqual([
      { type: 'message', data: 'a', lastEventId: '' },
      { type: 'message', data: 'b', lastEventId: '' },
    ]);
  });

  test('a blank line after a CR or CRLF dispatches, however the stream is split', () => {
    // The blank line after a CRLF is read at once (the scanner's CRLF CRLF path); after a lone CR,
    // and when a chunk ends inside it, it is read by the general loop. Every split must agree.
    const input = 'data: a\r\r\ndata: b\r\n\r\nevent: x\r\ndata: c\r\n\r\r\n';
    const expected = [
      { type: 'message', data: 'a', lastEventId: '' },
      { type: 'message', data: 'b', lastEventId: '' },
      { type: 'x', data: 'c', lastEventId: '' },
    ];
    expect(feed(input).events).toEqual(expected);
    for (const cuts of allCutPairs(input.length)) expect(feed(input, cuts).events, `cut at ${cuts}`).toEqual(expected);
  });

  test('CRLF then a CR that ends the input is a blank line: the event is dispatched at once', () => {
    const r = feed('data: a\r\n\r');
    expect(r.events).toEqual([{ type: 'message', data: 'a', lastEventId: '' }]);
    // The LF that follows completes that CRLF: it is no second blank line.
    expect(feed('\ndata: b\n\n', [], r.state).events).toEqual([{ type: 'message', data: 'b', lastEventId: '' }]);
  });

  test('CR at the very end of input ends its line at once', () => {
    const r = feed('data: a\r');
    expect(r.events).toEqual([]);
    // The line was interpreted: a following LF does not dispatch (it is part of CRLF), a second does.
    expect(scan(r.state, concat(['\n'])).events).toEqual([]);
    expect(feed('\n\n', [], r.state).events).toEqual([{ type: 'message', data: 'a', lastEventId: '' }]);
  });

  test('U+2028, U+2029, NEL, VT and FF are data, not line ends', () => {
    expect(feed('data: a\u2028b\u2029c\u0085d\u000be\u000cf\n\n').events).toEqual([
      { type: 'message', data: 'a\u2028b\u2029c\u0085d\u000be\u000cf', lastEventId: '' },
    ]);
  });

  test('NEL as the raw byte 85 is not a line end (it is an invalid byte → U+FFFD)', () => {
    expect(feed(concat(['data: a', [0x85], 'b\n\n'])).events).toEqual([
      { type: 'message', data: 'a\uFFFDb', lastEventId: '' },
    ]);
  });

  test('a line end inside a field name splits the name', () => {
    // "dat" and "a: x" are both unknown fields; nothing is dispatched.
    expect(feed('dat\na: x\n\n').events).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Field parsing
// ---------------------------------------------------------------------------------------------

describe('field parsing', () => {
  test.each<[string, string, SseEvent[]]>([
    ['a line starting with ":" is a comment', ': comment\ndata: x\n:another: one\n\n', [msg('x')]],
    ['a comment-only block dispatches nothing', ':hi\n\n:\n\n', []],
    ['a comment that looks like a data field is ignored', ':data: x\n\n', []],
    ['no space after the colon: the whole rest is the value', 'data:x\n\n', [msg('x')]],
    ['exactly one leading space is removed (two)', 'data:  two\n\n', [msg(' two')]],
    ['exactly one leading space is removed (three)', 'data:   three\n\n', [msg('  three')]],
    ['trailing spaces are kept', 'data: x  \n\n', [msg('x  ')]],
    ['a tab after the colon is not removed', 'data:\tx\n\n', [msg('\tx')]],
    ['the name ends at the first colon; later colons are part of the value', 'data: a: b:c\n\n', [msg('a: b:c')]],
    ['"data:" gives an empty value', 'data:\n\n', [msg('')]],
    ['"data: " gives an empty value', 'data: \n\n', [msg('')]],
    ['no colon: the whole line is the name and the value is empty', 'data\n\n', [msg('')]],
    ['no colon, twice: two empty values', 'data\ndata\n\n', [msg('\n')]],
    ['no colon, then a value', 'data\ndata: x\n\n', [msg('\nx')]],
    ['unknown fields are ignored', 'foo: bar\ndata: x\nx-custom\n\n', [msg('x')]],
    ['field names are case-sensitive: Data, DATA', 'Data: x\n\nDATA: y\n\n', []],
    ['field names are case-sensitive: Event', 'Event: foo\ndata: x\n\n', [msg('x')]],
    ['field names are case-sensitive: ID', 'ID: 5\ndata: x\n\n', [msg('x')]],
    ['names that merely start with or resemble data are ignored', 'datum: x\n\ndatadata: x\n\ndat: x\n\nd: x\n\n', []],
    ['names that merely start with or resemble event are ignored', 'eventx: a\nevents: b\neven: c\ndata: x\n\n', [msg('x')]],
    ['"data :" has name "data " and is ignored', 'data : x\n\ndata :x\n\n', []],
    ['" data:" (leading space) has name " data" and is ignored', ' data: x\n\n', []],
    ['"id :", "retry :" and "event :" are ignored', 'id : 1\nretry : 5\nevent : t\ndata: x\n\n', [msg('x')]],
  ])('%s', (_, input, events) => {
    expect(feed(input).events).toEqual(events);
  });

  test.each<[string, string]>([
    ['a comment that looks like an id field is ignored', ':id: 5\n\n'],
    ['field names are case-sensitive: Id', 'Id: 5\n\n'],
    ['names that merely start with or resemble id are ignored', 'ids: 1\nidx\ni: 2\n\n'],
  ])('%s: the last event ID stays empty', (_, input) => {
    expect(feed(input).state.lastEventId).toBe('');
  });

  test.each<[string, string]>([
    ['a comment that looks like a retry field is ignored', ':retry: 5\n'],
    ['field names are case-sensitive: Retry, RETRY', 'Retry: 5\nRETRY: 6\n'],
    ['names that merely start with or resemble retry are ignored', 'retry2: 5\nretrys: 6\nretr: 7\n'],
    ['"retry :" is ignored', 'id : 1\nretry : 5\nevent : t\ndata: x\n\n'],
  ])('%s: no retry is set', (_, input) => {
    expect(feed(input).state.retry).toBe(undefined);
  });
});

// ---------------------------------------------------------------------------------------------
// Each field
// ---------------------------------------------------------------------------------------------

describe('data field', () => {
  test.each<[string, string, SseEvent[]]>([
    ['data lines are joined with LF', 'data: a\ndata: b\ndata: c\n\n', [msg('a\nb\nc')]],
    ['only one trailing LF is removed (a, empty)', 'data: a\ndata:\n\n', [msg('a\n')]],
    ['only one trailing LF is removed (two empty)', 'data:\ndata:\n\n', [msg('\n')]],
    ['only one trailing LF is removed (three empty)', 'data:\ndata:\ndata:\n\n', [msg('\n\n')]],
    ['data lines separated by other fields and comments are still joined', 'data: a\n: c\nevent: t\ndata: b\n\n', [msg('a\nb', 't')]],
    ['a JSON payload passes through unchanged', 'data: {"jsonrpc":"2.0","id":1,"result":{}}\n\n', [msg('{"jsonrpc":"2.0","id":1,"result":{}}')]],
  ])('%s', (_, input, events) => {
    expect(feed(input).events).toEqual(events);
  });

  test('priming event "id: 1\\nretry: 1000\\ndata:\\n\\n" fires with empty data', () => {
    const r = feed('id: 1\nretry: 1000\ndata:\n\n');
    expect(r.events).toEqual([{ type: 'message', data: '', lastEventId: '1' }]);
    expect(r.state.lastEventId).toBe('1');
    expect(r.state.retry).toBe(1000);
  });
});

describe('event field', () => {
  test.each<[string, string, SseEvent[]]>([
    ['sets the event type', 'event: update\ndata: x\n\n', [msg('x', 'update')]],
    ['the last event field in the block wins', 'event: a\nevent: b\ndata: x\n\n', [msg('x', 'b')]],
    ['an event field after the data still applies', 'data: x\nevent: late\n\n', [msg('x', 'late')]],
    ['an empty event value gives type "message" ("event:")', 'event:\ndata: x\n\n', [msg('x')]],
    ['an empty event value gives type "message" ("event: ")', 'event: \ndata: x\n\n', [msg('x')]],
    ['an empty event value gives type "message" ("event")', 'event\ndata: x\n\n', [msg('x')]],
    ['an empty event value overrides an earlier one in the block', 'event: a\nevent:\ndata: x\n\n', [msg('x')]],
    ['only one leading space is removed from the type', 'event:  x\ndata: d\n\n', [msg('d', ' x')]],
    ['the type is reset after an event', 'event: a\ndata: 1\n\ndata: 2\n\n', [msg('1', 'a'), msg('2')]],
    ['the type is reset by a blank line even when no event fires', 'event: a\n\ndata: 2\n\n', [msg('2')]],
    ['"message" may be given explicitly', 'event: message\ndata: x\n\n', [msg('x')]],
  ])('%s', (_, input, events) => {
    expect(feed(input).events).toEqual(events);
  });
});

describe('id field', () => {
  test('sets the event lastEventId and the state lastEventId', () => {
    const r = feed('id: 7\ndata: a\n\n');
    expect(r.events).toEqual([{ type: 'message', data: 'a', lastEventId: '7' }]);
    expect(r.state.lastEventId).toBe('7');
  });

  test('the id persists into later events', () => {
    const r = feed('id: 7\ndata: a\n\ndata: b\n\nevent: e\ndata: c\n\n');
    expect(r.events).toEqual([
      { type: 'message', data: 'a', lastEventId: '7' },
      { type: 'message', data: 'b', lastEventId: '7' },
      { type: 'e', data: 'c', lastEventId: '7' },
    ]);
    expect(r.state.lastEventId).toBe('7');
  });

  test('a block with only an id fires no event but updates lastEventId', () => {
    const r = feed('id: 42\n\n');
    expect(r.events).toEqual([]);
    expect(r.state.lastEventId).toBe('42');
  });

  test('lastEventId is not updated until the block is dispatched', () => {
    const r = feed('id: 42\n');
    expect(r.state.lastEventId).toBe('');
    const r2 = feed('\n', [], r.state);
    expect(r2.events).toEqual([]);
    expect(r2.state.lastEventId).toBe('42');
  });

  test('an id after the data in the same block applies to that event', () => {
    expect(feed('data: x\nid: 9\n\n').events).toEqual([{ type: 'message', data: 'x', lastEventId: '9' }]);
  });

  test('the last id in the block wins', () => {
    expect(feed('id: 1\nid: 2\ndata: x\n\n').events).toEqual([{ type: 'message', data: 'x', lastEventId: '2' }]);
  });

  test('an id containing U+0000 is ignored', () => {
    const r = feed('id: 1\n\nid: a\u0000b\ndata: x\n\n');
    expect(r.events).toEqual([{ type: 'message', data: 'x', lastEventId: '1' }]);
    expect(r.state.lastEventId).toBe('1');
  });

  test('an id that is only U+0000 is ignored (it does not reset the id)', () => {
    const r = feed('id: 3\n\nid: \u0000\n\n');
    expect(r.state.lastEventId).toBe('3');
    expect(feed('data: x\n\n', [], r.state).events).toEqual([{ type: 'message', data: 'x', lastEventId: '3' }]);
  });

  test('"id:" with an empty value resets the id to ""', () => {
    const r = feed('id: 1\ndata: a\n\nid:\ndata: b\n\n');
    expect(r.events).toEqual([
      { type: 'message', data: 'a', lastEventId: '1' },
      { type: 'message', data: 'b', lastEventId: '' },
    ]);
    expect(r.state.lastEventId).toBe('');
  });

  test.each<[string, string, string]>([
    ['"id: " also resets the id', 'id: 1\n\nid: \n\n', ''],
    ['a bare "id" line also resets the id', 'id: 1\n\nid\n\n', ''],
    ['only one leading space is removed from the id', 'id:  x\n\n', ' x'],
    ['any other characters are kept in the id', 'id: a b:c\u00e9\u{1F600}\u2028\n\n', 'a b:c\u00e9\u{1F600}\u2028'],
  ])('%s', (_, input, lastEventId) => {
    expect(feed(input).state.lastEventId).toBe(lastEventId);
  });
});

describe('retry field', () => {
  test('ASCII digits set retry at once, without a dispatch', () => {
    const r = feed('retry: 1000\n');
    expect(r.events).toEqual([]);
    expect(r.state.retry).toBe(1000);
  });

  test.each<[string, string, number | undefined]>([
    ['"retry: 0" → 0', 'retry: 0\n', 0],
    ['leading zeros are allowed: "007" → 7', 'retry: 007\n', 7],
    ['"retry:10" (no space) → 10', 'retry:10\n', 10],
    ['value " 10" (one leading space removed) → 10', 'retry: 10\n', 10],
    ['value "  10" leaves " 10", which is invalid', 'retry: 500\nretry:  10\n', 500],
    ['"10 " (trailing space) is invalid', 'retry: 500\nretry: 10 \n', 500],
    ['"1e3" is invalid', 'retry: 500\nretry: 1e3\n', 500],
    ['"1e3" alone sets nothing', 'retry: 1e3\n', undefined],
    ['"-1" is invalid', 'retry: 500\nretry: -1\n', 500],
    ['an empty value (no digits) is ignored: "retry:"', 'retry: 500\nretry:\n', 500],
    ['an empty value (no digits) is ignored: "retry: "', 'retry: 500\nretry: \n', 500],
    ['an empty value (no digits) is ignored: "retry"', 'retry: 500\nretry\n', 500],
    ['an empty value alone sets nothing', 'retry:\n', undefined],
    ...['+5', '1.5', '0x10', '\uFF11\uFF10', '5s', 'abc', '1_000', '\t10'].map(
      (v): [string, string, number] => [`a non-digit value ${JSON.stringify(v)} is ignored`, `retry: 500\nretry: ${v}\n`, 500],
    ),
    ['a later valid retry replaces an earlier one', 'retry: 500\nretry: 3000\n', 3000],
  ])('%s', (_, input, retry) => {
    expect(feed(input).state.retry).toBe(retry);
  });

  test('retry does not fire an event and does not touch lastEventId', () => {
    const r = feed('retry: 5\n\n');
    expect(r.events).toEqual([]);
    expect(r.state.lastEventId).toBe('');
    expect(r.state.retry).toBe(5);
  });

  test('retry applies even when the block is later discarded', () => {
    const r = feedEnd('retry: 5\ndata: x');
    expect(r.events).toEqual([]);
    expect(r.state.retry).toBe(5);
  });

  test('retry persists across later events', () => {
    const r = feed('retry: 5\n\ndata: a\n\nretry: x\n\n');
    expect(r.state.retry).toBe(5);
  });
});

// ---------------------------------------------------------------------------------------------
// Dispatch
// ---------------------------------------------------------------------------------------------

describe('dispatch', () => {
  test('a blank line with an empty data buffer fires nothing', () => {
    const r = feed('\n\n\r\n\r');
    expect(r.events).toEqual([]);
    expect(r.state.lastEventId).toBe('');
  });

  test('extra blank lines after an event fire nothing more', () => {
    expect(feed('data: a\n\n\n\n').events).toEqual([{ type: 'message', data: 'a', lastEventId: '' }]);
  });

  test('the data buffer is reset after an event', () => {
    expect(feed('data: a\n\ndata: b\n\n').events).toEqual([
      { type: 'message', data: 'a', lastEventId: '' },
      { type: 'message', data: 'b', lastEventId: '' },
    ]);
  });

  test('events come out in stream order', () => {
    expect(feed('event: 1\ndata: a\n\nevent: 2\ndata: b\n\nevent: 3\ndata: c\n\n').events).toEqual([
      { type: '1', data: 'a', lastEventId: '' },
      { type: '2', data: 'b', lastEventId: '' },
      { type: '3', data: 'c', lastEventId: '' },
    ]);
  });

  test('lastEventId is set at every dispatch, even when no event fires', () => {
    const r1 = feed('id: 3\n\n');
    expect(r1.events).toEqual([]);
    expect(r1.state.lastEventId).toBe('3');
    const r2 = feed('id: 3\nevent: e\n\n');
    expect(r2.events).toEqual([]);
    expect(r2.state.lastEventId).toBe('3');
  });

  test('the id buffer is not reset by dispatch', () => {
    const r = feed('id: 3\n\ndata: a\n\n');
    expect(r.events).toEqual([{ type: 'message', data: 'a', lastEventId: '3' }]);
  });

  test('the event carries the id buffer at the time of its dispatch', () => {
    expect(feed('id: 1\ndata: a\n\nid: 2\ndata: b\n\n').events).toEqual([
      { type: 'message', data: 'a', lastEventId: '1' },
      { type: 'message', data: 'b', lastEventId: '2' },
    ]);
  });

  test('a complete line without a blank line does not dispatch', () => {
    const r = feed('data: a\n');
    expect(r.events).toEqual([]);
    expect(feed('\n', [], r.state).events).toEqual([{ type: 'message', data: 'a', lastEventId: '' }]);
  });

  test('the state lastEventId stays the last dispatched id while a new id is pending', () => {
    const r = feed('id: 1\n\nid: 2\ndata: x\n');
    expect(r.state.lastEventId).toBe('1');
  });
});

// ---------------------------------------------------------------------------------------------
// End of stream
// ---------------------------------------------------------------------------------------------

describe('end of stream', () => {
  test.each(['data: x\n', 'data: x', 'event: t\ndata: x\ndata: y'])('default: a pending block is discarded (%j)', (input) => {
    expect(feedEnd(input).events).toEqual([]);
  });

  test('default: a pending id is not made the last event ID', () => {
    expect(feedEnd('id: 1\n\nid: 9\n').state.lastEventId).toBe('1');
    expect(feedEnd('id: 9').state.lastEventId).toBe('');
  });

  test('default: a pending incomplete retry line is discarded', () => {
    expect(feedEnd('retry: 5').state.retry).toBe(undefined);
  });

  test('default: a complete stream loses nothing', () => {
    const r = feedEnd('id: 2\nretry: 9\ndata: x\n\n');
    expect(r.events).toEqual([{ type: 'message', data: 'x', lastEventId: '2' }]);
    expect(r.state.lastEventId).toBe('2');
    expect(r.state.retry).toBe(9);
  });

  test('dispatchIncomplete: a pending line without a line end is processed and dispatched', () => {
    expect(feedEnd('data: x', INCOMPLETE).events).toEqual([{ type: 'message', data: 'x', lastEventId: '' }]);
  });

  test('dispatchIncomplete: a complete line without a blank line is dispatched', () => {
    expect(feedEnd('data: x\n', INCOMPLETE).events).toEqual([{ type: 'message', data: 'x', lastEventId: '' }]);
  });

  test('dispatchIncomplete: the whole pending block is dispatched, with its type and id', () => {
    const r = feedEnd('id: 4\nevent: e\ndata: x\ndata: y', INCOMPLETE);
    expect(r.events).toEqual([{ type: 'e', data: 'x\ny', lastEventId: '4' }]);
    expect(r.state.lastEventId).toBe('4');
  });

  test('dispatchIncomplete: a pending "data" line without colon or line end appends an empty line', () => {
    expect(feedEnd('data: a\ndata', INCOMPLETE).events).toEqual([{ type: 'message', data: 'a\n', lastEventId: '' }]);
  });

  test('dispatchIncomplete: a pending id-only block updates lastEventId, no event', () => {
    const r = feedEnd('id: 5', INCOMPLETE);
    expect(r.events).toEqual([]);
    expect(r.state.lastEventId).toBe('5');
  });

  test('dispatchIncomplete: a pending retry line without line end applies', () => {
    expect(feedEnd('retry: 5', INCOMPLETE).state.retry).toBe(5);
  });

  test.each<[string, SseEvent[]]>([
    ['', []],
    ['data: x\n\n', [msg('x')]],
    [':comment', []],
    ['data: x\r\n\r\n', [msg('x')]],
  ])('dispatchIncomplete: nothing pending → no event from the end (%j)', (input, events) => {
    expect(feedEnd(input, INCOMPLETE).events).toEqual(events);
  });

  test('a CR that ends the stream ends its line (dispatchIncomplete → one event)', () => {
    expect(feedEnd('data: x\r', INCOMPLETE).events).toEqual([{ type: 'message', data: 'x', lastEventId: '' }]);
  });

  test('a CR that ends the stream ends its line (default → no event)', () => {
    expect(feedEnd('data: x\r').events).toEqual([]);
  });

  test('"retry: 5\\r" then scanEnd() → retry 5', () => {
    expect(feedEnd('retry: 5\r').state.retry).toBe(5);
  });

  test('a CR that ends the stream after a data line is a line end, not a blank line', () => {
    // "data: a\r" + end: only one line end was seen, so the default end still discards.
    expect(feedEnd(['data: a', '\r']).events).toEqual([]);
    // Whereas "\r\r" is a blank line and dispatches before the end.
    expect(feedEnd(['data: a\r', '\r']).events).toEqual([{ type: 'message', data: 'a', lastEventId: '' }]);
  });

  test.each<[string, number[], string]>([
    ['an incomplete UTF-8 sequence at the end → one U+FFFD', [0xf0, 0x9f, 0x98], 'a\uFFFD'],
    ['an incomplete UTF-8 sequence at the end → one U+FFFD', [0xf0, 0x9f], 'a\uFFFD'],
    ['an incomplete UTF-8 sequence at the end → one U+FFFD', [0xf0], 'a\uFFFD'],
    ['an incomplete UTF-8 sequence at the end → one U+FFFD', [0xe2, 0x82], 'a\uFFFD'],
    ['an incomplete UTF-8 sequence at the end → one U+FFFD', [0xc3], 'a\uFFFD'],
    ['an invalid held-back sequence at the end → two U+FFFD', [0xe0, 0x80], 'a\uFFFD\uFFFD'],
    ['an invalid held-back sequence at the end → two U+FFFD', [0xf0, 0x80], 'a\uFFFD\uFFFD'],
  ])('dispatchIncomplete: %s (%j)', (_, end, data) => {
    expect(feedEnd(concat(['data: a', end]), INCOMPLETE).events).toEqual([msg(data)]);
  });

  test('dispatchIncomplete: an incomplete sequence split over chunks at the end → one U+FFFD', () => {
    expect(feedEnd(['data: a', [0xf0], [0x9f], [0x98]], INCOMPLETE).events).toEqual([
      { type: 'message', data: 'a\uFFFD', lastEventId: '' },
    ]);
  });

  test('dispatchIncomplete: an incomplete BOM as the whole stream is U+FFFD, an ignored field', () => {
    const r = feedEnd([[0xef, 0xbb]], INCOMPLETE);
    expect(r.events).toEqual([]);
    expect(r.state.lastEventId).toBe('');
  });

  test('default: an incomplete UTF-8 sequence at the end is discarded with its line', () => {
    expect(feedEnd(concat(['data: a', [0xf0, 0x9f, 0x98]])).events).toEqual([]);
  });

  test('the state returned by scanEnd keeps lastEventId and retry', () => {
    const r = feedEnd('id: 8\nretry: 70\ndata: a\n\ndata: pending');
    expect(r.state.lastEventId).toBe('8');
    expect(r.state.retry).toBe(70);
    const r2 = feedEnd('id: 8\nretry: 70\ndata: a\n\ndata: pending', INCOMPLETE);
    expect(r2.state.lastEventId).toBe('8');
    expect(r2.state.retry).toBe(70);
  });

  test('the new stream does not keep the pending data, type or line', () => {
    const end1 = feedEnd('event: t\ndata: a\ndata: par');
    expect(feed('data: b\n\n', [], end1.state).events).toEqual([
      { type: 'message', data: 'b', lastEventId: '' },
    ]);
    const end2 = feedEnd('data: par');
    // If "par" were kept, the next line would read "data: pardata: c".
    expect(feed('data: c\n\n', [], end2.state).events).toEqual([{ type: 'message', data: 'c', lastEventId: '' }]);
  });

  test('the new stream does not keep a pending UTF-8 tail', () => {
    const e = feedEnd(concat(['data: a', [0xf0, 0x9f]]));
    // A kept tail would turn the next line into "\uFFFDdata: b", an ignored field.
    expect(feed('data: b\n\n', [], e.state).events).toEqual([{ type: 'message', data: 'b', lastEventId: '' }]);
  });

  test('the new stream strips its own leading BOM', () => {
    const e = feedEnd(concat([[0xef, 0xbb, 0xbf], 'data: a\n\n']));
    expect(feed(concat([[0xef, 0xbb, 0xbf], 'data: b\n\n']), [], e.state).events).toEqual([
      { type: 'message', data: 'b', lastEventId: '' },
    ]);
  });

  test('the new stream keeps retry when it sets none', () => {
    const e = feedEnd('retry: 42\n');
    const r = feed('data: x\n\n', [], e.state);
    expect(r.state.retry).toBe(42);
  });

  test('scanEnd of a fresh state gives no events and an empty state', () => {
    const e = scanEnd(scanStart());
    expect(e.events).toEqual([]);
    expect(e.state.lastEventId).toBe('');
    expect(e.state.retry).toBe(undefined);
    const e2 = scanEnd(scanStart(), INCOMPLETE);
    expect(e2.events).toEqual([]);
  });

  test('dispatchIncomplete: false behaves like the default', () => {
    const r = feed('data: x');
    expect(scanEnd(r.state, { dispatchIncomplete: false }).events).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Purity
// ---------------------------------------------------------------------------------------------

describe('purity', () => {
  /** A state with something in every buffer: id, retry, type, data, pending line and UTF-8 tail. */
  function busyState(): ScanState {
    return feed(concat(['id: 1\nretry: 5\nevent: t\ndata: a\ndata: pend', [0xf0, 0x9f]])).state;
  }

  test('scan does not change the state it is given', () => {
    const s = busyState();
    const before = structuredClone(s);
    scan(s, concat([[0x98, 0x80], 'ing\n\nid: 2\nretry: 6\nevent: u\ndata: more']));
    expect(s).toEqual(before);
  });

  test('scan works on a deeply frozen state', () => {
    const s = busyState();
    const deepFreeze = (o: unknown): void => {
      if (o !== null && typeof o === 'object' && !Object.isFrozen(o)) {
        Object.freeze(o);
        for (const v of Object.values(o)) deepFreeze(v);
      }
    };
    deepFreeze(s);
    const r = scan(s, concat([[0x98, 0x80], 'ing\n\n']));
    expect(r.events).toEqual([{ type: 't', data: 'a\npend\u{1F600}ing', lastEventId: '1' }]);
  });

  test('scanEnd does not change the state it is given', () => {
    const s = busyState();
    const before = structuredClone(s);
    scanEnd(s, INCOMPLETE);
    scanEnd(s);
    expect(s).toEqual(before);
  });

  test('scan does not change the chunk', () => {
    const chunk = concat(['data: a\r\n\r\ndata: b', [0xe2, 0x82]]);
    const copy = chunk.slice();
    scan(scanStart(), chunk);
    expect(chunk).toEqual(copy);
  });

  test('an old state stays valid: scanning it again gives equal results', () => {
    const s1 = feed('id: 1\ndata: a\n').state;
    const rB = scan(s1, concat(['data: b\n\n']));
    const rC = scan(s1, concat(['data: c\n\n']));
    const rB2 = scan(s1, concat(['data: b\n\n']));
    expect(rB.events).toEqual([{ type: 'message', data: 'a\nb', lastEventId: '1' }]);
    expect(rC.events).toEqual([{ type: 'message', data: 'a\nc', lastEventId: '1' }]);
    expect(rB2.events).toEqual(rB.events);
    expect(rB2.state).toEqual(rB.state);
  });

  test('an old state with a pending tail and CR stays valid', () => {
    const s1 = feed(concat(['data: a\r']), []).state;
    const s2 = scan(s1, concat(['data: ', [0xf0, 0x9f]])).state;
    const end = concat([[0x98, 0x80], '\n\n']);
    expect(scan(s2, end).events).toEqual([{ type: 'message', data: 'a\n\u{1F600}', lastEventId: '' }]);
    expect(scan(s2, end).events).toEqual([{ type: 'message', data: 'a\n\u{1F600}', lastEventId: '' }]);
    // Forking s1 differently: the LF completes the CRLF.
    expect(scan(s1, concat(['\n\n'])).events).toEqual([{ type: 'message', data: 'a', lastEventId: '' }]);
    expect(scan(s1, concat(['\r'])).events).toEqual([{ type: 'message', data: 'a', lastEventId: '' }]);
  });

  test('state survives structuredClone', () => {
    const s = busyState();
    const clone = structuredClone(s);
    // "id: 1" is still pending (no blank line yet), so the last event ID string is still ''.
    expect(clone.lastEventId).toBe('');
    expect(clone.retry).toBe(5);
    const rest = concat([[0x98, 0x80], 'ing\n\n']);
    const fromClone = scan(clone, rest);
    expect(fromClone.events).toEqual([{ type: 't', data: 'a\npend\u{1F600}ing', lastEventId: '1' }]);
    expect(fromClone.state).toEqual(scan(s, rest).state);
  });

  test('state after a trailing CR survives structuredClone', () => {
    const clone = structuredClone(feed('data: a\r').state);
    expect(scan(clone, concat(['\n\n'])).events).toEqual([{ type: 'message', data: 'a', lastEventId: '' }]);
  });

  test('state from scanEnd survives structuredClone', () => {
    const clone = structuredClone(feedEnd('id: 3\nretry: 4\n\n').state);
    expect(clone.lastEventId).toBe('3');
    expect(clone.retry).toBe(4);
    const r = feed('id: 5\ndata: x\n\n', [], clone);
    expect(r.events).toEqual([{ type: 'message', data: 'x', lastEventId: '5' }]);
    expect(r.state.retry).toBe(4);
  });

  test('the state keeps no view of the chunk (pending line)', () => {
    const chunk = concat(['data: hello']);
    const r = scan(scanStart(), chunk);
    chunk.fill(0x0a);
    expect(scan(r.state, concat(['\n\n'])).events).toEqual([{ type: 'message', data: 'hello', lastEventId: '' }]);
  });

  test('the state keeps no view of the chunk (UTF-8 tail)', () => {
    const chunk = concat(['data: ab', [0xf0, 0x9f]]);
    const r = scan(scanStart(), chunk);
    chunk.fill(0x41);
    expect(scan(r.state, concat([[0x98, 0x80], '\n\n'])).events).toEqual([
      { type: 'message', data: 'ab\u{1F600}', lastEventId: '' },
    ]);
  });

  test('the state keeps no view of the chunk (tail extended by a second chunk)', () => {
    const c1 = Uint8Array.of(0xf0);
    const c2 = Uint8Array.of(0x9f, 0x98);
    const s1 = scan(feed('data: ').state, c1).state;
    const s2 = scan(s1, c2).state;
    c1.fill(0x41);
    c2.fill(0x41);
    expect(scan(s2, concat([[0x80], '\n\n'])).events).toEqual([{ type: 'message', data: '\u{1F600}', lastEventId: '' }]);
  });

  test('the state keeps no view of the chunk (completed block data)', () => {
    const chunk = concat(['data: keep\n']);
    const r = scan(scanStart(), chunk);
    chunk.fill(0x20);
    expect(scan(r.state, concat(['\n'])).events).toEqual([{ type: 'message', data: 'keep', lastEventId: '' }]);
  });

  test('an empty chunk is a no-op: same state, no events', () => {
    const s0 = scanStart();
    const r0 = scan(s0, new Uint8Array(0));
    expect(r0.state).toBe(s0);
    expect(r0.events).toEqual([]);
    const s = busyState();
    const r = scan(s, new Uint8Array(0));
    expect(r.state).toBe(s);
    expect(r.events).toEqual([]);
  });

  test('an empty chunk between CR and LF does not break the CRLF', () => {
    expect(feedParts(['data: a\r', '', '\ndata: b\r', '', '\n\r', '', '\n']).events).toEqual([
      { type: 'message', data: 'a\nb', lastEventId: '' },
    ]);
  });

  test('the events array is the caller\'s own', () => {
    const s = feed('data: a\n').state;
    const r1 = scan(s, concat(['\n']));
    r1.events.push({ type: 'x', data: 'x', lastEventId: 'x' });
    expect(scan(s, concat(['\n'])).events).toEqual([{ type: 'message', data: 'a', lastEventId: '' }]);
  });
});

// ---------------------------------------------------------------------------------------------
// Chunk boundaries
// ---------------------------------------------------------------------------------------------

describe('chunk boundaries', () => {
  test('CR | LF split is one line end', () => {
    expect(feedParts(['data: a\r', '\ndata: b\r', '\n']).events).toEqual([]);
    expect(feedParts(['data: a\r', '\ndata: b\r', '\n\r', '\n']).events).toEqual([
      { type: 'message', data: 'a\nb', lastEventId: '' },
    ]);
  });

  test('CR | LF split on the blank line dispatches exactly once', () => {
    const r = feedParts(['data: a\r\n\r', '\ndata: b\r\n\r', '\n']);
    expect(r.events).toEqual([
      { type: 'message', data: 'a', lastEventId: '' },
      { type: 'message', data: 'b', lastEventId: '' },
    ]);
  });

  test('CR | LF split: the LF is not a blank line', () => {
    const r = feedParts(['id: 1\r', '\n']);
    expect(r.state.lastEventId).toBe('');
  });

  test('CR at chunk end, next chunk starts with another character', () => {
    expect(feedParts(['data: a\r', 'data: b\r\r']).events).toEqual([
      { type: 'message', data: 'a\nb', lastEventId: '' },
    ]);
  });

  test('CR at chunk end, next chunk starts with CR (a blank line)', () => {
    expect(feedParts(['data: a\r', '\r']).events).toEqual([{ type: 'message', data: 'a', lastEventId: '' }]);
  });

  test('CR at chunk end, next chunk starts with a split multi-byte character then LF', () => {
    // Lines: "data: a", "é" (ignored field), "" (blank → dispatch).
    expect(feedParts(['data: a\r', [0xc3], [0xa9, 0x0a, 0x0a]]).events).toEqual([
      { type: 'message', data: 'a', lastEventId: '' },
    ]);
  });

  test('CR at chunk end, next chunk is only part of a multi-byte character', () => {
    // Lines: "data: a", "data: 😀", "" (blank).
    expect(feedParts(['data: a\r', [0x64, 0x61, 0x74, 0x61, 0x3a, 0xf0], [0x9f, 0x98], [0x80, 0x0a, 0x0a]]).events)
      .toEqual([{ type: 'message', data: 'a\n\u{1F600}', lastEventId: '' }]);
    expect(feedParts(['data: a\r', [0xf0], [0x9f, 0x98, 0x80], '\n\n']).events).toEqual([
      { type: 'message', data: 'a', lastEventId: '' },
    ]);
  });

  test('CR | LF split across three separate CRs', () => {
    expect(feed('data: a\r\ndata: b\r\n\r\n', [8, 17, 19]).events).toEqual([
      { type: 'message', data: 'a\nb', lastEventId: '' },
    ]);
  });

  test('BOM split 1 + 2', () => {
    expect(feedParts([[0xef], [0xbb, 0xbf], 'data: x\n\n']).events).toEqual([
      { type: 'message', data: 'x', lastEventId: '' },
    ]);
    expect(feedParts([[0xef], [0xbb, 0xbf, ...encoder.encode('data: x\n\n')]]).events).toEqual([
      { type: 'message', data: 'x', lastEventId: '' },
    ]);
  });

  test('BOM split 2 + 1', () => {
    expect(feedParts([[0xef, 0xbb], [0xbf], 'data: x\n\n']).events).toEqual([
      { type: 'message', data: 'x', lastEventId: '' },
    ]);
    expect(feedParts([[0xef, 0xbb], [0xbf, ...encoder.encode('data: x\n\n')]]).events).toEqual([
      { type: 'message', data: 'x', lastEventId: '' },
    ]);
  });

  test('BOM split 1 + 1 + 1', () => {
    expect(feedParts([[0xef], [0xbb], [0xbf], 'data: x\n\n']).events).toEqual([
      { type: 'message', data: 'x', lastEventId: '' },
    ]);
  });

  test('BOM alone in the first chunk', () => {
    expect(feedParts([[0xef, 0xbb, 0xbf], 'data: x\n\n']).events).toEqual([
      { type: 'message', data: 'x', lastEventId: '' },
    ]);
  });

  test('split BOM followed by a second BOM: only the first is stripped', () => {
    expect(feedParts([[0xef, 0xbb], [0xbf, 0xef, 0xbb, 0xbf], 'data: x\n\n']).events).toEqual([]);
    expect(feedParts([[0xef], [0xbb], [0xbf], [0xef], [0xbb], [0xbf], 'data: x\n\n']).events).toEqual([]);
  });

  test('split non-BOM EF BB BE at the start is not stripped', () => {
    expect(feedParts([[0xef], [0xbb], [0xbe], 'data: x\n\n']).events).toEqual([]);
  });

  test('BOM split inside a value is data', () => {
    expect(feedParts([concat(['data: x', [0xef]]), [0xbb, 0xbf], '\n\n']).events).toEqual([
      { type: 'message', data: 'x\uFEFF', lastEventId: '' },
    ]);
  });

  test('BOM split at the start of a later line is data', () => {
    expect(feedParts(['data: a\n\n', [0xef], [0xbb, 0xbf], 'data: b\n\n']).events).toEqual([
      { type: 'message', data: 'a', lastEventId: '' },
    ]);
  });

  test('BOM stripped at every split of the stream', () => {
    const all = concat([[0xef, 0xbb, 0xbf], 'data: x\n\n']);
    for (let k = 1; k < all.length; k++) {
      expect(feed(all, [k]).events, `cut at ${k}`).toEqual([{ type: 'message', data: 'x', lastEventId: '' }]);
    }
    expect(scanAll(byteByByte(all)).events).toEqual([{ type: 'message', data: 'x', lastEventId: '' }]);
  });

  test('a 4-byte emoji split at every offset', () => {
    // "data: " is 6 bytes; the emoji is bytes 6..9.
    const all = concat(['data: ', [0xf0, 0x9f, 0x98, 0x80], '\n\n']);
    const expected = [{ type: 'message', data: '\u{1F600}', lastEventId: '' }];
    for (let k = 1; k < all.length; k++) {
      expect(feed(all, [k]).events, `cut at ${k}`).toEqual(expected);
    }
    for (const cuts of subsetsOf([7, 8, 9])) {
      expect(feed(all, cuts).events, `cuts at ${cuts.join(',')}`).toEqual(expected);
    }
    for (const cuts of subsetsOf([6, 7, 8, 9, 10])) {
      expect(feed(all, cuts).events, `cuts at ${cuts.join(',')}`).toEqual(expected);
    }
  });

  test('a 3-byte and a 2-byte character split at every offset', () => {
    const all = concat(['data: ', [0xe2, 0x82, 0xac, 0xc3, 0xa9], '\n\n']);
    const expected = [{ type: 'message', data: '\u20AC\u00e9', lastEventId: '' }];
    for (const cuts of subsetsOf([6, 7, 8, 9, 10, 11])) {
      expect(feed(all, cuts).events, `cuts at ${cuts.join(',')}`).toEqual(expected);
    }
  });

  test('E0 80 split → two U+FFFD', () => {
    expect(feedParts(['data: ', [0xe0], [0x80], 'A\n\n']).events).toEqual([
      { type: 'message', data: '\uFFFD\uFFFDA', lastEventId: '' },
    ]);
    expect(feedParts(['data: ', [0xe0], [0x80, 0x41, 0x0a, 0x0a]]).events).toEqual([
      { type: 'message', data: '\uFFFD\uFFFDA', lastEventId: '' },
    ]);
    expect(feedParts([concat(['data: ', [0xe0, 0x80]]), 'A\n\n']).events).toEqual([
      { type: 'message', data: '\uFFFD\uFFFDA', lastEventId: '' },
    ]);
  });

  test('E0 80 80 split at every offset → three U+FFFD', () => {
    const all = concat(['data: ', [0xe0, 0x80, 0x80], '\n\n']);
    for (const cuts of subsetsOf([6, 7, 8, 9])) {
      expect(feed(all, cuts).events, `cuts at ${cuts.join(',')}`).toEqual([
        { type: 'message', data: '\uFFFD\uFFFD\uFFFD', lastEventId: '' },
      ]);
    }
  });

  test('F0 80 split → two U+FFFD', () => {
    expect(feedParts(['data: ', [0xf0], [0x80], '\n\n']).events).toEqual([
      { type: 'message', data: '\uFFFD\uFFFD', lastEventId: '' },
    ]);
  });

  test('F0 80 80 80 split at every offset → four U+FFFD', () => {
    const all = concat(['data: ', [0xf0, 0x80, 0x80, 0x80], '\n\n']);
    for (const cuts of subsetsOf([6, 7, 8, 9, 10])) {
      expect(feed(all, cuts).events, `cuts at ${cuts.join(',')}`).toEqual([
        { type: 'message', data: '\uFFFD\uFFFD\uFFFD\uFFFD', lastEventId: '' },
      ]);
    }
  });

  test('surrogate ED A0 80 split at every offset → three U+FFFD', () => {
    const all = concat(['data: ', [0xed, 0xa0, 0x80], '\n\n']);
    for (const cuts of subsetsOf([6, 7, 8, 9])) {
      expect(feed(all, cuts).events, `cuts at ${cuts.join(',')}`).toEqual([
        { type: 'message', data: '\uFFFD\uFFFD\uFFFD', lastEventId: '' },
      ]);
    }
  });

  test('overlong C0 AF split → two U+FFFD', () => {
    expect(feedParts(['data: ', [0xc0], [0xaf], '\n\n']).events).toEqual([
      { type: 'message', data: '\uFFFD\uFFFD', lastEventId: '' },
    ]);
  });

  test('F4 90 80 80 split at every offset → four U+FFFD', () => {
    const all = concat(['data: ', [0xf4, 0x90, 0x80, 0x80], '\n\n']);
    for (const cuts of subsetsOf([6, 7, 8, 9, 10])) {
      expect(feed(all, cuts).events, `cuts at ${cuts.join(',')}`).toEqual([
        { type: 'message', data: '\uFFFD\uFFFD\uFFFD\uFFFD', lastEventId: '' },
      ]);
    }
  });

  test('FF at the end of a chunk → U+FFFD', () => {
    expect(feedParts(['data: ', [0xff], '\n\n']).events).toEqual([
      { type: 'message', data: '\uFFFD', lastEventId: '' },
    ]);
    expect(feedParts([concat(['data: a', [0xff]]), [0x62, 0x0a, 0x0a]]).events).toEqual([
      { type: 'message', data: 'a\uFFFDb', lastEventId: '' },
    ]);
  });

  test('a truncated sequence then ASCII in the next chunk → U+FFFD then the ASCII', () => {
    expect(feedParts(['data: ', [0xf0, 0x9f, 0x98], 'A\n\n']).events).toEqual([
      { type: 'message', data: '\uFFFDA', lastEventId: '' },
    ]);
  });

  test('a truncated sequence then LF in the next chunk: the LF still ends the line', () => {
    expect(feedParts(['data: ', [0xf0, 0x9f], '\n\n']).events).toEqual([
      { type: 'message', data: '\uFFFD', lastEventId: '' },
    ]);
    expect(feedParts(['data: ', [0xf0], [0x9f], '\r\n\r\n']).events).toEqual([
      { type: 'message', data: '\uFFFD', lastEventId: '' },
    ]);
  });

  test('a truncated sequence then a new lead byte in the next chunk', () => {
    expect(feedParts(['data: ', [0xe2, 0x82], [0xe2, 0x82, 0xac], '\n\n']).events).toEqual([
      { type: 'message', data: '\uFFFD\u20AC', lastEventId: '' },
    ]);
    expect(feedParts(['data: ', [0xe2], [0xe2], [0x82, 0xac, 0x0a, 0x0a]]).events).toEqual([
      { type: 'message', data: '\uFFFD\u20AC', lastEventId: '' },
    ]);
  });

  test('a chunk of stray continuation bytes → one U+FFFD each', () => {
    expect(feedParts(['data: a', [0x80, 0x80], 'b\n\n']).events).toEqual([
      { type: 'message', data: 'a\uFFFD\uFFFDb', lastEventId: '' },
    ]);
  });

  test('a complete character followed by a stray continuation byte in the next chunk', () => {
    expect(feedParts(['data: ', [0xc3, 0xa9], [0xa9], '\n\n']).events).toEqual([
      { type: 'message', data: '\u00e9\uFFFD', lastEventId: '' },
    ]);
    expect(feedParts(['data: ', [0xc3], [0xa9, 0xa9], '\n\n']).events).toEqual([
      { type: 'message', data: '\u00e9\uFFFD', lastEventId: '' },
    ]);
  });

  test('field names and values split across chunks', () => {
    expect(feedParts(['da', 'ta: x\n\n']).events).toEqual([{ type: 'message', data: 'x', lastEventId: '' }]);
    expect(feedParts(['ev', 'ent: t\ndata: x\n\n']).events).toEqual([{ type: 't', data: 'x', lastEventId: '' }]);
    expect(feedParts(['data', ':', ' ', 'x', '\n', '\n']).events).toEqual([
      { type: 'message', data: 'x', lastEventId: '' },
    ]);
    expect(feedParts(['data:', '  x\n\n']).events).toEqual([{ type: 'message', data: ' x', lastEventId: '' }]);
    expect(feedParts(['retry: 1', '23\n']).state.retry).toBe(123);
    expect(feedParts(['id: 4', '2\n\n']).state.lastEventId).toBe('42');
    expect(feedParts(['dat', 'um: x\n\n']).events).toEqual([]);
  });

  test('a long line delivered one byte at a time', () => {
    const value = 'x'.repeat(1000) + '\u00e9'.repeat(50) + '\u{1F600}' + 'y'.repeat(37);
    const r = scanAll(byteByByte(concat([`data: ${value}\n\n`])));
    expect(r.events).toEqual([{ type: 'message', data: value, lastEventId: '' }]);
    expect(r.events[0]?.data.length).toBe(1000 + 50 + 2 + 37);
  });

  test('a long line delivered in chunks of varying sizes', () => {
    const value = 'abcdefghijklmnopqrstuvwxyz'.repeat(40);
    const all = concat([`data: ${value}\ndata: ${value}\n\n`]);
    const cuts: number[] = [];
    for (let at = 1, step = 1; at < all.length; step = (step % 29) + 1, at += step) cuts.push(at);
    expect(feed(all, cuts).events).toEqual([{ type: 'message', data: `${value}\n${value}`, lastEventId: '' }]);
  });

  test('a chunk that is a subarray of a larger buffer (non-zero byteOffset)', () => {
    const buffer = concat(['XXXXdata: a\n\nYYYY']);
    const chunk = buffer.subarray(4, 13);
    expect(scan(scanStart(), chunk).events).toEqual([{ type: 'message', data: 'a', lastEventId: '' }]);
    const tailChunk = concat(['ZZdata: ', [0xf0, 0x9f], 'QQ']).subarray(2, 10);
    const s = scan(scanStart(), tailChunk).state;
    expect(scan(s, concat([[0x98, 0x80], '\n\n'])).events).toEqual([
      { type: 'message', data: '\u{1F600}', lastEventId: '' },
    ]);
  });

  test('values cut from a large chunk equal those cut from small ones, at every length', () => {
    // A chunk of more than 16 KiB is read in pieces that end at a LF until a line is longer than a
    // piece, then whole, each line read from a copy; from chunks of 100 bytes, every value is a plain slice.
    let text = '';
    for (let i = 0; i < 400; i++) {
      const n = (i * 37) % 20_000; // 0 to 19 999 characters: short, most of a piece, and longer than one
      text += `event: e${'v'.repeat(n % 50)}${i}\nid: ${i}-${'i'.repeat(n % 20)}\ndata: ${String(i).padEnd(n, 'x')}\ndata: ${'y'.repeat(n >> 1)}\n\n`;
    }
    const bytes = encoder.encode(text);
    const whole = scanAll([bytes]);
    const small = scanAll(Array.from({ length: Math.ceil(bytes.length / 100) }, (_, k) => bytes.slice(k * 100, k * 100 + 100)));
    expect(whole.events).toHaveLength(400);
    expect(whole.events).toEqual(small.events);
    const n = (399 * 37) % 20_000;
    expect(whole.events[399]).toEqual({ type: `e${'v'.repeat(n % 50)}399`, data: `${'399'.padEnd(n, 'x')}\n${'y'.repeat(n >> 1)}`, lastEventId: `399-${'i'.repeat(n % 20)}` });
  });

  describe('a mixed stream gives the same result however it is split', () => {
    // BOM, CRLF, CR-only, comment, retry, id, 2- and 4-byte characters, an empty-data event,
    // an id reset and a trailing CR.
    const all = concat([
      [0xef, 0xbb, 0xbf],
      'id: 1\r\nretry: 250\r\n: c\rdata: h\u00e9\u{1F600}\r\n\r\nevent: e\ndata:\n\nid\r\r',
    ]);
    const expected = [
      { type: 'message', data: 'h\u00e9\u{1F600}', lastEventId: '1' },
      { type: 'e', data: '', lastEventId: '1' },
    ];

    const check = (r: Run, label: string): void => {
      expect(r.events, label).toEqual(expected);
      expect(r.state.lastEventId, label).toBe('');
      expect(r.state.retry, label).toBe(250);
      expect(scanEnd(r.state, INCOMPLETE).events, label).toEqual([]);
    };

    test('whole', () => {
      check(feed(all), 'whole');
    });

    test('every single cut', () => {
      for (let k = 1; k < all.length; k++) check(feed(all, [k]), `cut at ${k}`);
    });

    test('every pair of cuts', () => {
      for (const cuts of allCutPairs(all.length)) check(feed(all, cuts), `cuts at ${cuts.join(',')}`);
    });

    test('one byte at a time', () => {
      check(scanAll(byteByByte(all)), 'byte by byte');
    });
  });

  test('a stream with invalid bytes gives the same result however it is split', () => {
    // "\r\n\r": the CRLF ends the data line, the CR is a blank line.
    const all = concat(['data: ', [0xff, 0xc0, 0xaf, 0xe0, 0x80, 0xed, 0xa0, 0x80, 0xf0, 0x9f, 0x98, 0x41], '\r\n\r']);
    const expected = [
      {
        type: 'message',
        // FF → 1, C0 AF → 2, E0 80 → 2, ED A0 80 → 3, F0 9F 98 (cut short by "A") → 1: nine U+FFFD.
        data: '\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFDA',
        lastEventId: '',
      },
    ];
    expect(feed(all).events).toEqual(expected);
    for (let k = 1; k < all.length; k++) {
      expect(feed(all, [k]).events, `cut at ${k}`).toEqual(expected);
    }
    for (const cuts of allCutPairs(all.length)) {
      const r = feed(all, cuts);
      expect(r.events, `cuts at ${cuts.join(',')}`).toEqual(expected);
      expect(scanEnd(r.state, INCOMPLETE).events, `end after cuts at ${cuts.join(',')}`).toEqual([]);
    }
    expect(scanAll(byteByByte(all)).events).toEqual(expected);
  });
});

// ---------------------------------------------------------------------------------------------
// Each event to a sink
// ---------------------------------------------------------------------------------------------

describe('scanEach and scanEndEach: each event handed to a sink', () => {
  const collect = () => {
    const events: SseEvent[] = [];
    return { events, onEvent: (event: SseEvent) => void events.push(event) };
  };

  test('the sink is called once per event, in stream order, as scan lists them', () => {
    const bytes = encoder.encode('event: a\ndata: 1\n\nid: 7\ndata: 2\ndata: 3\n\n: note\ndata: 4');
    const { events, onEvent } = collect();
    const state = scanEach(scanStart(), bytes, onEvent);
    expect(events).toEqual([msg('1', 'a'), msg('2\n3', 'message', '7')]);
    expect(state).toEqual(scan(scanStart(), bytes).state);
    const end = collect();
    expect(scanEndEach(state, end.onEvent, INCOMPLETE)).toEqual(scanEnd(state, INCOMPLETE).state);
    expect(end.events).toEqual([msg('4', 'message', '7')]);
  });

  test('scanEndEach discards the pending block by default, as scanEnd does', () => {
    const state = scan(scanStart(), encoder.encode('id: 3\n\ndata: cut')).state;
    const { events, onEvent } = collect();
    const next = scanEndEach(state, onEvent);
    expect(events).toEqual([]);
    expect(next).toEqual(scanEnd(state).state);
    expect(next.lastEventId).toBe('3');
  });

  test('a sink that throws stops the chunk there; the state given is unchanged, so a rescan hands the same events again', () => {
    const bytes = encoder.encode('data: 1\n\ndata: 2\n\ndata: 3\n\n');
    const start = scan(scanStart(), encoder.encode('id: 9\n')).state;
    const snapshot = structuredClone(start);
    const seen: string[] = [];
    const failure = new Error('sink failed');
    expect(() =>
      scanEach(start, bytes, (event) => {
        seen.push(event.data);
        if (event.data === '2') throw failure;
      }),
    ).toThrow(failure);
    expect(seen).toEqual(['1', '2']);
    expect(start).toEqual(snapshot);
    const { events, onEvent } = collect();
    scanEach(start, bytes, onEvent);
    expect(events.map((event) => event.data)).toEqual(['1', '2', '3']);
  });

  test.each<[unknown, string]>([
    [undefined, 'undefined'],
    [null, 'null'],
    ['push', '"push"'],
    [{}, '[object Object]'],
    [[], '[object Array]'],
  ])('an onEvent that is not a function (%o) is a TypeError', (bad, described) => {
    const message = `onEvent must be a function, got ${described}`;
    expect(() => scanEach(scanStart(), encoder.encode('data: 1\n\n'), bad as never)).toThrow(new TypeError(message));
    expect(() => scanEndEach(scanStart(), bad as never, INCOMPLETE)).toThrow(new TypeError(message));
  });
});

// ---------------------------------------------------------------------------------------------
// Memory held (measured on the built package, in a child process with a full GC)
// ---------------------------------------------------------------------------------------------

describe('memory held by states and events', () => {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const probe = (...args: string[]): { bytesRead: number; retained: number } =>
    JSON.parse(
      execFileSync(process.execPath, ['--expose-gc', `${root}/test/helpers/heap-probe.mjs`, `${root}/dist/index.js`, ...args], {
        encoding: 'utf8',
        timeout: 60_000,
      }),
    ) as { bytesRead: number; retained: number };

  test('no string an event or a state holds keeps a large chunk alive: type, id, data, pending line', () => {
    // Each of them, cut from an 8 MiB chunk, would hold the chunk's whole text as a view.
    const { bytesRead, retained } = probe('retention');
    expect(bytesRead).toBeGreaterThan(8 * 1024 * 1024);
    expect(retained).toBeLessThan(256 * 1024);
  });

  test('one small event kept from a large chunk of them keeps a few KiB alive, not the chunk', () => {
    // Its values are views of a piece of at most 16 KiB that the events around it share: about 18 KB held.
    // The heap reading moves by what the engine frees on its own in a GC (the probe takes the
    // least of three readings), so the bound is the retention test's above: far below 8 MiB.
    const { bytesRead, retained } = probe('one-of-many');
    expect(bytesRead).toBeGreaterThan(8 * 1024 * 1024);
    expect(retained).toBeLessThan(256 * 1024);
  });

  test.each([
    ['short data lines', 'data: x\n'],
    ['empty data lines', 'data:\n'],
    ['id lines', 'id: 1\n'],
    ['event lines', 'event: e\n'],
    ['longer data lines', 'data: abcdefghijklmnopqrstuvwxyz\n'],
    ['mixed field lines', 'data: x\nid: 1\nevent: e\ndata:\n'],
  ])('a pending event of many %s holds at most 3x the bytes read', (_, line) => {
    const { bytesRead, retained } = probe('lines', JSON.stringify(line), String(4 * 1024 * 1024));
    expect(bytesRead).toBeGreaterThanOrEqual(4 * 1024 * 1024);
    expect(retained).toBeLessThanOrEqual(3 * bytesRead);
  });
});
