/** What the CLI writes: results on stdout, passed-over messages as NDJSON and failures and notes as one bounded line on stderr; nothing a terminal acts on is written raw, and no secret is printed. @module */

import { escapedPrefix, escapeUnsafe, Secrets, type JsonRpcMessage } from '../index.js';

/** The longest line of text the CLI writes on stderr (a failure or a note); past it, an ellipsis. */
const MAX_LINE = 2048;

let secrets = new Secrets();

/** What no output may show: the command's bearer token and secret headers, taken as the exchange takes them (`Secrets.addHeaders`). */
export function neverPrint(headers: Headers, secretHeaders: readonly string[], tokens: readonly string[]): void {
  secrets = new Secrets();
  secrets.addHeaders(headers, secretHeaders);
  for (const token of tokens) secrets.add(token);
}

/** `value` as one line of JSON, its strings and keys redacted and its unsafe characters escaped. */
export function jsonLine(value: unknown): string {
  // Wrapped, so that the value's own keys are below the top, where keys are redacted too.
  const text = JSON.stringify(secrets.redactValue([value])[0]);
  return `${escapeUnsafe(text ?? 'null')}\n`;
}

/** Writes one value as a JSON line on stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(jsonLine(value));
}

/** Writes a passed-over message as a JSON line on stderr. */
export function printPassedOver(message: JsonRpcMessage): void {
  process.stderr.write(jsonLine(message));
}

/** `text` as one line for stderr: its lines joined by a space, unsafe characters escaped, secrets redacted, bounded. */
export function textLine(text: string): string {
  return `sse-answer: ${oneLine(text, MAX_LINE)}\n`;
}

/** `text` as part of one line of at most `limit` characters (an ellipsis when cut): lines joined by a space, secrets redacted, unsafe characters escaped. */
export function oneLine(text: string, limit: number): string {
  // Split and trimmed, not a whitespace regex: a run of blanks with no line break after it must not cost a scan a position.
  const joined = secrets.redact(text).split('\n').map((line) => line.trim()).join(' ');
  return escapedPrefix(joined, limit);
}

/** Writes one `sse-answer: …` line on stderr: a failure. */
export function printFailure(text: string): void {
  process.stderr.write(textLine(text));
}

/** Writes one `sse-answer: …` line on stderr that says what the command settled (not a failure). */
export function printNote(text: string): void {
  process.stderr.write(textLine(text));
}
