/**
 * `sse-answer events`: a captured event stream → its events as NDJSON, one
 * `{type, data, lastEventId}` a line, as they are scanned.
 * @module
 */

import { scanEvents } from '../index.js';
import { openInput } from './input.js';
import { printJson } from './output.js';

/** Scans the body and prints every event; a final event cut off at the end is dispatched, as `readAnswer` does. */
export async function events(file: string | undefined): Promise<void> {
  const input = await openInput(file);
  for await (const event of scanEvents(input, { dispatchIncomplete: true })) {
    printJson({ type: event.type, data: event.data, lastEventId: event.lastEventId });
  }
}
