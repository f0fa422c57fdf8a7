/** One answer read across resumed event streams (2025-11-25): a stream closed early, the answer read from a GET with `Last-Event-ID`; one outcome over all bodies. @module */

import { abortReason } from '../drivers/abort-watch.js';
import { readAnswerOutcome, type ReadOutcome } from '../drivers/read-answer.js';
import type { AnswerFormat, AnswerProgress } from '../reducers/answer.js';
import type { AnswerDetail } from '../vocabulary/errors.js';
import { NOTHING_READ, restated, said, stopped, type Failure } from '../vocabulary/failure.js';
import type { JsonRpcMessage, JsonRpcRequestId } from '../vocabulary/json-rpc.js';
import { mimeEssence } from '../vocabulary/content-type.js';
import { sendAuthorized, type AuthorizedRoute } from './authorized-request.js';
import { wait } from './deadline.js';
import { refusal } from './refusal.js';
import { release } from './send-request.js';

/** How long to wait before resuming when the stream set no `retry`. */
export const DEFAULT_RETRY_MS = 1000;

/** Resumptions in a row that may bring no new event id before the exchange gives up. */
export const MAX_RESUMPTIONS_WITHOUT_PROGRESS = 3;

/** What reading a resumable answer needs. */
export interface ResumableRead {
  /** How each GET goes: the exchange's fetch, deadline, redirects and authentication. */
  readonly route: AuthorizedRoute;
  readonly headers: Headers;
  readonly requestId: JsonRpcRequestId;
  readonly maxBytes: number;
  readonly onMessage: ((message: JsonRpcMessage) => void) | undefined;
  readonly resume: boolean;
}

interface BodyTotals {
  readonly bytesRead: number;
  readonly events: number;
  readonly messages: number;
  readonly ignored: number;
}

function addBody(totals: BodyTotals, read: Pick<AnswerProgress, keyof BodyTotals>): BodyTotals {
  return {
    bytesRead: totals.bytesRead + read.bytesRead,
    events: totals.events + read.events,
    messages: totals.messages + read.messages,
    ignored: totals.ignored + read.ignored,
  };
}

/** Reads the answer from `response`; an event stream that ends without it is resumed from its last event id (after its `retry`), while resumptions bring new ids, and a few times more. */
export async function readResumable(response: Response, read: ResumableRead): Promise<ReadOutcome> {
  let totals: BodyTotals = NOTHING_READ;
  let lastEventId = '';
  let retry: number | undefined;
  let resumptions = 0;
  let stalled = 0;

  for (;;) {
    const outcome = await readAnswerOutcome(response, {
      requestId: read.requestId,
      maxBytes: read.maxBytes - totals.bytesRead,
      signal: read.route.signal,
      onMessage: read.onMessage,
    });
    if (outcome.kind === 'answer') {
      return resumptions === 0 ? outcome : { ...outcome, progress: { ...outcome.progress, ...addBody(totals, outcome.progress) } };
    }
    const { failure, format } = outcome;
    totals = addBody(totals, failure.detail);
    const restated = (note: string): ReadOutcome =>
      resumptions === 0 ? outcome : failedOver(failure, totals, read.maxBytes, `${note} after ${resumptions} resumption${resumptions === 1 ? '' : 's'}`, format);

    // An event stream that ended early: the server kept its events.
    const resumable = format === 'event-stream' && endedEarly(outcome);
    if (!read.resume || !resumable) return restated('ended');

    const newId = failure.detail.lastEventId;
    if (newId !== '' && newId !== lastEventId) {
      lastEventId = newId;
      stalled = 0;
    } else if (resumptions > 0) {
      stalled += 1;
    }
    if (lastEventId === '') return restated('no event id to resume from');
    if (stalled >= MAX_RESUMPTIONS_WITHOUT_PROGRESS) return restated('gave up: no new event id');
    const idHeader = lastEventIdHeader(lastEventId);
    if (idHeader === undefined) {
      // Said whatever the count: the caller must learn why a resumable stream was not resumed.
      return failedOver(failure, totals, read.maxBytes, 'not resumed: its last event id has leading or trailing whitespace, which Last-Event-ID cannot carry', format);
    }
    retry = failure.detail.retry ?? retry;

    const { signal } = read.route;
    try {
      await wait(retry ?? DEFAULT_RETRY_MS, signal);
    } catch {
      return { kind: 'failed', failure: stopped(abortReason(signal), over(failure.detail, totals, read.maxBytes), 'the exchange'), format };
    }
    const next = await reconnect(read, idHeader, over(failure.detail, totals, read.maxBytes));
    if (next === undefined) return restated('the server refused to resume the stream');
    if (next.kind === 'failed') return { kind: 'failed', failure: next.failure, format };
    response = next.response;
    resumptions += 1;
  }
}

/** Whether a read ended early (its response broke, or its event stream ended without the answer): a 2025 stream is resumed there, a 2026 request lost. */
export function endedEarly(read: Extract<ReadOutcome, { kind: 'failed' }>): boolean {
  const { failure } = read;
  if (failure.code === 'stream_failed') return true;
  return read.format === 'event-stream' && failure.code === 'malformed_answer' && (failure.reason === 'no_message' || failure.reason === 'no_response');
}

function over(detail: AnswerDetail, totals: BodyTotals, maxBytes: number): AnswerDetail {
  return { ...detail, ...totals, maxBytes };
}

/** A failure of the last of several bodies restated over all of them (counts summed, the caller's cap, `no_response` once any message came); `note` says how the resumption ended. */
function failedOver(failure: Failure, totals: BodyTotals, maxBytes: number, note: string, format: AnswerFormat | undefined): ReadOutcome {
  const reason = failure.reason === 'no_message' && totals.messages > 0 ? 'no_response' : failure.reason;
  const base =
    failure.code === 'budget_exceeded' ? said`the answer's bodies went past maxBytes (${maxBytes} bytes) before the answer was complete` : failure.message;
  return { kind: 'failed', failure: restated(failure, { message: said`${base} (${note})`, detail: over(failure.detail, totals, maxBytes), reason }), format };
}

/** The `Last-Event-ID` that carries `id` back byte for byte (its UTF-8 bytes, a character each), or `undefined` when Fetch would strip its leading or trailing whitespace. */
export function lastEventIdHeader(id: string): string | undefined {
  let value = '';
  for (const byte of new TextEncoder().encode(id)) value += String.fromCharCode(byte);
  return /^[ \t]|[ \t]$|[\0\r\n]/.test(value) ? undefined : value;
}

/** GETs the stream from `lastEventId`: an event-stream response, or `undefined` (the resumption ends as refused); an abort, a redirect, a 401 or 403 end the exchange. */
async function reconnect(read: ResumableRead, lastEventId: string, detail: AnswerDetail): Promise<{ kind: 'response'; response: Response } | { kind: 'failed'; failure: Failure } | undefined> {
  const headers = new Headers(read.headers);
  headers.set('accept', 'text/event-stream');
  headers.set('last-event-id', lastEventId);
  const sent = await sendAuthorized({ ...read.route, detail }, { method: 'GET', headers });
  if (sent.kind === 'unanswered') return undefined; // a failed GET ends the resumption like a refused one
  if (sent.kind === 'failed') return sent;
  const { response } = sent;
  if (response.ok && mimeEssence(response.headers.get('content-type')) === 'text/event-stream') return sent;
  release(read.route, response);
  if (response.status === 401 || response.status === 403) {
    return { kind: 'failed', failure: refusal(response, { ...detail, contentType: response.headers.get('content-type') }, undefined, said` to the GET that resumes the stream`) };
  }
  return undefined;
}
