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
 * parent in proportion: the scanner does (see `detached` in scanner.ts), and an `application/json`
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
 * is more than `maxEnvelope` characters (the marker path would not pay); when the text holds the
 * escape `\u0000` (a string the markers could be mistaken for); or when the text is seen not to
 * be JSON (`JSON.parse` will say why).
 * @internal Exported for tests.
 */
export function longStrings(text: string, longString: number, maxEnvelope: number): number[] | undefined {
  const specials = new SpecialSearch(text);
  try {
    return findLongStrings(text, longString, maxEnvelope, specials);
  } finally {
    specials.release();
  }
}

function findLongStrings(text: string, longString: number, maxEnvelope: number, specials: SpecialSearch): number[] | undefined {
  const spans: number[] = [];
  let envelope = 0; // characters of the envelope so far
  let pos = 0;
  let open = text.indexOf('"');
  for (;;) {
    // Between strings: numbers, literals, punctuation and whitespace.
    envelope += (open === -1 ? text.length : open) - pos;
    if (envelope > maxEnvelope) return undefined;
    if (open === -1) break;
    // Outside strings there are no quotes, so the next one opens a string. It closes at the first
    // quote not taken by an escape; an escape is a backslash and the character after it (the
    // rest of a \uXXXX escape is hex digits, never a quote or a backslash).
    let from = open + 1;
    let close = text.indexOf('"', from);
    let escaped = false;
    for (;;) {
      if (close === -1) return undefined; // an unterminated string
      const special = specials.from(from);
      if (special === -1 || special > close) break; // no escape before the quote: it closes
      // Not a backslash: a control character, which the search finds in wide text. JSON allows
      // one in a string only escaped.
      if (text.charCodeAt(special) !== BACKSLASH) return undefined;
      escaped = true;
      // The markers are strings that begin with U+0000, which JSON can only write as \u0000: a
      // text without that escape holds no string a marker could be mistaken for. (A duplicate
      // key could otherwise put such a string where a marker was, with the count still right.)
      if (text.startsWith('u0000', special + 1)) return undefined;
      // Skip the escape. The string is now part of the envelope, so stop as soon as that is
      // too much, rather than walk a long escaped string escape by escape.
      from = special + 2;
      if (envelope + (from - open) > maxEnvelope) return undefined;
      if (from > close) close = text.indexOf('"', from); // the quote was escaped
    }
    pos = close + 1;
    const length = close - open - 1;
    if (length >= longString && !escaped && !isKey(text, pos)) {
      // A string that stays in the envelope is checked by the envelope's parse; a slice is not.
      if (!specials.controlFree(open + 1, close)) return undefined;
      envelope += 2 + markerJson(spans.length >> 1).length; // the quotes stay, the marker comes in
      spans.push(open + 1, close);
    } else {
      envelope += pos - open;
    }
    open = text.indexOf('"', pos);
  }
  return spans.length === 0 ? undefined : spans;
}

/** Whether the string token ending before `pos` is an object key: a colon follows it. */
function isKey(text: string, pos: number): boolean {
  let c = text.charCodeAt(pos);
  // JSON whitespace: space, tab, LF, CR.
  while (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) c = text.charCodeAt(++pos);
  return c === COLON;
}

/** Matches the empty string: what {@link SpecialSearch.release} leaves in RegExp's statics. */
const EMPTY = /(?:)/;

/** How many characters from a search's position are sampled to choose how to search. */
const SAMPLE = 32;

/**
 * Where the next backslash is, and whether a string holds a control character (U+0000–U+001F):
 * inside a string, the first starts an escape and the second makes the text invalid JSON. Only
 * the strings taken as slices need the second answer; the envelope's parse checks the rest.
 *
 * Each hit is kept until the cursor passes it, so the text is searched once in all. Two ways to
 * search, which find the same backslash; which one runs changes speed only, and is chosen by the
 * text at the position:
 *
 * - ASCII there (a base64 blob, most JSON): `indexOf`, which is a memchr on a one-byte string.
 *   Control characters are then looked for in each long string alone ({@link controlFree}).
 * - Wider text: one sticky expression matches the run of characters that are neither (`+`: an
 *   empty run is a failed match, which says the position itself holds one), so the hit may be a
 *   control character, and the run's text is known to hold none. Why not `indexOf` there: in a
 *   two-byte string V8's single-character search looks for one byte of the character with
 *   memchr, so the CJK characters U+5C00–U+5CFF (就, 小, 山 …) are false hits for the backslash;
 *   on CJK text rich in them, that search alone made the parse 2x slower than `JSON.parse`.
 */
class SpecialSearch {
  private readonly run = /[^\\\u0000-\u001f]+/y;
  private readonly control = /[\u0000-\u001f]/;
  /** The last hit, at or after the last position asked for; -1 for none; -2 before the first search. */
  private next = -2;
  /** Where the search that found `next` began, when it was a run: no control character lies between. */
  private runFrom = -1;
  constructor(private readonly text: string) {}

  from(position: number): number {
    const { text } = this;
    if (this.next !== -1 && this.next < position) {
      let end: number;
      if (asciiAt(text, position)) {
        end = text.indexOf('\\', position) >>> 0; // `>>> 0` makes -1 (none) past any text's end
        this.runFrom = -1;
      } else {
        this.run.lastIndex = position;
        end = this.run.test(text) ? this.run.lastIndex : position;
        this.runFrom = position;
      }
      this.next = end < text.length ? end : -1;
    }
    return this.next;
  }

  /**
   * Whether `text[start, end)`, a string the last {@link from} found no hit in, holds no control
   * character. Plain base64, the most common long string, is proved so without a search.
   */
  controlFree(start: number, end: number): boolean {
    if (this.runFrom !== -1 && this.runFrom <= start) return true; // the run that passed it saw none
    return isPlainBase64(this.text, start, end) || !this.control.test(this.text.slice(start, end));
  }

  /**
   * Lets go of the text. Engines keep the subject of the last successful match in RegExp's
   * legacy statics (`RegExp.input`, `RegExp.lastMatch`) until the next match anywhere, so a
   * 16 MiB message text would stay alive after the caller dropped the answer. A match on the
   * empty string leaves them holding that instead.
   */
  release(): void {
    this.run.lastIndex = 0;
    EMPTY.test('');
  }
}

/** Whether the SAMPLE characters from `position` (fewer at the end) are ASCII. */
function asciiAt(text: string, position: number): boolean {
  const end = position + SAMPLE < text.length ? position + SAMPLE : text.length;
  for (let i = position; i < end; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
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
