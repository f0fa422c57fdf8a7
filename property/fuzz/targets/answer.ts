/**
 * The answer reducer against the models (body-model.ts): any body, chunking and cap give the
 * outcome and the messages the models give. Pure: each state passed in is frozen, and each chunk
 * is overwritten once it has been read.
 */
import { answer, answerEnd, answerProgress, answerStart, DEFAULT_MAX_BYTES, type AnswerOutcome, type JsonRpcMessage } from '../../../src/index.js';
import { bodyInputArb, chunksOf, type BodyInput } from '../bodies.js';
import { modelReading, type ModelOutcome } from '../body-model.js';
import { deepFreeze, jsonDifference, show } from '../json-values.js';
import { defineTarget, ensure } from '../target.js';

/** Checks an outcome and the messages passed over against the models' reading. */
export function expectReading(what: string, outcome: AnswerOutcome | ModelOutcome, passed: readonly unknown[], expected: { outcome: ModelOutcome; passed: readonly unknown[] }): void {
  const e = expected.outcome;
  ensure(outcome.kind === e.kind, () => `${what}: ${outcome.kind}, the models say ${e.kind}${e.kind === 'malformed_answer' ? ` (${e.reason})` : ''}`);
  if (outcome.kind === 'answer' && e.kind === 'answer') {
    const d = jsonDifference(outcome.answer, e.answer);
    ensure(d === undefined, () => `${what}: the answer differs: ${d}`);
  }
  if (outcome.kind === 'malformed_answer' && e.kind === 'malformed_answer') {
    ensure(outcome.reason === e.reason, () => `${what}: reason ${outcome.reason}, the models say ${e.reason}`);
  }
  ensure(passed.length === expected.passed.length, () => `${what}: ${passed.length} messages passed over, the models have ${expected.passed.length}`);
  passed.forEach((m, i) => {
    const d = jsonDifference(m, expected.passed[i]);
    ensure(d === undefined, () => `${what}: message ${i}: ${d}`);
  });
}

export const answerTarget = defineTarget<BodyInput>({
  name: 'answer',
  summary: 'answer/answerEnd against the reference scanner and the selection model, any chunking and cap; pure',
  async: false,
  arbitrary: bodyInputArb,
  check({ format, bytes, requestId, cuts, maxBytes }) {
    const expected = modelReading(format, bytes, requestId, maxBytes ?? DEFAULT_MAX_BYTES);
    let state = deepFreeze(answerStart({ format, requestId, maxBytes }));
    const passed: JsonRpcMessage[] = [];
    let outcome: AnswerOutcome | undefined;
    let delivered = 0;
    for (const chunk of chunksOf(bytes, cuts)) {
      delivered += chunk.length;
      const read = answer(state, chunk);
      chunk.fill(0x0a); // the caller reuses its buffer
      passed.push(...read.messages);
      state = deepFreeze(read.state);
      if (read.outcome !== undefined) {
        outcome = read.outcome;
        ensure(answerProgress(state).bytesRead === delivered, () => `the budget counted ${answerProgress(state).bytesRead} bytes, ${delivered} were delivered`);
        const after = answer(state, Uint8Array.of(0x0a, 0x0a));
        ensure(after.state === state && after.messages.length === 0 && after.outcome === undefined, 'a chunk after the outcome was not ignored');
        break;
      }
    }
    if (outcome === undefined) {
      const end = answerEnd(state);
      passed.push(...end.messages);
      outcome = end.outcome;
    }
    expectReading('answer', outcome, passed, expected);
    if (outcome.kind === 'budget_exceeded') ensure(maxBytes !== undefined && bytes.length > maxBytes, () => `budget_exceeded for ${bytes.length} bytes under a cap of ${show(maxBytes)}`);
  },
});
