/**
 * `JSON.parse` for message text, with one difference no caller can observe: a long string value
 * written without escapes comes back as a slice of the text instead of a copy of it, so a large
 * answer (a tool result carrying a base64 image or blob) is not held twice while it is parsed
 * (figures: docs/guides/benchmarks.md).
 *
 * How: one pass finds the string tokens by jumping from quote to quote; long ones that qualify
 * are replaced by short markers; `JSON.parse` parses the rest (the envelope), and a walk over the
 * result puts each slice where its marker came out. Anything unexpected falls back to a plain
 * `JSON.parse` of the whole text, so results and errors are `JSON.parse`'s own.
 *
 * A slice keeps its parent text alive. When `text` is itself a slice, the caller keeps that
 * parent in proportion: the scanner does (see `DETACH` in scanner.ts), and an `application/json`
 * body is its own text.
 * @module
 */

import { isPlainBase64 } from './plain-base64.js';

/**
 * Strings shorter than this many characters are copied, as `JSON.parse` does: V8's large-object
 * size for a one-byte string, below which a copy is cheap and the marker path not worth its setup.
 */
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
 * The contents `[start, end)` of the string values of `text` that are at least `longString`
 * long, have no escape and no control character, as a flat list of pairs. `undefined` when there
 * are none; when the envelope — the text besides them, with the markers that will replace them —
 * is more than `maxEnvelope` characters (the marker path would not pay); when the envelope holds
 * `\u0000` (a string the markers could be mistaken for); or when the text is seen not to be JSON
 * (`JSON.parse` will say why).
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
 * The long strings' spans, or `undefined` (see {@link longStrings}). A long string is read only
 * by what any reader that shares it needs: the search for its closing quote, and the searches
 * that prove it holds no backslash and no control character. No search runs past the string it is
 * for: one from the first string to the text's end would read each long string once more, and in
 * a two-byte text would stop at every false hit (see {@link stringKind}).
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
    // Outside strings there are no quotes, so the next one opens a string. It closes at the next
    // quote that no escape takes.
    let close = text.indexOf('"', open + 1);
    let escaped = false;
    while (close !== -1 && isEscaped(text, close)) {
      // The string has an escape, so it stays in the envelope: stop as soon as that is too much,
      // rather than walk a long escaped string quote by quote.
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

/**
 * Whether the quote at `quote`, inside a string, is escaped: an odd run of backslashes comes
 * before it. Each escape is a backslash and the character after it (the rest of a \uXXXX escape
 * is hex digits), so a run pairs up from its start, which is inside the string.
 */
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

/**
 * What a long string's contents allow: `shared` (no backslash, no control character: it may be
 * a slice), `envelope` (an escape: it stays in the envelope, whose parse reads it) or `not JSON`
 * (a control character, which JSON allows in a string only escaped).
 */
type StringKind = 'shared' | 'envelope' | 'not JSON';

/** A control character (U+0000–U+001F). */
const CONTROL_CHARACTER = /[\u0000-\u001f]/;

/** A backslash or a control character. */
const BACKSLASH_OR_CONTROL = /[\\\u0000-\u001f]/;

/** How many characters are sampled at each of three places in a string to choose how to search it. */
const SAMPLE = 32;

/**
 * The {@link StringKind} of `text[start, end)`, a long string's contents. Which search runs
 * changes speed only, and is chosen by samples of the string:
 *
 * - plain base64, the most common long string, is proved plain by the engine's base64 decoder,
 *   where it has one ({@link isPlainBase64});
 * - ASCII: a `memchr` for a backslash, then a class of one range. A class that also holds the
 *   backslash costs V8 two to three times as much on base64 or prose, whose characters fall on
 *   either side of it;
 * - wider text: that class, in one search. In a two-byte string V8's single-character search runs
 *   `memchr` for one byte of the character, which either byte of another may hold: the CJK
 *   characters U+5C00–U+5CFF (就, 小, 山 …) and every U+xx5C (乜 …) would each be a false hit for
 *   the backslash. A string of ASCII in a text with wider characters elsewhere is two-byte too;
 *   there, false hits are as rare as such characters in the string, which the samples did not see.
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
 * Whether the envelope's text (all but the spans) holds `\u0000`. The markers are strings that
 * begin with U+0000, which JSON can only write so: an envelope without it holds no string a
 * marker could be mistaken for. (A duplicate key could otherwise put such a string where a marker
 * was, with the count still right.) An escaped backslash before `u0000` is counted too: that only
 * sends the text to `JSON.parse`. Each piece is searched alone, as a slice: a search of the text
 * from a piece on would read the long strings again.
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

/**
 * Lets go of the text. Engines keep the subject of the last successful match in RegExp's legacy
 * statics (`RegExp.input`, `RegExp.lastMatch`) until the next match anywhere, so a 16 MiB message
 * text would stay alive after the caller dropped the answer. A match on the empty string leaves
 * them holding that instead.
 */
function releaseMatch(): void {
  EMPTY.test('');
}

/**
 * Marker `k` as the envelope writes it: U+0000, escaped, then the number. `JSON.parse` gives it
 * back as U+0000 and the number. The text holds no string with U+0000 (see `longStrings`), so
 * every string that starts with it is a marker.
 */
function markerJson(k: number): string {
  return `\\u0000${k}`;
}

/**
 * Parses the text with each span replaced by a marker, and puts a slice of the text where each
 * marker came out. `undefined` when that cannot be trusted: the envelope is not JSON (only the
 * whole text's parse may say why), or a marker did not come out (a duplicate key dropped it).
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
  // A walk with a stack of its own, not a reviver: a reviver is a call per value (~400 ns each,
  // 16x JSON.parse on an envelope of 30,000 numbers), and recursion could overflow the stack on
  // nesting JSON.parse accepts. Assigning to a key the object has (even "__proto__", an own data
  // property here) changes its value and nothing else: key order and attributes stay.
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
