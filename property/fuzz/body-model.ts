/**
 * What reading a whole body must give, from the models alone: the reference scanner and the
 * selection model for `text/event-stream`, Fetch's "parse JSON from bytes" and the model for
 * `application/json`, and the byte budget's rule (the first `maxBytes` bytes are read; an answer
 * they complete counts; otherwise the body is over budget).
 */
import { referenceScan } from '../scan-reference.js';
import { modelEvent, modelReason, modelStart, modelValue, type ModelId } from './selection-model.js';

/** How reading a body ends, by the models. */
export type ModelOutcome =
  | { readonly kind: 'answer'; readonly answer: unknown }
  | { readonly kind: 'malformed_answer'; readonly reason: 'no_message' | 'no_response' | 'invalid_json' }
  | { readonly kind: 'budget_exceeded' };

/** The outcome and the messages passed over, in order. */
export interface ModelReading {
  readonly outcome: ModelOutcome;
  readonly passed: readonly unknown[];
}

/** Reading `bytes` of the given format for `requestId` under a cap of `maxBytes`, by the models. */
export function modelReading(format: 'event-stream' | 'json', bytes: Uint8Array, requestId: ModelId, maxBytes: number): ModelReading {
  const within = bytes.length <= maxBytes;
  if (format === 'json') {
    if (!within) return { outcome: { kind: 'budget_exceeded' }, passed: [] };
    const text = new TextDecoder().decode(bytes);
    if (text === '') return { outcome: { kind: 'malformed_answer', reason: 'no_message' }, passed: [] };
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return { outcome: { kind: 'malformed_answer', reason: 'invalid_json' }, passed: [] };
    }
    const s = modelStart();
    modelValue(s, value, requestId);
    return { outcome: s.answer !== undefined ? { kind: 'answer', answer: s.answer } : { kind: 'malformed_answer', reason: modelReason(s) }, passed: s.passed };
  }
  // Within the cap the whole body is read, and a final unterminated event is dispatched at its
  // end; past it, only the events that the first maxBytes bytes dispatch by themselves.
  const events = within ? referenceScan(bytes, true).events : referenceScan(bytes.subarray(0, maxBytes), false).events;
  const s = modelStart();
  for (const event of events) modelEvent(s, event.data, requestId);
  if (s.answer !== undefined) return { outcome: { kind: 'answer', answer: s.answer }, passed: s.passed };
  return { outcome: within ? { kind: 'malformed_answer', reason: modelReason(s) } : { kind: 'budget_exceeded' }, passed: s.passed };
}
