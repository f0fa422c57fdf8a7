// The readers that run in any runtime (Node, Chromium, workerd, Deno, Bun): web globals only.
// consume() touches an event's first, middle and last character, which makes an engine
// materialise a string built lazily (a rope), so no reader can defer its work past the timer.
import { createParser } from 'eventsource-parser';
import * as sseAnswer from '../dist/index.js';
import { scan, scanEnd, scanStart } from '../dist/index.js';

let sink = 0;
/** Reads a string in full; see the file's header. */
export function consume(data) {
  const n = data.length;
  if (n !== 0) sink += data.charCodeAt(0) + data.charCodeAt(n >> 1) + data.charCodeAt(n - 1);
}
/** Adds a count a reader made (the floor's line ends) to what consume() sums. */
export function observe(n) {
  sink += n;
}
/** What consume() has summed, so that no engine can drop the work as unobserved. */
export const consumed = () => sink;

/** This package's scanner. */
export function readWithScanner(chunks) {
  let state = scanStart();
  for (const chunk of chunks) {
    const result = scan(state, chunk);
    state = result.state;
    for (const event of result.events) consume(event.data);
  }
  for (const event of scanEnd(state).events) consume(event.data);
}

/**
 * A build's scanner read as eventsource-parser is read: each event handed to a callback as it is
 * dispatched (`scanEach`), where `scan` builds a list of each chunk's events. A build is this
 * package or another's (bench/ab-core.mjs); its functions are taken once, as an import binds them.
 */
export function scannerEachOf({ scanStart, scanEach, scanEndEach }) {
  return (chunks) => {
    const onEvent = (event) => consume(event.data);
    let state = scanStart();
    for (const chunk of chunks) state = scanEach(state, chunk, onEvent);
    scanEndEach(state, onEvent);
  };
}

/** This package's scanner, read through `scanEach`. */
export const readWithScannerEach = scannerEachOf(sseAnswer);

/** A build's answer reducer over `chunks` of one event-stream answer, to its result. */
export function answerReducerOf({ answerStart, answer, answerEnd }) {
  return (chunks) => {
    let state = answerStart({ format: 'event-stream', requestId: 1 });
    for (const chunk of chunks) {
      const result = answer(state, chunk);
      if (result.outcome !== undefined) return consume(result.outcome.answer.result.content[0].text);
      state = result.state;
    }
    consume(answerEnd(state).outcome.answer.result.content[0].text);
  };
}

/** This package's answer reducer. */
export const readWithAnswerReducer = answerReducerOf(sseAnswer);

/** eventsource-parser behind a streaming TextDecoder; ignoreBOM, since the parser strips it. */
export function readWithEventsourceParser(chunks) {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const parser = createParser({ onEvent: (event) => consume(event.data) });
  for (const chunk of chunks) parser.feed(decoder.decode(chunk, { stream: true }));
  parser.feed(decoder.decode());
}

/**
 * eventsource-parser read as an answer is: each event's data parsed by `JSON.parse` and the
 * answer's text handed on, as the MCP SDK's transport does with the parser's events. The peer of
 * the answer reducer in the instruction counts (bench/instructions.mjs).
 */
export function readAnswerWithEventsourceParser(chunks) {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const parser = createParser({ onEvent: (event) => consume(JSON.parse(event.data).result.content[0].text) });
  for (const chunk of chunks) parser.feed(decoder.decode(chunk, { stream: true }));
  parser.feed(decoder.decode());
}

/**
 * The scanner, then one `JSON.parse` of each event's data: what reading an answer costs any
 * reader that parses it with `JSON.parse`. Beside the answer reducer it says how much of the
 * reducer's cost is the engine's own parse (`answer-1mib.scanner/scanner+parse`).
 */
export function readWithScannerAndParse(chunks) {
  let state = scanStart();
  for (const chunk of chunks) {
    const result = scan(state, chunk);
    state = result.state;
    for (const event of result.events) consume(JSON.parse(event.data).result.content[0].text);
  }
  for (const event of scanEnd(state).events) consume(JSON.parse(event.data).result.content[0].text);
}

/**
 * The scanner, then the least the answer reducer must do before it may share the answer's long
 * string instead of copying it: prove the string holds no control character (JSON allows none
 * unescaped), by the cheapest means the engine has — its base64 decoder over the string in
 * 48 KiB pieces (`Uint8Array.prototype.setFromBase64`, as `plain-base64.ts` does), or a regular
 * expression where it has none. No reader that returns a shared slice can cost less, so
 * `answer-1mib.scanner/scanner+check` is the lowest `scanner/answer` an engine allows.
 */
export function readWithScannerAndCheck(chunks) {
  let state = scanStart();
  for (const chunk of chunks) {
    const result = scan(state, chunk);
    state = result.state;
    for (const event of result.events) consume(checkedText(event.data));
  }
  for (const event of scanEnd(state).events) consume(checkedText(event.data));
}

const CONTROL = /[\u0000-\u001f]/;
const BASE64_PIECE = 49_152;

/** The answer's text string, as a slice of `data`, once proved free of control characters. */
function checkedText(data) {
  const start = data.indexOf('"text":"') + 8;
  const end = data.indexOf('"', start);
  if (typeof Uint8Array.prototype.setFromBase64 !== 'function') {
    if (CONTROL.test(data.slice(start, end))) throw new Error('a control character');
  } else {
    const scratch = new Uint8Array(BASE64_PIECE);
    for (let at = start; at < end; ) {
      const { read } = scratch.setFromBase64(data.slice(at, end));
      if (read === 0) throw new Error('not base64');
      at += read;
    }
  }
  return data.slice(start, end);
}

/**
 * The limit for a stream of small events: its chunks decoded as eventsource-parser's reader
 * decodes them (one streaming TextDecoder) and read, and nothing else. No reader that decodes
 * the chunks so can be faster, so `decode/eventsource-parser` is the most it can beat the peer by.
 */
export function readDecodeOnly(chunks) {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  for (const chunk of chunks) consume(decoder.decode(chunk, { stream: true }));
  consume(decoder.decode());
}

/**
 * The limit for a stream of small events, one string handed out per event: its chunks decoded as
 * eventsource-parser's reader decodes them, and each `data: ` line's value handed to the consumer
 * in an event object, with only the work every conforming reader does for that: one search of
 * each chunk's text for CR (a line end too), a search for each LF, and the six characters of the
 * field's name, colon and space compared. Nothing else: no CR acted on, no other field, no
 * multi-line data, no state but the pending text. Only the line a chunk completes first is joined
 * to the text pending before it, so no chunk's text is copied. Where the engine makes a string
 * per value dearly (JavaScriptCore makes each slice a lazy substring) or reads a character
 * dearly (Chromium's decoded text is held outside V8), this, not decoding, bounds how far any
 * reader can beat the peer.
 */
export function readEventFloor(chunks) {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const onEvent = (event) => consume(event.data);
  let pending = '';
  for (const chunk of chunks) pending = dataLines(pending, decoder.decode(chunk, { stream: true }), onEvent);
  dataLines(pending, `${decoder.decode()}\n`, onEvent);
}

/** Hands `onEvent` each complete `data: ` line of `pending + text`; returns the incomplete rest. */
function dataLines(pending, text, onEvent) {
  // The search a reader makes for CR, whose answer this floor does not act on (observed, so that
  // no engine drops it; 0 where there is none).
  observe(text.indexOf('\r') + 1);
  let lf = text.indexOf('\n');
  if (lf === -1) return pending + text;
  let pos = 0;
  if (pending !== '') {
    dataLine(pending + text.slice(0, lf), 0, lf + pending.length, onEvent);
    pos = afterLine(text, lf);
    lf = text.indexOf('\n', pos);
  }
  for (; lf !== -1; lf = text.indexOf('\n', pos)) {
    dataLine(text, pos, lf, onEvent);
    pos = afterLine(text, lf);
  }
  return text.slice(pos);
}

/** Hands `onEvent` the value of the line `text[start, end)` if it is a `data: ` line. */
function dataLine(text, start, end, onEvent) {
  if (
    text.charCodeAt(start) === 0x64 && // d
    text.charCodeAt(start + 1) === 0x61 && // a
    text.charCodeAt(start + 2) === 0x74 && // t
    text.charCodeAt(start + 3) === 0x61 && // a
    text.charCodeAt(start + 4) === 0x3a && // :
    text.charCodeAt(start + 5) === 0x20 // space
  ) {
    onEvent({ type: 'message', data: text.slice(start + 6, end), lastEventId: '' });
  }
}

/**
 * Where the line after the LF at `lf` begins: a blank line after it is passed over with no search
 * of its own, as the peer and the scanner do.
 */
function afterLine(text, lf) {
  return text.charCodeAt(lf + 1) === 0x0a ? lf + 2 : lf + 1;
}

const ceilingDecoder = new TextDecoder();
/**
 * The ceiling for one large event: its data's bytes decoded into one fresh string by one
 * TextDecoder.decode call, and read. Any reader that hands out the data as a string pays this.
 */
export function readCeiling(dataBytes) {
  consume(ceilingDecoder.decode(dataBytes));
}
