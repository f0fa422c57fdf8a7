/**
 * The essence of a `Content-Type` header ("type/subtype", lowercased, parameters dropped), after
 * the Fetch standard's "extract a MIME type": a header may hold several comma-separated values
 * (from repeated headers), and the last one that parses wins.
 * @see https://fetch.spec.whatwg.org/#concept-header-extract-mime-type
 * @module
 */

/** RFC 9110 token characters, of which a type and a subtype are made. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The essence of `header`, or `undefined` when it has none that parses (or no header at all). */
export function mimeEssence(header: string | null): string | undefined {
  if (header === null) return undefined;
  let essence: string | undefined;
  for (const value of splitValues(header)) {
    const parameters = value.indexOf(';');
    const mime = trimHttpWhitespace(parameters === -1 ? value : value.slice(0, parameters));
    const slash = mime.indexOf('/');
    if (slash === -1) continue;
    const type = mime.slice(0, slash);
    const subtype = mime.slice(slash + 1);
    if (!TOKEN.test(type) || !TOKEN.test(subtype)) continue;
    const found = `${type}/${subtype}`.toLowerCase();
    if (found === '*/*') continue;
    essence = found;
  }
  return essence;
}

/**
 * `text` without leading and trailing HTTP whitespace (tab, LF, CR, space) — only those: a
 * no-break space, vertical tab or form feed around a type makes it invalid, not trimmed.
 */
function trimHttpWhitespace(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isHttpWhitespace(text.charCodeAt(start))) start++;
  while (end > start && isHttpWhitespace(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}

function isHttpWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/** Splits a header value at commas outside double-quoted strings (a quoted parameter may hold one). */
function splitValues(header: string): string[] {
  const values: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < header.length; i++) {
    const c = header.charCodeAt(i);
    if (c === 0x22 /* " */) quoted = !quoted;
    else if (c === 0x5c /* \ */ && quoted) i++;
    else if (c === 0x2c /* , */ && !quoted) {
      values.push(header.slice(start, i));
      start = i + 1;
    }
  }
  values.push(header.slice(start));
  return values;
}
