// The adapters as tests: every scanner fixture through SseEventStream and scanEvents (each
// adapter must give exactly the scanner's events and final state), and the adapter fixtures
// (stopping early, aborts, failing sources, wrong input) over each shape of source.
import { chunkings, encode } from './bytes.mjs';
import { ok, same, show } from './check.mjs';
import { scanEventsCases, sseEventStreamCases } from './fixtures/adapter-cases.mjs';
import { scannerCases } from './fixtures/scanner-cases.mjs';
import { settled, wasDrained, wasReleased, watchedBody } from './sources.mjs';

const NO_STATE = { lastEventId: '', retry: undefined };
const SHAPES = ['stream', 'iterable', 'destroyable'];

/** Tests for both adapters, run against the package `pkg`. */
export function adapterTests(pkg) {
  const tests = [];
  for (const kase of scannerCases) {
    tests.push({ name: `SseEventStream: ${kase.name}`, run: () => checkScannerCase(pkg, kase, throughStream) });
    tests.push({ name: `scanEvents: ${kase.name}`, run: () => checkScannerCase(pkg, kase, throughScanEvents) });
  }
  for (const kase of scanEventsCases) {
    for (const shape of SHAPES) tests.push({ name: `scanEvents (${shapeName(shape)}): ${kase.name}`, run: () => checkScanEvents(pkg, kase, shape) });
  }
  for (const kase of sseEventStreamCases) tests.push({ name: `SseEventStream: ${kase.name}`, run: () => checkSseEventStream(pkg, kase) });
  return tests;
}

function shapeName(shape) {
  return { stream: 'ReadableStream', iterable: 'async iterable', destroyable: 'async iterable with destroy' }[shape];
}

/** The scanner case's events and final state through an adapter, whole and in chunks, with and without dispatchIncomplete. */
async function checkScannerCase(pkg, kase, through) {
  const bytes = encode(typeof kase.input === 'function' ? kase.input() : kase.input);
  const events = typeof kase.events === 'function' ? kase.events() : kase.events;
  const end = kase.end ?? NO_STATE;
  const incomplete = { events: kase.incomplete?.events ?? events, end: kase.incomplete?.end ?? end };
  const size = kase.sizes?.at(-1) ?? 7;
  for (const way of chunkings(bytes, [size]).slice(0, 2)) {
    for (const [dispatchIncomplete, expected] of [[false, { events, end }], [true, incomplete]]) {
      const what = `${way.name}${dispatchIncomplete ? ', dispatchIncomplete' : ''}`;
      const got = await through(pkg, way.chunks, dispatchIncomplete, what);
      same(got.events, expected.events, `${what}: events`);
      if (got.state !== undefined) same(got.state, expected.end, `${what}: lastEventId and retry after the end`);
    }
  }
}

async function throughStream(pkg, chunks, dispatchIncomplete) {
  const transform = new pkg.SseEventStream(dispatchIncomplete ? { dispatchIncomplete } : undefined);
  const events = await readAll(streamOf(chunks).pipeThrough(transform));
  return { events, state: { lastEventId: transform.lastEventId, retry: transform.retry } };
}

async function throughScanEvents(pkg, chunks, dispatchIncomplete) {
  // A web stream without the option, an async generator with it: both shapes of source.
  const source = dispatchIncomplete ? generatorOf(chunks) : streamOf(chunks);
  const events = [];
  for await (const event of pkg.scanEvents(source, dispatchIncomplete ? { dispatchIncomplete } : {})) events.push(event);
  return { events };
}

async function checkScanEvents(pkg, kase, shape) {
  const chunks = kase.body.map((text) => encode([text]));
  const endless = kase.endless === undefined ? undefined : encode([kase.endless]);
  const { body, log } = watchedBody(shape, chunks, { endless, error: kase.sourceError });
  const controller = new AbortController();
  const reason = new Error('stopped by the test');
  if (kase.loop.aborted) controller.abort(reason);
  const events = [];
  let thrown;
  try {
    for await (const event of pkg.scanEvents(body, { signal: controller.signal })) {
      events.push(event);
      if (events.length === kase.loop.breakAfter) break;
      if (events.length === kase.loop.abortAfter) controller.abort(reason);
    }
  } catch (error) {
    thrown = { error };
  }
  same(events, kase.events, 'the events the loop saw');
  if (kase.thrown === undefined) ok(thrown === undefined, `the loop threw ${show(thrown?.error?.message ?? thrown?.error)}`);
  else if (thrown === undefined) throw new Error(`the loop ended without throwing; expected ${kase.thrown}`);
  else if (kase.thrown === 'reason') ok(thrown.error === reason, `the loop threw ${show(thrown.error?.message)}, not the abort's reason`);
  else if (kase.thrown === 'source') ok(thrown.error?.message === kase.sourceError, `the loop threw ${show(thrown.error?.message)}, not the source's error`);
  else same(thrown.error?.name, kase.thrown, 'the name of what the loop threw');
  await settled();
  if (shape === 'stream') ok(!body.locked, 'the stream is left locked');
  if (kase.release === 'cancel') ok(wasReleased(shape, log), `the source was not released (${show(log)})`);
  if (kase.release === 'drain') ok(wasDrained(log), `the source was not read to its end (${show(log)})`);
  if (kase.pulls !== undefined) same(log.pulls, kase.pulls, 'chunks the source was asked for');
}

async function checkSseEventStream(pkg, kase) {
  if (kase.constructorThrows !== undefined) {
    let thrown;
    try {
      new pkg.SseEventStream(kase.options);
    } catch (error) {
      thrown = error;
    }
    same(thrown?.name, kase.constructorThrows, 'what the constructor threw');
    return;
  }
  const transform = new pkg.SseEventStream(kase.options);
  const writer = transform.writable.getWriter();
  const reading = readAll(transform.readable).then(
    (events) => ({ events }),
    (error) => ({ error }),
  );
  const written = (async () => {
    for (const value of kase.writes) await writer.write(typeof value === 'string' ? encode([value]) : value);
    await writer.close();
  })().catch(() => {});
  const read = await reading;
  await written;
  if (kase.error !== undefined) {
    same(read.error?.name, kase.error, 'the error of the readable side');
    return;
  }
  ok(read.error === undefined, `the readable side failed: ${show(read.error?.message)}`);
  same(read.events, kase.events, 'events');
  same({ lastEventId: transform.lastEventId, retry: transform.retry }, { lastEventId: kase.lastEventId, retry: kase.retry }, 'lastEventId and retry after the end');
}

/** Everything a readable stream gives until it ends (streams' async iteration is not everywhere yet). */
async function readAll(readable) {
  const reader = readable.getReader();
  const items = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return items;
    items.push(value);
  }
}

function streamOf(chunks) {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

async function* generatorOf(chunks) {
  yield* chunks;
}
