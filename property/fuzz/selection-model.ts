/**
 * A model of the selection rules (docs/guides/answer-path.md, src/reducers/selector.ts), written from the
 * rules and sharing no code with src/: event data in, the answer, the messages passed over and
 * the counters out. `JSON.parse` stands for parsing: parseJson is checked against it apart.
 */

export type ModelId = string | number | undefined;

/** What selecting from some input gives, by the rules. */
export interface ModelSelection {
  /** The answer, or `undefined`. */
  answer: unknown;
  /** Every message passed over, in order, up to the answer. */
  passed: unknown[];
  /** Events examined (up to and including the answer's). */
  events: number;
  /** Messages passed over. */
  messages: number;
  /** Events, batch elements or bodies that were not JSON or not a message. */
  ignored: number;
}

const own = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** A fresh selection: nothing seen yet. */
export function modelStart(): ModelSelection {
  return { answer: undefined, passed: [], events: 0, messages: 0, ignored: 0 };
}

/** One JSON value by the rules (a message, a batch, or neither); stops at the answer. */
export function modelValue(s: ModelSelection, value: unknown, requestId: ModelId): void {
  const elements = Array.isArray(value) ? value : [value];
  if (Array.isArray(value) && value.length === 0) s.ignored++;
  for (const el of elements) {
    if (s.answer !== undefined) return;
    // Not an object, or an array inside a batch: not a message.
    if (typeof el !== 'object' || el === null || Array.isArray(el)) {
      s.ignored++;
      continue;
    }
    const isRequest = own(el, 'method');
    const isResponse = !isRequest && (own(el, 'result') || own(el, 'error'));
    if (!isRequest && !isResponse) {
      s.ignored++;
      continue;
    }
    if (isResponse) {
      const id = (el as { id?: unknown }).id;
      if (requestId === undefined || id === requestId || (id === null && own(el, 'error'))) {
        s.answer = el;
        return;
      }
    }
    s.messages++;
    s.passed.push(el);
  }
}

/** Event data by the rules: empty is a priming event, non-JSON is ignored, JSON is a value. */
export function modelEvent(s: ModelSelection, data: string, requestId: ModelId): void {
  if (s.answer !== undefined) return;
  s.events++;
  if (data === '') return;
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    s.ignored++;
    return;
  }
  modelValue(s, value, requestId);
}

/** Why a finished input has no answer. */
export function modelReason(s: ModelSelection): 'no_message' | 'no_response' {
  return s.messages === 0 ? 'no_message' : 'no_response';
}
