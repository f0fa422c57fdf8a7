/**
 * `sse-answer events`: a captured event stream → its events as NDJSON, one
 * `{type, data, lastEventId}` a line, as they are scanned, within the byte cap.
 * @module
 */

import { AnswerError, DEFAULT_MAX_BYTES, scanEvents } from '../index.js';
import { capInput } from './capped-input.js';
import { openInput } from './input.js';
import { printJson } from './output.js';

/**
 * Scans the body and prints every event; a final event cut off at the end is dispatched, as
 * `readAnswer` does. Past `maxBytes` (default 16 MiB, as `read`'s) the events so far are out and
 * the command fails with `budget_exceeded`: an event the cap cut is not printed.
 */
export async function events(file: string | undefined, maxBytes: number = DEFAULT_MAX_BYTES): Promise<void> {
  let count = 0;
  let lastEventId = '';
  const body = capInput(await openInput(file), maxBytes, (bytes) => new AnswerError(
    'budget_exceeded',
    `the event stream went past maxBytes (${maxBytes} bytes)`,
    { contentType: 'text/event-stream', bytesRead: bytes, maxBytes, events: count, messages: 0, ignored: 0, lastEventId, retry: undefined },
  ));
  for await (const event of scanEvents(body, { dispatchIncomplete: true })) {
    count += 1;
    lastEventId = event.lastEventId;
    printJson({ type: event.type, data: event.data, lastEventId: event.lastEventId });
  }
}
