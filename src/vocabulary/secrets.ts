/**
 * The secrets an exchange sent — the `authProvider`'s tokens, the caller's `Authorization` and
 * the headers it marks secret — which nothing the exchange says may repeat: a hostile server can
 * reflect a token into an error message, a `Location` or a `WWW-Authenticate`, and an error is
 * logged and printed where the token must never appear.
 * @module
 */

import { mapStrings } from './json-tree.js';

/** What a secret is replaced by wherever it appears in text an error quotes or carries. */
export const REDACTED = '[redacted]';

/**
 * The shortest value taken for a secret. A shorter one cannot be told from ordinary text, and
 * redacting it would erase words of every message (a token `a` from `invalid_token`); a real
 * token or key is far longer.
 */
export const MIN_SECRET_LENGTH = 8;

/** The headers whose values are always secret, whatever the caller marks. */
export const SECRET_HEADERS: readonly string[] = ['authorization', 'proxy-authorization', 'cookie'];

/** The byte a `%XX` at `at` of `text` spells, or -1. */
function byteAt(text: string, at: number): number {
  if (text.charCodeAt(at) !== 37) return -1;
  const high = hexDigit(text.charCodeAt(at + 1));
  const low = hexDigit(text.charCodeAt(at + 2));
  return high < 0 || low < 0 ? -1 : (high << 4) | low;
}

function hexDigit(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  const lower = code | 0x20;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

/** The character the last {@link decodeEscape} read (a module variable: one escape read is one call, no object made). */
let decodedChar = '';

/**
 * Reads the percent-escapes at `at` of `text` as one UTF-8 character: their length in the text,
 * the character in {@link decodedChar}; 0 when they spell no whole character.
 */
function decodeEscape(text: string, at: number): number {
  const lead = byteAt(text, at);
  const size = lead < 0 ? 0 : lead < 0x80 ? 1 : lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
  if (size === 0) return 0;
  let point = size === 1 ? lead : lead & (0xff >> (size + 1));
  for (let k = 1; k < size; k += 1) {
    const next = byteAt(text, at + 3 * k);
    if (next < 0x80 || next > 0xbf) return 0;
    point = (point << 6) | (next & 0x3f);
  }
  if (point > 0x10ffff || (point >= 0xd800 && point <= 0xdfff)) return 0;
  decodedChar = String.fromCodePoint(point);
  return 3 * size;
}

/**
 * A set of secrets that only grows, and the one way the package redacts them — exported for a
 * caller who logs or shows what a server sent with the same rule (`redact` for text,
 * `redactValue` for JSON data). A value shorter than 8 characters is not taken.
 * Each is redacted as sent, JSON-escaped (a body), and under any
 * percent-encoding (a `Location` query: `encodeURIComponent`'s, a form's, one that leaves `/` or
 * `~` alone, upper or lower case hex) — the text is read through its percent-escapes as well, and
 * `encodeURIComponent`'s and a form's encodings (either case of hex) are also found as they are,
 * whatever comes before them.
 */
export class Secrets {
  /** The secrets as sent, and their JSON-escaped forms, longest first once sorted (so a secret inside another goes with it). */
  #forms: string[] = [];
  #sorted = true;
  /** The names of headers marked secret, beside {@link SECRET_HEADERS}. */
  #named: string[] = [];

  /** Adds a secret value (one shorter than 8 characters is none). */
  add(value: string): void {
    if (value.length < MIN_SECRET_LENGTH) return;
    const encoded = encodeURIComponent(value);
    // The percent-encodings a server most plausibly reflects are also found as they are: read
    // through its escapes, a text whose `%` or `%X` comes just before one (`%1A%25…` for a secret
    // `1A%…`) takes the secret's first characters into an escape of its own. (Every `%` of
    // `encodeURIComponent`'s output begins an escape, so `%..` is one.) In either case of hex,
    // and with `/` left raw, as a path's encoder leaves it.
    const forms = [value, JSON.stringify(value).slice(1, -1), encoded, encoded.replace(/%../g, (escape) => escape.toLowerCase()), encoded.replaceAll('%2F', '/'), new URLSearchParams([['', value]]).toString().slice(1)];
    for (const form of forms) {
      if (!this.#forms.includes(form)) {
        this.#forms.push(form);
        this.#sorted = false;
      }
    }
  }

  /**
   * Adds a header value as sent: the whole value, each of its parts between spaces, `;` and `,` —
   * the credentials after a scheme (`Bearer …`, `Basic …`), each `name=value` of a `Cookie`, each
   * value of a header given more than once (`Headers` joins them with `, `) — and what follows a
   * part's first `=` (a cookie's value).
   */
  addHeaderValue(value: string): void {
    const parts = value.split(/[ ;,]+/);
    // A set: a value of one part (a bare token) is that part, and one with no `=` its own value.
    for (const part of new Set([value, ...parts, ...parts.map((one) => one.slice(one.indexOf('=') + 1))])) this.add(part);
  }

  /**
   * Adds the values of `headers` whose names are secret: `Authorization`, `Proxy-Authorization`,
   * `Cookie`, and the lowercase names in `named` — given once, remembered for later headers (a
   * request's own headers are taken by the same names as the caller's).
   */
  addHeaders(headers: Headers, named: readonly string[] = []): void {
    this.#named.push(...named);
    headers.forEach((value, name) => {
      if (SECRET_HEADERS.includes(name) || this.#named.includes(name)) this.addHeaderValue(value);
    });
  }

  /**
   * An error's cause as it may be shown. A `SyntaxError` is the parser's on a body that was not
   * JSON, and its message quotes a piece of that body, where a server may have put a secret —
   * whole or cut, past finding: with secrets to keep, that message is withheld.
   */
  redactCause(cause: unknown): unknown {
    if (this.empty) return cause;
    try {
      return cause instanceof SyntaxError ? new SyntaxError('not JSON (message withheld: it quotes the body)') : cause;
    } catch {
      return cause; // a Proxy whose traps throw: no parser's error, and nothing of the package's throws
    }
  }

  /** Whether there is any secret to redact. */
  get empty(): boolean {
    return this.#forms.length === 0;
  }

  /** `text` with every secret replaced by {@link REDACTED}, however it was percent-encoded. */
  redact(text: string): string {
    if (this.#forms.length === 0) return text;
    if (!this.#sorted) {
      this.#forms.sort((a, b) => b.length - a.length);
      this.#sorted = true;
    }
    let out = text;
    for (const form of this.#forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
    if (out.includes('%')) out = this.#redactEncoded(out, false);
    // A `+` is a space in a form and itself elsewhere: read both ways, where a secret has a space.
    if (out.includes('+') && this.#forms.some((form) => form.includes(' '))) out = this.#redactEncoded(out, true);
    return out;
  }

  /**
   * `text` with every span that percent-decodes to a secret redacted. The text is read once with
   * its `%XX` escapes decoded as UTF-8 (an escape that starts no whole character is read as it
   * is) and, with `plusIsSpace`, a form's `+` as a space; where an escape was decoded, the reading
   * keeps where in the text it began, so that a secret found in the reading maps back to the span
   * that spelled it. Linear in the text: plain runs are copied whole, only escapes looked at one
   * by one.
   */
  #redactEncoded(text: string, plusIsSpace: boolean): string {
    const plainOf = (from: number, to: number): string => (plusIsSpace ? text.slice(from, to).replaceAll('+', ' ') : text.slice(from, to));
    const pieces: string[] = [];
    // Each decoded escape: where it begins in the reading and in the text, its length in the
    // text, and the units it reads as (all of them map to its start).
    const readAt: number[] = [];
    const textAt: number[] = [];
    const spans: number[] = [];
    const units: number[] = [];
    let read = 0;
    let plainFrom = 0;
    for (let i = text.indexOf('%'); i !== -1; i = text.indexOf('%', i)) {
      const length = decodeEscape(text, i);
      if (length === 0) {
        i += 1;
        continue;
      }
      const plain = plainOf(plainFrom, i);
      read += plain.length;
      pieces.push(plain, decodedChar);
      readAt.push(read);
      textAt.push(i);
      spans.push(length);
      units.push(decodedChar.length);
      read += decodedChar.length;
      i += length;
      plainFrom = i;
    }
    pieces.push(plainOf(plainFrom, text.length));
    const decoded = pieces.join('');
    /** Where in the text the reading's index `at` begins (inside a decoded escape: the escape's start). */
    const textIndex = (at: number): number => {
      let low = 0;
      let high = readAt.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (readAt[middle]! <= at) low = middle + 1;
        else high = middle;
      }
      if (low === 0) return at; // before every escape, the reading is the text
      const k = low - 1;
      const past = at - readAt[k]! - units[k]!;
      return past < 0 ? textAt[k]! : textAt[k]! + spans[k]! + past;
    };
    // Each form's next place in the reading, found again only once the reading has passed it:
    // every search moves forward, so the scan stays linear however many secrets the text holds.
    const next = this.#forms.map((form) => decoded.indexOf(form));
    let out = '';
    let from = 0; // in the reading
    let copied = 0; // in the text
    for (;;) {
      let pick = -1;
      for (let k = 0; k < next.length; k += 1) {
        if (next[k]! >= 0 && next[k]! < from) next[k] = decoded.indexOf(this.#forms[k]!, from);
        if (next[k]! >= 0 && (pick === -1 || next[k]! < next[pick]!)) pick = k;
      }
      if (pick === -1) return out + text.slice(copied);
      const at = next[pick]!;
      out += `${text.slice(copied, textIndex(at))}${REDACTED}`;
      from = at + this.#forms[pick]!.length;
      copied = textIndex(from);
    }
  }

  /**
   * `value` with every secret redacted from its strings, and from the keys of the objects below
   * its top (a detail's own keys are the package's names; an answer's, the server's), as a copy
   * where anything changed (the rest shared): for the JSON data an error carries. No recursion,
   * so no depth of nesting can overflow the stack. A value that is no tree ends too: what comes
   * before a cycle is redacted, and the reference that closes it is left as it was.
   */
  redactValue<T>(value: T): T {
    if (this.#forms.length === 0) return value;
    return mapStrings(value, (text) => this.redact(text));
  }
}
