/**
 * Reading one answer across resumed event streams (MCP 2025-11-25): a server may close the
 * stream of a POST after its priming event and deliver the answer later, to a GET that carries
 * `Last-Event-ID`. Every body is read by `readAnswer`, with the byte budget that is left.
 * @module
 */

import { mimeEssence } from '../vocabulary/content-type.js';
import { wait } from './deadline.js';
import { AnswerError, isAnswerError } from '../vocabulary/errors.js';
import { abortedError, addBody, emptyDetail, endedWithoutAnswer, httpStatusError, NO_BODIES, overBodies, type BodyTotals } from './exchange-errors.js';
import type { JsonRpcMessage, JsonRpcRequestId, JsonRpcResponse } from '../vocabulary/json-rpc.js';
import { readAnswer } from '../drivers/read-answer.js';
import type { AuthProvider } from './auth-provider.js';
import { sendAuthorized } from './authorized-request.js';
import { release, type FetchFunction, type RedirectPolicy } from './send-request.js';

/** How long to wait before resuming when the stream set no `retry`. */
export const DEFAULT_RETRY_MS = 1000;

/** Resumptions in a row that may bring no new event id before the exchange gives up. */
export const MAX_RESUMPTIONS_WITHOUT_PROGRESS = 3;

/** What reading a resumable answer needs. */
export interface ResumableRead {
  /** The fetch to resume with. */
  readonly fetch: FetchFunction;
  /** Which redirects a resumption GET follows. */
  readonly redirect: RedirectPolicy;
  /** The exchange's URL. */
  readonly url: string | URL;
  /** The caller's headers, sent again on every GET. */
  readonly headers: Headers;
  /** The request the answer is for. */
  readonly requestId: JsonRpcRequestId;
  /** The cap over all bodies. */
  readonly maxBytes: number;
  /** The exchange's deadline. */
  readonly signal: AbortSignal;
  /** Passed-over messages, from every body, in order. */
  readonly onMessage: ((message: JsonRpcMessage) => void) | undefined;
  /** Whether to resume at all. */
  readonly resume: boolean;
  /** The exchange's bearer authentication, for every GET as for the POST. */
  readonly authProvider: AuthProvider | undefined;
}

/**
 * Reads the answer from `response`; when an event-stream body ends without it after an event id,
 * waits the stream's `retry`, GETs the stream from that id, and reads on — while each resumption
 * brings a new event id, and a few times more without one.
 */
export async function readResumable(response: Response, read: ResumableRead): Promise<JsonRpcResponse> {
  let totals = NO_BODIES;
  let lastEventId = '';
  let retry: number | undefined;
  let resumptions = 0;
  let stalled = 0;

  for (;;) {
    let error: AnswerError;
    try {
      return await readAnswer(response, {
        requestId: read.requestId,
        maxBytes: read.maxBytes - totals.bytesRead,
        signal: read.signal,
        onMessage: read.onMessage,
      });
    } catch (thrown) {
      if (!isAnswerError(thrown)) throw thrown;
      error = thrown;
    }
    totals = addBody(totals, error.detail);
    const restated = (note: string): AnswerError =>
      resumptions === 0 ? error : overBodies(error, totals, read.maxBytes, `${note} after ${resumptions} resumption${resumptions === 1 ? '' : 's'}`);

    if (!read.resume || !(endedWithoutAnswer(error) || brokeMidStream(error))) throw restated('ended');

    const newId = error.detail.lastEventId;
    if (newId !== '' && newId !== lastEventId) {
      lastEventId = newId;
      stalled = 0;
    } else if (resumptions > 0) {
      stalled += 1;
    }
    if (lastEventId === '') throw restated('no event id to resume from');
    if (stalled >= MAX_RESUMPTIONS_WITHOUT_PROGRESS) throw restated('gave up: no new event id');
    const idHeader = lastEventIdHeader(lastEventId);
    if (idHeader === undefined) {
      // Said whatever the count: the caller must learn why a resumable stream was not resumed.
      throw overBodies(error, totals, read.maxBytes, 'not resumed: its last event id has leading or trailing whitespace, which a Last-Event-ID header cannot carry');
    }
    retry = error.detail.retry ?? retry;

    try {
      await wait(retry ?? DEFAULT_RETRY_MS, read.signal);
    } catch {
      throw abortedError(read.signal, { ...error.detail, ...totals, maxBytes: read.maxBytes });
    }
    const next = await reconnect(read, idHeader, totals);
    if (next === undefined) throw restated('the server refused to resume the stream');
    response = next;
    resumptions += 1;
  }
}

/**
 * A 2025-era stream that broke mid-read (a reset, a body error) is resumed as a closed one is:
 * the server kept its events, and the last id says where to pick up.
 */
function brokeMidStream(error: AnswerError): boolean {
  return error.code === 'stream_failed' && mimeEssence(error.detail.contentType) === 'text/event-stream';
}

/**
 * The `Last-Event-ID` value that carries `id` back byte for byte: its UTF-8 bytes, one character
 * a byte (a header value is bytes; the scanner decoded them as UTF-8, and EventSource sends them
 * back as UTF-8). `undefined` when no header can carry them unchanged: Fetch strips a value's
 * leading and trailing whitespace. (An id never holds NUL, CR or LF: the scanner drops those.)
 */
export function lastEventIdHeader(id: string): string | undefined {
  let value = '';
  for (const byte of new TextEncoder().encode(id)) value += String.fromCharCode(byte);
  return /^[ \t]|[ \t]$|[\0\r\n]/.test(value) ? undefined : value;
}

/**
 * GETs the stream from `lastEventId` (a header value); `undefined` when the server does not offer
 * it as an event stream. A 401 or 403 (after the `authProvider`'s one retry) ends the exchange as
 * `http_status` with its challenge: the caller has a credential to fix, not a stream to wait for.
 */
async function reconnect(read: ResumableRead, lastEventId: string, totals: BodyTotals): Promise<Response | undefined> {
  const headers = new Headers(read.headers);
  headers.set('accept', 'text/event-stream');
  headers.set('last-event-id', lastEventId);
  let response: Response;
  try {
    response = await sendAuthorized(read, { method: 'GET', headers }); // a read is its own route
  } catch (error) {
    if (read.signal.aborted) throw abortedError(read.signal, { ...emptyDetail(read.maxBytes), ...totals });
    if (isAnswerError(error)) throw error; // a redirect not followed ends the exchange, as for the POST
    return undefined; // a failed GET ends the resumption like a refused one
  }
  if (response.ok && mimeEssence(response.headers.get('content-type')) === 'text/event-stream') return response;
  release(response);
  if (response.status === 401 || response.status === 403) {
    throw httpStatusError(response, { ...emptyDetail(read.maxBytes, response.headers.get('content-type')), ...totals }, undefined, undefined, ' to the GET that resumes the stream');
  }
  return undefined;
}
