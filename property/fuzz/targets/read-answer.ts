/**
 * `readAnswer` over generated bodies with generated faults (faulty-body.ts): errors, aborts
 * (from the body, from `onMessage`, from a timer), reads that hang, chunks that are not bytes,
 * bodies that never end, cancels that throw, reject or hang, content types that are not quite
 * right. Each read must settle once, with the code, cause and messages the pure reducer and the
 * fault imply; release the body; leave no listener on the signal, no unhandled rejection, and no
 * read or `onMessage` call after it settled. Reads alongside it share its signal: none of them
 * may leave a listener behind or raise `MaxListenersExceededWarning`.
 */
import fc from 'fast-check';
import { getEventListeners } from 'node:events';
import {
  answer,
  answerEnd,
  answerStart,
  DEFAULT_MAX_BYTES,
  isAnswerError,
  readAnswer,
  type AnswerErrorCode,
  type AnswerOutcome,
  type JsonRpcMessage,
} from '../../../src/index.js';
import { bodyInputArb, chunksOf, type BodyInput } from '../bodies.js';
import { faultyBody, heartbeatOf, reasonOf, type BadChunk, type CancelKind, type Fault, type ReasonKind } from '../faulty-body.js';
import { jsonDifference, show } from '../json-values.js';
import { Broken, defineTarget, ensure } from '../target.js';
import { markProcess, sinceMark } from '../process-watch.js';

type OnMessagePlan = { readonly kind: 'none' } | { readonly kind: 'throw'; readonly at: number } | { readonly kind: 'abort'; readonly at: number; readonly reason: ReasonKind };
type SignalPlan = { readonly kind: 'none' } | { readonly kind: 'given' } | { readonly kind: 'pre-aborted'; readonly reason: ReasonKind };

interface ReadInput extends BodyInput {
  readonly contentType: string | null;
  readonly fault: Fault;
  readonly onMessage: OnMessagePlan;
  readonly cancel: CancelKind;
  readonly signal: SignalPlan;
  /** Clean reads of the same body started alongside, sharing the signal (a client-wide deadline). */
  readonly alongside: number;
}

/** An acceptable way for the read to end. */
type Ending =
  | { readonly kind: 'outcome'; readonly outcome: AnswerOutcome }
  | { readonly kind: 'code'; readonly code: AnswerErrorCode; readonly cause: 'source' | 'reason' | 'any' }
  | { readonly kind: 'thrown' };

/** The acceptable endings, and the messages `onMessage` must have been given (`min` of them at least, as a prefix). */
interface Expected {
  readonly endings: Ending[];
  readonly messages: readonly JsonRpcMessage[];
  readonly min: number;
  /** Whether the body must not have been read at all. */
  readonly unread: boolean;
}

const abortEnding = (reason: ReasonKind): Ending => ({ kind: 'code', code: reason === 'timeout' ? 'timeout' : 'aborted', cause: 'reason' });

const SSE_TYPES = ['text/event-stream', 'text/event-stream; charset=utf-8', 'Text/Event-Stream', ' text/event-stream\t', 'text/plain, text/event-stream'];
const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/json;x="a,b"'];
/** Not a supported MIME type (Fetch's "extract a MIME type" trims HTTP whitespace only). */
const OTHER_TYPES = ['text/plain', 'text/html', '', 'text/event-stream\u00a0', '\u000btext/event-stream', 'application/json\u000c', 'text/event-streams', 'application/jsonx'];

const reasonArb = fc.constantFrom<ReasonKind>('error', 'timeout', 'string', 'default');
const badChunkArb = fc.constantFrom<BadChunk>('string', 'huge-string', 'arraybuffer', 'dataview', 'fake-uint8-dataview', 'fake-uint8-float64', 'uint16', 'number', 'null', 'undefined', 'array');

function faultArb(reads: number): fc.Arbitrary<Fault> {
  const at = fc.integer({ min: 0, max: reads });
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant<Fault>({ kind: 'none' }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('error' as const), at, how: fc.constantFrom('controller' as const, 'throw' as const, 'reject' as const) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('abort' as const), at, reason: reasonArb }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('hang' as const), at, reason: reasonArb, delay: fc.nat({ max: 5 }) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('bad-chunk' as const), at, value: badChunkArb }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('endless' as const), reason: reasonArb, delay: fc.integer({ min: 1, max: 20 }) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('timer' as const), reason: reasonArb, delay: fc.nat({ max: 10 }) }) },
  );
}

const inputArb: fc.Arbitrary<ReadInput> = bodyInputArb.chain((body) =>
  fc.record({
    format: fc.constant(body.format),
    bytes: fc.constant(body.bytes),
    requestId: fc.constant(body.requestId),
    cuts: fc.constant(body.cuts),
    maxBytes: fc.constant(body.maxBytes),
    contentType: fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...(body.format === 'json' ? JSON_TYPES : SSE_TYPES)) }, { weight: 1, arbitrary: fc.constantFrom<string | null>(null, ...OTHER_TYPES) }),
    fault: faultArb(body.cuts.length + 1),
    onMessage: fc.oneof(
      { weight: 3, arbitrary: fc.constant<OnMessagePlan>({ kind: 'none' }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('throw' as const), at: fc.nat({ max: 4 }) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('abort' as const), at: fc.nat({ max: 4 }), reason: reasonArb }) },
    ),
    cancel: fc.constantFrom<CancelKind>('ok', 'ok', 'throw', 'reject', 'hang'),
    signal: fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom<SignalPlan>({ kind: 'given' }, { kind: 'none' }) },
      { weight: 1, arbitrary: reasonArb.map((reason): SignalPlan => ({ kind: 'pre-aborted', reason })) },
    ),
    alongside: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 14 }) }),
  }),
);

/** What the read must give, from the pure reducer (checked against the models by the `answer` target) and the fault. */
function expectedOf(input: ReadInput, chunks: readonly Uint8Array[]): Expected {
  const supported = input.contentType !== null && (input.format === 'json' ? JSON_TYPES : SSE_TYPES).includes(input.contentType);
  if (input.signal.kind === 'pre-aborted') {
    const endings = [abortEnding(input.signal.reason)];
    if (!supported) endings.push({ kind: 'code', code: 'unsupported_content_type', cause: 'any' });
    return { endings, messages: [], min: 0, unread: true };
  }
  if (!supported) return { endings: [{ kind: 'code', code: 'unsupported_content_type', cause: 'any' }], messages: [], min: 0, unread: true };

  const { fault, onMessage } = input;
  const messages: JsonRpcMessage[] = [];
  let min = 0;
  /** Reports messages to the planned onMessage; says whether it stopped the read. */
  const report = (batch: readonly JsonRpcMessage[]): Ending | undefined => {
    for (const m of batch) {
      const index = messages.length;
      messages.push(m);
      if (onMessage.kind !== 'none' && onMessage.at === index) {
        if (onMessage.kind === 'throw') {
          min = messages.length;
          return { kind: 'thrown' };
        }
        // The signal is checked after every onMessage call: the rest of the chunk's messages may or may not come.
        min = messages.length;
        messages.push(...batch.slice(batch.indexOf(m) + 1));
        return abortEnding(onMessage.reason);
      }
    }
    min = messages.length;
    return undefined;
  };

  let state = answerStart({ format: input.format, requestId: input.requestId, maxBytes: input.maxBytes });
  const withTimer = (endings: Ending[]): Ending[] => (fault.kind === 'timer' ? [...endings, abortEnding(fault.reason)] : endings);
  for (let i = 0; i <= chunks.length; i++) {
    if ('at' in fault && fault.at === i) {
      switch (fault.kind) {
        case 'error':
          return { endings: [{ kind: 'code', code: 'stream_failed', cause: 'source' }], messages, min, unread: false };
        case 'abort':
        case 'hang':
          return { endings: [abortEnding(fault.reason)], messages, min, unread: false };
        case 'bad-chunk':
          return { endings: [{ kind: 'code', code: 'stream_failed', cause: 'any' }], messages, min, unread: false };
      }
    }
    if (i === chunks.length) {
      if (fault.kind === 'endless') {
        // The first heartbeat may complete a pending event (even the answer's); later ones change nothing.
        const beat = answer(state, heartbeatOf(input.format));
        const stopped = report(beat.messages);
        if (stopped !== undefined) return { endings: [stopped], messages, min, unread: false };
        if (beat.outcome !== undefined) return { endings: [{ kind: 'outcome', outcome: beat.outcome }], messages, min, unread: false };
        const endings = [abortEnding(fault.reason)];
        if (input.maxBytes !== Infinity) endings.push({ kind: 'outcome', outcome: { kind: 'budget_exceeded' } });
        return { endings, messages, min, unread: false };
      }
      const end = answerEnd(state);
      const stopped = report(end.messages);
      return { endings: withTimer([stopped ?? { kind: 'outcome', outcome: end.outcome }]), messages, min: fault.kind === 'timer' ? 0 : min, unread: false };
    }
    const read = answer(state, chunks[i]!);
    state = read.state;
    const stopped = report(read.messages);
    const ending = stopped ?? (read.outcome === undefined ? undefined : { kind: 'outcome' as const, outcome: read.outcome });
    if (ending !== undefined) return { endings: withTimer([ending]), messages, min: fault.kind === 'timer' ? 0 : min, unread: false };
  }
  throw new Error('unreachable: the loop ends at the end of the body');
}


const turns = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** How long a read may take to settle: well past every timer a fault arms, and a huge body on a busy machine. */
const SETTLE_MS = 10_000;

export const readAnswerTarget = defineTarget<ReadInput>({
  name: 'read-answer',
  summary: 'readAnswer under faults: settles once, right code and cause, body released, nothing left behind',
  async: true,
  arbitrary: inputArb,
  async check(input) {
    const mark = markProcess();
    const chunks = chunksOf(input.bytes, input.cuts);
    const expected = expectedOf(input, chunksOf(input.bytes, input.cuts)); // its own copies: the reader's may be kept

    const needsSignal = input.signal.kind !== 'none' || input.onMessage.kind === 'abort' || ['abort', 'hang', 'endless', 'timer'].includes(input.fault.kind);
    const controller = new AbortController();
    const abort = (reason: unknown): void => controller.abort(reason);
    if (input.signal.kind === 'pre-aborted') abort(reasonOf(input.signal.reason));
    const timers: ReturnType<typeof setTimeout>[] = [];
    const { body, record } = faultyBody(chunks, input.fault, input.cancel, abort, timers, input.format);
    if (input.fault.kind === 'timer') {
      const { reason, delay } = input.fault;
      timers.push(setTimeout(() => abort(reasonOf(reason)), delay));
    }
    const headers = new Headers();
    if (input.contentType !== null) headers.set('content-type', input.contentType);
    const response = new Response(body, { headers });
    const signal = needsSignal ? controller.signal : undefined;
    const others = Array.from({ length: signal === undefined ? 0 : input.alongside }, () => {
      const other = new Response(faultyBody(chunksOf(input.bytes, input.cuts), { kind: 'none' }, 'ok', abort, timers, input.format).body, { headers });
      const done = readAnswer(other, { requestId: input.requestId, maxBytes: input.maxBytes, signal }).then(
        () => {},
        () => {},
      );
      return { other, done };
    });

    const received: JsonRpcMessage[] = [];
    const thrown = new Error('thrown by onMessage');
    const onMessage = (message: JsonRpcMessage): void => {
      received.push(message);
      const plan = input.onMessage;
      if (plan.kind !== 'none' && plan.at === received.length - 1) {
        if (plan.kind === 'throw') throw thrown;
        abort(reasonOf(plan.reason));
      }
    };

    let settlements = 0;
    let result: { ok: true; value: unknown } | { ok: false; error: unknown } | undefined;
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    try {
      const read = readAnswer(response, { requestId: input.requestId, maxBytes: input.maxBytes, signal, onMessage }).then(
        (value) => {
          settlements++;
          result = { ok: true, value };
        },
        (error: unknown) => {
          settlements++;
          result = { ok: false, error };
        },
      );
      const late = new Promise<'late'>((resolve) => {
        watchdog = setTimeout(() => resolve('late'), SETTLE_MS);
      });
      if ((await Promise.race([read, late])) === 'late') throw new Broken(`readAnswer did not settle within ${SETTLE_MS} ms (${record.pulls} reads)`);
      const all = Promise.all(others.map((o) => o.done)).then(() => 'settled' as const);
      if ((await Promise.race([all, late])) === 'late') throw new Broken(`a read alongside did not settle within ${SETTLE_MS} ms`);
    } finally {
      clearTimeout(watchdog);
    }
    const settledAt = { pulls: record.pulls, messages: received.length };
    ensure(response.body === null || !response.body.locked, 'the body is still locked after readAnswer settled');
    ensure(record.cancelled || record.closed || record.errored, 'the body was neither cancelled, nor read to its end, nor errored');
    ensure(others.every((o) => o.other.body === null || !o.other.body.locked), 'a body read alongside is still locked');
    ensure(getEventListeners(controller.signal, 'abort').length === 0, () => `${getEventListeners(controller.signal, 'abort').length} abort listeners left on the signal`);
    if (expected.unread) ensure(record.pulls === 0, () => `${record.pulls} reads of a body that must not be read`);
    await turns(5);
    for (const timer of timers) clearTimeout(timer);
    ensure(settlements === 1, () => `settled ${settlements} times`);
    ensure(record.pulls === settledAt.pulls, () => `${record.pulls - settledAt.pulls} reads after readAnswer settled`);
    ensure(received.length === settledAt.messages, 'onMessage was called after readAnswer settled');
    const since = sinceMark(mark);
    ensure(since.rejections.length === 0, () => `an unhandled rejection: ${show(String(since.rejections.at(-1)))}`);
    ensure(since.warnings.length === 0, () => `${since.warnings.at(-1)?.message ?? ''} (with ${input.alongside + 1} reads on one signal)`);

    // The messages: all those expected, or (after an abort from onMessage or a timer) a prefix of at least `min`.
    const exact = expected.min === expected.messages.length;
    ensure(exact ? received.length === expected.messages.length : received.length >= expected.min && received.length <= expected.messages.length, () => `onMessage got ${received.length} messages, expected ${exact ? expected.min : `${expected.min} to ${expected.messages.length}`}`);
    received.forEach((m, i) => {
      const d = jsonDifference(m, expected.messages[i]);
      ensure(d === undefined, () => `message ${i}: ${d}`);
    });

    const r = result!;
    const problems = expected.endings.map((ending) => mismatch(ending, r, { thrown, sourceError: record.error, reason: controller.signal.reason }));
    ensure(problems.includes(undefined), () => `${describe(r)}; expected ${problems.join(' or ')}`);
    if (!r.ok && isAnswerError(r.error)) {
      ensure(r.error.detail.maxBytes === (input.maxBytes ?? DEFAULT_MAX_BYTES), 'the error detail has another cap');
      ensure(r.error.message.length <= 2048, () => `an error message of ${r.error instanceof Error ? r.error.message.length : 0} characters`);
    }
  },
});

function describe(r: { ok: true; value: unknown } | { ok: false; error: unknown }): string {
  if (r.ok) return `resolved with ${show(r.value)}`;
  if (isAnswerError(r.error)) return `rejected with ${r.error.code}${r.error.reason === undefined ? '' : ` (${r.error.reason})`}: ${show(r.error.message)}`;
  return `rejected with ${show(String(r.error))}`;
}

/** Why `r` is not `ending` (`undefined` when it is). */
function mismatch(ending: Ending, r: { ok: true; value: unknown } | { ok: false; error: unknown }, seen: { thrown: unknown; sourceError: unknown; reason: unknown }): string | undefined {
  switch (ending.kind) {
    case 'thrown':
      return !r.ok && r.error === seen.thrown ? undefined : "onMessage's own error";
    case 'code': {
      if (r.ok || !isAnswerError(r.error) || r.error.code !== ending.code) return ending.code;
      if (ending.cause === 'source' && r.error.cause !== seen.sourceError) return `${ending.code} caused by the source's error`;
      if (ending.cause === 'reason' && r.error.cause !== seen.reason) return `${ending.code} caused by the abort reason`;
      return undefined;
    }
    case 'outcome': {
      const o = ending.outcome;
      if (o.kind === 'answer') return r.ok && jsonDifference(r.value, o.answer) === undefined ? undefined : `the answer ${show(o.answer)}`;
      if (r.ok || !isAnswerError(r.error) || r.error.code !== o.kind) return o.kind;
      if (o.kind === 'malformed_answer' && r.error.reason !== o.reason) return `malformed_answer (${o.reason})`;
      return undefined;
    }
  }
}
