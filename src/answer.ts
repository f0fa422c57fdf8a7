/**
 * The answer reducer: budget guard → scanner → selector, composed into one pure
 * `(state, chunk) → (state, output)`. This is the whole of reading an answer but the I/O; the
 * drivers only move chunks into it and act on its outcome.
 *
 * Two body formats:
 * - `event-stream`: chunks are scanned as they come; the answer is ready as soon as its event is
 *   complete. At the end of the body, a pending final event is dispatched (`dispatchIncomplete`):
 *   a closed response body is a finished answer, not a dropped connection to resume.
 * - `json`: the whole body, within the budget, is one message or a batch. It is decoded as
 *   `Response.json()` decodes (UTF-8, one leading BOM stripped, invalid bytes to U+FFFD) and
 *   selected by the same rules at the end.
 * @module
 */

import { budget, budgetStart, type BudgetState } from './budget.js';
import type { MalformedReason } from './errors.js';
import { grow } from './growing-text.js';
import type { JsonRpcMessage, JsonRpcRequestId, JsonRpcResponse } from './json-rpc.js';
import { parseJson } from './parse-json.js';
import { scan, scanEnd, scanStart, type ScanState } from './scanner.js';
import { select, selectEnd, selectStart, selectValue, type SelectState } from './selector.js';
import { decodeChunk, flushTail, NO_TAIL, type Utf8Tail } from './utf8.js';

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
  readonly reason: MalformedReason;
  /** For `invalid_json`: the `SyntaxError` from `JSON.parse`. */
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

/** The answer reducer's state: plain, immutable data. */
export interface AnswerState {
  /** The body's framing. */
  readonly format: AnswerFormat;
  /** The byte budget. */
  readonly budget: BudgetState;
  /** The SSE scanner (an `event-stream` body). */
  readonly scan: ScanState;
  /** @internal The decoded text of a `json` body so far is `text + textRecent`. */
  readonly text: string;
  /** @internal The last, short part of the decoded `json` body (see `growing-text.ts`). */
  readonly textRecent: string;
  /** @internal An incomplete UTF-8 sequence at the end of a `json` body so far. */
  readonly textTail: Utf8Tail;
  /** The response selector. */
  readonly select: SelectState;
  /** How reading ended, once it has; later input is ignored. */
  readonly outcome: AnswerOutcome | undefined;
}

/** What {@link answer} returns. */
export interface AnswerResult {
  /** The state after the chunk; the state passed in is unchanged. */
  readonly state: AnswerState;
  /** Messages passed over by this chunk, in order: what `onMessage` is given. */
  readonly messages: JsonRpcMessage[];
  /** How reading ended, if this chunk ended it. */
  readonly outcome: AnswerOutcome | undefined;
}

/** What {@link answerEnd} returns: reading always ends there. */
export interface AnswerEndResult extends AnswerResult {
  /** How reading ended. */
  readonly outcome: AnswerOutcome;
}

/** The state that begins reading one answer. Throws `RangeError` for a bad `maxBytes`. */
export function answerStart(options: AnswerOptions): AnswerState {
  return {
    format: options.format,
    budget: budgetStart(options.maxBytes),
    scan: scanStart(),
    text: '',
    textRecent: '',
    textTail: NO_TAIL,
    select: selectStart({ requestId: options.requestId }),
    outcome: undefined,
  };
}

/**
 * Reads one chunk of the body. Pure; the chunk is not kept (what must be carried is decoded or
 * copied). Once an outcome is reached, further chunks are ignored.
 */
export function answer(state: AnswerState, chunk: Uint8Array): AnswerResult {
  if (state.outcome !== undefined) return { state, messages: [], outcome: undefined };
  const guarded = budget(state.budget, chunk);

  if (state.format === 'json') {
    // Nothing can be selected before the body is whole, so crossing the cap ends it.
    if (guarded.exceeded) return ended({ ...state, budget: guarded.state }, [], BUDGET_EXCEEDED);
    const decoded = decodeJsonChunk(state, guarded.chunk);
    return { state: { ...state, budget: guarded.state, ...decoded }, messages: [], outcome: undefined };
  }

  const scanned = scan(state.scan, guarded.chunk);
  const selected = select(state.select, scanned.events);
  const next = { ...state, budget: guarded.state, scan: scanned.state, select: selected.state };
  if (selected.answer !== undefined) {
    // Within the cap: an answer completed there counts even if the body goes on past it.
    return ended(next, selected.messages, { kind: 'answer', answer: selected.answer });
  }
  // Past the cap with no answer: what is pending at the cap is not dispatched.
  if (guarded.exceeded) return ended(next, selected.messages, BUDGET_EXCEEDED);
  return { state: next, messages: selected.messages, outcome: undefined };
}

/** Ends the body: dispatches what is pending and says how reading ended. Pure. */
export function answerEnd(state: AnswerState): AnswerEndResult {
  if (state.outcome !== undefined) return { state, messages: [], outcome: state.outcome };
  if (state.format === 'json') return endJson(state);
  const scanned = scanEnd(state.scan, { dispatchIncomplete: true });
  const selected = select(state.select, scanned.events);
  const next = { ...state, scan: scanned.state, select: selected.state };
  return ended(next, selected.messages, finalOutcome(selected.state));
}

/** The outcome once the whole body has been selected from. */
function finalOutcome(state: SelectState): AnswerOutcome {
  const end = selectEnd(state);
  return end.answer !== undefined
    ? { kind: 'answer', answer: end.answer }
    : { kind: 'malformed_answer', reason: end.reason };
}

const BUDGET_EXCEEDED: AnswerOutcome = Object.freeze({ kind: 'budget_exceeded' });

function ended(state: AnswerState, messages: JsonRpcMessage[], outcome: AnswerOutcome): AnswerEndResult {
  return { state: { ...state, outcome }, messages, outcome };
}

/** Decodes a `json` body chunk onto the text so far (held as in `growing-text.ts`). */
function decodeJsonChunk(state: AnswerState, chunk: Uint8Array): { text: string; textRecent: string; textTail: Utf8Tail } {
  if (chunk.length === 0) return { text: state.text, textRecent: state.textRecent, textTail: state.textTail };
  const decoded = decodeChunk(state.textTail, chunk);
  const grown = grow(state.text, state.textRecent, decoded.text);
  return { text: grown.settled, textRecent: grown.recent, textTail: decoded.tail };
}

function endJson(state: AnswerState): AnswerEndResult {
  let text = state.text + state.textRecent + flushTail(state.textTail);
  // Response.json() decodes with "UTF-8 decode", which drops one leading byte order mark.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text === '') return ended(state, [], { kind: 'malformed_answer', reason: 'no_message' });
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (cause) {
    return ended(state, [], { kind: 'malformed_answer', reason: 'invalid_json', cause });
  }
  const selected = selectValue(state.select, value);
  const next = { ...state, select: selected.state };
  return ended(next, selected.messages, finalOutcome(selected.state));
}
