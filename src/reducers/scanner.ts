/**
 * The SSE scanner: bytes in, events out, as a pure reducer.
 *
 * It implements WHATWG HTML §9.2.6 "Interpreting an event stream"
 * <https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation>,
 * quoted where each rule is applied, with one addition: the state `scanEnd` returns seeds the next
 * stream's id buffer with the last event ID, as reconnecting clients do (docs/guides/scanner.md).
 *
 * One `scan` call: decode the chunk, carrying an incomplete UTF-8 sequence over (`utf8.ts`);
 * drop the stream's one leading BOM; cut the text into lines at CRLF, LF or CR; interpret each
 * complete line (`EventBuffers.interpretLine`), handing each event dispatched to a list or a
 * sink. The incomplete last line is kept as growing text (`growing-text.ts`): strings are
 * immutable, survive `structuredClone` and alias no caller bytes. A chunk of more than 16 KiB is
 * read as several such calls, in pieces that end at a LF (`scanPieces`).
 * @module
 */

import { checkType } from '../vocabulary/check-argument.js';
import { copyOf, grow, isShort, NO_TEXT, textOf, type GrowingText } from './growing-text.js';
import { checkChunk, isUint8Array } from './uint8-array.js';
import { asciiByte, decodeChunk, flushTail, NO_TAIL, withoutBom, type Utf8Tail } from './utf8.js';

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const COLON = 0x3a;

/** One dispatched server-sent event, as the spec's `MessageEvent` would carry it. */
export type SseEvent = {
  /** The event type: the last `event` field's value, or `"message"` when none (or an empty one) was given. */
  type: string;
  /** The `data` field values of the event's block, joined with LF. */
  data: string;
  /** The last event ID string at the time of dispatch. */
  lastEventId: string;
};

/**
 * The scanner's state: plain, immutable data. Keep it, fork it, replay from it, or send it
 * through `structuredClone`; `scan` never changes a state it is given.
 *
 * Only {@link ScanState.lastEventId} and {@link ScanState.retry} are public; the rest is the
 * scanner's internal representation, which may change in any release. A state comes from
 * {@link scanStart}, {@link scan} or {@link scanEnd} (or a copy of one), never from an object literal.
 */
export interface ScanState {
  /** The spec's "last event ID string": the id buffer as it stood at the last dispatch ('' before any). */
  readonly lastEventId: string;
  /** The reconnection time in milliseconds last set by a valid `retry` field, or `undefined`. */
  readonly retry: number | undefined;
  /** @internal The decoded text of the incomplete line at the end of the input. */
  readonly pending: GrowingText;
  /** @internal Bytes of an incomplete UTF-8 sequence at the end of the input (copied). */
  readonly tail: Utf8Tail;
  /** @internal The input ended with a CR, so a LF that comes next belongs to that line end. */
  readonly afterCR: boolean;
  /** @internal Whether the first character of the stream has been seen (and a BOM there dropped). */
  readonly bomChecked: boolean;
  /** @internal The data buffer's first line; `undefined` while the buffer is empty. */
  readonly data: string | undefined;
  /** @internal The data buffer's later lines, each with the LF before it. */
  readonly moreData: GrowingText;
  /** @internal The event type buffer. */
  readonly type: string;
  /** @internal The last event ID buffer. */
  readonly id: string;
}

/**
 * Receives each event {@link scanEach} and {@link scanEndEach} dispatch, in stream order, as it
 * is dispatched. The event is the caller's to keep.
 */
export type SseEventSink = (event: SseEvent) => void;

/** Where a scan's events go: a list to push onto, or a sink to call. */
type EventsOut = SseEvent[] | SseEventSink;

/** What `scan` and `scanEnd` return: the next state and the events dispatched on the way, in order. */
export interface ScanResult {
  /** The state after the input; the state passed in is unchanged. */
  readonly state: ScanState;
  /** The events dispatched by this input, in stream order. A fresh array the caller owns. */
  readonly events: SseEvent[];
}

/** Options for {@link scanEnd}. */
export interface ScanEndOptions {
  /**
   * Dispatch the pending line and block as if the stream had ended with a line end and a blank
   * line. The spec discards them (`false`, the default): an EventSource treats a stream cut
   * mid-event as a dropped connection. A closed HTTP response body that is not resumed is better
   * read as complete, which is what the answer reader does.
   */
  readonly dispatchIncomplete?: boolean;
}

/**
 * `value`, a slice of `text`, as a string that keeps no more of `text` alive than its own size
 * again, or DETACH characters: engines make a long slice a view of its parent, so a short value
 * cut from a large text would hold the whole text. Values cut from a line are views of a text of
 * at most DETACH characters, or of their own line (see `scanText`); only the pending rest of a
 * text passes through here.
 */
function detached(value: string, text: string): string {
  return value.length < 13 || text.length <= DETACH || value.length * 2 >= text.length ? value : copyOf(value);
}

/**
 * The most characters of a text that values cut from it may keep alive (see {@link detached}).
 * 16 KiB, the size of a network read (a TLS record): such a chunk is read whole, as one text,
 * and larger ones in pieces of it. Pieces of 4 KiB cost 12–20% on a stream of small events in
 * 16 KiB reads in Chromium, workerd, Deno and Bun, and 4–8% in Node 24 and 26 (`tokens-16k`);
 * pieces of 64 KiB were no faster than 16 KiB anywhere (docs/guides/benchmarks.md).
 */
const DETACH = 16_384;

/** The state that begins a stream. */
export function scanStart(): ScanState {
  return streamStart('', undefined);
}

/**
 * A new stream's state that keeps what the spec keeps across streams of one event source: the
 * last event ID string (which also seeds the id buffer, as reconnecting clients do) and the
 * reconnection time.
 */
function streamStart(lastEventId: string, retry: number | undefined): ScanState {
  return {
    lastEventId,
    retry,
    pending: NO_TEXT,
    tail: NO_TAIL,
    afterCR: false,
    bomChecked: false,
    data: undefined,
    moreData: NO_TEXT,
    type: '',
    id: lastEventId,
  };
}

/**
 * Scans one chunk of the stream's bytes. Pure: `state` and `chunk` are not changed, and the
 * returned state keeps no view of `chunk` (bytes it must carry over are copied), so the caller may
 * reuse the chunk's memory at once. Any split of a stream into chunks yields the same events and
 * the same final state. Cost is linear in the chunk's length, whatever is pending.
 */
export function scan(state: ScanState, chunk: Uint8Array): ScanResult {
  checkChunk(chunk);
  const events: SseEvent[] = [];
  return { state: scanOnto(state, chunk, events), events };
}

/**
 * {@link scan}, with each event handed to `onEvent` as it is dispatched, and the next state
 * returned: no list is built. For a caller that reads each event at once, as a parser with a
 * callback is read; the state rules are `scan`'s.
 *
 * If `onEvent` throws, the error propagates and the scan of this chunk stops there. `state` is
 * unchanged, so scanning the chunk again from it dispatches the same events again, from the first.
 */
export function scanEach(state: ScanState, chunk: Uint8Array, onEvent: SseEventSink): ScanState {
  // Both arguments checked in one test, the refusal out of line: this runs per chunk.
  if (!isUint8Array(chunk) || typeof onEvent !== 'function') refuseEach(chunk, onEvent);
  return scanOnto(state, chunk, onEvent);
}

/** Throws the refusal of {@link scanEach}'s arguments, the chunk's first. */
function refuseEach(chunk: unknown, onEvent: unknown): void {
  checkChunk(chunk);
  checkType('onEvent', onEvent, 'function');
}

/** `onEvent`, checked to be a function. */
function checkedSink(onEvent: SseEventSink): SseEventSink {
  // Tested here with a constant first: checkType on every call costs (see scanEach).
  if (typeof onEvent !== 'function') checkType('onEvent', onEvent, 'function');
  return onEvent;
}

/** {@link scan}, with the events pushed onto `events` (or handed to a sink) and the next state returned. */
function scanOnto(state: ScanState, chunk: Uint8Array, events: EventsOut): ScanState {
  // Kept this small: engines inline it whole into a caller's per-chunk loop.
  return extendedByOneCharacter(state, chunk) ?? scanChunk(state, chunk, events);
}

/**
 * {@link scanOnto} for a chunk {@link extendedByOneCharacter} did not take: none, or one read
 * whole, or in pieces if large and no long line is pending.
 * @internal Also for the answer reducer, which makes its list of events only for such a chunk.
 */
export function scanChunk(state: ScanState, chunk: Uint8Array, events: EventsOut): ScanState {
  if (chunk.length === 0) return state;
  return chunk.length > DETACH && isShort(state.pending) ? scanPieces(state, chunk, events) : scanText(state, chunk, events);
}

/**
 * A chunk of more than DETACH bytes, scanned as pieces that each end after a LF and are short
 * enough that their text is at most DETACH characters (three bytes of a carried sequence
 * included): the values cut from a piece's text may then stay views of it (see {@link detached}),
 * and no line is copied. Any split gives the same events and state, so this changes cost only.
 * A line longer than that ends the splitting: the rest of the chunk is scanned whole, each line
 * read from a copy of its own (searching bytes on for the line's end costs more than that in
 * some engines). Not called while a long line is pending: it most likely goes on through the
 * chunk.
 */
function scanPieces(state: ScanState, chunk: Uint8Array, events: EventsOut): ScanState {
  let start = 0;
  while (chunk.length - start > DETACH) {
    // Searched back from the end of reach: the LF that ended the last piece bounds the search.
    const end = chunk.lastIndexOf(LF, start + DETACH - 4) + 1;
    if (end <= start) break;
    state = scanText(state, chunk.subarray(start, end), events);
    start = end;
  }
  // A piece ends where more than DETACH bytes were left before it, so some bytes always remain.
  return scanText(state, start === 0 ? chunk : chunk.subarray(start), events);
}

/**
 * `state` extended by `chunk` when the chunk is one character that ends no line, else
 * `undefined`. Byte-sized chunks are the worst chunking there is: this skips the decoder and the
 * line-end searches. `drip` and `answer-drip` 1.5x and 1.3x faster with it in Node 24, 1.5x and
 * 1.35x in Node 26, 1.4–1.55x in Chromium, workerd and Deno, 1.1–1.2x in Bun (`bench:ab`).
 * @internal Also for the answer reducer, which asks it first.
 */
export function extendedByOneCharacter(state: ScanState, chunk: Uint8Array): ScanState | undefined {
  const byte = asciiByte(state.tail, chunk);
  if (byte === -1 || byte === LF || byte === CR || !state.bomChecked || state.afterCR) return undefined;
  return withPending(state, grow(state.pending, String.fromCharCode(byte)), NO_TAIL, false, true);
}

/** {@link scanOnto} for any non-empty chunk. */
function scanText(state: ScanState, chunk: Uint8Array, events: EventsOut): ScanState {
  const decoded = decodeChunk(state.tail, chunk);
  let text = decoded.text;
  // The character a carried UTF-8 sequence makes joins the pending line: it is never a line end,
  // and the chunk's text is not copied to put it first.
  let head = decoded.head;
  // Bytes that only carry a sequence on: no character yet, so nothing else changes.
  if (head === '' && text === '') return withPending(state, state.pending, decoded.tail, state.afterCR, state.bomChecked);

  let bomChecked = state.bomChecked;
  if (!bomChecked) {
    // "One leading U+FEFF BYTE ORDER MARK character must be ignored if any are present" — only
    // the stream's first character; U+FEFF anywhere later is data.
    bomChecked = true;
    if (head !== '') head = withoutBom(head);
    else text = withoutBom(text);
  }

  let pos = 0;
  let afterCR = state.afterCR;
  if (afterCR) {
    // The previous input ended with CR: a LF now completes that CRLF, it is not a second line end.
    afterCR = false;
    if (head === '' && text.charCodeAt(0) === LF) pos = 1;
  }
  const pendingLine = head === '' ? state.pending : grow(state.pending, head);

  // The one way to a line end: the nearer of the next CR and LF, each searched again only once
  // the cursor passes it (so the text is searched for each at most once), the line interpreted,
  // and the LF of a CRLF skipped. Two shortcuts, for a blank line after a line, are marked below.
  let cr = text.indexOf('\r', pos);
  let lf = text.indexOf('\n', pos);
  if (cr === -1 && lf === -1) {
    // No line end: the chunk only extends the pending line (a long line in small chunks), which
    // is not read, so that a long line costs no more than its chunks.
    const pending = grow(pendingLine, pos === 0 ? text : text.slice(pos));
    return withPending(state, pending, decoded.tail, afterCR, bomChecked);
  }

  const buffers = new EventBuffers(state, events);
  const long = text.length > DETACH;
  let carried = textOf(pendingLine);
  for (;;) {
    const end = cr === -1 ? lf : lf === -1 || cr < lf ? cr : lf;
    if (end === -1) break;
    let line = text;
    let start = pos;
    let stop = end;
    if (carried !== '') {
      // The first line end completes the line carried over; it is read once, here.
      line = carried + text.slice(pos, end);
      carried = '';
      start = 0;
      stop = line.length;
    } else if (long) {
      // A line of a text longer than DETACH is read from a copy of its own, so that what is cut
      // from it keeps no more alive than its line. Values cut from a shorter text stay views of it
      // with no check per value: `tokens` and `tokens-16k` 3.4% and 3.8% fewer instructions in Node
      // 26 (bench:instructions), 2–5% faster in Node 24, Node 26 and Chromium (bench:ab).
      line = copyOf(text.slice(pos, end));
      start = 0;
      stop = line.length;
    }
    pos = end + 1;
    if (end === lf) {
      // Shortcut: LF LF, the next line is blank, so the line ends its event and the search for
      // the next LF starts after both. Most events are one `data:` line: `tokens` and `mcp`
      // 1.14x in Node 24, 1.16–1.2x in Node 26, 1.1–1.27x in Chromium, workerd and Deno, 1.05x in Bun.
      if (text.charCodeAt(pos) === LF) {
        buffers.interpretLast(line, start, stop);
        pos++;
      } else buffers.interpretLine(line, start, stop);
      lf = text.indexOf('\n', pos);
    } else {
      buffers.interpretLine(line, start, stop);
      // A CR ends its line at once, even when it ends the chunk: no line waits on the next input.
      // Only a LF right after it is still to be skipped, here or at the start of the next input.
      if (pos === text.length) afterCR = true;
      else {
        if (text.charCodeAt(pos) === LF) pos++;
        // Shortcut: CRLF CRLF, the next line is blank, as with LF LF above: `crlf` 1.12x in Node
        // 24, 1.16x in Node 26, 1.15–1.19x in Chromium, workerd and Deno; none in Bun.
        if (text.charCodeAt(pos) === CR && text.charCodeAt(pos + 1) === LF) {
          buffers.dispatch();
          pos += 2;
        }
      }
      cr = text.indexOf('\r', pos);
      if (lf !== -1 && lf < pos) lf = text.indexOf('\n', pos);
    }
  }
  return buffers.stateAfter(restOf(text, pos), decoded.tail, afterCR, bomChecked);
}

/**
 * Ends the stream. By default the pending line and block are discarded, as the spec says ("if
 * the file ends in the middle of an event, before the final empty line, the incomplete event is
 * not dispatched"); with `dispatchIncomplete: true` they are processed as if the stream had ended
 * with a line end and a blank line. Bytes of an incomplete UTF-8 sequence decode to U+FFFD.
 *
 * The returned state begins a new stream (a reconnection): it keeps `lastEventId` and `retry`.
 */
export function scanEnd(state: ScanState, options: ScanEndOptions = {}): ScanResult {
  const events: SseEvent[] = [];
  return { state: endOnto(state, events, options), events };
}

/**
 * {@link scanEnd}, with an event the end dispatches handed to `onEvent` (see {@link scanEach})
 * and the next state returned.
 */
export function scanEndEach(state: ScanState, onEvent: SseEventSink, options: ScanEndOptions = {}): ScanState {
  return endOnto(state, checkedSink(onEvent), options);
}

/** {@link scanEnd}, with the events pushed onto `events` or handed to a sink. */
function endOnto(state: ScanState, events: EventsOut, options: ScanEndOptions): ScanState {
  if (options.dispatchIncomplete !== true) return streamStart(state.lastEventId, state.retry);
  const buffers = new EventBuffers(state, events);
  // A tail is never U+FEFF (it is incomplete), and a non-empty line means the BOM was checked.
  const line = textOf(state.pending) + flushTail(state.tail);
  if (line !== '') buffers.interpretLine(line, 0, line.length);
  buffers.dispatch();
  return streamStart(buffers.lastEventId, buffers.retry);
}

/** `state` with a new pending line, UTF-8 tail and decoding flags, and nothing else changed. */
function withPending(state: ScanState, pending: GrowingText, tail: Utf8Tail, afterCR: boolean, bomChecked: boolean): ScanState {
  // Written out, not spread: this runs per chunk. `drip` and `answer-drip` 1.15–1.21x in Node 24
  // and 26 against `{ ...state, … }` (`bench:ab`, two processes each); `tokens` within noise.
  return {
    lastEventId: state.lastEventId,
    retry: state.retry,
    pending,
    tail,
    afterCR,
    bomChecked,
    data: state.data,
    moreData: state.moreData,
    type: state.type,
    id: state.id,
  };
}

/** The text after the last line end, `text[pos..]`, as the new pending line, detached from `text`. */
function restOf(text: string, pos: number): GrowingText {
  const rest = grow(NO_TEXT, text.slice(pos));
  return { settled: detached(rest.settled, text), recent: detached(rest.recent, text) };
}

/**
 * The buffers of the event being built, as a mutable working copy for one call. Created from a
 * state and read back into a new one, so no state is ever changed; events go to the caller's list
 * or sink.
 */
class EventBuffers {
  lastEventId: string;
  retry: number | undefined;
  data: string | undefined;
  moreData: GrowingText;
  type: string;
  id: string;
  /** Where dispatched events go. */
  private readonly events: EventsOut;

  constructor(state: ScanState, events: EventsOut) {
    this.events = events;
    this.lastEventId = state.lastEventId;
    this.retry = state.retry;
    this.data = state.data;
    this.moreData = state.moreData;
    this.type = state.type;
    this.id = state.id;
  }

  /**
   * Interprets the complete line `text[start, end)`. A field is a known name followed by a colon
   * or the line end; any other line — a comment (`:` first), an unknown name, a longer name such
   * as `datum` — "is ignored".
   */
  interpretLine(text: string, start: number, end: number): void {
    // "If the line is empty (a blank line): Dispatch the event."
    if (start === end) return this.dispatch();
    // A comment: keep-alives are whole streams of them, so they leave before the field matchers
    // (`keepalive` 1.23x in Node 26, 1.08–1.18x in Chromium, workerd and Deno; within 3% in Node 24 and Bun).
    if (text.charCodeAt(start) === COLON) return;
    let value: number;
    if ((value = dataValue(text, start, end)) !== -1) {
      // "Append the field value to the data buffer, then append a single U+000A LINE FEED."
      // The LF is appended before the next line instead: the one dispatch would remove is never there.
      const line = text.slice(value, end);
      if (this.data === undefined) this.data = line;
      else this.moreData = grow(this.moreData, '\n' + line);
    } else if ((value = eventValue(text, start, end)) !== -1) {
      // "Set the event type buffer to the field value."
      this.type = text.slice(value, end);
    } else if ((value = idValue(text, start, end)) !== -1) {
      // "If the field value does not contain U+0000 NULL, then set the last event ID buffer to
      // the field value. Otherwise, ignore the field."
      const id = text.slice(value, end);
      if (id.indexOf('\0') === -1) this.id = id;
    } else if ((value = retryValue(text, start, end)) !== -1) {
      // "If the field value consists of only ASCII digits, then interpret the field value as an
      // integer in base ten, and set the event stream's reconnection time to that integer.
      // Otherwise, ignore the field." It takes effect now, whatever becomes of the block.
      if (value < end && isDigits(text, value, end)) this.retry = Number(text.slice(value, end));
    }
  }

  /**
   * Interprets the complete line `text[start, end)` and the blank line after it. A `data` line
   * with the data buffer empty — most events are that line alone — is dispatched as its one
   * value, without a pass through the buffer: `tokens` and `mcp` 1.09–1.12x in Node 24, 1.06–1.08x
   * in Node 26, 1.02–1.09x in Chromium, workerd and Deno, 1.1–1.25x in Bun.
   */
  interpretLast(text: string, start: number, end: number): void {
    const value = this.data === undefined ? dataValue(text, start, end) : -1;
    if (value !== -1) return this.dispatchData(text.slice(value, end));
    this.interpretLine(text, start, end);
    this.dispatch();
  }

  /**
   * The spec's "dispatch the event" steps, for a blank line (or the end of a closed body): the
   * data buffer is emptied, and its text dispatched.
   */
  dispatch(): void {
    const data = this.data;
    if (data === undefined) return this.dispatchData(undefined);
    const more = this.moreData;
    this.data = undefined;
    this.moreData = NO_TEXT;
    this.dispatchData(more === NO_TEXT ? data : data + textOf(more));
  }

  /** The dispatch steps for the data buffer's text `data` (`undefined`: the buffer was empty), the buffer already emptied. */
  dispatchData(data: string | undefined): void {
    // 1. "Set the last event ID string of the event source to the value of the last event ID
    //    buffer." This happens even when no event fires; the buffer is not reset.
    this.lastEventId = this.id;
    // 2. "If the data buffer is an empty string, set the data buffer and the event type buffer
    //    to the empty string and return."
    if (data !== undefined) {
      // 3–8. The trailing LF is already absent; the type defaults to "message".
      const event: SseEvent = { type: this.type === '' ? 'message' : this.type, data, lastEventId: this.id };
      // A sink is called with the event at once: an engine that inlines the call need not make it.
      // Against a list handed to the sink after the chunk: `tokens` 1.09–1.20x, `mcp` 1.09–1.13x,
      // `drip` 1.05–1.11x in Node 24 and 26 (`bench:ab`, two processes each).
      const events = this.events;
      if (typeof events === 'function') events(event);
      else events.push(event);
    }
    this.type = '';
  }

  /** The state these buffers leave, with the given pending line, UTF-8 tail and decoding flags. */
  stateAfter(pending: GrowingText, tail: Utf8Tail, afterCR: boolean, bomChecked: boolean): ScanState {
    return {
      lastEventId: this.lastEventId,
      retry: this.retry,
      pending,
      tail,
      afterCR,
      bomChecked,
      data: this.data,
      moreData: this.moreData,
      type: this.type,
      id: this.id,
    };
  }
}

// The field matchers: where the value of a `data`, `event`, `id` or `retry` field begins in the
// line `text[start, end)`, or -1 when the line is not that field. Names compare case-sensitively,
// character by character; a name letter is never a line end, so a match cannot run past `end`.
// Against `startsWith(name, start)`: `tokens` 1.00–1.05x, `mcp` 1.01–1.07x, `crlf` 0.98–1.15x in
// Node 24 and 26 (`bench:ab`, two processes each).

function dataValue(text: string, start: number, end: number): number {
  return text.charCodeAt(start) === 0x64 && // d
    text.charCodeAt(start + 1) === 0x61 && // a
    text.charCodeAt(start + 2) === 0x74 && // t
    text.charCodeAt(start + 3) === 0x61 // a
    ? valueStart(text, start + 4, end)
    : -1;
}

function eventValue(text: string, start: number, end: number): number {
  return text.charCodeAt(start) === 0x65 && // e
    text.charCodeAt(start + 1) === 0x76 && // v
    text.charCodeAt(start + 2) === 0x65 && // e
    text.charCodeAt(start + 3) === 0x6e && // n
    text.charCodeAt(start + 4) === 0x74 // t
    ? valueStart(text, start + 5, end)
    : -1;
}

function idValue(text: string, start: number, end: number): number {
  return text.charCodeAt(start) === 0x69 && // i
    text.charCodeAt(start + 1) === 0x64 // d
    ? valueStart(text, start + 2, end)
    : -1;
}

function retryValue(text: string, start: number, end: number): number {
  return text.charCodeAt(start) === 0x72 && // r
    text.charCodeAt(start + 1) === 0x65 && // e
    text.charCodeAt(start + 2) === 0x74 && // t
    text.charCodeAt(start + 3) === 0x72 && // r
    text.charCodeAt(start + 4) === 0x79 // y
    ? valueStart(text, start + 5, end)
    : -1;
}

/**
 * Where the value of a field whose name ends at `after` begins: past the colon and one optional
 * space ("if value starts with a U+0020 SPACE character, remove it"), or `end` when the line has
 * no colon (the value is then empty). -1 when the name goes on: it was only a prefix.
 */
function valueStart(text: string, after: number, end: number): number {
  if (after === end) return end;
  if (text.charCodeAt(after) !== COLON) return -1;
  return after + 1 < end && text.charCodeAt(after + 1) === SPACE ? after + 2 : after + 1;
}

/** Whether `text[start, end)` is all ASCII digits (0–9). */
function isDigits(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}
