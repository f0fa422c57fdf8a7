/** The essence of a `Content-Type` ("type/subtype", lowercased) by the Fetch standard's "extract a MIME type": of several comma-separated values, the last that parses. @module */

/** One value's MIME type: token characters about a `/`, only HTTP whitespace around them (a no-break space makes it invalid), then parameters or the end. */
const MIME_TYPE = /^[\t\n\r ]*([!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+)[\t\n\r ]*(?:;|$)/;

/** The essence of `header`, or `undefined` when it has none that parses (or no header at all). */
export function mimeEssence(header: string | null): string | undefined {
  if (header === null) return undefined;
  let essence: string | undefined;
  for (const value of splitValues(header)) {
    const found = MIME_TYPE.exec(value)?.[1]?.toLowerCase();
    if (found !== undefined && found !== '*/*') essence = found;
  }
  return essence;
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
