// A failed read holds nothing (#49): while the caller still holds the Response and the error, the
// live heap comes back to within 256 KiB of where it was before the read, through every public
// API that reads an answer. Measured on the built package in a child process after full GCs
// (test/helpers/heap-probe.mjs, `failure`); each body is about 1 MiB past what the bound allows.
//
// Before the fix, readAnswer's error kept the body read so far (0.8-1.7 MiB here): V8 keeps the
// functions on the stack when an error is made, and the read's helpers were closures over its
// state; and JSON.parse's SyntaxError, an invalid_json failure's cause, keeps the whole text it
// parsed (every API); SseEventStream's error kept the stream's pending line (0.75 MiB). The aborts
// mid-line held nothing before either: they guard the abort path.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

interface FailedRead {
  /** The error's code, or the message of what `onMessage` threw. */
  readonly failed: string;
  /** How many times the body's source was cancelled. */
  readonly cancelled: number;
  /** Live heap after the failure, over the heap before the read, in bytes. */
  readonly retained: number;
}

function failedRead(api: string, failure: string): FailedRead {
  const output = execFileSync(process.execPath, ['--expose-gc', `${root}/test/helpers/heap-probe.mjs`, `${root}/dist/index.js`, 'failure', api, failure], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  return JSON.parse(output) as FailedRead;
}

const BOUND = 256 * 1024;
/** Each probe is a child process: a second or two, more on a loaded machine. */
const TIMEOUT = 60_000;

describe.each(['readAnswer', 'postJsonRpc', 'AnswerTransport', 'AnswerClient'])('%s: a failed read holds nothing', (api) => {
  test.each([
    ['sse-budget', 'over budget on an event stream of one 100 MiB line', 'budget_exceeded', 1],
    ['json-budget', 'over budget on a JSON body of one 100 MiB string', 'budget_exceeded', 1],
    ['sse-abort', 'aborted mid-line', 'aborted', 1],
    ['json-invalid', 'a JSON body that is not JSON', 'malformed_answer', 0],
  ])('%s: %s', (failure, _what, code, cancelled) => {
    const read = failedRead(api, failure);
    expect([read.failed, read.cancelled]).toEqual([code, cancelled]);
    expect(read.retained).toBeLessThan(BOUND);
  }, TIMEOUT);
});

test.each([
  ['sse-bad-chunk', 'a bad chunk after 960 KiB of a line', 'a body chunk must be a Uint8Array, got "not bytes"'],
  ['sse-abort', 'aborted mid-line', 'stopped mid-line'],
])('SseEventStream %s: %s leaves nothing of the stream held by its error', (failure, _what, message) => {
  const read = failedRead('SseEventStream', failure);
  expect([read.failed, read.cancelled]).toEqual([message, 1]);
  expect(read.retained).toBeLessThan(BOUND);
}, TIMEOUT);

// AnswerTransport hands what its `onmessage` throws to `onerror`, so it has no such failure.
test.each(['readAnswer', 'postJsonRpc', 'AnswerClient'])('%s: an onMessage that throws leaves nothing of the read held by its error', (api) => {
  const read = failedRead(api, 'json-on-message');
  expect(read.failed).toBe('onMessage refused');
  expect(read.retained).toBeLessThan(BOUND);
}, TIMEOUT);
