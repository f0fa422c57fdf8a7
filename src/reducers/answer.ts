/**
 * The answer reducer: budget → scanner → selector, one pure step, all of reading an answer but
 * the I/O. Each body format has its own state, step and end (docs/guides/answer-path.md).
 * @module
 */

import { budgetStart, cutToBudget } from './budget.js';
import { invalid, optionsObject } from '../vocabulary/check-argument.js';
import type { MalformedReason } from '../vocabulary/errors.js';
import { decodedTextOf, decodeOnto, NO_BYTES, type DecodedText } from './growing-text.js';
import type { JsonRpcMessage, JsonRpcRequestId, JsonRpcResponse } from '../vocabulary/json-rpc.js';
import { parseJson } from './parse-json.js';
import { checkChunk } from './uint8-array.js';
import { extendedByOneCharacter, scanChunk, scanEnd, scanStart, type ScanState, type SseEvent } from './scanner.js';
import { select, selectEnd, selectStart, selectValue, type SelectResult, type SelectState } from './selector.js';

/** How the answer's body is framed, from its content type. */
export type AnswerFormat = 'event-stream' | 'json';

/** Reading ended with the answer. */
export interface AnswerFound {
  /** Discriminant. */
  readonly kind: 'answer';
  /** The answer, exactly as `JSON.parse` produced it. */
  readonly answer: JsonRpcResponse;
}

/** The body ended without an answer. */
export interface AnswerMalformed {
  /** Discriminant. */
  readonly kind: 'malformed_answer';
  /** Why: no message, no response to the request, or (`json` only) a body that is not JSON. */
  readonly reason: Exclude<MalformedReason, 'invalid_result'>;
  /** For `invalid_json`: a `SyntaxError` with `JSON.parse`'s message. */
  readonly cause?: unknown;
}

/** The body went past the byte budget before the answer was complete. */
export interface AnswerOverBudget {
  /** Discriminant. */
  readonly kind: 'budget_exceeded';
}

/** How reading an answer ended. */
export type AnswerOutcome = AnswerFound | AnswerMalformed | AnswerOverBudget;

/** Options for {@link answerStart}. */
export interface AnswerOptions {
  /** The body's framing. */
  readonly format: AnswerFormat;
  /** The id of the request; only a response with it (or an error with `id: null`) answers. */
  readonly requestId?: JsonRpcRequestId | undefined;
  /** The cap on body bytes read; default 16 MiB, `Infinity` for none. */
  readonly maxBytes?: number | undefined;
}

/** The state while reading an `event-stream` body: plain, immutable data, opaque but for its format. */
export interface EventStreamAnswerState {
  /** The body's framing. */
  readonly format: 'event-stream';
  /** @internal The budget's cap and count, kept flat (a `BudgetState`): no budget object per chunk. */
  readonly maxBytes: number;
  /** @internal */
  readonly bytes: number;
  /** @internal */
  readonly scan: ScanState;
  /** @internal */
  readonly select: SelectState;
  /** @internal How reading ended, once it has; later input is ignored. */
  readonly outcome: AnswerOutcome | undefined;
}

/** The state while reading a `json` body: plain, immutable data, opaque but for its format. */
export interface JsonAnswerState {
  /** The body's framing. */
  readonly format: 'json';
  /** @internal As the event-stream state's. */
  readonly maxBytes: number;
  /** @internal */
  readonly bytes: number;
  /** @internal The body decoded so far. */
  readonly body: DecodedText;
  /** @internal It sees the body once it is whole. */
  readonly select: SelectState;
  /** @internal */
  readonly outcome: AnswerOutcome | undefined;
}

/** The answer reducer's state, one per body format; it comes from the reducer, never from a literal. */
export type AnswerState = EventStreamAnswerState | JsonAnswerState;

/** What {@link answerProgress} reports: what has been read so far. */
export interface AnswerProgress {
  /** Body bytes delivered so far, counting any past the cap in the last chunk. */
  readonly bytesRead: number;
  /** SSE events dispatched (0 for a JSON body). */
  readonly events: number;
  /** Messages passed over: notifications, server requests, responses to other requests. */
  readonly messages: number;
  /** Events, batch elements or bodies that were not JSON, or JSON that is not a message. */
  readonly ignored: number;
  /** The stream's last event id ('' when none, and for a JSON body). */
  readonly lastEventId: string;
  /** The last valid `retry` the stream set, in milliseconds (`undefined` for a JSON body). */
  readonly retry: number | undefined;
}

/** What {@link answer} returns. */
export interface AnswerResult {
  /** The state after the chunk; the state passed in is unchanged. */
  readonly state: AnswerState;
  /** Messages passed over by this chunk, in order (read-only: an empty list is shared). */
  readonly messages: readonly JsonRpcMessage[];
  /** How reading ended, if this chunk ended it. */
  readonly outcome: AnswerOutcome | undefined;
}

/** What {@link answerEnd} returns: reading always ends there. */
export interface AnswerEndResult extends AnswerResult {
  /** How reading ended. */
  readonly outcome: AnswerOutcome;
}

/**
 * The state that begins reading one answer.
 * @throws TypeError, RangeError for bad options (`format`, `requestId`, `maxBytes`).
 */
export function answerStart(options: AnswerOptions): AnswerState {
  const { format, requestId, maxBytes } = optionsObject(options) as AnswerOptions;
  if (format !== 'json' && format !== 'event-stream') throw invalid('options.format', '"json" or "event-stream"', format);
  return uncheckedAnswerStart(format, maxBytes, selectStart({ requestId }));
}

/**
 * {@link answerStart} without its checks: `format` taken as given, beginning with `selection`
 * (the budget still checks `maxBytes`).
 * @internal For `readAnswer` and `readAnswerBody`, which check their options once.
 */
export function uncheckedAnswerStart(format: AnswerFormat, maxBytesOption: number | undefined, selection: SelectState): AnswerState {
  const { maxBytes, bytes } = budgetStart(maxBytesOption);
  if (format === 'json') {
    return { format: 'json', maxBytes, bytes, body: NO_BYTES, select: selection, outcome: undefined };
  }
  return { format: 'event-stream', maxBytes, bytes, scan: scanStart(), select: selection, outcome: undefined };
}

/**
 * Reads one chunk of the body. Pure; the chunk is not kept. After the outcome, chunks are ignored.
 * @throws TypeError for a chunk that is not a `Uint8Array`.
 */
export function answer(state: AnswerState, chunk: Uint8Array): AnswerResult {
  checkChunk(chunk);
  return uncheckedAnswer(state, chunk);
}

/**
 * {@link answer} of a chunk known to be a `Uint8Array`.
 * @internal For a driver whose chunks its body's reader has checked already.
 */
export function uncheckedAnswer(state: AnswerState, chunk: Uint8Array): AnswerResult {
  if (state.outcome !== undefined) return ignoredChunk(state);
  return state.format === 'json' ? readJson(state, chunk) : readEventStream(state, chunk);
}

/** {@link answer} after the outcome: a call of its own keeps `answer` small enough to inline. */
function ignoredChunk(state: AnswerState): AnswerResult {
  return { state, messages: NO_MESSAGES, outcome: undefined };
}

/** Ends the body: dispatches what is pending and says how reading ended. Pure. */
export function answerEnd(state: AnswerState): AnswerEndResult {
  if (state.outcome !== undefined) return { state, messages: NO_MESSAGES, outcome: state.outcome };
  return state.format === 'json' ? endJson(state) : endEventStream(state);
}

/** What has been read so far, for a report on a read that failed or was stopped. */
export function answerProgress(state: AnswerState): AnswerProgress {
  const { events, messages, ignored } = state.select;
  const bytesRead = state.bytes;
  if (state.format === 'json') return { bytesRead, events, messages, ignored, lastEventId: '', retry: undefined };
  return { bytesRead, events, messages, ignored, lastEventId: state.scan.lastEventId, retry: state.scan.retry };
}

function readEventStream(state: EventStreamAnswerState, chunk: Uint8Array): AnswerResult {
  const bytes = state.bytes + chunk.length;
  const within = cutToBudget(state, chunk, bytes);
  // One character that ends no line gets no list of events (`answer-drip` 1.01–1.13x faster).
  let scan = within === chunk ? extendedByOneCharacter(state.scan, chunk) : undefined;
  let selection = state.select;
  let messages = NO_MESSAGES;
  let outcome: AnswerOutcome | undefined;
  if (scan === undefined) {
    const events: SseEvent[] = [];
    scan = scanChunk(state.scan, within, events);
    // Most chunks complete no event within the cap: for them there is nothing to select.
    if (events.length !== 0 || within !== chunk) {
      ({ state: selection, messages, outcome } = selectAfter(state, events, within !== chunk));
    }
  }
  const next: EventStreamAnswerState = {
    format: 'event-stream',
    maxBytes: state.maxBytes,
    bytes,
    scan,
    select: selection,
    outcome,
  };
  // One state and one result literal, no more: engines inline the step and make no result object.
  return { state: next, messages, outcome };
}

/** What a chunk of an `event-stream` body selected, and the outcome it reached, if any. */
interface Selected extends SelectResult {
  readonly outcome: AnswerOutcome | undefined;
}

/** Selects from the `events` a chunk completed, `exceeded` if it crossed the cap. */
function selectAfter(state: EventStreamAnswerState, events: readonly SseEvent[], exceeded: boolean): Selected {
  const selected = select(state.select, events);
  const answer = selected.answer;
  // An answer within the cap counts; past the cap without one, nothing pending is dispatched.
  return { ...selected, outcome: answer !== undefined ? { kind: 'answer', answer } : exceeded ? BUDGET_EXCEEDED : undefined };
}

function endEventStream(state: EventStreamAnswerState): AnswerEndResult {
  // A closed body is a finished answer, not a dropped connection: its last event is dispatched.
  const scanned = scanEnd(state.scan, { dispatchIncomplete: true });
  const selected = select(state.select, scanned.events);
  const next: EventStreamAnswerState = { ...state, scan: scanned.state, select: selected.state };
  return ended(next, selected.messages, finalOutcome(selected.state));
}

function readJson(state: JsonAnswerState, chunk: Uint8Array): AnswerResult {
  const bytes = state.bytes + chunk.length;
  // Nothing can be selected before the body is whole, so crossing the cap ends it.
  if (cutToBudget(state, chunk, bytes) !== chunk) return ended({ ...state, bytes }, NO_MESSAGES, BUDGET_EXCEEDED);
  const next: JsonAnswerState = {
    format: 'json',
    maxBytes: state.maxBytes,
    bytes,
    body: decodeOnto(state.body, chunk),
    select: state.select,
    outcome: undefined,
  };
  return { state: next, messages: NO_MESSAGES, outcome: undefined };
}

function endJson(state: JsonAnswerState): AnswerEndResult {
  const text = decodedTextOf(state.body); // as Response.json() decodes it
  if (text === '') return ended(state, NO_MESSAGES, { kind: 'malformed_answer', reason: 'no_message' });
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (error) {
    // A new SyntaxError: V8's own keeps the whole text it parsed alive.
    return ended(state, NO_MESSAGES, { kind: 'malformed_answer', reason: 'invalid_json', cause: new SyntaxError((error as SyntaxError).message) });
  }
  const selected = selectValue(state.select, value);
  return ended({ ...state, select: selected.state }, selected.messages, finalOutcome(selected.state));
}

/** The outcome once the whole body has been selected from. */
function finalOutcome(state: SelectState): AnswerOutcome {
  const end = selectEnd(state);
  return end.answer !== undefined
    ? { kind: 'answer', answer: end.answer }
    : { kind: 'malformed_answer', reason: end.reason };
}

const BUDGET_EXCEEDED: AnswerOutcome = /* @__PURE__ */ Object.freeze({ kind: 'budget_exceeded' });

/** No messages: most chunks pass none over. */
const NO_MESSAGES: readonly JsonRpcMessage[] = /* @__PURE__ */ Object.freeze([]);

/** `state` ended with `outcome`: later chunks are ignored. */
function ended<S extends AnswerState>(state: S, messages: readonly JsonRpcMessage[], outcome: AnswerOutcome): AnswerEndResult {
  return { state: { ...state, outcome }, messages, outcome };
}
