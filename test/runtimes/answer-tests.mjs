// The answer fixtures as tests: readAnswer over a fetch Response, and readAnswerBody over each
// shape of body (a web stream, an async iterable, one with `destroy()`), each body controlled and
// watched by the test (was it released, read to its end, read at all); and the answer reducer
// over several chunkings of the same body.
import { chunkings, encode } from './bytes.mjs';
import { ok, same, show } from './check.mjs';
import { answerCases } from './fixtures/answer-cases.mjs';
import { settled, wasDrained, wasReleased, watchedBody } from './sources.mjs';

/** How a case's body is given to the package: readAnswer over a Response, or readAnswerBody. */
const READERS = [
  { name: 'readAnswer', shape: 'stream', response: true },
  { name: 'readAnswerBody (ReadableStream)', shape: 'stream' },
  { name: 'readAnswerBody (async iterable)', shape: 'iterable' },
  { name: 'readAnswerBody (async iterable with destroy)', shape: 'destroyable' },
];

/** Tests for every answer case, run against the package `pkg`. */
export function answerTests(pkg) {
  const tests = [];
  for (const reader of READERS) {
    for (const kase of answerCases) {
      // A used body is a Response's notion.
      if (kase.usedBody && !reader.response) continue;
      tests.push({ name: `${reader.name}: ${kase.name}`, run: () => checkRead(pkg, kase, reader) });
    }
  }
  for (const kase of answerCases) {
    if (kase.format === undefined || isScenario(kase)) continue;
    tests.push({ name: `answer reducer: ${kase.name}`, run: () => checkReducer(pkg, kase) });
  }
  return tests;
}

/** Cases only a driver can show: aborts, failing or endless bodies, a throwing onMessage, a used body, a bad option. */
function isScenario(kase) {
  return kase.signal !== undefined || kase.sourceError !== undefined || kase.onMessage !== undefined || kase.usedBody === true || kase.endless !== undefined || kase.error?.name === 'RangeError';
}

/** The body's chunks as the source delivers them. */
function chunksOf(kase) {
  if (kase.body === null) return null;
  if (kase.chunkSize === undefined) return kase.body.map((chunk) => encode([chunk]));
  const bytes = encode(kase.body);
  const chunks = [];
  for (let at = 0; at < bytes.length; at += kase.chunkSize) chunks.push(bytes.slice(at, at + kase.chunkSize));
  return chunks;
}

async function checkRead(pkg, kase, reader) {
  const chunks = chunksOf(kase);
  const endless = kase.endless === undefined ? undefined : encode([kase.endless]);
  const { body, log } = chunks === null ? { body: null, log: undefined } : watchedBody(reader.shape, chunks, { endless, error: kase.sourceError });
  const headers = kase.contentType === null ? {} : { 'content-type': kase.contentType };
  const response = reader.response ? new Response(body, { headers }) : undefined;
  if (kase.usedBody) await response.arrayBuffer();
  const messages = [];
  const controller = new AbortController();
  const thrown = new Error('thrown by onMessage');
  const onMessage = (message) => {
    messages.push(message);
    if (kase.onMessage === 'throw') throw thrown;
    if (kase.signal === 'abort-on-message') controller.abort(new Error('enough'));
  };
  const options = { ...kase.options, onMessage };
  if (kase.signal === 'aborted') options.signal = AbortSignal.abort('stop');
  else if (kase.signal === 'timed-out') options.signal = AbortSignal.abort(new DOMException('too late', 'TimeoutError'));
  else if (kase.signal === 'abort-on-message') options.signal = controller.signal;

  let outcome;
  try {
    const read = reader.response ? pkg.readAnswer(response, options) : pkg.readAnswerBody(body, kase.contentType, options);
    outcome = { answer: await read };
  } catch (error) {
    outcome = { error };
  }
  if (kase.error === undefined) {
    if (outcome.error !== undefined) throw new Error(`rejected: ${describeError(outcome.error)}`);
    same(outcome.answer, expectedAnswer(kase), 'the answer');
  } else {
    if (outcome.error === undefined) throw new Error(`resolved with ${show(outcome.answer)}, expected an error`);
    if (kase.error.thrownByOnMessage) ok(outcome.error === thrown, `rejected with ${describeError(outcome.error)}, not what onMessage threw`);
    else checkError(pkg, outcome.error, kase.error);
  }
  same(messages, kase.messages, 'the messages given to onMessage');
  await settled();
  if (body === null) return;
  const stream = reader.response ? response.body : body;
  if (reader.shape === 'stream' && !kase.usedBody) ok(!stream.locked, 'the body is left locked');
  if (kase.release === 'cancel') ok(wasReleased(reader.shape, log), `the body was not released (${show(log)})`);
  if (kase.release === 'drain') ok(wasDrained(log), `the body was not read to its end (${show(log)})`);
  if (kase.pulls !== undefined) same(log.pulls, kase.pulls, 'chunks the body was asked for');
}

/** The error `error` is what `expected` describes: an AnswerError with its code, reason, detail and cause. */
function checkError(pkg, error, expected) {
  same(error?.name, expected.name ?? 'AnswerError', `the error's name (${describeError(error)})`);
  if (expected.name !== undefined && expected.name !== 'AnswerError') return;
  ok(pkg.isAnswerError(error), 'isAnswerError says no');
  ok(error instanceof pkg.AnswerError && error instanceof Error, 'not an instance of AnswerError and Error');
  same(error.code, expected.code, `the code (${error.message})`);
  same(error.reason, expected.reason, 'the reason');
  if (expected.reason === undefined) ok(!('reason' in error), 'a reason on an error that is not malformed_answer');
  ok(typeof error.message === 'string' && error.message.length > 0, 'an empty message');
  const detail = {};
  for (const key of Object.keys(expected.detail ?? {})) detail[key] = error.detail[key];
  same(detail, expected.detail ?? {}, 'the detail');
  if (expected.cause !== undefined) {
    const cause = error.cause;
    ok(cause === expected.cause || cause?.name === expected.cause || cause?.message === expected.cause, `the cause is ${describeError(cause)}, expected ${expected.cause}`);
  }
}

function checkReducer(pkg, kase) {
  const bytes = encode(kase.body ?? []);
  const sizes = bytes.length > 4096 ? [65_536, 16_383] : [1, 7];
  for (const way of chunkings(bytes, sizes)) {
    let state = pkg.answerStart({ format: kase.format, requestId: kase.options?.requestId, maxBytes: kase.options?.maxBytes });
    const messages = [];
    let outcome;
    for (const chunk of way.chunks) {
      const result = pkg.answer(state, chunk);
      state = result.state;
      messages.push(...result.messages);
      if (result.outcome !== undefined) {
        outcome = result.outcome;
        break;
      }
    }
    if (outcome === undefined) {
      const end = pkg.answerEnd(state);
      messages.push(...end.messages);
      outcome = end.outcome;
      state = end.state;
    }
    same(messages, kase.messages, `${way.name}: messages`);
    if (kase.error === undefined) same(outcome, { kind: 'answer', answer: expectedAnswer(kase) }, `${way.name}: outcome`);
    else {
      same(outcome.kind, kase.error.code, `${way.name}: outcome`);
      same(outcome.reason, kase.error.reason, `${way.name}: reason`);
    }
    same(pkg.answerEnd(state).outcome, outcome, `${way.name}: answerEnd after the outcome gives it again`);
  }
}

function expectedAnswer(kase) {
  return typeof kase.answer === 'function' ? kase.answer() : kase.answer;
}

function describeError(error) {
  if (error instanceof Error || (typeof error === 'object' && error !== null && 'message' in error)) {
    return `${error.name} ${error.code ?? ''}: ${error.message}`;
  }
  return show(error);
}
