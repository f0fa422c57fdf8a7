/**
 * Every function that quotes what a server sent (issue 35): generated server texts — up to about
 * 1 MiB, of every control, bidi, separator and surrogate character, with the exchange's secrets
 * embedded anywhere, as sent, percent-encoded or JSON-escaped, cut, repeated, next to pieces of
 * the `[redacted]` marker — through `quoteText`, `shortText`, `describeValue`, `Secrets`
 * (`redact`, `redactValue`), `answerError` and the CLI's `jsonLine` and `textLine`. The sites
 * that call them, reached through the public APIs, are the `quoting-sites` target's. Checked:
 *
 * - the bounds: a quote is its first 64 characters (63 before a split surrogate pair), each
 *   escaped to at most 6, so at most 387 characters; a text line at most 2048 after its prefix;
 * - that no unsafe character survives: C0, DEL, C1, bidi controls, line and paragraph separators,
 *   and in a quote lone surrogates (a text line may carry one: it cannot steer a terminal);
 * - that a quote shows what it says: it decodes (as JSON) to a prefix of the redacted text, and
 *   a JSON line parses back to the value, redacted;
 * - that no secret of 8+ characters survives in any output: in the library's, none of the three
 *   forms `Secrets` names (as sent, percent-encoded, JSON-escaped; percent-encoded as
 *   `URLSearchParams` encodes too); in the CLI's, the value as
 *   registered (`neverPrint` is given the token and `Bearer <token>` as its tokens) —
 *   outside the `[redacted]` markers, and in a text line its `\u` escapes (see {@link leakIn});
 * - that a CLI line is written in time: a text of 1 MiB takes milliseconds to escape, so one that
 *   takes seconds is a pattern that backtracks (a hostile server's text must not hang the CLI).
 *
 * Secrets are visible ASCII (and some latin1, as a header value can hold), never a backslash: a
 * secret with `\u001b` in it can be spelled by any server that sends ESC, since that is how a
 * quote shows ESC — a collision of escaping, not a secret repeated.
 */
import fc from 'fast-check';
import { encodedSecret, MARKER_OR_ESCAPE, timesArb, UNSAFE_CODES } from '../server-text.js';
import { jsonLine, neverPrint, textLine } from '../../../src/cli/output.js';
import { describeValue, DETAIL_PREFIX, PREFIX, shortText, quoteText } from '../../../src/vocabulary/describe-value.js';
import type { AnswerDetail } from '../../../src/vocabulary/errors.js';
import { answerError, barePart, nothingRead, said, quotedPart, written, type Failure } from '../../../src/vocabulary/failure.js';
import { MIN_SECRET_LENGTH, REDACTED, Secrets } from '../../../src/vocabulary/secrets.js';
import { defineTarget, ensure } from '../target.js';

type SecretForm = 'raw' | 'percent' | 'search' | 'json' | 'bearer' | 'prefix' | 'suffix' | 'drop-first' | 'after-marker' | 'before-marker';

/** One piece of a server's text, repeated `times`. */
type Piece =
  | { readonly kind: 'text'; readonly text: string; readonly times: number }
  | { readonly kind: 'secret'; readonly which: number; readonly form: SecretForm; readonly cut: number; readonly times: number };

interface QuotingInput {
  /** The secrets the exchange sent (one shorter than 8 characters is none). */
  readonly secrets: readonly string[];
  readonly pieces: readonly Piece[];
  /** The text cut to `text.slice(from, to)` (each taken modulo the length), if at all. */
  readonly cut: { readonly from: number; readonly to: number } | undefined;
  /** Whether the server's JSON also holds the text as keys (a detail's `answer` is the server's). */
  readonly keyed: boolean;
}

/** The longest text built: about 1 MiB, and a little over. */
const MAX_TEXT = (1 << 20) + 4096;

/** The most a quote takes: 64 characters, each escaped to at most 6, two quotes and an ellipsis. */
const QUOTE_BOUND = 2 + 6 * PREFIX + 1;
/** The most characters of a detail field: DETAIL_PREFIX of the server's, each escaped to at most 6, and an ellipsis. */
const DETAIL_BOUND = 6 * DETAIL_PREFIX + 1;
const LINE_PREFIX = 'sse-answer: ';
const LINE_BOUND = LINE_PREFIX.length + 2048 + 1;

/** What a leak may run into without being one: the marker. */
const MARKER = /\[redacted\]/;

/** Far more than a linear pass over the largest text takes (a few milliseconds). */
const TIME_BOUND_MS = 2000;

const UNSAFE_CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const charArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...UNSAFE_CODES).map((code) => String.fromCharCode(code)) },
  { weight: 2, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)) },
  // A pair split by a cut, quotes, escapes, the marker's pieces, invisible characters a terminal shows nothing of.
  { weight: 4, arbitrary: fc.constantFrom('\u{1f600}', '\u00e9', '\u200b', '\ufeff', '\u2026', '"', '\\', '%', '[', ']', ' ', '\r\n', 'x', 'Bearer ', REDACTED, '[redacted', 'redacted]', 'd]', '[r', '\u001b[2K', '\u009b31m') },
);

/** A secret's character: visible ASCII but the backslash (see the module), some latin1, often the marker's. */
const secretCharArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 12, arbitrary: fc.integer({ min: 0x21, max: 0x7e }).filter((code) => code !== 0x5c).map((code) => String.fromCharCode(code)) },
  { weight: 1, arbitrary: fc.integer({ min: 0xa0, max: 0xff }).map((code) => String.fromCharCode(code)) },
  { weight: 3, arbitrary: fc.constantFrom('[', ']', 'r', 'e', 'd', 'a', 'c', 't', '"', '%', '~', '+', '/', '=') },
);

const secretArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: fc.array(secretCharArb, { minLength: MIN_SECRET_LENGTH, maxLength: 80 }).map((chars) => chars.join('')) },
  { weight: 1, arbitrary: fc.array(secretCharArb, { minLength: 1, maxLength: MIN_SECRET_LENGTH - 1 }).map((chars) => chars.join('')) },
  {
    weight: 2,
    arbitrary: fc.constantFrom('Hostile~Token+Secret/0123456789abcdef=', `eyJhbGciOiJSUzI1NiJ9.${'eyJzdWIiOiIxMjM0NTY3ODkwIn0'.repeat(4)}.sig-_~`, 'tok"quote%percent', 'd]0123456789', 'Hostile-Token-1234[re'),
  },
);

const pieceArb: fc.Arbitrary<Piece> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('text' as const), text: fc.string({ unit: 'binary', maxLength: 24 }), times: timesArb }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('text' as const), text: charArb, times: timesArb }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('secret' as const),
      which: fc.nat({ max: 2 }),
      form: fc.constantFrom<SecretForm>('raw', 'percent', 'search', 'json', 'bearer', 'prefix', 'suffix', 'drop-first', 'after-marker', 'before-marker'),
      cut: fc.nat(),
      times: timesArb,
    }),
  },
);

const inputArb: fc.Arbitrary<QuotingInput> = fc.record({
  secrets: fc.array(secretArb, { minLength: 1, maxLength: 3 }),
  pieces: fc.array(pieceArb, { maxLength: 10 }),
  cut: fc.option(fc.record({ from: fc.nat(), to: fc.nat() }), { nil: undefined, freq: 4 }),
  keyed: fc.boolean(),
});

/**
 * A secret as a piece shows it: as sent, encoded, in a header value, or a part of it — a cut, its
 * first character gone, or what is left of it past (`after-marker`) or before (`before-marker`)
 * the part of it the marker `[redacted]` could spell: the text beside which a redaction could
 * spell the secret again.
 */
function secretPiece(secret: string, form: SecretForm, cut: number): string {
  switch (form) {
    case 'raw':
    case 'percent':
    case 'search':
    case 'json':
    case 'bearer':
      return encodedSecret(secret, form);
    case 'prefix':
      return secret.slice(0, cut % (secret.length + 1));
    case 'suffix':
      return secret.slice(cut % (secret.length + 1));
    case 'drop-first':
      return secret.slice(1);
    case 'after-marker':
      return secret.slice(overlap(REDACTED, secret));
    case 'before-marker':
      return secret.slice(0, secret.length - overlap(secret, REDACTED));
  }
}

/** The length of the longest end of `a` that `b` starts with (shorter than both). */
function overlap(a: string, b: string): number {
  for (let n = Math.min(a.length, b.length) - 1; n > 0; n--) if (a.endsWith(b.slice(0, n))) return n;
  return 0;
}

/** The server's text the input describes. */
export function quotingText(input: QuotingInput): string {
  let text = '';
  for (const piece of input.pieces) {
    const one = piece.kind === 'text' ? piece.text : secretPiece(input.secrets[piece.which % input.secrets.length] ?? '', piece.form, piece.cut);
    if (one === '') continue;
    text += one.repeat(Math.min(piece.times, Math.ceil((MAX_TEXT - text.length) / one.length)));
    if (text.length >= MAX_TEXT) {
      text = text.slice(0, MAX_TEXT);
      break;
    }
  }
  if (input.cut === undefined) return text;
  const from = input.cut.from % (text.length + 1);
  return text.slice(from, from + (input.cut.to % (text.length - from + 1)));
}

function shown(text: string): string {
  return text.length <= 160 ? JSON.stringify(text) : `${JSON.stringify(text.slice(0, 120))}… (${text.length} characters)`;
}

/** The first unsafe character in `text`, described; `undefined` when there is none. */
function unsafeIn(text: string, surrogates: boolean): string | undefined {
  for (const pattern of surrogates ? [UNSAFE_CONTROL, LONE_SURROGATE] : [UNSAFE_CONTROL]) {
    const found = pattern.exec(text);
    if (found !== null) return `a raw U+${found[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${found.index} of ${shown(text)}`;
  }
  return undefined;
}

/** The byte a `%XX` at `at` spells, or -1. */
function escapedByte(text: string, at: number): number {
  if (text.charCodeAt(at) !== 37) return -1;
  const hex = text.slice(at + 1, at + 3);
  return /^[0-9A-Fa-f]{2}$/.test(hex) ? Number.parseInt(hex, 16) : -1;
}

/**
 * `text` read through its escapes, as the redaction's documentation says it reads: each run of
 * `%XX` escapes that spells a UTF-8 character of the right length (no surrogate, none past
 * U+10FFFF) is that character; every other character, a stray `%` included, is itself; with
 * `plusIsSpace`, a `+` is a space.
 */
function readThroughEscapes(text: string, plusIsSpace: boolean): string {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; ) {
    // Up to the next `%`, the text reads as it is (a `+` as a space, in a form).
    const escape = text.indexOf('%', i);
    const plainEnd = escape === -1 ? text.length : escape;
    if (plainEnd > i) {
      const plain = text.slice(i, plainEnd);
      pieces.push(plusIsSpace ? plain.replaceAll('+', ' ') : plain);
      i = plainEnd;
      continue;
    }
    const lead = escapedByte(text, i);
    const size = lead < 0 ? 0 : lead < 0x80 ? 1 : lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
    let point = size === 1 ? lead : lead & (0xff >> (size + 1));
    let whole = size > 0;
    for (let k = 1; k < size && whole; k += 1) {
      const next = escapedByte(text, i + 3 * k);
      whole = next >= 0x80 && next <= 0xbf;
      point = (point << 6) | (next & 0x3f);
    }
    if (whole && point <= 0x10ffff && !(point >= 0xd800 && point <= 0xdfff)) {
      pieces.push(String.fromCodePoint(point));
      i += 3 * size;
    } else {
      pieces.push('%'); // a stray `%`: itself
      i += 1;
    }
  }
  return pieces.join('');
}

/**
 * The values `Secrets.addHeaderValue` takes from a header value, as its documentation states the
 * rule: the whole value, each part between spaces, `;` and `,`, and what follows a part's first `=`.
 */
function headerValueParts(value: string): string[] {
  const parts = value.split(/[ ;,]+/);
  return [value, ...parts, ...parts.map((part) => part.slice(part.indexOf('=') + 1))];
}

/**
 * The forms that must not survive the library's redaction: of each secret, and of each value it
 * was sent in (`Bearer <token>`, with its parts as `Secrets` takes them), 8+ characters long —
 * as sent, JSON-escaped, and percent-encoded by either of the two standard encoders of a URL's
 * query: `encodeURIComponent` and the URL standard's form encoding (`URLSearchParams`, which also
 * encodes `~`, a bearer token's character).
 */
function libraryForms(secrets: readonly string[]): string[] {
  return secrets
    .flatMap((s) => [s, ...headerValueParts(`Bearer ${s}`)])
    .filter((s) => s.length >= MIN_SECRET_LENGTH)
    .flatMap((s) => (['raw', 'percent', 'lower-hex', 'path', 'search', 'json'] as const).map((form) => encodedSecret(s, form)));
}

/**
 * The first form of `forms` in `text` outside every `[redacted]`, described; `undefined` when
 * there is none. A form that runs into a marker is not the secret repeated: the marker's own
 * characters spell part of it (`[redacted]` and a server's `0123456789` read "d]0123456789"), and
 * what the server sent beside the marker is only part of a secret, which no redaction can know.
 */
function leakIn(text: string, forms: readonly string[], between: RegExp = MARKER): string | undefined {
  for (const segment of text.split(between)) {
    const form = forms.find((one) => segment.includes(one));
    if (form !== undefined) return `the secret ${shown(form)} survives at ${text.indexOf(form)} of ${shown(text)}`;
  }
  return undefined;
}

/**
 * Checks one quote of `text` (already redacted where it should be): bounded, safe, and decoding
 * to `text` whole or to its first 64 characters (63 when the 64th opens a surrogate pair) and an
 * ellipsis.
 */
function checkQuote(site: string, quote: string, text: string, quoted: boolean): void {
  ensure(quote.length <= QUOTE_BOUND - (quoted ? 0 : 2), () => `${site}: ${quote.length} characters, over ${QUOTE_BOUND}: ${shown(quote)}`);
  const unsafe = unsafeIn(quote, true);
  ensure(unsafe === undefined, () => `${site}: ${unsafe}`);
  if (quoted) ensure(quote.startsWith('"') && quote.endsWith('"'), () => `${site}: not in quotes: ${shown(quote)}`);
  const inner = quoted ? quote.slice(1, -1) : quote;
  const whole = decode(inner);
  if (whole === text) return;
  ensure(inner.endsWith('\u2026'), () => `${site}: ${shown(quote)} shows neither ${shown(text)} nor a prefix and an ellipsis`);
  const prefix = decode(inner.slice(0, -1));
  const end = (text.charCodeAt(PREFIX - 1) & 0xfc00) === 0xd800 ? PREFIX - 1 : PREFIX;
  ensure(text.length > PREFIX && prefix === text.slice(0, end), () => `${site}: ${shown(quote)} decodes to ${shown(prefix ?? '')}, not the first ${end} characters of ${shown(text)}`);
}

/** The text a quote's inside says, read as JSON; `undefined` when it is not JSON. */
function decode(inner: string): string | undefined {
  try {
    return JSON.parse(`"${inner}"`) as string;
  } catch {
    return undefined;
  }
}

/** Every string of a JSON tree, keys (when `keys`) and values, with its path. */
function* stringsOf(value: unknown, keys: boolean, path = '$'): Generator<[string, string]> {
  if (typeof value === 'string') {
    yield [path, value];
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  for (const [key, child] of Object.entries(value)) {
    if (keys) yield [`${path} key`, key];
    yield* stringsOf(child, keys, `${path}.${key.length > 20 ? `${key.slice(0, 20)}…` : key}`);
  }
}

/** The server's JSON around `text`: in values at several depths and, when `keyed`, in keys. */
function serverJson(text: string, keyed: boolean): Record<string, unknown> {
  const inner: Record<string, unknown> = { list: [1, null, true, [{ deep: text }]] };
  if (keyed) inner[text] = 'seen';
  return { jsonrpc: '2.0', id: 1, error: { code: -32000, message: text, data: inner } };
}

/** `value` with `redact` applied to every string value, and to the keys of every object below the top. */
function mapValues(value: unknown, redact: (text: string) => string, top = true): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => mapValues(item, redact, false));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [top ? key : redact(key), mapValues(child, redact, false)]));
  }
  return value;
}

/** `make()`, which must return within {@link TIME_BOUND_MS}. */
function timed<T>(site: string, text: string, make: () => T): T {
  const started = performance.now();
  const made = make();
  const ms = performance.now() - started;
  ensure(ms <= TIME_BOUND_MS, () => `${site} took ${Math.round(ms)} ms over a text of ${text.length} characters: ${shown(text)}`);
  return made;
}

function checkQuoting(input: QuotingInput): void {
  const text = quotingText(input);
  const secrets = new Secrets();
  for (const secret of input.secrets) {
    secrets.add(secret);
    secrets.addHeaderValue(`Bearer ${secret}`);
  }
  const forms = libraryForms(input.secrets);

  // describe-value.ts: the quote of the text as it came, and its unquoted prefix.
  checkQuote('quoteText', quoteText(text), text, true);
  checkQuote('shortText', shortText(text), text, false);
  ensure(describeValue(text) === quoteText(text), 'describeValue of a string is not its quoteText');
  const described = describeValue(new Error(text));
  ensure(described.length <= 'Error: '.length + QUOTE_BOUND, () => `describeValue(Error): ${described.length} characters: ${shown(described)}`);
  const unsafeDescribed = unsafeIn(described, true);
  ensure(unsafeDescribed === undefined, () => `describeValue(Error): ${unsafeDescribed}`);

  // Secrets.redact: no form of any secret left, and nothing changed where there was none.
  const redacted = secrets.redact(text);
  const leakRedacted = leakIn(redacted, forms);
  ensure(leakRedacted === undefined, () => `Secrets.redact: ${leakRedacted}`);
  // A text holds a secret when it spells one as it is, or read through its escapes (a form's `+`
  // as a space too): `%2B%2B!!%` spells `++!!%`, its last `%` a character of its own.
  const spelled = text.includes('%') && [false, true].some((plus) => forms.some((form) => readThroughEscapes(text, plus).includes(form)));
  if (!spelled && !forms.some((form) => text.includes(form))) {
    ensure(redacted === text, () => `Secrets.redact changed a text that holds no secret: ${shown(text)} became ${shown(redacted)}`);
  }

  // answerError: the message quotes the redacted text, bounded; the detail holds no secret.
  checkQuote('written', written([quotedPart(text)], secrets), redacted, true);
  const failure: Failure = {
    code: 'http_status',
    message: said`the server answered HTTP 500 ${barePart(text)}: ${quotedPart(text)}`,
    detail: { ...nothingRead(0, text), lastEventId: text, status: 500, location: text, answer: serverJson(text, input.keyed) as unknown as AnswerDetail['answer'] },
  };
  const error = answerError(failure, secrets);
  const expected = `the server answered HTTP 500 ${shortText(redacted)}: ${quoteText(redacted)}`;
  ensure(error.message === expected, () => `answerError's message is ${shown(error.message)}, not ${shown(expected)}`);
  // The message is its words and quotes of the redacted text, which holds no secret: its own quote
  // marks beside the server's text may spell one that starts with a quote, which is no secret repeated.
  // A detail field escapes as a text line does: a `\u` escape beside the server's text may spell part of a secret.
  for (const [path, value] of stringsOf(error.detail, true)) {
    const leak = leakIn(value, forms, MARKER_OR_ESCAPE);
    ensure(leak === undefined, () => `answerError's detail, ${path}: ${leak}`);
  }
  // The detail's fields of the server's text (all but `answer`, its JSON as parsed): bounded, escaped.
  for (const [path, value] of stringsOf({ ...error.detail, answer: undefined }, true)) {
    ensure(value.length <= DETAIL_BOUND, () => `answerError's detail, ${path}: ${value.length} characters, over ${DETAIL_BOUND}`);
    const unsafe = unsafeIn(value, true);
    ensure(unsafe === undefined, () => `answerError's detail, ${path}: ${unsafe}`);
  }

  // Secrets.redactValue: every string value, and every key below the top, redacted as redact() does; the tree untouched.
  const tree = serverJson(text, input.keyed);
  const before = JSON.stringify(tree);
  const out = secrets.redactValue(tree);
  ensure(JSON.stringify(tree) === before, 'Secrets.redactValue changed the value it was given');
  ensure(JSON.stringify(out) === JSON.stringify(mapValues(tree, (one) => secrets.redact(one))), 'Secrets.redactValue differs from redact() applied to each string value and key below the top');

  // The CLI: the token and "Bearer <token>" registered, as main.ts registers a command's secrets.
  const registered = input.secrets.flatMap((secret) => [`Bearer ${secret}`, secret]);
  neverPrint(new Headers(), [], registered);
  const live = input.secrets.filter((secret) => secret.length >= MIN_SECRET_LENGTH);
  const value = { message: text, answer: serverJson(text, input.keyed) };
  const line = timed('jsonLine', text, () => jsonLine(value));
  ensure(line.endsWith('\n') && line.indexOf('\n') === line.length - 1, () => `jsonLine: not one line: ${shown(line)}`);
  const unsafeJson = unsafeIn(line.slice(0, -1), true);
  ensure(unsafeJson === undefined, () => `jsonLine: ${unsafeJson}`);
  const parsed = JSON.parse(line) as unknown;
  // The CLI redacts by the library's rule, every key of the value included.
  const cliSecrets = new Secrets();
  for (const one of registered) cliSecrets.add(one);
  const expectedLine = (mapValues([value], (one) => cliSecrets.redact(one)) as unknown[])[0];
  ensure(JSON.stringify(parsed) === JSON.stringify(expectedLine), () => `jsonLine does not parse back to the value, redacted: ${shown(line)}`);
  for (const [path, one] of stringsOf(parsed, true)) {
    const leak = leakIn(one, live);
    ensure(leak === undefined, () => `jsonLine, ${path}: ${leak}`);
  }

  const textOut = timed('textLine', text, () => textLine(text));
  ensure(textOut.startsWith(LINE_PREFIX) && textOut.endsWith('\n') && textOut.indexOf('\n') === textOut.length - 1, () => `textLine: not one line: ${shown(textOut)}`);
  ensure(textOut.length - 1 <= LINE_BOUND, () => `textLine: ${textOut.length - 1} characters, over ${LINE_BOUND}`);
  const unsafeText = unsafeIn(textOut.slice(0, -1), false);
  ensure(unsafeText === undefined, () => `textLine: ${unsafeText}`);
  const leakText = leakIn(textOut.slice(LINE_PREFIX.length), live, MARKER_OR_ESCAPE);
  ensure(leakText === undefined, () => `textLine: ${leakText}`);
  neverPrint(new Headers(), [], []);
}

export const quotingTarget = defineTarget<QuotingInput>({
  name: 'quoting',
  summary: 'server text through every quoting function: bounded, escaped, decoding to what it says, no secret left',
  async: false,
  arbitrary: inputArb,
  check: checkQuoting,
});
