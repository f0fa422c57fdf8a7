/** The secrets an exchange sent, which nothing it says may repeat (docs/guides/reliability.md, "What a hostile server says"). @module */

import { mapStrings } from './json-tree.js';

/** What a secret is replaced by wherever it appears in text an error quotes or carries. */
export const REDACTED = '[redacted]';

/** The shortest value taken for a secret: a shorter one cannot be told from ordinary text (a token `a` would erase words of every message). */
export const MIN_SECRET_LENGTH = 8;

/** The headers whose values are always secret, whatever the caller marks. */
export const SECRET_HEADERS: readonly string[] = ['authorization', 'proxy-authorization', 'cookie'];

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

/** Reads the percent-escapes at `at` as one UTF-8 character, into {@link decodedChar}: their length in the text, or 0. */
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

/** A set of secrets that only grows, and the package's one way to redact them (as sent, JSON-escaped, percent-encoded), for a caller who shows a server's text by the same rule. */
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
    // The encodings a server most plausibly reflects are found as they are too (either case of hex, `/`
    // raw): read through its escapes, a `%` just before one would take the secret's first characters.
    const forms = [value, JSON.stringify(value).slice(1, -1), encoded, encoded.replace(/%../g, (escape) => escape.toLowerCase()), encoded.replaceAll('%2F', '/'), new URLSearchParams([['', value]]).toString().slice(1)];
    for (const form of forms) {
      if (!this.#forms.includes(form)) {
        this.#forms.push(form);
        this.#sorted = false;
      }
    }
  }

  /** Adds a header value as sent: the whole, each part between spaces, `;` and `,` (a scheme's credentials, each cookie, each repeated value), and what follows a part's first `=`. */
  addHeaderValue(value: string): void {
    const parts = value.split(/[ ;,]+/);
    // A set: a value of one part (a bare token) is that part, and one with no `=` its own value.
    for (const part of new Set([value, ...parts, ...parts.map((one) => one.slice(one.indexOf('=') + 1))])) this.add(part);
  }

  /** Adds the values of `headers` whose names are secret: the always-secret ones, and `named` (lowercase, remembered for later headers). */
  addHeaders(headers: Headers, named: readonly string[] = []): void {
    this.#named.push(...named);
    headers.forEach((value, name) => {
      if (SECRET_HEADERS.includes(name) || this.#named.includes(name)) this.addHeaderValue(value);
    });
  }

  /** An error's cause as it may be shown: with secrets to keep, a `SyntaxError`'s message is withheld, as it quotes a piece of a body that may hold a secret, whole or cut. */
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

  /** `text` with every span that percent-decodes to a secret redacted, in one linear reading (with `plusIsSpace`, `+` as a space), each decoded escape mapped back to its span. */
  #redactEncoded(text: string, plusIsSpace: boolean): string {
    const plainOf = (from: number, to: number): string => (plusIsSpace ? text.slice(from, to).replaceAll('+', ' ') : text.slice(from, to));
    const pieces: string[] = [];
    // Each decoded escape: where it begins in the reading and in the text, its length there, its units.
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
    // Each form's next place in the reading, found again only once the reading has passed it: linear however many secrets.
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

  /** `value` with every secret redacted from its strings and from the keys below its top, a copy where anything changed; no recursion, and a cycle ends (its closing reference kept). */
  redactValue<T>(value: T): T {
    if (this.#forms.length === 0) return value;
    return mapStrings(value, (text) => this.redact(text));
  }
}
