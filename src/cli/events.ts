/**
 * `sse-answer events`: a captured event stream → its events as NDJSON, one
 * `{type, data, lastEventId}` a line, as they are scanned.
 * @module
 */

import { scan, scanEnd, scanStart } from '../index.js';
import { openInput } from './input.js';
import { printJson } from './output.js';

/** Scans the body and prints every event; a final event cut off at the end is dispatched, as `readAnswer` does. */
export async function events(file: string | undefined): Promise<void> {
  const input = await openInput(file);
  let state = scanStart();
  for await (const chunk of input as unknown as AsyncIterable<Uint8Array>) {
    const result = scan(state, chunk);
    state = result.state;
    for (const event of result.events) printJson({ type: event.type, data: event.data, lastEventId: event.lastEventId });
  }
  for (const event of scanEnd(state, { dispatchIncomplete: true }).events) {
    printJson({ type: event.type, data: event.data, lastEventId: event.lastEventId });
  }
}
