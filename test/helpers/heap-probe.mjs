// Live-heap probes, run in a child `node --expose-gc` process so that a test can measure what a
// state, an event or a failed read keeps alive: a bound on bytes, not a timing.
//   node --expose-gc heap-probe.mjs <dist entry> retention
//   node --expose-gc heap-probe.mjs <dist entry> one-of-many
//   node --expose-gc heap-probe.mjs <dist entry> lines <line as JSON> <bytes>
//   node --expose-gc heap-probe.mjs <dist entry> failure <api> <failure>
// Prints one JSON object: { bytesRead, retained }, retained being the bytes of heap that the
// scanner's results alone keep alive, after a full GC. The failure probe prints { code,
// cancelled, retained }: see failedRead.
const [entry, probe, ...args] = process.argv.slice(2);
const sseAnswer = await import(entry);
const { scan, scanStart } = sseAnswer;
const encoder = new TextEncoder();

function live() {
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed;
}

/**
 * One 8 MiB chunk whose event type, id, data line and pending line are each long enough (13+
 * characters) for an engine to make them views of the chunk's text: the result of scanning it.
 */
function retention() {
  const chunk = encoder.encode(
    `event: ${'t'.repeat(40)}\nid: ${'i'.repeat(40)}\ndata: ${'d'.repeat(40)}\n\n` +
      `: ${'p'.repeat(8 * 1024 * 1024)}\n` +
      `event: ${'u'.repeat(40)}\nid: ${'j'.repeat(40)}\ndata: ${'e'.repeat(40)}\n${'q'.repeat(40)}`,
  );
  return { bytesRead: chunk.length, kept: scan(scanStart(), chunk) };
}

/**
 * One 8 MiB chunk of small events (40-character data, each with an id and a type): the one event
 * of them that is kept. A large chunk is read in pieces of at most 16 KiB, and an event's values
 * are views of its piece's text; one event must keep no more than a piece alive, not the chunk's text.
 */
function oneOfMany() {
  const eventsOf = (size) => {
    let text = '';
    for (let i = 0; text.length < size; i++) text += `event: type-${i}-${'t'.repeat(20)}\nid: id-${i}-${'i'.repeat(20)}\ndata: ${String(i).padStart(40, 'd')}\n\n`;
    return encoder.encode(text);
  };
  // Once first, smaller: code the engine compiles for the copies, and may drop in a GC, would
  // otherwise count as what the event holds (about 200 KB in Node 20; it still can, less often).
  scan(scanStart(), eventsOf(64 * 1024));
  const chunk = eventsOf(8 * 1024 * 1024);
  const { events } = scan(scanStart(), chunk);
  return { bytesRead: chunk.length, kept: events[events.length >> 1] };
}

/** The state after `total` bytes of `line` repeated, in 64 KiB chunks, with no blank line. */
function lines(line, total) {
  const chunk = encoder.encode(line.repeat(Math.ceil((64 * 1024) / line.length)));
  let state = scanStart();
  let bytesRead = 0;
  while (bytesRead < total) {
    state = scan(state, chunk).state;
    bytesRead += chunk.length;
  }
  return { bytesRead, kept: state };
}

/** What the scanner's results alone hold alive (probes retention, one-of-many, lines). */
function scannerProbe() {
  const make = probe === 'retention' ? retention : probe === 'one-of-many' ? oneOfMany : () => lines(JSON.parse(args[0]), Number(args[1]));
  // What the results alone hold alive: the heap with them, less the heap without them. The reading
  // moves by what the engine frees on its own in a GC (compiled code, up to a few hundred KB under
  // load), which only adds: one-of-many, whose bound is tight, takes the least of three readings.
  let bytesRead = 0;
  let retained = Infinity;
  for (let trial = probe === 'one-of-many' ? 3 : 1; trial > 0; trial--) {
    const holder = make();
    const withKept = live();
    holder.kept = undefined;
    bytesRead = holder.bytesRead;
    retained = Math.min(retained, withKept - live());
  }
  return { bytesRead, retained };
}

/**
 * The heap a failed read leaves while the caller still holds the `Response` and the error, over
 * the heap before it. `api` (readAnswer, postJsonRpc, AnswerTransport, AnswerClient, with a 1 MiB
 * cap; SseEventStream) reads a body of one line with no line end, in 64 KiB chunks from an async
 * `pull` (highWaterMark 1), as {@link FAILURES} says. The base is taken after three reads of each
 * format that fail a 256 KiB cap, through the same API (SseEventStream's: a bad chunk after 256 KiB),
 * and one failure as measured, let go: the code an engine compiles for that path (a few hundred
 * KB, at a moment a loaded machine moves) is then in the base, not in what the failure holds. Each
 * reading waits for the streams' own steps after a failure, which would otherwise count too.
 */
async function failedRead(api, failure) {
  const read = READS[api];
  for (let i = 0; i < 3; i++) {
    for (const type of [SSE, JSON_TYPE]) {
      const warmUp = api === 'SseEventStream' ? { type, prefix: 'data: ', total: 256 * 1024, bad: true } : { type, prefix: type === SSE ? 'data: ' : '"', total: Infinity };
      await read(lineResponse(warmUp).response, { maxBytes: 256 * 1024 });
    }
  }
  await failing(read, FAILURES[failure]);
  await settled();
  const base = live();
  const held = await failing(read, FAILURES[failure]);
  await settled();
  const retained = live() - base;
  return { failed: held.error?.code ?? held.error?.message, cancelled: held.cancelled.length, retained };
}

/** A few turns of the event loop: the streams' own steps after a failure (a pipe's cancel, a timer) are done. */
async function settled() {
  for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setTimeout(resolve, 1));
}

/** A read of `shape` through `read`, as {@link failedRead} measures it: the response, what its source was told, the error. */
async function failing(read, shape) {
  const controller = new AbortController();
  const held = lineResponse({ ...shape, abort: shape.abort ? () => controller.abort(new Error('stopped mid-line')) : undefined });
  const onMessage = shape.onMessage
    ? () => {
        throw new Error('onMessage refused');
      }
    : undefined;
  held.error = await read(held.response, { maxBytes: 1024 * 1024, signal: controller.signal, onMessage });
  return held;
}

const SSE = 'text/event-stream';
const JSON_TYPE = 'application/json';

/** The failed reads, by name: each body's shape (see {@link lineResponse}). */
const FAILURES = {
  // 100 MiB over the cap, as an event stream and as JSON.
  'sse-budget': { type: SSE, prefix: 'data: ', total: 100 * 1024 * 1024 },
  'json-budget': { type: JSON_TYPE, prefix: '"', total: 100 * 1024 * 1024 },
  // An event stream that stalls mid-line after 512 KiB, and the signal aborts.
  'sse-abort': { type: SSE, prefix: 'data: ', total: 100 * 1024 * 1024, abort: true },
  // 960 KiB of an unterminated JSON string: `JSON.parse` refuses it at the end.
  'json-invalid': { type: JSON_TYPE, prefix: '"', total: 960 * 1024 },
  // 960 KiB of a notification's param, and `onMessage` throws.
  'json-on-message': { type: JSON_TYPE, prefix: '{"jsonrpc":"2.0","method":"note","params":{"pad":"', suffix: '"}}', total: 960 * 1024, onMessage: true },
  // 960 KiB of an event's data, then a chunk that is not bytes.
  'sse-bad-chunk': { type: SSE, prefix: 'data: ', total: 960 * 1024, bad: true },
};

/**
 * A body of `prefix`, then `total` bytes of `a` at 64 KiB a pull, then `suffix` (or, with `bad`,
 * a string chunk). With `abort`, after 512 KiB the body stalls and `abort` is called.
 */
function lineResponse({ type, prefix, suffix = '', total, abort, bad = false }) {
  const chunk = new Uint8Array(64 * 1024).fill(0x61);
  const cancelled = [];
  let sent = 0;
  const body = new ReadableStream(
    {
      async pull(stream) {
        await null;
        if (sent === 0) stream.enqueue(encoder.encode(prefix));
        if (abort !== undefined && sent >= 512 * 1024) {
          setTimeout(abort, 10);
          return new Promise(() => {});
        }
        if (sent >= total) {
          if (bad) return stream.enqueue('not bytes');
          stream.enqueue(encoder.encode(suffix));
          return stream.close();
        }
        sent += chunk.length;
        stream.enqueue(chunk.slice());
      },
      cancel(reason) {
        cancelled.push(reason);
      },
    },
    { highWaterMark: 1 },
  );
  return { response: new Response(body, { headers: { 'content-type': type } }), cancelled };
}

const URL_ = 'https://mcp.example/mcp';
const REQUEST = { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'file:///a' } };

/**
 * Each API's read of `response` under a cap, a signal and an `onMessage` (AnswerTransport has
 * none; SseEventStream takes only the signal), to the error it fails with (or what it resolved with).
 */
const READS = {
  readAnswer: (response, { maxBytes, signal, onMessage }) => failed(sseAnswer.readAnswer(response, { maxBytes, signal, onMessage })),
  postJsonRpc: (response, { maxBytes, signal, onMessage }) =>
    failed(sseAnswer.postJsonRpc(URL_, REQUEST, { fetch: async () => response, maxBytes, signal, onMessage })),
  AnswerTransport: (response, { maxBytes, signal }) =>
    failed(new sseAnswer.AnswerTransport(URL_, { fetch: async () => response, maxBytes }).send(REQUEST, { signal })),
  AnswerClient: async (response, { maxBytes, signal, onMessage }) => {
    const pin = { pin: '2026-07-28' };
    const client = await sseAnswer.AnswerClient.connect(URL_, { fetch: async () => response, maxBytes, versionNegotiation: pin });
    return failed(client.request(REQUEST.method, REQUEST.params, { signal, onMessage }));
  },
  SseEventStream: (response, { signal }) => failed(response.body.pipeThrough(new sseAnswer.SseEventStream({ signal })).pipeTo(new WritableStream())),
};

function failed(pending) {
  return pending.then(
    (value) => ({ code: 'resolved', value }),
    (error) => error,
  );
}

console.log(JSON.stringify(probe === 'failure' ? await failedRead(args[0], args[1]) : scannerProbe()));
