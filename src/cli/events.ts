/**
 * `sse-answer events`: a captured event stream → its events as NDJSON, one
 * `{type, data, lastEventId}` a line, as they are scanned, within the byte cap.
 * @module
 */

import { DEFAULT_MAX_BYTES, scanEvents } from '../index.js';
import { openInput } from './input.js';
import { printJson } from './output.js';

/**
 * Scans the body and prints every event; a final event cut off at the end is dispatched, as
 * `readAnswer` does. Past `maxBytes` (default 16 MiB, as `read`'s) the events so far are out and
 * the command fails with `scanEvents`' `budget_exceeded`: an event the cap cut is not printed.
 */
export async function events(file: string | undefined, maxBytes: number = DEFAULT_MAX_BYTES): Promise<void> {
  for await (const event of scanEvents(await openInput(file), { dispatchIncomplete: true, maxBytes })) {
    printJson({ type: event.type, data: event.data, lastEventId: event.lastEventId });
  }
}
