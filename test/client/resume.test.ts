/**
 * resume.ts: `readResumable`, one answer read across resumed 2025 event streams — the GET it
 * sends (`Accept: text/event-stream`, `Last-Event-ID` as the id's bytes), the wait (the stream's
 * `retry`, kept across bodies, else 1 s), the counts summed over every body, the cap over all of
 * them, and how a resumption ends, said in the failure (`after N resumptions`, `gave up`, `the
 * server refused`, a 401/403 to the GET). Also `lastEventIdHeader` and `endedEarly`. The
 * resumption through postJsonRpc and against the official server is in post-json-rpc.test.ts.
 */

import { afterEach, describe, expect, test, vi } from 'vitest';
import type { AuthorizedRoute } from '../../src/client/authorized-request.js';
import { DEFAULT_RETRY_MS, endedEarly, lastEventIdHeader, MAX_RESUMPTIONS_WITHOUT_PROGRESS, readResumable, type ResumableRead } from '../../src/client/resume.js';
import type { ReadOutcome } from '../../src/drivers/read-answer.js';
import type { AnswerFormat } from '../../src/reducers/answer.js';
import { nothingRead, written, type Failure } from '../../src/vocabulary/failure.js';
import type { JsonRpcMessage } from '../../src/vocabulary/json-rpc.js';
import { Secrets } from '../../src/vocabulary/secrets.js';
import { sseEvent } from '../helpers/bodies.js';
import { empty, headersObject, json, respond, scriptedFetch, sse, trail, type Script, type SentRequest } from '../helpers/client-fetch.js';

const URL_ = 'https://mcp.example/mcp';
const ANSWER = { jsonrpc: '2.0', id: 5, result: { ok: true } };
const NOTE = { jsonrpc: '2.0', method: 'notifications/message', params: { data: 'x' } };
const priming = (id: string, retry = 1): string => `id: ${id}\nretry: ${retry}\ndata:\n\n`;

interface Run {
  readonly outcome: ReadOutcome;
  readonly sent: SentRequest[];
  readonly seen: JsonRpcMessage[];
}

/** Reads `first` resumably; the GETs are answered by `gets` (by their index, from 0). */
async function read(first: Response, gets: Script, options: Partial<ResumableRead> & { signal?: AbortSignal } = {}): Promise<Run> {
  const { fetch, sent } = scriptedFetch(gets);
  const seen: JsonRpcMessage[] = [];
  const route: AuthorizedRoute = {
    fetch,
    url: URL_,
    signal: options.signal ?? new AbortController().signal,
    redirect: 'same-origin',
    detail: nothingRead(options.maxBytes ?? 10_000),
    authProvider: undefined,
    secrets: new Secrets(),
  };
  const outcome = await readResumable(first, {
    route,
    headers: new Headers({ 'mcp-session-id': 's1', 'mcp-protocol-version': '2025-11-25' }),
    requestId: 5,
    maxBytes: 10_000,
    onMessage: (m) => seen.push(m),
    resume: true,
    ...options,
  });
  return { outcome, sent, seen };
}

function failureOf(outcome: ReadOutcome): Failure {
  expect(outcome.kind).toBe('failed');
  return (outcome as { failure: Failure }).failure;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the GET that resumes', () => {
  test("carries the read's headers, Accept: text/event-stream and Last-Event-ID; the answer comes from it", async () => {
    const { outcome, sent, seen } = await read(sse([priming('a'), sseEvent(NOTE, ['id: b'])]), () => sse([sseEvent(ANSWER, ['id: c'])]));
    expect(outcome).toMatchObject({ kind: 'answer', answer: ANSWER, format: 'event-stream' });
    expect(trail(sent)).toEqual(['GET']);
    expect(sent[0]!.url).toBe(URL_);
    expect(headersObject(sent[0]!.headers)).toEqual({
      accept: 'text/event-stream',
      'last-event-id': 'b',
      'mcp-protocol-version': '2025-11-25',
      'mcp-session-id': 's1',
    });
    expect(seen).toEqual([NOTE]);
  });

  test('an answer read in one body is the read as it is: nothing sent', async () => {
    const { outcome, sent } = await read(sse([sseEvent(ANSWER, ['id: 1'])]), () => empty(500));
    expect(outcome).toMatchObject({ kind: 'answer', progress: { events: 1, lastEventId: '1' } });
    expect(sent).toEqual([]);
  });

  test('the counts of a resumed answer are summed over every body', async () => {
    const first = [priming('a'), sseEvent(NOTE, ['id: b'])];
    const second = [sseEvent(NOTE, ['id: c']), sseEvent(ANSWER, ['id: d'])];
    const { outcome } = await read(sse(first), () => sse(second));
    const bytes = [...first, ...second].join('').length;
    expect(outcome).toMatchObject({ kind: 'answer', progress: { bytesRead: bytes, events: 4, messages: 2, lastEventId: 'd' } });
  });
});

describe('what is not resumed', () => {
  test('resume: false gives the first body\'s outcome, nothing sent', async () => {
    const { outcome, sent } = await read(sse([priming('a')]), () => sse([sseEvent(ANSWER)]), { resume: false });
    expect(failureOf(outcome)).toMatchObject({ code: 'malformed_answer', reason: 'no_message' });
    expect(written(failureOf(outcome).message)).not.toMatch(/resumption/);
    expect(sent).toEqual([]);
  });

  test('a JSON body without the answer', async () => {
    const { outcome, sent } = await read(json(NOTE), () => sse([sseEvent(ANSWER)]));
    expect(failureOf(outcome)).toMatchObject({ code: 'malformed_answer', reason: 'no_response' });
    expect(sent).toEqual([]);
  });

  test('a stream with no event id', async () => {
    const { outcome, sent } = await read(sse([sseEvent(NOTE)]), () => sse([sseEvent(ANSWER)]));
    expect(failureOf(outcome).reason).toBe('no_response');
    expect(sent).toEqual([]);
  });

  test('a first body past the cap: budget_exceeded as it was, nothing sent', async () => {
    const first = priming('a');
    const { outcome, sent } = await read(sse([first, sseEvent(NOTE)]), () => sse([sseEvent(ANSWER)]), { maxBytes: first.length + 5 });
    expect(failureOf(outcome).code).toBe('budget_exceeded');
    expect(written(failureOf(outcome).message)).not.toMatch(/resum/);
    expect(sent).toEqual([]);
  });
});

describe('how a resumption ends', () => {
  test(`after ${MAX_RESUMPTIONS_WITHOUT_PROGRESS} resumptions that bring no new event id: gave up, the counts over every body`, async () => {
    const first = priming('a');
    const { outcome, sent } = await read(sse([first, sseEvent(NOTE)]), () => sse([': nothing\n\n']));
    const failure = failureOf(outcome);
    expect(sent).toHaveLength(3);
    expect(written(failure.message)).toMatch(/ \(gave up: no new event id after 3 resumptions\)$/);
    expect(failure).toMatchObject({ code: 'malformed_answer', reason: 'no_response' });
    expect(failure.detail).toMatchObject({ bytesRead: (first + sseEvent(NOTE)).length + 3 * ': nothing\n\n'.length, events: 2, messages: 1, maxBytes: 10_000 });
  });

  test('a GET refused after one resumption: said, with the totals; the reason no_response once any message came', async () => {
    const { outcome } = await read(sse([priming('a'), sseEvent(NOTE, ['id: b'])]), (_, i) => (i === 0 ? sse([priming('c')]) : empty(404)));
    const failure = failureOf(outcome);
    expect(written(failure.message)).toMatch(/ \(the server refused to resume the stream after 1 resumption\)$/);
    expect(failure.reason).toBe('no_response');
    expect(failure.detail).toMatchObject({ events: 3, messages: 1, lastEventId: 'c' });
  });

  test('the first GET refused (a 405, a body that is not an event stream, a GET that fails): the first failure as it was', async () => {
    for (const refuse of [() => empty(405), () => json(ANSWER), () => Promise.reject(new TypeError('fetch failed'))]) {
      const { outcome, sent } = await read(sse([priming('a')]), refuse);
      expect(sent).toHaveLength(1);
      const failure = failureOf(outcome);
      expect([failure.code, failure.reason, failure.detail.lastEventId]).toEqual(['malformed_answer', 'no_message', 'a']);
      expect(written(failure.message)).not.toMatch(/resum/);
    }
  });

  test.each([401, 403])('a %i to the GET ends the exchange: http_status, said to be the GET\'s', async (status) => {
    const refused = respond(['{}'], { status });
    const { outcome } = await read(sse([priming('a')]), () => refused.response);
    const failure = failureOf(outcome);
    expect([failure.code, failure.detail.status]).toEqual(['http_status', status]);
    expect(written(failure.message)).toBe(`the server answered HTTP ${status} to the GET that resumes the stream`);
    expect(await refused.source.released).toBe('cancelled');
  });

  test('a resumed body that ends otherwise (past the cap): ended, the cap the caller set named', async () => {
    const first = priming('a');
    const { outcome } = await read(sse([first]), () => sse([sseEvent({ ...ANSWER, result: { text: 'x'.repeat(200) } })]), { maxBytes: first.length + 50 });
    const failure = failureOf(outcome);
    expect(failure.code).toBe('budget_exceeded');
    expect(written(failure.message)).toBe(`the answer's bodies went past maxBytes (${first.length + 50} bytes) before the answer was complete (ended after 1 resumption)`);
    expect(failure.detail.maxBytes).toBe(first.length + 50);
  });

  test('a stream that breaks after an event id is resumed', async () => {
    const broken = respond([priming('a')], { contentType: 'text/event-stream', errorAfter: 1 }).response;
    const { outcome, sent } = await read(broken, () => sse([sseEvent(ANSWER)]));
    expect(outcome.kind).toBe('answer');
    expect(sent[0]!.headers.get('last-event-id')).toBe('a');
  });

  test('an abort during the wait: aborted, with the counts so far, nothing sent', async () => {
    const controller = new AbortController();
    const first = priming('a', 60_000);
    const pending = read(sse([first]), () => sse([sseEvent(ANSWER)]), { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop')), 5);
    const { outcome, sent } = await pending;
    const failure = failureOf(outcome);
    expect([failure.code, failure.detail.bytesRead, failure.detail.lastEventId, outcome.format]).toEqual(['aborted', first.length, 'a', 'event-stream']);
    expect(sent).toEqual([]);
  });
});

describe('the wait before each GET', () => {
  /** Starts a resumable read of `first` under fake timers; the GETs are recorded as they go. */
  function started(first: Response, gets: Script) {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { fetch, sent } = scriptedFetch(gets);
    const route: AuthorizedRoute = { fetch, url: URL_, signal: new AbortController().signal, redirect: 'same-origin', detail: nothingRead(1000), authProvider: undefined, secrets: new Secrets() };
    const pending = readResumable(first, { route, headers: new Headers(), requestId: 5, maxBytes: 1000, onMessage: undefined, resume: true });
    return { pending, sent };
  }

  test("the stream's retry, and the same again for a resumed body that sets none", async () => {
    const { pending, sent } = started(sse([priming('a', 300)]), (_, i) => (i === 0 ? sse(['id: b\ndata:\n\n']) : sse([sseEvent(ANSWER)])));
    await vi.advanceTimersByTimeAsync(299);
    expect(sent).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(299);
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toHaveLength(2);
    expect((await pending).kind).toBe('answer');
  });

  test('1 s when the stream set no retry', async () => {
    expect(DEFAULT_RETRY_MS).toBe(1000);
    const { pending, sent } = started(sse(['id: a\ndata:\n\n']), () => sse([sseEvent(ANSWER)]));
    await vi.advanceTimersByTimeAsync(999);
    expect(sent).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).kind).toBe('answer');
    expect(sent).toHaveLength(1);
  });
});

describe('lastEventIdHeader', () => {
  test.each([
    ['plain', 'plain'],
    ['a b', 'a b'],
    ['été', '\u00c3\u00a9t\u00c3\u00a9'],
    ['🚀', '\u00f0\u009f\u009a\u0080'],
  ])('%j goes back as its UTF-8 bytes, one character each', (id, header) => {
    expect(lastEventIdHeader(id)).toBe(header);
  });

  test.each([' a', 'a ', '\ta', 'a\t'])('%j cannot be carried unchanged: undefined', (id) => {
    expect(lastEventIdHeader(id)).toBeUndefined();
  });
});

describe('endedEarly: a response that broke, or an event stream that ended without the answer', () => {
  const read = (code: Failure['code'], format: AnswerFormat, reason?: Failure['reason']): Extract<ReadOutcome, { kind: 'failed' }> => ({
    kind: 'failed',
    failure: { code, message: [], detail: nothingRead(0), reason },
    format,
  });

  test('an event stream ended with no_message or no_response, or any body that broke; nothing else', () => {
    expect(endedEarly(read('malformed_answer', 'event-stream', 'no_message'))).toBe(true);
    expect(endedEarly(read('malformed_answer', 'event-stream', 'no_response'))).toBe(true);
    expect(endedEarly(read('stream_failed', 'event-stream'))).toBe(true);
    expect(endedEarly(read('stream_failed', 'json'))).toBe(true);
    expect(endedEarly(read('malformed_answer', 'json', 'no_message'))).toBe(false);
    expect(endedEarly(read('malformed_answer', 'event-stream', 'invalid_json'))).toBe(false);
    expect(endedEarly(read('budget_exceeded', 'event-stream'))).toBe(false);
    expect(endedEarly(read('aborted', 'event-stream'))).toBe(false);
  });
});
