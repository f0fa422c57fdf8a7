/** `sse-answer events`: a captured event stream → its events as NDJSON, within the byte cap. @module */

import { DEFAULT_MAX_BYTES, scanEvents } from '../index.js';
import { openInput } from './input.js';
import { printJson } from './output.js';

/** Scans the body and prints every event, a final one cut off at the end dispatched (as `readAnswer` does); past `maxBytes`, `budget_exceeded`, an event the cap cut unprinted. */
export async function events(file: string | undefined, maxBytes: number = DEFAULT_MAX_BYTES): Promise<void> {
  for await (const event of scanEvents(await openInput(file), { dispatchIncomplete: true, maxBytes })) {
    printJson({ type: event.type, data: event.data, lastEventId: event.lastEventId });
  }
}
