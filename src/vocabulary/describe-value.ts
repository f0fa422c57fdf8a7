/**
 * A value as an error message shows it: a string quoted, an Error by its name and message, other
 * objects by their tag — and never more than a short prefix of any text, so that a 1 MiB chunk
 * or reason does not become a 1 MiB message.
 * @module
 */

/** The most characters of any one text that a description quotes. */
const PREFIX = 64;

/** `value` for an error message, at most about {@link PREFIX} characters of it. Never throws. */
export function describeValue(value: unknown): string {
  try {
    return describe(value);
  } catch {
    return 'a value that cannot be described'; // a hostile getter or tag: the message still forms
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string') return quote(value);
  if (value instanceof Error) {
    const name = prefix(String(value.name));
    const message = prefix(String(value.message));
    return message === '' ? name : `${name}: ${message}`;
  }
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'object' && value !== null) return prefix(Object.prototype.toString.call(value));
  return prefix(String(value)); // number, bigint, boolean, symbol, null, undefined
}

/** A string, JSON-quoted; a long one is cut, with an ellipsis inside the quotes. */
function quote(text: string): string {
  if (text.length <= PREFIX) return JSON.stringify(text);
  return `${JSON.stringify(cut(text)).slice(0, -1)}…"`;
}

function prefix(text: string): string {
  return text.length <= PREFIX ? text : `${cut(text)}…`;
}

/** The first PREFIX characters, without splitting a surrogate pair at the cut. */
function cut(text: string): string {
  const end = (text.charCodeAt(PREFIX - 1) & 0xfc00) === 0xd800 ? PREFIX - 1 : PREFIX;
  return text.slice(0, end);
}
