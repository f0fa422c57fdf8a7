/**
 * The SSE scanner, a pure reducer: WHATWG HTML "Interpreting an event stream", quoted where each
 * rule applies. How a call reads a chunk, and why: docs/guides/scanner.md.
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
 * The scanner's state: plain, immutable data, to keep, fork, replay or `structuredClone`. Only
 * `lastEventId` and `retry` are public; a state comes from the scanner, never from a literal.
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

/** Receives each event {@link scanEach} and {@link scanEndEach} dispatch, in order; the event is the caller's. */
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
   * Dispatch the pending line and block as if a line end and a blank line had come. The spec
   * discards them (`false`, the default); a closed body that is not resumed is better read whole.
   */
  readonly dispatchIncomplete?: boolean;
}

/**
 * `value`, a slice of `text`, copied when it would keep alive more than its own size again and
 * more than DETACH characters: engines make a long slice a view of its parent.
 */
function detached(value: string, text: string): string {
  return value.length < 13 || text.length <= DETACH || value.length * 2 >= text.length ? value : copyOf(value);
}

/**
 * The most characters of a text that values cut from it may keep alive: a network read (a TLS
 * record), read whole; larger chunks in pieces of it (`tokens-16k` 4–20% against 4 KiB pieces).
 */
const DETACH = 16_384;

/** The state that begins a stream. */
export function scanStart(): ScanState {
  return streamStart('', undefined);
}

/** A new stream's state, keeping what the spec keeps across streams: the last event ID (seeding the id buffer) and the retry. */
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
 * Scans one chunk of the stream's bytes. Pure: neither argument changes, and the state keeps no
 * view of the chunk. Any split of a stream into chunks yields the same events and final state.
 * @throws TypeError for a chunk that is not a `Uint8Array`.
 */
export function scan(state: ScanState, chunk: Uint8Array): ScanResult {
  checkChunk(chunk);
  return uncheckedScan(state, chunk);
}

/**
 * {@link scan} of a chunk known to be a `Uint8Array`.
 * @internal For a driver whose chunks its body's reader has checked already.
 */
export function uncheckedScan(state: ScanState, chunk: Uint8Array): ScanResult {
  const events: SseEvent[] = [];
  return { state: scanOnto(state, chunk, events), events };
}

/**
 * {@link scan}, each event handed to `onEvent` as it is dispatched and the next state returned.
 * What `onEvent` throws stops the scan; `state` is unchanged, so a rescan dispatches them again.
 * @throws TypeError for a chunk that is not a `Uint8Array`, or an `onEvent` that is no function.
 */
export function scanEach(state: ScanState, chunk: Uint8Array, onEvent: SseEventSink): ScanState {
  // One test for both arguments, the refusal out of line: per chunk (docs/guides/benchmarks.md).
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
  // A constant test first: checkType on every call cost `drip` 1.1% (Node 26).
  if (typeof onEvent !== 'function') checkType('onEvent', onEvent, 'function');
  return onEvent;
}

/** {@link scan} onto a list or a sink. Kept this small: engines inline it into a caller's loop. */
function scanOnto(state: ScanState, chunk: Uint8Array, events: EventsOut): ScanState {
  return extendedByOneCharacter(state, chunk) ?? scanChunk(state, chunk, events);
}

/**
 * {@link scanOnto} for a chunk {@link extendedByOneCharacter} did not take.
 * @internal Also for the answer reducer, which makes its list of events only for such a chunk.
 */
export function scanChunk(state: ScanState, chunk: Uint8Array, events: EventsOut): ScanState {
  if (chunk.length === 0) return state;
  return chunk.length > DETACH && isShort(state.pending) ? scanPieces(state, chunk, events) : scanText(state, chunk, events);
}

/**
 * A chunk of more than DETACH bytes, scanned in pieces that end after a LF and decode to at most
 * DETACH characters, so values may stay views of a piece. A longer line ends the splitting.
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
 * `state` extended by `chunk` when it is one character that ends no line, else `undefined`: no
 * decoder, no line-end search (`drip` 1.1–1.55x faster in every judged engine).
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
  // A carried sequence's character joins the pending line: never a line end, and no copy of the text.
  let head = decoded.head;
  // Bytes that only carry a sequence on: no character yet, so nothing else changes.
  if (head === '' && text === '') return withPending(state, state.pending, decoded.tail, state.afterCR, state.bomChecked);

  let bomChecked = state.bomChecked;
  if (!bomChecked) {
    // "One leading U+FEFF BYTE ORDER MARK character must be ignored if any are present."
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

  // The nearer of the next CR and LF ends a line; each is searched again only once passed.
  let cr = text.indexOf('\r', pos);
  let lf = text.indexOf('\n', pos);
  if (cr === -1 && lf === -1) {
    // No line end: the pending line is only extended, never read, so a long line costs its chunks.
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
      // A long text's line is read from a copy, so its values keep only their line alive; a short
      // text's stay views, unchecked (`tokens` 2–5% faster).
      line = copyOf(text.slice(pos, end));
      start = 0;
      stop = line.length;
    }
    pos = end + 1;
    if (end === lf) {
      // LF LF: the line ends its event, one search for both (`tokens`, `mcp` 1.05–1.27x).
      if (text.charCodeAt(pos) === LF) {
        buffers.interpretLast(line, start, stop);
        pos++;
      } else buffers.interpretLine(line, start, stop);
      lf = text.indexOf('\n', pos);
    } else {
      buffers.interpretLine(line, start, stop);
      // A CR ends its line at once; only a LF right after it, here or in the next input, is skipped.
      if (pos === text.length) afterCR = true;
      else {
        if (text.charCodeAt(pos) === LF) pos++;
        // CRLF CRLF, as LF LF (`crlf` 1.12–1.19x; none in Bun).
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
 * Ends the stream: the pending line and block discarded, as the spec says, or dispatched with
 * `dispatchIncomplete`. The returned state begins a new stream, keeping `lastEventId` and `retry`.
 */
export function scanEnd(state: ScanState, options: ScanEndOptions = {}): ScanResult {
  const events: SseEvent[] = [];
  return { state: endOnto(state, events, options), events };
}

/** {@link scanEnd}, an event the end dispatches handed to `onEvent` and the next state returned. */
export function scanEndEach(state: ScanState, onEvent: SseEventSink, options: ScanEndOptions = {}): ScanState {
  return endOnto(state, checkedSink(onEvent), options);
}

/** {@link scanEnd}, with the events pushed onto `events` or handed to a sink. */
function endOnto(state: ScanState, events: EventsOut, options: ScanEndOptions): ScanState {
  if (options.dispatchIncomplete !== true) return streamStart(state.lastEventId, state.retry);
  const buffers = new EventBuffers(state, events);
  // A tail is never U+FEFF, and a non-empty line means the BOM was checked.
  const line = textOf(state.pending) + flushTail(state.tail);
  if (line !== '') buffers.interpretLine(line, 0, line.length);
  buffers.dispatch();
  return streamStart(buffers.lastEventId, buffers.retry);
}

/** `state` with a new pending line, UTF-8 tail and decoding flags, and nothing else changed. */
function withPending(state: ScanState, pending: GrowingText, tail: Utf8Tail, afterCR: boolean, bomChecked: boolean): ScanState {
  // Written out, not spread: `drip` 1.15–1.21x (Node 24, 26).
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

/** The buffers of the event being built: a working copy for one call, read back into a new state. */
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

  /** Interprets the complete line `text[start, end)`: a known field, or a line that "is ignored". */
  interpretLine(text: string, start: number, end: number): void {
    // "If the line is empty (a blank line): Dispatch the event."
    if (start === end) return this.dispatch();
    // A comment leaves before the matchers: keep-alives are streams of them (`keepalive` up to 1.23x).
    if (text.charCodeAt(start) === COLON) return;
    let value: number;
    if ((value = dataValue(text, start, end)) !== -1) {
      // "Append the field value to the data buffer, then append a single U+000A LINE FEED" — before
      // the next line instead, so the one dispatch removes is never there.
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
      // "If the field value consists of only ASCII digits, then ... set the event stream's
      // reconnection time to that integer." At once, whatever becomes of the block.
      if (value < end && isDigits(text, value, end)) this.retry = Number(text.slice(value, end));
    }
  }

  /**
   * Interprets a line and the blank line after it: a lone `data` line is dispatched as its value,
   * not through the buffer (`tokens`, `mcp` 1.02–1.25x).
   */
  interpretLast(text: string, start: number, end: number): void {
    const value = this.data === undefined ? dataValue(text, start, end) : -1;
    if (value !== -1) return this.dispatchData(text.slice(value, end));
    this.interpretLine(text, start, end);
    this.dispatch();
  }

  /** The spec's "dispatch the event" steps: the data buffer emptied and its text dispatched. */
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
      // The sink is called at once, so an engine that inlines it need not make the event (`tokens` 1.09–1.20x).
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

// The field matchers: where a field's value begins in `text[start, end)`, or -1. Compared by
// character, not `startsWith` (`mcp` 1.01–1.07x); a name letter is never a line end.

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

/** Where a field's value begins after its name: past the colon and one space, `end` without a colon, -1 if the name goes on. */
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
