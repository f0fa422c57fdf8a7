/**
 * The response selector, a pure reducer: SSE events (or a parsed JSON body) in, the answer out.
 * Its rules, in the order they apply: docs/guides/answer-path.md, "Selecting the answer".
 * @module
 */

import {
  answers,
  messageKind,
  type JsonRpcMessage,
  type JsonRpcRequestId,
  type JsonRpcResponse,
} from '../vocabulary/json-rpc.js';
import { checkRequestId, optionsObject } from '../vocabulary/check-argument.js';
import type { NoAnswerReason } from '../vocabulary/errors.js';
import { parseJson } from './parse-json.js';
import type { SseEvent } from './scanner.js';

/** The selector's state: plain, immutable data (the answer, once found, is the parsed object). */
export interface SelectState {
  /** The id of the request being answered; `undefined` takes the first response. */
  readonly requestId: JsonRpcRequestId | undefined;
  /** Events examined, priming events included. */
  readonly events: number;
  /** Messages passed over: notifications, server requests, responses to other requests. */
  readonly messages: number;
  /** Events (or batch elements, or a JSON body) that were not JSON or not a message. */
  readonly ignored: number;
  /** The answer, once found. */
  readonly answer: JsonRpcResponse | undefined;
}

/** Options for {@link selectStart}. */
export interface SelectOptions {
  /** Only a response with this id (or an error response with `id: null`) answers. */
  readonly requestId?: JsonRpcRequestId | undefined;
}

/** What {@link select} and {@link selectValue} return. */
export interface SelectResult {
  /** The state after the input; the state passed in is unchanged. */
  readonly state: SelectState;
  /** Messages passed over by this input, in order: what an `onMessage` callback is given. */
  readonly messages: JsonRpcMessage[];
  /** The answer, if this input carried it; `undefined` otherwise (also once it was found before). */
  readonly answer: JsonRpcResponse | undefined;
}

/** What {@link selectEnd} returns when an answer came. */
export interface SelectAnswered {
  /** The final state. */
  readonly state: SelectState;
  /** The answer, exactly as parsed. */
  readonly answer: JsonRpcResponse;
  /** Absent: there is an answer. */
  readonly reason?: undefined;
}

/** What {@link selectEnd} returns when no answer came. */
export interface SelectUnanswered {
  /** The final state. */
  readonly state: SelectState;
  /** Absent: there is no answer. */
  readonly answer?: undefined;
  /** Why: no message at all, or messages but no response to the request. */
  readonly reason: NoAnswerReason;
}

/** What {@link selectEnd} returns: the answer, or why there is none. */
export type SelectEndResult = SelectAnswered | SelectUnanswered;

/**
 * The state that begins selecting the answer to one request.
 * @throws TypeError, RangeError for options that are not an object or a bad `requestId`.
 */
export function selectStart(options?: SelectOptions): SelectState {
  const { requestId } = optionsObject(options) as SelectOptions;
  return uncheckedSelectStart(requestId === undefined ? undefined : checkRequestId('options.requestId', requestId));
}

/**
 * {@link selectStart} without its check: `requestId` taken as given.
 * @internal For the answer reducer, whose own start and drivers check their options once.
 */
export function uncheckedSelectStart(requestId: JsonRpcRequestId | undefined): SelectState {
  return { requestId, events: 0, messages: 0, ignored: 0, answer: undefined };
}

/** Examines SSE events in order. Pure; the events are not changed. */
export function select(state: SelectState, events: readonly SseEvent[]): SelectResult {
  if (state.answer !== undefined || events.length === 0) return { state, messages: [], answer: undefined };
  const work = new Selection(state);
  for (let i = 0; i < events.length && work.answer === undefined; i++) {
    work.events++;
    const data = events[i]!.data;
    if (data === '') continue; // priming: an id (and a retry) for resumption, no message
    work.json(data);
  }
  return work.result(state);
}

/** Examines one parsed JSON value (an `application/json` body) by the rules of an event's data. Pure. */
export function selectValue(state: SelectState, value: unknown): SelectResult {
  if (state.answer !== undefined) return { state, messages: [], answer: undefined };
  const work = new Selection(state);
  work.value(value);
  return work.result(state);
}

/** Ends the input: the answer if one came, else why not (`no_message`, or `no_response`). */
export function selectEnd(state: SelectState): SelectEndResult {
  if (state.answer !== undefined) return { state, answer: state.answer };
  return { state, reason: state.messages === 0 ? 'no_message' : 'no_response' };
}

/** A mutable working copy of the counters for one call, read back into a new state. */
class Selection {
  events: number;
  messages: number;
  ignored: number;
  answer: JsonRpcResponse | undefined = undefined;
  readonly passed: JsonRpcMessage[] = [];
  private readonly requestId: JsonRpcRequestId | undefined;

  constructor(state: SelectState) {
    this.requestId = state.requestId;
    this.events = state.events;
    this.messages = state.messages;
    this.ignored = state.ignored;
  }

  json(data: string): void {
    let value: unknown;
    try {
      value = parseJson(data);
    } catch {
      this.ignored++;
      return;
    }
    this.value(value);
  }

  value(value: unknown): void {
    if (!Array.isArray(value)) return this.message(value);
    if (value.length === 0) this.ignored++;
    for (let i = 0; i < value.length && this.answer === undefined; i++) this.message(value[i]);
  }

  private message(value: unknown): void {
    const kind = messageKind(value);
    if (kind === 'not_a_message') {
      this.ignored++;
      return;
    }
    const message = value as JsonRpcMessage;
    if (kind === 'response' && answers(message as JsonRpcResponse, this.requestId)) {
      this.answer = message as JsonRpcResponse;
      return;
    }
    this.messages++;
    this.passed.push(message);
  }

  result(from: SelectState): SelectResult {
    return {
      state: {
        requestId: from.requestId,
        events: this.events,
        messages: this.messages,
        ignored: this.ignored,
        answer: this.answer,
      },
      messages: this.passed,
      answer: this.answer,
    };
  }
}
