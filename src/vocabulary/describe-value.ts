/** A value or a text as a message shows it: a short prefix, every character that could steer a terminal or reorder a line escaped, so that a message printed raw shows what it says. @module */

/** The most characters of any one text that a description quotes. */
export const PREFIX = 64;

/** `value` for an error message, at most about {@link PREFIX} characters of it. Never throws. */
export function describeValue(value: unknown): string {
  const text = descriptionOf(value);
  return typeof value === 'string' ? quoteText(text) : shortText(text);
}

/** What {@link describeValue} shows of `value` before it is cut and escaped: a string itself, an Error's name and message, an object's tag. Never throws. */
export function descriptionOf(value: unknown): string {
  try {
    if (typeof value === 'string') return value;
    if (value instanceof Error) {
      const name = String(value.name);
      const message = String(value.message);
      return message === '' ? name : `${name}: ${message}`;
    }
    if (typeof value === 'function') return 'a function';
    return typeof value === 'object' && value !== null ? Object.prototype.toString.call(value) : String(value);
  } catch {
    return 'a value that cannot be described'; // a hostile getter or tag: the message still forms
  }
}

/** A text in double quotes, for a message or a terminal: its first 64 characters (an ellipsis when cut), escaped as JSON does, and every character that steers a terminal or reorders a line too. */
export function quoteText(text: string): string {
  return `"${shortText(text)}"`;
}

/** A text for a message, unquoted: its first {@link PREFIX} characters and an ellipsis when cut, escaped as {@link quoteText} escapes. */
export function shortText(text: string): string {
  return bounded(text, PREFIX, escapeText);
}

/** The most characters of one server text an error's `detail` keeps: any URL a browser sends, while a 1 MB header stays a short field. */
export const DETAIL_PREFIX = 2048;

/** What a text shown raw must not carry: C0 and C1 controls, DEL, bidirectional controls, line and paragraph separators, lone surrogates (`JSON.stringify` leaves most raw). */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A server text as `detail` holds it: unchanged when short and safe (any real content type, `Location` or event id), else cut at {@link DETAIL_PREFIX}, its unsafe characters `\uXXXX`. */
export function detailField(text: string): string {
  return bounded(text, DETAIL_PREFIX, escapeUnsafe);
}

/** `text` with each character that could steer a terminal or reorder a line written `\uXXXX`, nothing else changed: JSON stays the same JSON. */
export function escapeUnsafe(text: string): string {
  return text.replace(UNSAFE, unicodeEscape);
}

/** `text` escaped as {@link escapeUnsafe} in at most `limit` characters and an ellipsis when cut, never inside an escape or a surrogate pair. */
export function escapedPrefix(text: string, limit: number): string {
  const escaped = escapeUnsafe(text);
  if (escaped.length <= limit) return escaped;
  let end = limit;
  const partial = /\\(?:u[0-9a-f]{0,3})?$/.exec(escaped.slice(Math.max(0, end - 5), end));
  if (partial !== null) end -= partial[0].length;
  if ((escaped.charCodeAt(end - 1) & 0xfc00) === 0xd800) end -= 1;
  return `${escaped.slice(0, end)}…`;
}

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
