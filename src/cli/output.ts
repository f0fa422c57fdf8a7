/**
 * What the CLI writes: results on stdout, passed-over messages as NDJSON on stderr, failures as
 * one line on stderr.
 * @module
 */

import type { JsonRpcMessage } from '../index.js';

/** Writes one value as a JSON line on stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

/** Writes a passed-over message as a JSON line on stderr. */
export function printPassedOver(message: JsonRpcMessage): void {
  process.stderr.write(`${JSON.stringify(message)}\n`);
}

/** Writes one `sse-answer: …` line on stderr. */
export function printFailure(text: string): void {
  process.stderr.write(`sse-answer: ${text.replace(/\s*\n\s*/g, ' ')}\n`);
}

/** Writes one `sse-answer: …` line on stderr that says what the command settled (not a failure). */
export function printNote(text: string): void {
  process.stderr.write(`sse-answer: ${text.replace(/\s*\n\s*/g, ' ')}\n`);
}
