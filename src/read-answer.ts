/**
 * `readAnswer`: the driver over a fetch `Response`. It moves the body's chunks into the answer
 * reducer and acts on its outcome; every decision about bytes is the reducer's.
 *
 * Its one promise besides the answer: it holds no stream. Every exit — answered, refused, over
 * budget, aborted, failed, or a throwing `onMessage` — leaves the body cancelled or fully read,
 * with no reader locked and no read pending.
 * @module
 */

import {
  answer,
  answerEnd,
  answerProgress,
  answerStart,
  type AnswerFormat,
  type AnswerOutcome,
  type AnswerState,
} from './answer.js';
import { checkMaxBytes, DEFAULT_MAX_BYTES } from './budget.js';
import { mimeEssence } from './content-type.js';
import { AnswerError, type AnswerDetail, type AnswerErrorCode, type MalformedReason } from './errors.js';
import type { JsonRpcMessage, JsonRpcRequestId, JsonRpcResponse } from './json-rpc.js';

/**
 * The `Accept` header an MCP client sends with a POST: servers answer 406 to a client that does
 * not offer both types.
 */
export const ACCEPT = 'application/json, text/event-stream';

/** Options for {@link readAnswer}. */
export interface ReadAnswerOptions {
  /**
   * The id of the request this is the answer to. When given, a response with another id is
   * passed over (ids compare strictly: `1` is not `"1"`), except an error response with
   * `id: null`, which answers. When omitted, the first response answers.
   */
  readonly requestId?: JsonRpcRequestId | undefined;
  /** The cap on body bytes read: default 16 MiB (`DEFAULT_MAX_BYTES`); `Infinity` for none. */
  readonly maxBytes?: number | undefined;
  /**
   * Stops reading and cancels the body when aborted: the error's code is `timeout` when the
   * signal's reason is a `TimeoutError` (as from `AbortSignal.timeout(ms)`), `aborted` otherwise.
   * Without a signal there is no deadline: a server that never finishes its answer is waited on.
   */
  readonly signal?: AbortSignal | undefined;
  /**
   * Called synchronously with every message passed over, in order: notifications, server
   * requests, responses to other requests, batch elements. Its return value is ignored (never
   * awaited). If it throws, reading stops, the body is released, and `readAnswer` rejects with
   * that same error. A promise it returns is not observed either: an async callback must handle
   * its own rejections.
   */
  readonly onMessage?: ((message: JsonRpcMessage) => void) | undefined;
}

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
 *
 * @returns The answer exactly as `JSON.parse` produced it: a result or an error response alike.
 * @throws {@link AnswerError} for a failed read; `TypeError`/`RangeError` for bad arguments, or a
 *   body that was already used. Whatever `onMessage` throws is rethrown as it is.
 */
export async function readAnswer(response: Response, options: ReadAnswerOptions = {}): Promise<JsonRpcResponse> {
  const { requestId, signal, onMessage } = checkOptions(options);
  const maxBytes = options.maxBytes === undefined ? DEFAULT_MAX_BYTES : checkMaxBytes(options.maxBytes);
  if (typeof response !== 'object' || response === null || typeof response.headers?.get !== 'function') {
    throw new TypeError('readAnswer expects a fetch Response');
  }
  if (response.bodyUsed) throw new TypeError('readAnswer: the response body has already been read');

  const contentType = response.headers.get('content-type');
  const format = formatOf(mimeEssence(contentType));
  const detailOf = (state: AnswerState | undefined): AnswerDetail => detail(contentType, maxBytes, state);
  const body = response.body;

  if (signal?.aborted) {
    void release(body?.cancel(signal.reason));
    throw abortError(signal, detailOf(undefined));
  }
  if (format === undefined) {
    void release(body?.cancel());
    throw new AnswerError(
      'unsupported_content_type',
      `expected an answer as application/json or text/event-stream, got ${
        contentType === null ? 'no content type' : `content type ${JSON.stringify(contentType)}`
      }; the body was not read`,
      detailOf(undefined),
    );
  }

  let state = answerStart({ format, requestId, maxBytes });
  if (body === null) {
    const end = answerEnd(state); // no body at all reads as an empty one
    return settle(end.outcome, format, detailOf(end.state));
  }

  const reader = body.getReader();
  let finished = false; // the body ended or errored on its own: nothing left to cancel
  let cancelReason: unknown;
  // An abort cancels the reader, which settles a pending read at once (as done); the loop then
  // sees the signal and throws. No promise is raced per read, so nothing accumulates per chunk.
  const onAbort = (): void => {
    void release(reader.cancel(signal?.reason));
  };
  signal?.addEventListener('abort', onAbort, { once: true });

  try {
    for (;;) {
      // Checked before every read, not only while one is pending: a chunk already queued must
      // not be read after an abort.
      if (signal?.aborted) throw stopped(signal);
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        // A body fetched with the same signal errors with the abort reason before our listener
        // runs: that is an abort, not a failed stream.
        if (signal?.aborted) throw stopped(signal);
        finished = true;
        throw new AnswerError('stream_failed', `the response body failed while being read: ${describeReason(error)}`, detailOf(state), { cause: error });
      }
      if (signal?.aborted) throw stopped(signal);
      if (chunk.done) {
        finished = true;
        const end = answerEnd(state);
        report(end.messages, onMessage);
        return settle(end.outcome, format, detailOf(end.state));
      }
      if (!isBytes(chunk.value)) {
        const cause = new TypeError(`a body chunk must be a Uint8Array, got ${describeReason(chunk.value)}`);
        throw new AnswerError('stream_failed', `the response body failed while being read: ${cause.message}`, detailOf(state), { cause });
      }
      const read = answer(state, chunk.value);
      state = read.state;
      try {
        report(read.messages, onMessage);
      } catch (error) {
        cancelReason = error;
        throw error;
      }
      if (signal?.aborted) throw stopped(signal); // onMessage may have aborted it
      if (read.outcome !== undefined) return settle(read.outcome, format, detailOf(state));
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    // Cancelling settles any pending read (with done) before the lock is released. It is not
    // awaited: a source whose cancel hangs must not hold the caller's answer.
    const cancelled = finished ? undefined : reader.cancel(cancelReason);
    reader.releaseLock();
    void release(cancelled);
  }

  /** The error for an aborted signal, with what had been read; the body is cancelled with its reason. */
  function stopped(aborted: AbortSignal): AnswerError {
    cancelReason = aborted.reason;
    return abortError(aborted, detailOf(state));
  }
}

type CheckedOptions = Pick<ReadAnswerOptions, 'requestId' | 'signal' | 'onMessage'>;

function checkOptions(options: ReadAnswerOptions): CheckedOptions {
  if (typeof options !== 'object' || options === null) throw new TypeError('readAnswer options must be an object');
  const { requestId, signal, onMessage } = options;
  if (requestId !== undefined && typeof requestId !== 'string' && !(typeof requestId === 'number' && Number.isFinite(requestId))) {
    throw new TypeError('requestId must be a string or a finite number');
  }
  if (signal !== undefined && (typeof signal !== 'object' || signal === null || typeof signal.addEventListener !== 'function')) {
    throw new TypeError('signal must be an AbortSignal');
  }
  if (onMessage !== undefined && typeof onMessage !== 'function') throw new TypeError('onMessage must be a function');
  return { requestId, signal, onMessage };
}

function formatOf(essence: string | undefined): AnswerFormat | undefined {
  if (essence === 'text/event-stream') return 'event-stream';
  if (essence === 'application/json') return 'json';
  return undefined;
}

function report(messages: readonly JsonRpcMessage[], onMessage: ((message: JsonRpcMessage) => void) | undefined): void {
  if (onMessage === undefined) return;
  for (const message of messages) onMessage(message);
}

/** The answer, or the error that says why there is none. */
function settle(outcome: AnswerOutcome, format: AnswerFormat, detail: AnswerDetail): JsonRpcResponse {
  switch (outcome.kind) {
    case 'answer':
      return outcome.answer;
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
  const seen = format === 'json' ? '' : ` (${count(detail.events, 'event')}, last event id ${JSON.stringify(detail.lastEventId)})`;
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

function abortError(signal: AbortSignal, detail: AnswerDetail): AnswerError {
  const reason: unknown = signal.reason;
  const timedOut = typeof reason === 'object' && reason !== null && (reason as { name?: unknown }).name === 'TimeoutError';
  const code: AnswerErrorCode = timedOut ? 'timeout' : 'aborted';
  const message = timedOut ? 'reading the answer timed out' : `reading the answer was aborted: ${describeReason(reason)}`;
  return new AnswerError(code, message, detail, { cause: reason });
}

function detail(contentType: string | null, maxBytes: number, state: AnswerState | undefined): AnswerDetail {
  if (state === undefined) {
    return { contentType, bytesRead: 0, maxBytes, events: 0, messages: 0, ignored: 0, lastEventId: '', retry: undefined };
  }
  const { bytesRead, events, messages, ignored, lastEventId, retry } = answerProgress(state);
  return { contentType, bytesRead, maxBytes, events, messages, ignored, lastEventId, retry };
}

/**
 * Whether a body chunk is bytes. Fetch bodies deliver Uint8Array; a hand-made stream may not. The
 * tag check, unlike `instanceof`, also accepts a Uint8Array from another realm.
 */
function isBytes(value: unknown): value is Uint8Array {
  return ArrayBuffer.isView(value) && Object.prototype.toString.call(value) === '[object Uint8Array]';
}

/** Observes a promise that only releases a resource, so its rejection is not unhandled. */
async function release(promise: Promise<unknown> | undefined): Promise<void> {
  try {
    await promise;
  } catch {
    // The body is released either way; a source whose cancel fails has nothing more to give.
  }
}

/** An error, abort reason or stray value, for a message: an Error by its name and message. */
function describeReason(value: unknown): string {
  if (value instanceof Error) return value.message === '' ? value.name : `${value.name}: ${value.message}`;
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return String(value);
  if (typeof value === 'object') return Object.prototype.toString.call(value);
  return String(value);
}
