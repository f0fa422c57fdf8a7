/**
 * The answer driver: a body's chunks into the answer reducer, its outcome settled (thrown by the
 * public entries, a value for the exchange), and the body released on every exit.
 * @module
 */

import { abortReason, isAborted } from './abort-watch.js';
import {
  answerEnd,
  answerProgress,
  uncheckedAnswer,
  uncheckedAnswerStart,
  type AnswerFormat,
  type AnswerOutcome,
  type AnswerProgress,
  type AnswerState,
} from '../reducers/answer.js';
import { uncheckedSelectStart } from '../reducers/selector.js';
import { invalid } from '../vocabulary/check-argument.js';
import { ANY_BODY, discard, STREAM_BODY, type BodyShape, type ByteSource, type Chunks } from './chunk-source.js';
import { mimeEssence } from '../vocabulary/content-type.js';
import type { AnswerDetail, MalformedReason } from '../vocabulary/errors.js';
import { answerError, valuePart, nothingRead, said, quotedPart, stopped, withCause, type Failure } from '../vocabulary/failure.js';
import type { JsonRpcMessage, JsonRpcResponse } from '../vocabulary/json-rpc.js';
import { checkReadAnswerOptions, type CheckedOptions, type ReadAnswerOptions } from './read-options.js';

/** The `Accept` header an MCP client sends with a POST: servers answer 406 without both types. */
export const ACCEPT = 'application/json, text/event-stream';

/** What an abort stopped, for its error message. */
const READING = 'reading the answer';

/**
 * Reads the JSON-RPC answer to one request from a Streamable HTTP response (`text/event-stream`,
 * as soon as its event is complete, or `application/json`) and releases the body. The HTTP status
 * is not judged. How each format is read: the answer-path guide.
 * @returns The answer exactly as `JSON.parse` produced it: a result or an error response alike.
 * @throws {@link AnswerError} for a failed read; `TypeError`/`RangeError` for bad arguments, or a
 *   body that was already used. Whatever `onMessage` throws is rethrown as it is.
 */
export function readAnswer(response: Response, options?: ReadAnswerOptions): Promise<JsonRpcResponse> {
  try {
    checkResponse(response);
    return readBody(STREAM_BODY, response.body, response.headers.get('content-type'), checkReadAnswerOptions(options), THROWING);
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * {@link readAnswer} over a body that is not a `Response`: a web `ReadableStream`, any
 * `AsyncIterable` of `Uint8Array` (a Node stream, destroyed on release), or `null` for none.
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
    return readBody(ANY_BODY, body, contentType, checkReadAnswerOptions(options), THROWING);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** What a read comes to, as a value: the answer and how it was read, or why there is none. */
export type ReadOutcome =
  | { readonly kind: 'answer'; readonly answer: JsonRpcResponse; readonly progress: AnswerProgress; readonly format: AnswerFormat }
  /** `format`: how the body was framed, where it was read at all. */
  | { readonly kind: 'failed'; readonly failure: Failure; readonly format: AnswerFormat | undefined };

/** {@link readAnswer} for the exchange: the outcome a value; only a bad argument and what `onMessage` throws are thrown. */
export function readAnswerOutcome(response: Response, options: CheckedOptions): Promise<ReadOutcome> {
  checkResponse(response);
  return readBody(STREAM_BODY, response.body, response.headers.get('content-type'), options, AS_VALUE);
}

/** How a read settles, answered or failed: two methods, not a `.then` a read (a promise and a turn each). */
interface Settle<R> {
  answer(answer: JsonRpcResponse, progress: AnswerProgress, format: AnswerFormat): R;
  failed(failure: Failure, format: AnswerFormat | undefined): R;
}

/** The public entries' settle: the answer, or the failure thrown as an `AnswerError`. */
const THROWING: Settle<JsonRpcResponse> = {
  answer: (answer) => answer,
  failed(failure) {
    throw answerError(failure);
  },
};

/** The exchange's settle: the outcome as a value. */
const AS_VALUE: Settle<ReadOutcome> = {
  answer: (answer, progress, format) => ({ kind: 'answer', answer, progress, format }),
  failed: (failure, format) => ({ kind: 'failed', failure, format }),
};

/** Refuses what is not a fetch `Response` with a body still to read. */
function checkResponse(response: Response): void {
  if (typeof response !== 'object' || response === null || typeof response.headers?.get !== 'function') {
    throw invalid('response', 'a fetch Response', response);
  }
  if (response.bodyUsed) throw new TypeError('the response body has already been read');
}

/** The checks and refusals of every entry point, then the read (no async layer: a promise and turns a read). */
function readBody<B extends ByteSource, R>(
  shape: BodyShape<B>,
  body: B | null,
  contentType: string | null | undefined,
  checked: CheckedOptions,
  settle: Settle<R>,
): Promise<R> {
  if (body !== null && !shape.accepts(body)) throw invalid('body', `${shape.what} or null`, body);
  if (contentType != null && typeof contentType !== 'string') throw invalid('contentType', 'a string or null', contentType);
  const header = contentType ?? null;
  const format = formatOf(mimeEssence(header));
  const { signal } = checked;
  if (signal !== undefined && isAborted(signal)) {
    const reason = abortReason(signal);
    if (body !== null) discard(shape, body, reason);
    return settled(settle, stopped(reason, detail(header, checked.maxBytes, undefined), READING), format);
  }
  if (format === undefined) {
    if (body !== null) discard(shape, body);
    const got = header === null ? said`no content type` : said`content type ${quotedPart(header)}`;
    const failure: Failure = {
      code: 'unsupported_content_type',
      message: said`expected an answer as application/json or text/event-stream, got ${got}; the body was not read`,
      detail: detail(header, checked.maxBytes, undefined),
    };
    return settled(settle, failure, undefined);
  }
  return readFormat(body === null ? null : shape.open(body, signal), format, header, checked, settle);
}

/** A read settled before it began: a promise of the settle's value (a throwing settle rejects it). */
function settled<R>(settle: Settle<R>, failure: Failure, format: AnswerFormat | undefined): Promise<R> {
  return new Promise((resolve) => resolve(settle.failed(failure, format)));
}

/**
 * One read in progress, passed to plain functions, never closed over nor a receiver: an error
 * keeps the functions on its stack alive, and with them the body read so far.
 */
interface Read<R> extends CheckedOptions {
  state: AnswerState;
  /** What the body is released with: an abort's reason, or what `onMessage` threw. */
  cancelReason: unknown;
  readonly format: AnswerFormat;
  readonly header: string | null;
  readonly settle: Settle<R>;
}

/** Reads a body whose format is known, with checked options; releases the body on every exit. */
async function readFormat<R>(chunks: Chunks | null, format: AnswerFormat, header: string | null, options: CheckedOptions, settle: Settle<R>): Promise<R> {
  const read: Read<R> = { ...options, state: uncheckedAnswerStart(format, options.maxBytes, uncheckedSelectStart(options.requestId)), cancelReason: undefined, format, header, settle };
  if (chunks === null) return endRead(read); // no body at all reads as an empty one
  const { signal } = options;
  try {
    for (;;) {
      let chunk: Uint8Array | undefined;
      try {
        chunk = await chunks.next();
      } catch (error) {
        // A body fetched with the same signal errors with the abort reason before our watcher
        // runs: that is an abort (below), not a failed stream.
        if (signal === undefined || !isAborted(signal)) {
          return failed(read, withCause({ code: 'stream_failed', message: said`the response body failed while being read: ${valuePart(error)}`, detail: detailOf(read) }, error));
        }
      }
      // Checked after every read: a chunk already queued, or the body's end, does not outrun an abort.
      if (signal !== undefined && isAborted(signal)) return stoppedBy(read, signal);
      if (chunk === undefined) return endRead(read);
      const step = uncheckedAnswer(read.state, chunk); // the chunk source has checked the chunk
      read.state = step.state;
      if (reported(read, step.messages)) return stoppedBy(read, signal!);
      if (step.outcome !== undefined) return outcomeOf(read, step.outcome);
    }
  } finally {
    chunks.close(read.cancelReason);
  }
}

/** Ends the body: what was pending is dispatched and reported, then the outcome settles. */
function endRead<R>(read: Read<R>): R {
  const ended = answerEnd(read.state);
  read.state = ended.state;
  return reported(read, ended.messages) ? stoppedBy(read, read.signal!) : outcomeOf(read, ended.outcome);
}

/**
 * Gives each message to `onMessage`, and says whether one of those calls aborted the signal: the
 * read stops there. What `onMessage` throws goes up as it is, and the body is released with it.
 */
function reported<R>(read: Read<R>, messages: readonly JsonRpcMessage[]): boolean {
  const { onMessage, signal } = read;
  if (onMessage === undefined) return false;
  for (const message of messages) {
    try {
      onMessage(message);
    } catch (error) {
      read.cancelReason = error;
      throw error;
    }
    if (signal !== undefined && isAborted(signal)) return true;
  }
  return false;
}

/** The read stopped by `aborted`, with what had been read; the body is released with its reason. */
function stoppedBy<R>(read: Read<R>, aborted: AbortSignal): R {
  read.cancelReason = abortReason(aborted);
  return failed(read, stopped(read.cancelReason, detailOf(read), READING));
}

/** The answer, or the failure that says why there is none: only a failure reads what had been read. */
function outcomeOf<R>(read: Read<R>, found: AnswerOutcome): R {
  if (found.kind === 'answer') return read.settle.answer(found.answer, answerProgress(read.state), read.format);
  return failed(read, failureOf(found, read.format, detailOf(read)));
}

function failed<R>(read: Read<R>, failure: Failure): R {
  return read.settle.failed(failure, read.format);
}

function detailOf<R>(read: Read<R>): AnswerDetail {
  return detail(read.header, read.maxBytes, read.state);
}

function formatOf(essence: string | undefined): AnswerFormat | undefined {
  if (essence === 'text/event-stream') return 'event-stream';
  if (essence === 'application/json') return 'json';
  return undefined;
}

/** The failure of a body that ended over budget or without an answer. */
function failureOf(outcome: Exclude<AnswerOutcome, { kind: 'answer' }>, format: AnswerFormat, detail: AnswerDetail): Failure {
  if (outcome.kind === 'budget_exceeded') {
    return { code: 'budget_exceeded', message: said`the answer's body went past maxBytes (${detail.maxBytes} bytes) before the answer was complete`, detail };
  }
  const failure = { code: 'malformed_answer', message: malformedMessage(outcome.reason, format, detail), detail, reason: outcome.reason } as const;
  return outcome.cause === undefined ? failure : withCause(failure, outcome.cause);
}

function malformedMessage(reason: Exclude<MalformedReason, 'invalid_result'>, format: AnswerFormat, detail: AnswerDetail): Failure['message'] {
  const kind = format === 'json' ? 'application/json' : 'text/event-stream';
  const seen = format === 'json' ? said`` : said` (${count(detail.events, 'event')}, last event id ${quotedPart(detail.lastEventId)})`;
  switch (reason) {
    case 'invalid_json':
      return said`the application/json body is not valid JSON`;
    case 'no_message':
      return said`the ${kind} body ended without a JSON-RPC message${seen}`;
    case 'no_response':
      return said`the ${kind} body ended with ${count(detail.messages, 'JSON-RPC message')} but no response to the request${seen}`;
  }
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function detail(contentType: string | null, maxBytes: number, state: AnswerState | undefined): AnswerDetail {
  return state === undefined ? nothingRead(maxBytes, contentType) : { contentType, maxBytes, ...answerProgress(state) };
}
