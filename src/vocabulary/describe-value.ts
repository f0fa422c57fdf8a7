/**
 * A value as an error message shows it: a string quoted, an Error by its name and message, other
 * objects by their tag — never more than a short prefix of any text, so that a 1 MiB chunk or
 * reason does not become a 1 MiB message, and with every character that could steer a terminal
 * or reorder what it shows escaped, so that a message printed raw shows what it says.
 * @module
 */

/** The most characters of any one text that a description quotes. */
export const PREFIX = 64;

/** `value` for an error message, at most about {@link PREFIX} characters of it. Never throws. */
export function describeValue(value: unknown): string {
  const text = descriptionOf(value);
  return typeof value === 'string' ? quoteText(text) : shortText(text);
}

/**
 * What {@link describeValue} shows of `value`, before it is cut and escaped: a string itself, an
 * Error's name and message, another object's tag. Never throws.
 */
export function descriptionOf(value: unknown): string {
  try {
    if (typeof value === 'string') return value;
    if (value instanceof Error) {
      const name = String(value.name);
      const message = String(value.message);
      return message === '' ? name : `${name}: ${message}`;
    }
    if (typeof value === 'function') return 'a function';
    // number, bigint, boolean, symbol, null, undefined; an object by its tag
    return typeof value === 'object' && value !== null ? Object.prototype.toString.call(value) : String(value);
  } catch {
    return 'a value that cannot be described'; // a hostile getter or tag: the message still forms
  }
}

/**
 * A text for a message or a terminal, in double quotes: its first 64 characters (an ellipsis
 * inside the quotes says it was cut), with quotes, backslashes and every character that could
 * steer a terminal or reorder a line — C0 and C1 controls, DEL, bidirectional controls, line and
 * paragraph separators, lone surrogates — escaped (`\n`, `\u001b`, …) as JSON writes them. The
 * package's own messages quote server text this way; use it to show a value an error carries
 * (a string of `detail.answer`, which is the server's JSON as parsed).
 */
export function quoteText(text: string): string {
  return `"${shortText(text)}"`;
}

/** A text for a message, unquoted: its first {@link PREFIX} characters and an ellipsis when cut, escaped as {@link quoteText} escapes. */
export function shortText(text: string): string {
  return bounded(text, PREFIX, escapeText);
}

/**
 * The most characters of one text of the server's that an error's `detail` keeps: room for any
 * URL a browser sends, a content type or a challenge, while a 1 MB header stays a short field.
 */
export const DETAIL_PREFIX = 2048;

/**
 * What a text shown raw must not carry: C0 and C1 controls, DEL, the bidirectional controls (they
 * reorder a line), the line and paragraph separators and lone surrogates. (`JSON.stringify`
 * escapes the C0 controls and lone surrogates, but leaves the rest raw.)
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * A text of the server's as an error's `detail` holds it: unchanged when it is at most
 * {@link DETAIL_PREFIX} characters with nothing unsafe in it (any real content type, `Location`
 * or event id); else its first {@link DETAIL_PREFIX} characters and an ellipsis, with every
 * character {@link quoteText} escapes written `\uXXXX`. Quotes and backslashes stay as they are.
 */
export function detailField(text: string): string {
  return bounded(text, DETAIL_PREFIX, escapeUnsafe);
}

/**
 * `text` with every character that could steer a terminal or reorder a line (those
 * {@link quoteText} escapes, but quotes and backslashes) written `\uXXXX`, nothing else
 * changed: JSON text stays the same JSON, and a line shows what it says.
 */
export function escapeUnsafe(text: string): string {
  return text.replace(UNSAFE, unicodeEscape);
}

/**
 * `text` escaped as {@link escapeUnsafe}, in at most `limit` characters and an ellipsis when it
 * was cut: never inside a `\uXXXX` escape, nor between the halves of a surrogate pair.
 */
export function escapedPrefix(text: string, limit: number): string {
  const escaped = escapeUnsafe(text);
  if (escaped.length <= limit) return escaped;
  let end = limit;
  const partial = /\\(?:u[0-9a-f]{0,3})?$/.exec(escaped.slice(Math.max(0, end - 5), end));
  if (partial !== null) end -= partial[0].length;
  if ((escaped.charCodeAt(end - 1) & 0xfc00) === 0xd800) end -= 1;
  return `${escaped.slice(0, end)}…`;
}

/** The first `limit` characters of `text` (never half a surrogate pair), escaped, and an ellipsis when it was cut. */
function bounded(text: string, limit: number, escape: (text: string) => string): string {
  if (text.length <= limit) return escape(text);
  const end = (text.charCodeAt(limit - 1) & 0xfc00) === 0xd800 ? limit - 1 : limit;
  return `${escape(text.slice(0, end))}…`;
}

/** `text` as the inside of a JSON string, with what JSON leaves raw but a terminal acts on escaped too. */
function escapeText(text: string): string {
  return escapeUnsafe(JSON.stringify(text).slice(1, -1));
}

function unicodeEscape(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
