/**
 * The answer driver: `readAnswerBody` moves a body's chunks (any shape, see `chunk-source.ts`)
 * into the answer reducer and acts on its outcome; `readAnswer` is the same over a fetch
 * `Response`. Every decision about bytes is the reducer's.
 *
 * Its one promise besides the answer: it holds no stream. Every exit — answered, refused, over
 * budget, aborted, failed, or a throwing `onMessage` — leaves the body cancelled (returned,
 * destroyed) or fully read, with no reader locked and no read pending.
 * @module
 */

import { abortReason, isAborted } from './abort-watch.js';
import {
  answer,
  answerEnd,
  answerProgress,
  answerStart,
  type AnswerFormat,
  type AnswerOutcome,
  type AnswerProgress,
  type AnswerState,
} from '../reducers/answer.js';
import { invalid } from '../vocabulary/check-argument.js';
import { ANY_BODY, discard, STREAM_BODY, type BodyShape, type ByteSource, type Chunks } from './chunk-source.js';
import { mimeEssence } from '../vocabulary/content-type.js';
import { describeValue } from '../vocabulary/describe-value.js';
import { abortError, AnswerError, type AnswerDetail, type MalformedReason } from '../vocabulary/errors.js';
import type { JsonRpcMessage, JsonRpcResponse } from '../vocabulary/json-rpc.js';
import { checkReadAnswerOptions, type CheckedOptions, type ReadAnswerOptions } from './read-options.js';

/**
 * The `Accept` header an MCP client sends with a POST: servers answer 406 to a client that does
 * not offer both types.
 */
export const ACCEPT = 'application/json, text/event-stream';

/** What an abort stopped, for its error message. */
const READING = 'reading the answer';

/**
 * Reads the JSON-RPC answer to one request from a Streamable HTTP response and releases the body.
 *
 * - `text/event-stream`: read incrementally; resolves as soon as the answer's event is complete
 *   and cancels the rest of the body. Events before it (notifications, server requests, priming
 *   events, comments) are passed over. At the end of the body, a final event not yet closed by a
 *   blank line is still dispatched: a closed body is a finished answer — unlike `EventSource`,
 *   which drops an event cut off by a lost connection.
 * - `application/json`: the whole body (within `maxBytes`) is one message or a batch, decoded as
 *   `Response.json()` would.
 * - Anything else: rejects with `unsupported_content_type` without reading the body.
 *
 * The HTTP status is not judged: a 4xx whose body is a JSON-RPC error answers like any other.
 * This is {@link readAnswerBody} over the response's body and `Content-Type` header; a fetch body
 * is a `ReadableStream`, so `readAnswer` takes no other shape (and a bundle of it carries no
 * async-iterable reader).
 *
 * @returns The answer exactly as `JSON.parse` produced it: a result or an error response alike.
 * @throws {@link AnswerError} for a failed read; `TypeError`/`RangeError` for bad arguments, or a
 *   body that was already used. Whatever `onMessage` throws is rethrown as it is.
 */
export function readAnswer(response: Response, options?: ReadAnswerOptions): Promise<JsonRpcResponse> {
  try {
    if (typeof response !== 'object' || response === null || typeof response.headers?.get !== 'function') {
      throw invalid('response', 'a fetch Response', response);
    }
    if (response.bodyUsed) throw new TypeError('the response body has already been read');
    return readBody(STREAM_BODY, response.body, response.headers.get('content-type'), options);
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * {@link readAnswer}'s contract over a body that is not a fetch `Response`: a web
 * `ReadableStream`, any `AsyncIterable` of `Uint8Array` (Node's `http.IncomingMessage`, undici's
 * `request()` body), or `null` for no body. Same options, same errors.
 *
 * On every exit before the body's end, the body is released: a stream is cancelled, an iterator
 * returned, and a source with a `destroy()` method (a Node stream) destroyed, so the connection
 * under it closes.
 *
 * @param contentType The response's `Content-Type` header as received (`null` or `undefined`
 *   when it had none); a header that holds several values is read as Fetch reads it.
 * @returns The answer exactly as `JSON.parse` produced it.
 * @throws {@link AnswerError} for a failed read; `TypeError`/`RangeError` for bad arguments,
 *   before the body is touched. Whatever `onMessage` throws is rethrown as it is.
 */
export function readAnswerBody(
  body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | null,
  contentType: string | null | undefined,
  options?: ReadAnswerOptions,
): Promise<JsonRpcResponse> {
  try {
    return readBody(ANY_BODY, body, contentType, options);
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * The checks and refusals of both entry points, then the read. The entry points are plain
 * functions that turn a throw here into a rejection: an async layer around `readFormat` would
 * add a promise and its microtask turns to every read, and a small answer's read is mostly those.
 */
function readBody<B extends ByteSource>(
  shape: BodyShape<B>,
  body: B | null,
  contentType: string | null | undefined,
  options: ReadAnswerOptions | undefined,
): Promise<JsonRpcResponse> {
  const checked = checkReadAnswerOptions(options);
  if (body !== null && !shape.accepts(body)) throw invalid('body', `${shape.what} or null`, body);
  if (contentType != null && typeof contentType !== 'string') throw invalid('contentType', 'a string or null', contentType);
  const header = contentType ?? null;
  const format = formatOf(mimeEssence(header));
  const { signal } = checked;
  if (signal !== undefined && isAborted(signal)) {
    const reason = abortReason(signal);
    if (body !== null) discard(shape, body, reason);
    throw abortError(reason, detail(header, checked.maxBytes, undefined), READING);
  }
  if (format === undefined) {
    if (body !== null) discard(shape, body);
    const got = header === null ? 'no content type' : `content type ${describeValue(header)}`;
    throw new AnswerError(
      'unsupported_content_type',
      `expected an answer as application/json or text/event-stream, got ${got}; the body was not read`,
      detail(header, checked.maxBytes, undefined),
    );
  }
  return readFormat(body === null ? null : shape.open(body, signal), format, header, checked);
}

/** Reads a body whose format is known, with checked options; releases the body on every exit. */
async function readFormat(
  chunks: Chunks | null,
  format: AnswerFormat,
  header: string | null,
  { requestId, maxBytes, signal, onMessage }: CheckedOptions,
): Promise<JsonRpcResponse> {
  let state = answerStart({ format, requestId, maxBytes });
  let cancelReason: unknown;
  if (chunks === null) return end(); // no body at all reads as an empty one

  try {
    for (;;) {
      let chunk: Uint8Array | undefined;
      try {
        chunk = await chunks.next();
      } catch (error) {
        // A body fetched with the same signal errors with the abort reason before our watcher
        // runs: that is an abort, not a failed stream.
        if (signal !== undefined && isAborted(signal)) throw stopped(signal);
        throw new AnswerError('stream_failed', `the response body failed while being read: ${describeValue(error)}`, detailOf(), {
          cause: error,
        });
      }
      // Checked after every read: a chunk already queued, or the body's end, does not outrun an abort.
      if (signal !== undefined && isAborted(signal)) throw stopped(signal);
      if (chunk === undefined) return end();
      const read = answer(state, chunk);
      state = read.state;
      report(read.messages);
      if (read.outcome !== undefined) return settle(read.outcome, format, detailOf);
    }
  } finally {
    chunks.close(cancelReason);
  }

  /** Ends the body: what was pending is dispatched and reported, then the outcome settles. */
  function end(): JsonRpcResponse {
    const ended = answerEnd(state);
    state = ended.state;
    report(ended.messages);
    return settle(ended.outcome, format, detailOf);
  }

  /** Gives each message to `onMessage`; the signal is checked after every call, as it may abort it. */
  function report(messages: readonly JsonRpcMessage[]): void {
    if (onMessage === undefined) return;
    for (const message of messages) {
      try {
        onMessage(message);
      } catch (error) {
        cancelReason = error;
        throw error;
      }
      if (signal !== undefined && isAborted(signal)) throw stopped(signal);
    }
  }

  /** The error for an aborted signal, with what had been read; the body is released with its reason. */
  function stopped(aborted: AbortSignal): AnswerError {
    cancelReason = abortReason(aborted);
    return abortError(cancelReason, detailOf(), READING);
  }

  function detailOf(): AnswerDetail {
    return detail(header, maxBytes, state);
  }
}

function formatOf(essence: string | undefined): AnswerFormat | undefined {
  if (essence === 'text/event-stream') return 'event-stream';
  if (essence === 'application/json') return 'json';
  return undefined;
}

/** The answer, or the error that says why there is none: only an error reads what had been read. */
function settle(outcome: AnswerOutcome, format: AnswerFormat, detailOf: () => AnswerDetail): JsonRpcResponse {
  if (outcome.kind === 'answer') return outcome.answer;
  const detail = detailOf();
  switch (outcome.kind) {
    case 'budget_exceeded':
      throw new AnswerError(
        'budget_exceeded',
        `the answer's body went past maxBytes (${detail.maxBytes} bytes) before the answer was complete`,
        detail,
      );
    case 'malformed_answer':
      throw new AnswerError('malformed_answer', malformedMessage(outcome.reason, format, detail), detail, {
        reason: outcome.reason,
        cause: outcome.cause,
      });
  }
}

function malformedMessage(reason: MalformedReason, format: AnswerFormat, detail: AnswerDetail): string {
  const kind = format === 'json' ? 'application/json' : 'text/event-stream';
  const seen = format === 'json' ? '' : ` (${count(detail.events, 'event')}, last event id ${describeValue(detail.lastEventId)})`;
  switch (reason) {
    case 'invalid_json':
      return `the application/json body is not valid JSON`;
    case 'no_message':
      return `the ${kind} body ended without a JSON-RPC message${seen}`;
    case 'no_response':
      return `the ${kind} body ended with ${count(detail.messages, 'JSON-RPC message')} but no response to the request${seen}`;
  }
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function detail(contentType: string | null, maxBytes: number, state: AnswerState | undefined): AnswerDetail {
  return { contentType, maxBytes, ...(state === undefined ? NOTHING_READ : answerProgress(state)) };
}

/** The progress of a read refused before it began. */
const NOTHING_READ: AnswerProgress = /* @__PURE__ */ Object.freeze({
  bytesRead: 0,
  events: 0,
  messages: 0,
  ignored: 0,
  lastEventId: '',
  retry: undefined,
});
