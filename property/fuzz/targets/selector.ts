/**
 * The selector against the model of the selection rules: events carrying messages with ids of
 * every JSON type, batches mixing everything, non-messages, non-JSON and priming events, fed in
 * any grouping; and one JSON value through `selectValue`. Inputs and states are frozen, so a
 * selector that wrote to them would throw.
 */
import fc from 'fast-check';
import { select, selectEnd, selectStart, selectValue, type SelectState } from '../../../src/index.js';
import { payloadArb, requestIdArb } from '../corners.js';
import { deepFreeze, jsonDifference, show } from '../json-values.js';
import { modelEvent, modelReason, modelStart, modelValue, type ModelId, type ModelSelection } from '../selection-model.js';
import { defineTarget, ensure } from '../target.js';

interface SelectInput {
  readonly requestId: ModelId;
  readonly data: string[];
  /** Sizes of the groups the events are passed in (the rest goes in a last group). */
  readonly groups: number[];
  /** A JSON body for `selectValue`. */
  readonly body: string;
}

/** Checks a selector state and the messages it reported against the model's. */
function compare(what: string, state: SelectState, passed: readonly unknown[], model: ModelSelection): void {
  const answer = jsonDifference(state.answer, model.answer);
  ensure(answer === undefined, () => `${what}: answer ${answer}`);
  if (model.answer !== undefined) ensure(state.answer !== undefined, `${what}: no answer`);
  ensure(passed.length === model.passed.length, () => `${what}: ${passed.length} messages passed over, the model has ${model.passed.length}`);
  passed.forEach((m, i) => {
    const d = jsonDifference(m, model.passed[i]);
    ensure(d === undefined, () => `${what}: message ${i}: ${d}`);
  });
  const counters = { events: state.events, messages: state.messages, ignored: state.ignored };
  const expected = { events: model.events, messages: model.messages, ignored: model.ignored };
  ensure(show(counters) === show(expected), () => `${what}: counters ${show(counters)}, the model has ${show(expected)}`);
}

/** A request id as a message would write it, so that some messages carry it. */
const idText = (id: ModelId): string => (id === undefined ? '1' : Object.is(id, -0) ? '-0' : JSON.stringify(id));

export const selectorTarget = defineTarget<SelectInput>({
  name: 'selector',
  summary: 'select/selectValue/selectEnd against the model of the selection rules',
  async: false,
  arbitrary: requestIdArb.chain((requestId) =>
    fc.record({
      requestId: fc.constant(requestId),
      data: fc.array(payloadArb(fc.constant(idText(requestId))), { maxLength: 10 }),
      groups: fc.array(fc.nat({ max: 4 }), { maxLength: 6 }),
      body: payloadArb(fc.constant(idText(requestId))),
    }),
  ),
  check({ requestId, data, groups, body }) {
    const model = modelStart();
    for (const d of data) modelEvent(model, d, requestId);

    let state = deepFreeze(selectStart({ requestId }));
    const passed: unknown[] = [];
    let from = 0;
    for (const size of [...groups, data.length]) {
      const events = deepFreeze(data.slice(from, from + size).map((d) => ({ type: 'message', data: d, lastEventId: '' })));
      from += events.length;
      const result = select(state, events);
      ensure(result.state.answer === undefined || state.answer === undefined || result.answer === undefined, 'an answer was given twice');
      if (state.answer === undefined && result.state.answer !== undefined) ensure(result.answer === result.state.answer, 'the answer returned is not the one in the state');
      passed.push(...result.messages);
      state = deepFreeze(result.state);
    }
    compare('select', state, passed, model);
    const end = selectEnd(state);
    if (model.answer === undefined) ensure(end.reason === modelReason(model), () => `selectEnd reason ${end.reason}, the model has ${modelReason(model)}`);
    else ensure(end.answer === state.answer, 'selectEnd did not give the answer');

    // A JSON body: one value (or none that parses; that is the answer reducer's concern).
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      return;
    }
    const bodyModel = modelStart();
    modelValue(bodyModel, value, requestId);
    const selected = selectValue(deepFreeze(selectStart({ requestId })), deepFreeze(value));
    compare('selectValue', selected.state, selected.messages, bodyModel);
  },
});
