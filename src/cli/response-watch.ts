/**
 * What `probe` sees of a server's responses below the answers: the format each answers in, and
 * whether a 2025-era server primes its event streams for resumption — an event with an id and
 * empty data before the answer (2025-11-25, "Resumability"), which a reader of messages never
 * sees. A `fetch` wrapper notes each response and scans each event-stream body as it passes.
 * @module
 */

import { mimeEssence } from '../vocabulary/content-type.js';
import { messageKind } from '../vocabulary/json-rpc.js';
import { scan, scanStart, type FetchFunction, type ScanState, type SseEvent } from '../index.js';

/** A `fetch` that watches the responses it returns. */
export interface ResponseWatch {
  /** Passes every request to the `fetch` it wraps; a 2xx event stream's body is scanned on its way. */
  readonly fetch: FetchFunction;
  /** The `Content-Type` of the last response, or `null` (none yet, or none sent). */
  contentType(): string | null;
  /** Whether an event with an id and empty data came before the answer in a stream so far. */
  primed(): boolean;
}

/** Wraps `base` (the global `fetch` when absent). */
export function watchResponses(base: FetchFunction | undefined): ResponseWatch {
  let primed = false;
  let contentType: string | null = null;
  const fetch: FetchFunction = async (input, init) => {
    const response = await (base ?? globalThis.fetch)(input, init);
    contentType = response.headers.get('content-type');
    const stream = response.status >= 200 && response.status <= 299 && mimeEssence(response.headers.get('content-type')) === 'text/event-stream';
    if (!stream || response.body === null) return response;
    let state: ScanState = scanStart();
    let answered = false;
    const look = (event: SseEvent): void => {
      if (answered) return;
      if (event.data === '') primed ||= event.lastEventId !== '';
      else answered = isResponse(event.data);
    };
    const watched = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          if (!answered) {
            const result = scan(state, chunk);
            state = result.state;
            result.events.forEach(look);
          }
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(watched, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return { fetch, contentType: () => contentType, primed: () => primed };
}

function isResponse(data: string): boolean {
  try {
    return messageKind(JSON.parse(data)) === 'response';
  } catch {
    return false;
  }
}
