/**
 * Test bodies for the answer path: a pull-based source `ReadableStream` that records what was
 * asked of it (pulls, cancel, close, error), `Response` builders over it, and small helpers to
 * drive the pure answer reducer.
 *
 * The source has a high-water mark of 0, so it is pulled only when a reader asks for a chunk:
 * `pulls` counts exactly the chunks a reader requested, and a stream nobody reads has 0 pulls.
 */

import { expect } from 'vitest';
import {
  answer,
  AnswerError,
  answerEnd,
  answerStart,
  isAnswerError,
  type AnswerFormat,
  type AnswerOutcome,
  type AnswerState,
  type JsonRpcMessage,
  type JsonRpcRequestId,
} from '../../src/index.js';
import { cutAt } from './chunks.js';

const encoder = new TextEncoder();

/** UTF-8 bytes of a string; a Uint8Array is returned as it is. */
export function bytes(chunk: string | Uint8Array): Uint8Array {
  return typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
}

export { concat } from './chunks.js';

/** The body's bytes cut at the given offsets (sorted, deduplicated, clamped to the body). */
export function splitAt(body: string | Uint8Array, cuts: readonly number[]): Uint8Array<ArrayBuffer>[] {
  const all = bytes(body);
  const points = [...new Set(cuts.map((c) => Math.max(0, Math.min(all.length, c))))].sort((a, b) => a - b);
  return cutAt(all, points);
}

/** The body in chunks of `size` bytes (the last may be shorter). */
export function chunksOf(body: string | Uint8Array, size: number): Uint8Array<ArrayBuffer>[] {
  const all = bytes(body);
  const out: Uint8Array<ArrayBuffer>[] = [];
  for (let i = 0; i < all.length; i += size) out.push(all.slice(i, i + size));
  return out;
}

/** How a source body was released. */
export type Released = 'cancelled' | 'closed' | 'errored';

/** Options for {@link sourceBody}. */
export interface SourceOptions {
  /**
   * After the chunks, never end: `true` / `'silent'` leaves the next pull pending forever;
   * `'heartbeat'` sends an SSE comment (`: ping\n\n`) on every later pull.
   */
  readonly endless?: boolean | 'silent' | 'heartbeat';
  /** Error the stream (by the source itself) on the pull after this many chunks were delivered. */
  readonly errorAfter?: number;
  /** The error used by `errorAfter` (default: a new Error). */
  readonly error?: unknown;
  /** Make the source's cancel hang forever (`'hang'`) or reject (`'reject'`). */
  readonly cancel?: 'hang' | 'reject';
}

/** A source body and what was asked of it. */
export interface SourceBody {
  readonly body: ReadableStream<Uint8Array>;
  /** Times the source was pulled (each is one chunk a reader asked for). */
  readonly pulls: number;
  /** Chunks enqueued so far. */
  readonly delivered: number;
  /** Bytes enqueued so far. */
  readonly deliveredBytes: number;
  /** Whether the source's `cancel` callback was called, and with what reason. */
  readonly cancelled: boolean;
  readonly cancelReason: unknown;
  /** Whether the source closed the stream (all chunks delivered). */
  readonly closed: boolean;
  /** Whether the source errored the stream, and with what. */
  readonly errored: boolean;
  readonly error: unknown;
  /** Settles when the source is released: cancelled, closed after its last chunk, or errored. */
  readonly released: Promise<Released>;
}

/** A pull-based body over `chunks` that records pulls and how it was released. */
export function sourceBody(chunks: readonly (string | Uint8Array)[], opts: SourceOptions = {}): SourceBody {
  const queue = chunks.map(bytes);
  let markReleased!: (how: Released) => void;
  const released = new Promise<Released>((resolve) => {
    markReleased = resolve;
  });
  const error = 'error' in opts ? opts.error : new Error('the source failed');
  const record = {
    pulls: 0,
    delivered: 0,
    deliveredBytes: 0,
    cancelled: false,
    cancelReason: undefined as unknown,
    closed: false,
    errored: false,
    error: undefined as unknown,
  };
  const endless = opts.endless === true ? 'silent' : opts.endless === false ? undefined : opts.endless;

  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        record.pulls++;
        if (opts.errorAfter !== undefined && record.delivered >= opts.errorAfter) {
          record.errored = true;
          record.error = error;
          controller.error(error);
          markReleased('errored');
          return;
        }
        const next = queue.shift();
        if (next !== undefined) {
          record.delivered++;
          record.deliveredBytes += next.length;
          controller.enqueue(next);
          return;
        }
        if (endless === 'silent') return new Promise<void>(() => {});
        if (endless === 'heartbeat') {
          const beat = bytes(': ping\n\n');
          record.delivered++;
          record.deliveredBytes += beat.length;
          controller.enqueue(beat);
          return;
        }
        record.closed = true;
        controller.close();
        markReleased('closed');
        return;
      },
      cancel(reason) {
        record.cancelled = true;
        record.cancelReason = reason;
        markReleased('cancelled');
        if (opts.cancel === 'hang') return new Promise<void>(() => {});
        if (opts.cancel === 'reject') return Promise.reject(new Error('cancel failed'));
        return undefined;
      },
    },
    { highWaterMark: 0 },
  );

  // The record itself is the view: its counters are read live, through a read-only type.
  return Object.assign(record, { body, released });
}

/** A response over a source body, with the given content type (`null` for none) and status. */
export function responseOf(
  source: SourceBody,
  contentType: string | null,
  status = 200,
): { response: Response; source: SourceBody } {
  const headers = new Headers();
  if (contentType !== null) headers.set('content-type', contentType);
  return { response: new Response(source.body, { status, headers }), source };
}

/** A `text/event-stream` response over `chunks`. */
export function sseResponse(
  chunks: readonly (string | Uint8Array)[],
  opts: SourceOptions & { readonly contentType?: string | null; readonly status?: number } = {},
): { response: Response; source: SourceBody } {
  return responseOf(sourceBody(chunks, opts), 'contentType' in opts ? opts.contentType ?? null : 'text/event-stream', opts.status);
}

/** An `application/json` response over `chunks`. */
export function jsonResponse(
  chunks: readonly (string | Uint8Array)[],
  opts: SourceOptions & { readonly contentType?: string | null; readonly status?: number } = {},
): { response: Response; source: SourceBody } {
  return responseOf(sourceBody(chunks, opts), 'contentType' in opts ? opts.contentType ?? null : 'application/json', opts.status);
}

/**
 * Asserts that the body was released: the source was cancelled, or closed / errored by itself,
 * and no reader holds the response's body. Returns how it was released.
 */
export async function expectReleased(source: SourceBody, response: Response): Promise<Released | 'not released'> {
  // Release happens before readAnswer settles (cancel is called synchronously in its cleanup),
  // so one turn of the event loop is plenty: no waiting on a body that was never released.
  const how = await Promise.race([source.released, nextTurn().then(() => 'not released' as const)]);
  expect(how, 'the body was not released: not cancelled, closed or errored').not.toBe('not released');
  expect(response.body?.locked ?? false).toBe(false);
  return how;
}

/** One turn of the event loop: lets a new stream start, and pending promise reactions run. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The rejection of `promise`; fails the test if it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  let value: unknown;
  try {
    value = await promise;
  } catch (error) {
    return error;
  }
  return expect.fail(`expected a rejection, got ${JSON.stringify(value)}`);
}

/** One SSE event, LF line ends: `fields` are raw field lines, then the blank line. */
export function sseEvent(data: string | object, fields: readonly string[] = []): string {
  const text = typeof data === 'string' ? data : JSON.stringify(data);
  return [...fields, ...text.split('\n').map((line) => `data: ${line}`), '', ''].join('\n');
}

/** What driving the pure answer reducer over some chunks gave. */
export interface Fed {
  /** The final state. */
  readonly state: AnswerState;
  /** The outcome: the one a chunk reached, or answerEnd's when `end` is set; undefined otherwise. */
  readonly outcome: AnswerOutcome | undefined;
  /** All messages reported, in order. */
  readonly messages: JsonRpcMessage[];
  /** Index of the chunk that reached the outcome (chunks.length when answerEnd did). */
  readonly at: number | undefined;
}

/** Feeds chunks to the answer reducer, then (unless `end` is false) ends the body. */
export function feed(
  format: AnswerFormat,
  chunks: readonly (string | Uint8Array)[],
  options: { requestId?: JsonRpcRequestId | undefined; maxBytes?: number | undefined; end?: boolean } = {},
): Fed {
  let state = answerStart({ format, requestId: options.requestId, maxBytes: options.maxBytes });
  const messages: JsonRpcMessage[] = [];
  for (let i = 0; i < chunks.length; i++) {
    const r = answer(state, bytes(chunks[i]!));
    state = r.state;
    messages.push(...r.messages);
    if (r.outcome !== undefined) return { state, outcome: r.outcome, messages, at: i };
  }
  if (options.end === false) return { state, outcome: undefined, messages, at: undefined };
  const end = answerEnd(state);
  messages.push(...end.messages);
  return { state: end.state, outcome: end.outcome, messages, at: chunks.length };
}

/** An answer event to request 1, and the message it carries. */
export const ANSWER = 'data: {"jsonrpc":"2.0","id":1,"result":{"ok":true}}\n\n';
export const ANSWER_VALUE = { jsonrpc: '2.0', id: 1, result: { ok: true } };
/** A log notification event, and the message it carries. */
export const NOTE = 'data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}\n\n';
export const NOTE_VALUE = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hi' } };

/** The AnswerError a promise rejects with; fails if it resolves or rejects with anything else. */
export async function answerError(promise: Promise<unknown>): Promise<AnswerError> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(AnswerError);
  expect(isAnswerError(error)).toBe(true);
  return error as AnswerError;
}
