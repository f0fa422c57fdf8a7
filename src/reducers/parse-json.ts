/**
 * `JSON.parse`, but a long unescaped string value comes back as a slice of the text, not a copy:
 * long strings become markers, `JSON.parse` reads the envelope, a walk puts the slices back.
 * Anything unexpected is a plain `JSON.parse` (docs/guides/answer-path.md, "Large answers").
 * @module
 */

import { isPlainBase64 } from './plain-base64.js';

/** Shorter strings are copied, as `JSON.parse` does: V8's large-object size, below which a copy is cheap. */
const LONG_STRING = 131_072; // 128 KiB, written out: see DEFAULT_MAX_BYTES in budget.ts

/** The most text, besides the long strings, that is parsed through the marker path. */
const MAX_ENVELOPE = 65_536; // 64 KiB

/**
 * Parses `text` as `JSON.parse(text)` does, taking string values of at least `longString`
 * characters that contain no escape as slices of `text`. Throws what `JSON.parse` throws.
 * @internal The limits are parameters so that tests can reach every path with small texts.
 */
export function parseJsonWith(text: string, longString: number, maxEnvelope: number): unknown {
  if (text.length < longString + 2) return JSON.parse(text);
  const spans = longStrings(text, longString, maxEnvelope);
  if (spans === undefined) return JSON.parse(text);
  return parseWithSlices(text, spans) ?? JSON.parse(text);
}

/** `JSON.parse(text)`, with long unescaped string values shared with `text` (see the module). */
export function parseJson(text: string): unknown {
  return parseJsonWith(text, LONG_STRING, MAX_ENVELOPE);
}

const COLON = 0x3a;
const BACKSLASH = 0x5c;

/**
 * The `[start, end)` pairs of the long string values that may be slices; `undefined` for none, an
 * envelope over `maxEnvelope`, an envelope holding `\u0000` (a marker's look), or not JSON.
 * @internal Exported for tests.
 */
export function longStrings(text: string, longString: number, maxEnvelope: number): number[] | undefined {
  try {
    const spans = findLongStrings(text, longString, maxEnvelope);
    return spans !== undefined && !envelopeHoldsNul(text, spans) ? spans : undefined;
  } finally {
    releaseMatch();
  }
}

/**
 * The long strings' spans (see {@link longStrings}). No search runs past the string it is for: in
 * a two-byte text one would stop at every false hit (see {@link stringKind}).
 */
function findLongStrings(text: string, longString: number, maxEnvelope: number): number[] | undefined {
  const spans: number[] = [];
  let envelope = 0; // characters of the envelope so far
  let pos = 0;
  let open = text.indexOf('"');
  for (;;) {
    // Between strings: numbers, literals, punctuation and whitespace.
    envelope += (open === -1 ? text.length : open) - pos;
    if (envelope > maxEnvelope) return undefined;
    if (open === -1) break;
    // The next quote opens a string; it closes at the next quote no escape takes.
    let close = text.indexOf('"', open + 1);
    let escaped = false;
    while (close !== -1 && isEscaped(text, close)) {
      // An escaped string stays in the envelope: stop once that is too much.
      escaped = true;
      if (envelope + (close - open) > maxEnvelope) return undefined;
      close = text.indexOf('"', close + 1);
    }
    if (close === -1) return undefined; // an unterminated string
    pos = close + 1;
    const long = !escaped && close - open - 1 >= longString && !isKey(text, pos);
    const kind = long ? stringKind(text, open + 1, close) : 'envelope';
    if (kind === 'not JSON') return undefined;
    if (kind === 'shared') {
      envelope += 2 + markerJson(spans.length >> 1).length; // the quotes stay, the marker comes in
      spans.push(open + 1, close);
    } else {
      envelope += pos - open; // a string in the envelope is checked by the envelope's parse
    }
    open = text.indexOf('"', pos);
  }
  return spans.length === 0 ? undefined : spans;
}

/** Whether the quote at `quote`, inside a string, is escaped: an odd run of backslashes comes before it. */
function isEscaped(text: string, quote: number): boolean {
  let i = quote - 1;
  while (text.charCodeAt(i) === BACKSLASH) i--;
  return ((quote - 1 - i) & 1) === 1;
}

/** Whether the string token ending before `pos` is an object key: a colon follows it. */
function isKey(text: string, pos: number): boolean {
  let c = text.charCodeAt(pos);
  // JSON whitespace: space, tab, LF, CR.
  while (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) c = text.charCodeAt(++pos);
  return c === COLON;
}

/** What a long string allows: a slice (`shared`), the envelope's parse (an escape), or none (a raw control character). */
type StringKind = 'shared' | 'envelope' | 'not JSON';

/** A control character (U+0000–U+001F). */
const CONTROL_CHARACTER = /[\u0000-\u001f]/;

/** A backslash or a control character. */
const BACKSLASH_OR_CONTROL = /[\\\u0000-\u001f]/;

/** How many characters are sampled at each of three places in a string to choose how to search it. */
const SAMPLE = 32;

/**
 * The {@link StringKind} of a long string's contents. The search changes speed only: plain base64
 * by the engine's decoder; sampled ASCII by `indexOf` for a backslash (a class holding it costs V8
 * 2–3x); wider text by one class, since V8's `indexOf` in a two-byte string stops at every U+5Cxx
 * and U+xx5C.
 */
function stringKind(text: string, start: number, end: number): StringKind {
  if (isPlainBase64(text, start, end)) return 'shared';
  const contents = text.slice(start, end);
  if (looksAscii(contents)) {
    if (contents.indexOf('\\') !== -1) return 'envelope';
    return CONTROL_CHARACTER.test(contents) ? 'not JSON' : 'shared';
  }
  const at = contents.search(BACKSLASH_OR_CONTROL);
  if (at === -1) return 'shared';
  return contents.charCodeAt(at) === BACKSLASH ? 'envelope' : 'not JSON';
}

/** Whether SAMPLE characters at the start, the middle and the end of `text` are ASCII. */
function looksAscii(text: string): boolean {
  return asciiRun(text, 0) && asciiRun(text, (text.length - SAMPLE) >> 1) && asciiRun(text, text.length - SAMPLE);
}

/** Whether the SAMPLE characters of `text` from `from` (clamped to the text) are ASCII. */
function asciiRun(text: string, from: number): boolean {
  const start = from > 0 ? from : 0;
  const end = start + SAMPLE < text.length ? start + SAMPLE : text.length;
  for (let i = start; i < end; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/**
 * Whether the envelope (all but the spans) holds `\u0000`, the only way JSON writes a marker's
 * first character: without it no string can pass for a marker. Each piece searched alone.
 */
function envelopeHoldsNul(text: string, spans: readonly number[]): boolean {
  let from = 0;
  for (let i = 0; i <= spans.length; i += 2) {
    const to = i < spans.length ? spans[i]! : text.length;
    if (text.slice(from, to).includes('\\u0000')) return true;
    from = spans[i + 1]!;
  }
  return false;
}

/** Matches the empty string: what {@link releaseMatch} leaves in RegExp's statics. */
const EMPTY = /(?:)/;

/** Lets go of the text: RegExp's legacy statics keep the last match's subject until the next match anywhere. */
function releaseMatch(): void {
  EMPTY.test('');
}

/** Marker `k` as the envelope writes it: U+0000, escaped, then the number. */
function markerJson(k: number): string {
  return `\\u0000${k}`;
}

/**
 * Parses the envelope and puts a slice of the text where each marker came out; `undefined` when
 * the envelope is not JSON or a marker did not come out (a duplicate key dropped it).
 */
function parseWithSlices(text: string, spans: readonly number[]): unknown {
  const markers = new Map<string, number>();
  let envelope = '';
  let pos = 0;
  for (let i = 0; i < spans.length; i += 2) {
    const k = i >> 1;
    markers.set(`\u0000${k}`, k);
    envelope += text.slice(pos, spans[i]) + markerJson(k);
    pos = spans[i + 1]!;
  }
  envelope += text.slice(pos);

  let value: unknown;
  try {
    value = JSON.parse(envelope);
  } catch {
    return undefined;
  }
  const seen = new Uint8Array(markers.size);
  const slice = (found: unknown): string | undefined => {
    if (typeof found !== 'string' || found.charCodeAt(0) !== 0) return undefined;
    const k = markers.get(found);
    if (k === undefined) return undefined;
    seen[k] = 1;
    return text.slice(spans[2 * k], spans[2 * k + 1]);
  };
  value = slice(value) ?? value;
  // A stack of its own: a reviver costs a call a value (16x JSON.parse), recursion could overflow.
  // Assigning to a key the object has (even an own "__proto__") keeps key order and attributes.
  const stack: unknown[] = [value];
  while (stack.length !== 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    const container = node as Record<string, unknown>;
    const keys = Array.isArray(node) ? undefined : Object.keys(node);
    const length = keys === undefined ? (node as unknown[]).length : keys.length;
    for (let i = 0; i < length; i++) {
      const key = keys === undefined ? i : keys[i]!;
      const child = container[key];
      if (typeof child === 'object') stack.push(child);
      else {
        const found = slice(child);
        if (found !== undefined) container[key] = found;
      }
    }
  }
  return seen.includes(0) ? undefined : value;
}
