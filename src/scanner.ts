/**
 * The SSE scanner: bytes in, events out, as a pure reducer.
 *
 * It follows WHATWG HTML §9.2.6 "Interpreting an event stream" exactly; each rule below cites the
 * step it implements. <https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation>
 *
 * Pipeline of one `scan` call: decode the chunk, carrying an incomplete UTF-8 sequence over to the
 * next (`utf8.ts`); strip the stream's one leading BOM; cut the text into lines at CRLF, LF or
 * CR; interpret each complete line. The incomplete last line is carried in the state as text.
 *
 * Why the pending line is kept as strings: appending to a JS string is O(1) (engines build a
 * rope and flatten it once, when the line is read), strings are immutable values, and they
 * survive `structuredClone` and compare with `===`. So a 1 MiB line in 1-byte chunks costs one
 * append per chunk and no re-scan, old states stay valid, and nothing aliases the caller's bytes.
 * The line is split in two (`growing-text.ts`) so that tiny chunks do not grow the rope by one
 * node per chunk: a long-lived node per byte costs several times more in garbage collection than
 * the scan itself.
 * @module
 */

import { grow, SETTLE } from './growing-text.js';
import { decodeChunk, flushTail, NO_TAIL, type Utf8Tail } from './utf8.js';

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const COLON = 0x3a;
const BOM = 0xfeff;

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
 * Only {@link ScanState.lastEventId} and {@link ScanState.retry} are public. The other fields are
 * the scanner's internal representation and may change in any release.
 */
export interface ScanState {
  /** The spec's "last event ID string": the id buffer as it stood at the last dispatch ('' before any). */
  readonly lastEventId: string;
  /** The reconnection time in milliseconds last set by a valid `retry` field, or `undefined`. */
  readonly retry: number | undefined;
  /**
   * @internal The decoded text of the incomplete line at the end of the input is
   * `line + lineRecent`, where `line.length` is a multiple of `SETTLE` (`growing-text.ts`) and
   * `lineRecent.length` is less. The split is a function of the text alone, so states reached
   * through different chunkings are equal.
   */
  readonly line: string;
  /** @internal See {@link ScanState.line}. */
  readonly lineRecent: string;
  /** @internal Bytes of an incomplete UTF-8 sequence at the end of the input (copied). */
  readonly tail: Utf8Tail;
  /** @internal The input ended with a CR, so a LF that comes next belongs to that line end. */
  readonly afterCR: boolean;
  /** @internal Whether the first character of the stream has been seen (and a BOM there dropped). */
  readonly bomChecked: boolean;
  /** @internal The data buffer without its trailing LF; `undefined` while the buffer is empty. */
  readonly data: string | undefined;
  /** @internal The event type buffer. */
  readonly type: string;
  /** @internal The last event ID buffer. */
  readonly id: string;
}

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
 * `state` with `added` appended to its pending line (see `growing-text.ts`), a new UTF-8 tail and
 * decoding flags, and nothing else changed.
 */
function extendLine(state: ScanState, added: string, tail: Utf8Tail, afterCR: boolean, bomChecked: boolean): ScanState {
  const { settled: line, recent: lineRecent } = grow(state.line, state.lineRecent, added);
  // Written out rather than spread: object spread is ~4x slower here, and this runs per chunk.
  return {
    lastEventId: state.lastEventId,
    retry: state.retry,
    line,
    lineRecent,
    tail,
    afterCR,
    bomChecked,
    data: state.data,
    type: state.type,
    id: state.id,
  };
}

/**
 * `value` — a slice of `text`, or built from slices — as a string that does not keep a large
 * `text` alive. V8 represents a slice of 13 or more characters as a view of its parent, so a
 * short id or pending line cut from a 1 MiB chunk would hold the whole chunk's text for as long as
 * the state lives, and an event's data for as long as the caller keeps the event. A state holds
 * the pending line and the pending event and, beyond them, at most DETACH characters of one
 * chunk's text, and an event's data holds at most that beyond itself: a value cut from a larger
 * text is copied unless it is at least half of it (then it costs at most its own size again).
 * Below DETACH the copy is not made — it costs ~5% on streams of small events in 1 KiB chunks,
 * for a few KiB at most.
 */
function detached(value: string, text: string): string {
  if (value.length < 13 || text.length <= DETACH || value.length * 2 >= text.length) return value;
  // A rope read by `slice` is flattened into a new string first: the copy keeps nothing else.
  return (' ' + value).slice(1);
}

/** See {@link detached}. */
const DETACH = 4096;

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
    line: '',
    lineRecent: '',
    tail: NO_TAIL,
    afterCR: false,
    bomChecked: false,
    data: undefined,
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
  if (chunk.length === 0) return { state, events: [] };
  if (chunk.length === 1 && state.tail.length === 0 && state.bomChecked && !state.afterCR) {
    // One ASCII byte that ends no line only extends the pending line. A long line byte by byte is
    // the worst chunking there is; this skips the decoder call and two line-end searches a byte.
    const byte = chunk[0]!;
    if (byte < 0x80 && byte !== LF && byte !== CR) {
      return { state: extendLine(state, String.fromCharCode(byte), NO_TAIL, false, true), events: [] };
    }
  }

  const decoded = decodeChunk(state.tail, chunk);
  let text = decoded.text;
  const tail = decoded.tail;

  let bomChecked = state.bomChecked;
  if (!bomChecked && text !== '') {
    // "One leading U+FEFF BYTE ORDER MARK character must be ignored if any are present" — only
    // the stream's first character; U+FEFF anywhere later is data.
    bomChecked = true;
    if (text.charCodeAt(0) === BOM) text = text.slice(1);
  }

  let pos = 0;
  let afterCR = state.afterCR;
  if (afterCR && text !== '') {
    // The previous input ended with CR: a LF now completes that CRLF, it is not a second line end.
    afterCR = false;
    if (text.charCodeAt(0) === LF) pos = 1;
  }

  // Positions of the next CR and LF, each searched again only once the cursor passes it, so the
  // text is searched for each at most once. A stream that never sends CR searches for it once.
  let cr = text.indexOf('\r', pos);
  let lf = text.indexOf('\n', pos);
  if (cr === -1 && lf === -1) {
    // No line end: the chunk only extends the pending line. This is the path of a long line in
    // small chunks, so it does no more than one append.
    return { state: extendLine(state, text.slice(pos), tail, afterCR, bomChecked), events: [] };
  }

  const block = new Block(state);
  let pending = state.line + state.lineRecent;
  for (;;) {
    const end = cr === -1 ? lf : lf === -1 || cr < lf ? cr : lf;
    if (end === -1) break;
    if (pending === '') {
      block.line(text, pos, end);
    } else {
      // The first line end completes the line carried over; it is read once, here.
      const line = pending + text.slice(pos, end);
      pending = '';
      block.line(line, 0, line.length);
    }
    if (end === lf) {
      pos = end + 1;
      lf = text.indexOf('\n', pos);
    } else {
      // A CR ends its line at once, even when it ends the chunk: no line waits on the next input.
      // Only a LF right after it is still to be skipped, here or at the start of the next input.
      pos = end + 1;
      if (pos === text.length) afterCR = true;
      else if (text.charCodeAt(pos) === LF) pos++;
      cr = text.indexOf('\r', pos);
      if (lf !== -1 && lf < pos) lf = text.indexOf('\n', pos);
    }
  }

  // The new pending line is the text after the last line end, split at a multiple of SETTLE.
  // What the state keeps past this chunk is detached from the chunk's text (see `detached`);
  // a value equal to the one the state already held is that one, already detached.
  const cut = text.length - ((text.length - pos) % SETTLE);
  const id = block.id === state.id ? state.id : detached(block.id, text);
  const lastEventId =
    block.lastEventId === id ? id : block.lastEventId === state.lastEventId ? state.lastEventId : detached(block.lastEventId, text);
  return {
    state: {
      lastEventId,
      retry: block.retry,
      line: detached(text.slice(pos, cut), text),
      lineRecent: detached(text.slice(cut), text),
      tail,
      afterCR,
      bomChecked,
      data: block.data, // its pieces were detached as their lines were read
      type: block.type === state.type ? state.type : detached(block.type, text),
      id,
    },
    events: block.events,
  };
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
  if (options.dispatchIncomplete !== true) {
    return { state: streamStart(state.lastEventId, state.retry), events: [] };
  }
  const block = new Block(state);
  // A tail is never U+FEFF (it is incomplete), and a non-empty line means the BOM was checked.
  const line = state.line + state.lineRecent + flushTail(state.tail);
  if (line !== '') block.line(line, 0, line.length);
  block.dispatch();
  return { state: streamStart(block.lastEventId, block.retry), events: block.events };
}

/**
 * The buffers of the event being built, as a mutable working copy for one call. Created from a
 * state and read back into a new one, so no state is ever changed.
 */
class Block {
  lastEventId: string;
  retry: number | undefined;
  data: string | undefined;
  type: string;
  id: string;
  readonly events: SseEvent[] = [];

  constructor(state: ScanState) {
    this.lastEventId = state.lastEventId;
    this.retry = state.retry;
    this.data = state.data;
    this.type = state.type;
    this.id = state.id;
  }

  /** Interprets the complete line `text[start, end)`; `end` is a line end or the end of `text`. */
  line(text: string, start: number, end: number): void {
    // "If the line is empty (a blank line): Dispatch the event."
    if (start === end) return this.dispatch();

    // The field name is everything before the first colon, or the whole line when it has none.
    // Only four names mean anything, so rather than search for the colon we test whether the
    // line starts with one of them followed by a colon or the line end: any other line —
    // a comment (":" first), an unknown name, a longer name such as "datum" — "is ignored".
    // Names compare case-sensitively, character by character: `startsWith` with a position
    // costs more than the rest of a short line's handling. Name letters are never line ends,
    // so a match cannot run past `end`.
    let value: number;
    switch (text.charCodeAt(start)) {
      case 0x64: // d
        if (
          text.charCodeAt(start + 1) === 0x61 &&
          text.charCodeAt(start + 2) === 0x74 &&
          text.charCodeAt(start + 3) === 0x61 &&
          (value = valueStart(text, start + 4, end)) !== -1
        ) {
          // "Append the field value to the data buffer, then append a single U+000A LINE FEED."
          // We keep the buffer without its final LF — the one dispatch would remove — and
          // `undefined` for the empty buffer, so dispatch need not copy the data.
          // Detached, as what a state keeps is: an event's data must not keep a large chunk's
          // text alive for as long as the caller keeps the event, or strings sliced from it
          // (`parse-json.ts` slices long strings out of event data).
          const data = detached(text.slice(value, end), text);
          this.data = this.data === undefined ? data : this.data + '\n' + data;
        }
        return;
      case 0x65: // e
        if (
          text.charCodeAt(start + 1) === 0x76 &&
          text.charCodeAt(start + 2) === 0x65 &&
          text.charCodeAt(start + 3) === 0x6e &&
          text.charCodeAt(start + 4) === 0x74 &&
          (value = valueStart(text, start + 5, end)) !== -1
        ) {
          // "Set the event type buffer to the field value."
          this.type = text.slice(value, end);
        }
        return;
      case 0x69: // i
        if (text.charCodeAt(start + 1) === 0x64 && (value = valueStart(text, start + 2, end)) !== -1) {
          // "If the field value does not contain U+0000 NULL, then set the last event ID buffer
          // to the field value. Otherwise, ignore the field."
          const id = text.slice(value, end);
          if (id.indexOf('\0') === -1) this.id = id;
        }
        return;
      case 0x72: // r
        if (
          text.charCodeAt(start + 1) === 0x65 &&
          text.charCodeAt(start + 2) === 0x74 &&
          text.charCodeAt(start + 3) === 0x72 &&
          text.charCodeAt(start + 4) === 0x79 &&
          (value = valueStart(text, start + 5, end)) !== -1
        ) {
          // "If the field value consists of only ASCII digits, then interpret the field value as
          // an integer in base ten, and set the event stream's reconnection time to that integer.
          // Otherwise, ignore the field." It takes effect now, whatever becomes of the block.
          if (value < end && isDigits(text, value, end)) this.retry = Number(text.slice(value, end));
        }
        return;
      default:
        return;
    }
  }

  /** The spec's "dispatch the event" steps, for a blank line (or the end of a closed body). */
  dispatch(): void {
    // 1. "Set the last event ID string of the event source to the value of the last event ID
    //    buffer." This happens even when no event fires; the buffer is not reset.
    this.lastEventId = this.id;
    // 2. "If the data buffer is an empty string, set the data buffer and the event type buffer
    //    to the empty string and return."
    if (this.data !== undefined) {
      // 3–8. The trailing LF is already absent; the type defaults to "message".
      this.events.push({ type: this.type === '' ? 'message' : this.type, data: this.data, lastEventId: this.id });
      this.data = undefined;
    }
    this.type = '';
  }
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
