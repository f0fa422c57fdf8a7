import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { describe, expect, test, vi } from 'vitest';
import {
  ACCEPT,
  AnswerError,
  isAnswerError,
  readAnswer,
  readAnswerBody,
  type AnswerDetail,
  type JsonRpcMessage,
} from '../src/index.js';
import {
  ANSWER,
  ANSWER_VALUE,
  answerError,
  chunksOf,
  concat,
  expectReleased,
  jsonResponse,
  nextTurn,
  NOTE,
  NOTE_VALUE,
  rejection,
  responseOf,
  sourceBody,
  sseResponse,
} from './helpers/bodies.js';
import { endlessServer } from './helpers/servers.js';
import { followersOf, listenersOn } from './helpers/signals.js';

/** A tool answer with awkward content: non-ASCII, escapes, integer-like keys, nesting. */
const TOOL_ANSWER_TEXT =
  '{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"héllo \\"quoted\\" \\u2028 \\ud83d\\ude00 \\n"}],' +
  '"structuredContent":{"zeta":1,"alpha":[1.5,-0,1e21,null,true],"10":"ten","2":"two"},"isError":false}}';

describe('ACCEPT', () => {
  test('is the Accept header an MCP client sends', () => {
    expect(ACCEPT).toBe('application/json, text/event-stream');
  });
});

describe('conformance: what the answer is', () => {
  test('an event-stream framed tool answer reads exactly like the same answer as plain JSON', async () => {
    const fromSse = await readAnswer(sseResponse(['event: message\ndata: ' + TOOL_ANSWER_TEXT + '\n\n']).response, { requestId: 3 });
    const fromJson = await readAnswer(jsonResponse([TOOL_ANSWER_TEXT]).response, { requestId: 3 });
    const parsed: unknown = JSON.parse(TOOL_ANSWER_TEXT);
    expect(fromSse).toStrictEqual(parsed);
    expect(fromJson).toStrictEqual(parsed);
    expect(fromSse).toStrictEqual(fromJson);
    expect(JSON.stringify(fromSse)).toBe(JSON.stringify(parsed));
    expect(JSON.stringify(fromJson)).toBe(JSON.stringify(parsed));
    expect(Object.keys(fromSse)).toStrictEqual(['jsonrpc', 'id', 'result']);
  });

  test('the real MCP SDK server transport: SSE and JSON responses read the same', async () => {
    const sse = await sdkToolCall(false);
    const json = await sdkToolCall(true);
    expect(sse.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(json.response.headers.get('content-type')).toMatch(/^application\/json/);
    const seen: JsonRpcMessage[] = [];
    const a = await readAnswer(sse.response, { requestId: 41, onMessage: (m) => seen.push(m) });
    const b = await readAnswer(json.response, { requestId: 41 });
    expect(a).toStrictEqual(b);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(a).toMatchObject({ jsonrpc: '2.0', id: 41, result: { content: [{ type: 'text', text: 'héllo "sdk"' }] } });
    expect(seen).toStrictEqual([
      { method: 'notifications/message', params: { level: 'info', data: 'working' }, jsonrpc: '2.0' },
    ]);
    expect(sse.response.body?.locked ?? false).toBe(false);
    expect(json.response.body?.locked ?? false).toBe(false);
  });

  test('the MCP SDK with resumability: its priming event is passed over', async () => {
    const { response } = await sdkToolCall(false, true);
    const copy = response.clone();
    const seen: JsonRpcMessage[] = [];
    expect(await readAnswer(response, { requestId: 41, onMessage: (m) => seen.push(m) })).toMatchObject({ id: 41, result: {} });
    expect(seen).toHaveLength(1);
    // The SDK did send a priming event (an id and a retry, empty data) first.
    expect(await copy.text()).toMatch(/^id: ev-1\nretry: 2500\ndata: \n\n/);
  });

  test('the official MCP TS SDK shape: event: message, LF line ends, notification first', async () => {
    const body =
      'event: message\ndata: {"method":"notifications/progress","params":{"progressToken":1,"progress":50},"jsonrpc":"2.0"}\n\n' +
      'event: message\ndata: {"result":{"content":[{"type":"text","text":"done"}]},"jsonrpc":"2.0","id":1}\n\n';
    const seen: JsonRpcMessage[] = [];
    const got = await readAnswer(sseResponse([body]).response, { requestId: 1, onMessage: (m) => seen.push(m) });
    expect(got).toStrictEqual({ result: { content: [{ type: 'text', text: 'done' }] }, jsonrpc: '2.0', id: 1 });
    expect(JSON.stringify(got)).toBe('{"result":{"content":[{"type":"text","text":"done"}]},"jsonrpc":"2.0","id":1}');
    expect(seen).toStrictEqual([{ method: 'notifications/progress', params: { progressToken: 1, progress: 50 }, jsonrpc: '2.0' }]);
  });

  test('the HTTP status is not judged: a 400 whose JSON body is a JSON-RPC error resolves with it', async () => {
    const text = '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Bad Request"}}';
    const { response } = jsonResponse([text], { status: 400 });
    expect(response.status).toBe(400);
    expect(await readAnswer(response, { requestId: 5 })).toStrictEqual(JSON.parse(text));
    const sse = sseResponse([ANSWER], { status: 500 });
    expect(await readAnswer(sse.response)).toStrictEqual(ANSWER_VALUE);
  });

  test('a JSON body: one leading BOM is stripped, as Response.json() does', async () => {
    const body = concat([new Uint8Array([0xef, 0xbb, 0xbf]), '{"id":1,"result":"ü"}']);
    const expected: unknown = await new Response(body).json();
    expect(await readAnswer(jsonResponse([body]).response)).toStrictEqual(expected);
    expect(await readAnswer(jsonResponse(chunksOf(body, 1)).response)).toStrictEqual({ id: 1, result: 'ü' });
  });

  test('a large answer (two long strings, one escaped) reads exactly like JSON.parse, from either content type', async () => {
    // Long unescaped strings are slices of the text (src/reducers/parse-json.ts); the value must not show it.
    const image = 'iVBORw0KGgo'.repeat(40_000); // 440,000 characters of base64
    const text = `{"jsonrpc":"2.0","id":9,"result":{"content":[{"type":"image","data":"${image}","mimeType":"image/png"},` +
      `{"type":"text","text":"${'line\\n'.repeat(30_000)}"}],"10":"ten","2":"two"}}`;
    const parsed: unknown = JSON.parse(text);
    const fromSse = await readAnswer(sseResponse(chunksOf(`event: message\ndata: ${text}\n\n`, 16 * 1024)).response, { requestId: 9 });
    const fromJson = await readAnswer(jsonResponse(chunksOf(text, 16 * 1024)).response, { requestId: 9 });
    for (const got of [fromSse, fromJson]) {
      expect(got).toStrictEqual(parsed);
      expect(JSON.stringify(got)).toBe(JSON.stringify(parsed));
      expect(Object.keys((got as { result: object }).result)).toStrictEqual(['2', '10', 'content']);
    }
  });

  test('a JSON batch: the response is found, the messages before it reported in order', async () => {
    const seen: JsonRpcMessage[] = [];
    const got = await readAnswer(jsonResponse(['[{"method":"a"},{"id":"x","result":0},{"id":2,"result":"mine"},{"method":"after"}]']).response, {
      requestId: 2,
      onMessage: (m) => seen.push(m),
    });
    expect(got).toStrictEqual({ id: 2, result: 'mine' });
    expect(seen).toStrictEqual([{ method: 'a' }, { id: 'x', result: 0 }]);
  });
});

describe('conformance: no answer', () => {
  test('a stream with no message (only comments and priming) is no_message', async () => {
    const { response, source } = sseResponse([': hello\n\n', 'id: 1\ndata:\n\n', ':\n', 'data:\n\n', 'event: ping\n\n']);
    const err = await answerError(readAnswer(response));
    expect(err.code).toBe('malformed_answer');
    expect(err.reason).toBe('no_message');
    expect(err.detail.events).toBe(2);
    expect(err.detail.messages).toBe(0);
    await expectReleased(source, response);
  });

  test('a stream carrying only a priming event is no_message, with its last event id and retry', async () => {
    const { response } = sseResponse(['id: abc\nretry: 3000\ndata:\n\n']);
    const err = await answerError(readAnswer(response));
    expect(err.code).toBe('malformed_answer');
    expect(err.reason).toBe('no_message');
    expect(err.detail.lastEventId).toBe('abc');
    expect(err.detail.retry).toBe(3000);
    expect(err.detail.events).toBe(1);
    expect(err.message).toContain('abc');
  });

  test('a stream carrying only a server notification is no_response', async () => {
    const seen: JsonRpcMessage[] = [];
    const err = await answerError(readAnswer(sseResponse([NOTE]).response, { onMessage: (m) => seen.push(m) }));
    expect(err.code).toBe('malformed_answer');
    expect(err.reason).toBe('no_response');
    expect(err.detail.messages).toBe(1);
    expect(seen).toStrictEqual([NOTE_VALUE]);
  });

  test('a stream carrying only a response to another request is no_response', async () => {
    const err = await answerError(readAnswer(sseResponse([ANSWER]).response, { requestId: '1' }));
    expect(err.reason).toBe('no_response');
  });

  test('non-JSON and non-message data is no_message, not invalid_json', async () => {
    const err = await answerError(readAnswer(sseResponse(['data: {oops\n\n', 'data: {"a":1}\n\n', 'data: 12\n\n']).response));
    expect(err.reason).toBe('no_message');
    expect(err.detail.ignored).toBe(3);
  });

  test('an empty body of either type is no_message', async () => {
    for (const make of [sseResponse, jsonResponse]) {
      const { response, source } = make([]);
      const err = await answerError(readAnswer(response));
      expect(err.code).toBe('malformed_answer');
      expect(err.reason).toBe('no_message');
      expect(err.detail.bytesRead).toBe(0);
      await expectReleased(source, response);
    }
    for (const type of ['text/event-stream', 'application/json']) {
      const err = await answerError(readAnswer(new Response(null, { headers: { 'content-type': type } })));
      expect(err.reason).toBe('no_message');
    }
  });

  test('unparsable JSON is malformed_answer invalid_json, with the parse error as cause', async () => {
    const { response, source } = jsonResponse(['{"id":1,', '"result":']);
    const err = await answerError(readAnswer(response));
    expect(err.code).toBe('malformed_answer');
    expect(err.reason).toBe('invalid_json');
    expect(err.cause).toBeInstanceOf(SyntaxError);
    expect(err.detail).toStrictEqual<AnswerDetail>({
      contentType: 'application/json',
      bytesRead: 17,
      maxBytes: 16777216,
      events: 0,
      messages: 0,
      ignored: 0,
      lastEventId: '',
      retry: undefined,
    });
    await expectReleased(source, response);
  });

  test('a JSON body that is a lone notification is no_response; a non-message is no_message', async () => {
    expect((await answerError(readAnswer(jsonResponse(['{"method":"x"}']).response))).reason).toBe('no_response');
    expect((await answerError(readAnswer(jsonResponse(['{"id":1}']).response))).reason).toBe('no_message');
  });
});

describe('conformance: framing', () => {
  const frames: [string, string][] = [
    ['multi-line data joins with LF', 'data: {"jsonrpc":"2.0",\ndata: "id":1,"result":{"ok":true}}\n\n'],
    ['CRLF line ends', 'data: {"jsonrpc":"2.0","id":1,"result":{"ok":true}}\r\n\r\n'],
    ['CR-only line ends', 'data: {"jsonrpc":"2.0",\rdata: "id":1,"result":{"ok":true}}\r\r'],
    ['mixed line ends', 'data: {"jsonrpc":"2.0",\r\ndata: "id":1,\rdata:"result":{"ok":true}}\n\r\n'],
    ['event of any type', 'event: weird\ndata: {"jsonrpc":"2.0","id":1,"result":{"ok":true}}\n\n'],
    ['id, retry and comment lines', ': comment\nid: 42\nretry: 10\n:another\ndata: {"jsonrpc":"2.0","id":1,"result":{"ok":true}}\nfoo: bar\n\n'],
    ['no space after the colon', 'data:{"jsonrpc":"2.0","id":1,"result":{"ok":true}}\n\n'],
    ['a leading BOM', '\uFEFFdata: {"jsonrpc":"2.0","id":1,"result":{"ok":true}}\n\n'],
    ['priming and comments first', 'id: p\ndata:\n\n: keepalive\n\n' + ANSWER],
    ['the final event without its blank line', 'data: {"jsonrpc":"2.0","id":1,"result":{"ok":true}}'],
    ['the final event with one LF', 'data: {"jsonrpc":"2.0","id":1,"result":{"ok":true}}\n'],
  ];

  test.each(frames)('%s', async (_name, body) => {
    for (const chunks of [[body], chunksOf(body, 1), chunksOf(body, 7)]) {
      const { response, source } = sseResponse(chunks);
      const got = await readAnswer(response, { requestId: 1 });
      expect(got).toStrictEqual(ANSWER_VALUE);
      expect(JSON.stringify(got)).toBe(JSON.stringify(ANSWER_VALUE));
      await expectReleased(source, response);
    }
  });

  test('field lines carry nothing read: a retry/id/event after the answer data does not change it', async () => {
    const got = await readAnswer(sseResponse(['data: {"id":1,"result":"x"}\nid: 9\nevent: other\nretry: 1\n\n']).response);
    expect(got).toStrictEqual({ id: 1, result: 'x' });
  });

  test('notifications are passed over and reported to onMessage in order', async () => {
    const seen: JsonRpcMessage[] = [];
    const body = [
      'data: {"method":"n/1"}\n\n',
      ': comment\n\n',
      'event: weird\ndata: {"method":"sampling/createMessage","id":"s1","params":{}}\n\n',
      'data: not json\n\n',
      'data: {"id":2,"result":"someone else"}\n\n',
      'data: [{"method":"n/2"},{"hello":1},{"method":"n/3"}]\n\n',
      'data: {"id":1,"method":"x","result":"carries method"}\n\n',
      'data: {"id":1,"result":"mine"}\n\n',
      'data: {"method":"n/after"}\n\n',
    ].join('');
    const got = await readAnswer(sseResponse(chunksOf(body, 13)).response, { requestId: 1, onMessage: (m) => seen.push(m) });
    expect(got).toStrictEqual({ id: 1, result: 'mine' });
    expect(seen).toStrictEqual([
      { method: 'n/1' },
      { method: 'sampling/createMessage', id: 's1', params: {} },
      { id: 2, result: 'someone else' },
      { method: 'n/2' },
      { method: 'n/3' },
      { id: 1, method: 'x', result: 'carries method' },
    ]);
  });

  test('onMessage is called as each message arrives, before the next chunk is pulled', async () => {
    const pullsAtCall: number[] = [];
    const { response, source } = sseResponse(['data: {"method":"a"}\n\n', ': nothing\n\n', 'data: {"method":"b"}\n', '\n', ANSWER]);
    await readAnswer(response, { onMessage: () => pullsAtCall.push(source.pulls) });
    expect(pullsAtCall).toStrictEqual([1, 4]);
  });

  test('onMessage is called synchronously, before readAnswer settles, and its return value is ignored', async () => {
    const order: string[] = [];
    const p = readAnswer(sseResponse([NOTE + ANSWER]).response, {
      onMessage: () => {
        order.push('message');
        return Promise.reject(new Error('never awaited')).catch(() => {}) as unknown as void;
      },
    });
    const got = await p;
    order.push('settled');
    expect(got).toStrictEqual(ANSWER_VALUE);
    expect(order).toStrictEqual(['message', 'settled']);
  });

  test('ids compare strictly; an error with id null answers', async () => {
    const body = 'data: {"id":"1","result":"string id"}\n\ndata: {"id":null,"error":{"code":-32700,"message":"Parse error"}}\n\n';
    const seen: JsonRpcMessage[] = [];
    const got = await readAnswer(sseResponse([body]).response, { requestId: 1, onMessage: (m) => seen.push(m) });
    expect(got).toStrictEqual({ id: null, error: { code: -32700, message: 'Parse error' } });
    expect(seen).toStrictEqual([{ id: '1', result: 'string id' }]);
  });
});

describe('content type', () => {
  test.each([
    ['text/event-stream', 'sse'],
    ['TEXT/EVENT-STREAM', 'sse'],
    ['text/event-stream; charset=utf-8', 'sse'],
    ['Text/Event-Stream ;charset="utf-8"', 'sse'],
    ['application/json', 'json'],
    ['Application/JSON; charset=UTF-8', 'json'],
    ['application/json;profile="x,y"', 'json'],
    [' \ttext/event-stream\t ', 'sse'],
    ['text/event-stream \t;charset=utf-8', 'sse'],
    ['text/html, text/event-stream', 'sse'],
  ])('%j is read as %s', async (contentType, kind) => {
    // A body that only the named format can read: as JSON it is invalid, as SSE it has no data.
    const body = kind === 'sse' ? ANSWER : JSON.stringify(ANSWER_VALUE);
    const { response, source } = responseOf(sourceBody([body]), contentType);
    expect(await readAnswer(response)).toStrictEqual(ANSWER_VALUE);
    await expectReleased(source, response);
  });

  test.each([['text/plain'], ['text/html; charset=utf-8'], ['application/jsonl'], ['text/event-streams'], ['application/vnd.api+json'], ['json'], ['']])(
    '%j is unsupported_content_type, and the body is not read but cancelled',
    async (contentType) => {
      const { response, source } = responseOf(sourceBody([ANSWER], { endless: true }), contentType);
      await nextTurn(); // the stream has started: a read now would pull at once
      const err = await answerError(readAnswer(response));
      expect(err.code).toBe('unsupported_content_type');
      expect(err.reason).toBeUndefined();
      expect(err.message).toContain(JSON.stringify(contentType));
      expect(err.message).toContain('application/json');
      expect(err.message).toContain('text/event-stream');
      expect(err.detail.contentType).toBe(contentType);
      expect(err.detail.bytesRead).toBe(0);
      expect(source.pulls).toBe(0);
      expect(source.delivered).toBe(0);
      expect(await expectReleased(source, response)).toBe('cancelled');
    },
  );

  test('no content type at all is unsupported_content_type; the body is not read but cancelled', async () => {
    const { response, source } = responseOf(sourceBody([ANSWER]), null);
    expect(response.headers.get('content-type')).toBeNull();
    await nextTurn();
    const err = await answerError(readAnswer(response));
    expect(err.code).toBe('unsupported_content_type');
    expect(err.message).toContain('no content type');
    expect(err.message).toContain('application/json');
    expect(err.message).toContain('text/event-stream');
    expect(err.detail.contentType).toBeNull();
    expect(source.pulls).toBe(0);
    expect(await expectReleased(source, response)).toBe('cancelled');
  });
});

describe('release on every exit path', () => {
  test('answered early: resolves once the answer event is complete and cancels the rest', async () => {
    const { response, source } = sseResponse([NOTE, ANSWER, NOTE, NOTE]);
    expect(await readAnswer(response)).toStrictEqual(ANSWER_VALUE);
    expect(source.pulls).toBe(2);
    expect(await expectReleased(source, response)).toBe('cancelled');
  });

  test('a stream that never ends after the answer: readAnswer still resolves', async () => {
    for (const endless of [true, 'heartbeat'] as const) {
      for (const chunks of [[ANSWER], chunksOf(ANSWER, 4), ['data: {"jsonrpc":"2.0","id":1,"result":{"ok":true}}\n', '\n']]) {
        const { response, source } = sseResponse(chunks, { endless });
        expect(await readAnswer(response)).toStrictEqual(ANSWER_VALUE);
        expect(source.cancelled).toBe(true);
        expect(await expectReleased(source, response)).toBe('cancelled');
      }
    }
  });

  test('an answer event waits for its blank line: a never-ending stream without it is waited on until the signal', async () => {
    const { response, source } = sseResponse(['data: {"jsonrpc":"2.0","id":1,"result":{"ok":true}}\n'], { endless: true });
    const err = await answerError(readAnswer(response, { signal: AbortSignal.timeout(30) }));
    expect(err.code).toBe('timeout');
    expect(await expectReleased(source, response)).toBe('cancelled');
  });

  test('ended normally: the body is read to its end', async () => {
    const { response, source } = sseResponse([NOTE, 'data: {"jsonrpc":"2.0","id":1,"result":{"ok":true}}']);
    expect(await readAnswer(response)).toStrictEqual(ANSWER_VALUE);
    expect(source.cancelled).toBe(false);
    expect(await expectReleased(source, response)).toBe('closed');
    const json = jsonResponse(chunksOf(JSON.stringify(ANSWER_VALUE), 5));
    expect(await readAnswer(json.response)).toStrictEqual(ANSWER_VALUE);
    expect(await expectReleased(json.source, json.response)).toBe('closed');
  });

  test('over budget (event-stream): budget_exceeded, detail filled in, body cancelled', async () => {
    const { response, source } = sseResponse([NOTE, ANSWER, NOTE], { endless: true });
    const maxBytes = NOTE.length + ANSWER.length - 1;
    const err = await answerError(readAnswer(response, { maxBytes }));
    expect(err.code).toBe('budget_exceeded');
    expect(err.reason).toBeUndefined();
    expect(err.message).toContain(String(maxBytes));
    expect(err.detail).toStrictEqual<AnswerDetail>({
      contentType: 'text/event-stream',
      bytesRead: NOTE.length + ANSWER.length,
      maxBytes,
      events: 1,
      messages: 1,
      ignored: 0,
      lastEventId: '',
      retry: undefined,
    });
    expect(source.pulls).toBe(2);
    expect(await expectReleased(source, response)).toBe('cancelled');
  });

  test('over budget: the cap between the two newlines of a complete-looking event is budget_exceeded', async () => {
    const body = 'data: {"id":1,"result":1}\n\n';
    const { response, source } = sseResponse([body]);
    const err = await answerError(readAnswer(response, { maxBytes: body.length - 1 }));
    expect(err.code).toBe('budget_exceeded');
    expect(err.detail.events).toBe(0);
    await expectReleased(source, response);
    expect(await readAnswer(sseResponse([body]).response, { maxBytes: body.length })).toStrictEqual({ id: 1, result: 1 });
  });

  test('over budget (json): budget_exceeded, body cancelled', async () => {
    const text = JSON.stringify(ANSWER_VALUE);
    const { response, source } = jsonResponse([text.slice(0, 10), text.slice(10)], { endless: true });
    const err = await answerError(readAnswer(response, { maxBytes: text.length - 1 }));
    expect(err.code).toBe('budget_exceeded');
    expect(err.detail.bytesRead).toBe(text.length);
    expect(await expectReleased(source, response)).toBe('cancelled');
    expect(await readAnswer(jsonResponse([text]).response, { maxBytes: text.length })).toStrictEqual(ANSWER_VALUE);
  });

  test('an answer completed within the cap is returned even if the body goes on past it', async () => {
    const { response, source } = sseResponse([ANSWER + 'data: ' + 'x'.repeat(1000) + '\n\n']);
    expect(await readAnswer(response, { maxBytes: ANSWER.length + 1 })).toStrictEqual(ANSWER_VALUE);
    await expectReleased(source, response);
  });

  test('the default cap is 16 MiB: a body of exactly 16 MiB passes, one more byte does not', async () => {
    const pad = (n: number) => ':' + ' '.repeat(n - 2) + '\n';
    const exact = concat([pad(16 * 1024 * 1024 - ANSWER.length), ANSWER]);
    expect(exact.length).toBe(16777216);
    expect(await readAnswer(sseResponse([exact]).response)).toStrictEqual(ANSWER_VALUE);
    const over = concat([pad(16 * 1024 * 1024 - ANSWER.length + 1), ANSWER]);
    const err = await answerError(readAnswer(sseResponse([over]).response));
    expect(err.code).toBe('budget_exceeded');
    expect(err.detail.maxBytes).toBe(16777216);
    expect(await readAnswer(sseResponse([over]).response, { maxBytes: Infinity })).toStrictEqual(ANSWER_VALUE);
  });

  test('aborted while reading: code aborted, cause the abort reason, body cancelled with it', async () => {
    const controller = new AbortController();
    const { response, source } = sseResponse(['id: 5\n' + NOTE], { endless: true });
    const p = readAnswer(response, { signal: controller.signal });
    await vi.waitFor(() => expect(source.pulls).toBe(2)); // the note read, the next read pending
    const reason = new Error('user cancelled');
    controller.abort(reason);
    const err = await answerError(p);
    expect(err.code).toBe('aborted');
    expect(err.cause).toBe(reason);
    expect(err.message).toContain('user cancelled');
    expect(err.detail).toMatchObject({ messages: 1, events: 1, lastEventId: '5', bytesRead: 'id: 5\n'.length + NOTE.length });
    expect(await expectReleased(source, response)).toBe('cancelled');
    expect(source.cancelReason).toBe(reason);
  });

  test('aborted with the default reason is aborted, not timeout', async () => {
    const controller = new AbortController();
    const { response, source } = sseResponse([], { endless: true });
    const p = readAnswer(response, { signal: controller.signal });
    await vi.waitFor(() => expect(source.pulls).toBe(1));
    controller.abort();
    const err = await answerError(p);
    expect(err.code).toBe('aborted');
    expect((err.cause as Error).name).toBe('AbortError');
    await expectReleased(source, response);
  });

  test.each([
    ['an event stream', sseResponse, ': waiting\n\n', 'text/event-stream'],
    ['a JSON body', jsonResponse, '{"id":1,', 'application/json'],
  ])('timed out (AbortSignal.timeout) on %s that never ends: code timeout, cause a TimeoutError, body cancelled', async (_name, make, head, contentType) => {
    const { response, source } = make([head], { endless: true });
    const err = await answerError(readAnswer(response, { signal: AbortSignal.timeout(20) }));
    expect(err.code).toBe('timeout');
    expect(err.reason).toBeUndefined();
    expect((err.cause as Error).name).toBe('TimeoutError');
    expect(err.detail.contentType).toBe(contentType);
    expect(err.detail.bytesRead).toBe(head.length);
    expect(await expectReleased(source, response)).toBe('cancelled');
  });

  test('an already-aborted signal rejects at once and cancels the unread body', async () => {
    const reason = new Error('gone');
    const { response, source } = sseResponse([ANSWER]);
    await nextTurn();
    const err = await answerError(readAnswer(response, { signal: AbortSignal.abort(reason) }));
    expect(err.code).toBe('aborted');
    expect(err.cause).toBe(reason);
    expect(source.pulls).toBe(0);
    expect(await expectReleased(source, response)).toBe('cancelled');

    const timedOut = sseResponse([ANSWER]);
    const err2 = await answerError(readAnswer(timedOut.response, { signal: AbortSignal.abort(new DOMException('late', 'TimeoutError')) }));
    expect(err2.code).toBe('timeout');
    await expectReleased(timedOut.source, timedOut.response);
  });

  test.each([
    ['an Error (event stream)', () => sseResponse([NOTE, ANSWER], { endless: true }), new Error('handler failed'), 1, 'cancelled'],
    ['a non-Error (JSON batch)', () => jsonResponse(['[{"method":"a"},{"id":1,"result":1}]']), { not: 'an error' }, 2, 'closed'],
  ] as const)('onMessage throws %s: rejects with that same value, body released', async (_name, make, thrown, pulls, released) => {
    const { response, source } = make();
    const error = await rejection(
      readAnswer(response, {
        onMessage: () => {
          throw thrown;
        },
      }),
    );
    expect(error).toBe(thrown);
    expect(isAnswerError(error)).toBe(false);
    expect(source.pulls).toBe(pulls);
    expect(await expectReleased(source, response)).toBe(released);
    if (released === 'cancelled') expect(source.cancelReason).toBe(thrown);
  });

  test('a body that errors mid-stream: stream_failed, cause the stream error', async () => {
    const streamError = new TypeError('connection reset');
    const { response, source } = sseResponse([NOTE, 'data: {"id":1,'], { errorAfter: 2, error: streamError });
    const err = await answerError(readAnswer(response));
    expect(err.code).toBe('stream_failed');
    expect(err.cause).toBe(streamError);
    expect(err.message).toContain('connection reset');
    expect(err.detail.messages).toBe(1);
    expect(err.detail.bytesRead).toBe(NOTE.length + 'data: {"id":1,'.length);
    expect(await expectReleased(source, response)).toBe('errored');

    const json = jsonResponse([], { errorAfter: 0, error: 'a string reason' });
    const err2 = await answerError(readAnswer(json.response));
    expect(err2.code).toBe('stream_failed');
    expect(err2.cause).toBe('a string reason');
    await expectReleased(json.source, json.response);
  });

  test('a source whose cancel hangs or fails does not hold the answer', async () => {
    for (const cancel of ['hang', 'reject'] as const) {
      const { response, source } = sseResponse([ANSWER], { endless: true, cancel });
      expect(await readAnswer(response)).toStrictEqual(ANSWER_VALUE);
      expect(source.cancelled).toBe(true);
      expect(response.body?.locked).toBe(false);
    }
  });
});

describe('over real HTTP (node:http server, fetch client)', () => {
  test.each([
    ['a never-ending SSE answer resolves', 'text/event-stream', NOTE + ANSWER],
    ['an unsupported content type is refused', 'text/html; charset=utf-8', '<html>'],
  ])('%s, and the server sees the connection closed', async (_name, contentType, head) => {
    const server = await endlessServer(contentType, head);
    try {
      const response = await fetch(server.url, { method: 'POST', headers: { accept: ACCEPT }, body: '{}' });
      const seen: JsonRpcMessage[] = [];
      if (contentType === 'text/event-stream') {
        expect(await readAnswer(response, { onMessage: (m) => seen.push(m) })).toStrictEqual(ANSWER_VALUE);
        expect(seen).toStrictEqual([NOTE_VALUE]);
      } else {
        const err = await answerError(readAnswer(response));
        expect(err.code).toBe('unsupported_content_type');
        expect(err.message).toContain(contentType);
      }
      expect(response.body?.locked).toBe(false);
      await server.closed; // would never settle if the body were still held
    } finally {
      await server.stop();
    }
  });
});

describe('arguments: every option is checked before the body is touched', () => {
  /** A fake signal whose addEventListener throws. */
  const throwingListener = { aborted: false, reason: undefined, addEventListener: () => { throw new Error('no'); }, removeEventListener: () => {} };
  const badOptions: [string, object, ErrorConstructor, string][] = [
    ['maxBytes a string', { maxBytes: '1024' }, TypeError, 'maxBytes'],
    ['maxBytes null', { maxBytes: null }, TypeError, 'maxBytes'],
    ['maxBytes negative', { maxBytes: -1 }, RangeError, 'maxBytes'],
    ['maxBytes fractional', { maxBytes: 1.5 }, RangeError, 'maxBytes'],
    ['maxBytes NaN', { maxBytes: NaN }, RangeError, 'maxBytes'],
    ['maxBytes -Infinity', { maxBytes: -Infinity }, RangeError, 'maxBytes'],
    ['requestId an object', { requestId: {} }, TypeError, 'requestId'],
    ['requestId a boolean', { requestId: true }, TypeError, 'requestId'],
    ['requestId NaN', { requestId: NaN }, RangeError, 'requestId'],
    ['requestId Infinity', { requestId: Infinity }, RangeError, 'requestId'],
    ['signal a plain object', { signal: {} }, TypeError, 'signal'],
    ['signal with only addEventListener', { signal: { addEventListener: () => {} } }, TypeError, 'signal'],
    ['signal whose addEventListener throws', { signal: throwingListener }, TypeError, 'signal'],
    ['signal made from the AbortSignal prototype', { signal: Object.create(AbortSignal.prototype) as object }, TypeError, 'signal'],
    ['signal an AbortController', { signal: new AbortController() }, TypeError, 'signal'],
    ['onMessage a string', { onMessage: 'x' }, TypeError, 'onMessage'],
  ];

  test.each(badOptions)('%s: an error that names the option, and the body untouched', async (_name, options, type, option) => {
    const { response, source } = sseResponse([ANSWER]);
    await nextTurn();
    const error = await rejection(readAnswer(response, options as never));
    expect(error).toBeInstanceOf(type);
    expect((error as Error).message).toMatch(new RegExp(`^${option} must be`));
    expect(source.pulls).toBe(0);
    expect(source.cancelled).toBe(false);
    expect(response.bodyUsed).toBe(false);
    expect(response.body?.locked).toBe(false);
    expect(await readAnswer(response)).toStrictEqual(ANSWER_VALUE); // still readable
  });

  test.each([[null], ['opts'], [7]])('options %o that are not an object are a TypeError', async (options) => {
    await expect(readAnswer(sseResponse([ANSWER]).response, options as never)).rejects.toThrow(/^options must be an object/);
  });

  test.each([[2 ** 53], [2 ** 53 + 2], [Number.MAX_VALUE], [Infinity]])('any whole number of bytes is a valid maxBytes: %s', async (maxBytes) => {
    const err = await answerError(readAnswer(sseResponse([NOTE]).response, { maxBytes }));
    expect(err.detail.maxBytes).toBe(maxBytes);
    expect(await readAnswer(sseResponse([ANSWER]).response, { maxBytes })).toStrictEqual(ANSWER_VALUE);
  });

  test('maxBytes 0: an empty body passes the cap, any byte exceeds it', async () => {
    expect((await answerError(readAnswer(sseResponse([]).response, { maxBytes: 0 }))).reason).toBe('no_message');
    expect((await answerError(readAnswer(sseResponse([ANSWER]).response, { maxBytes: 0 }))).code).toBe('budget_exceeded');
  });

  test('a real signal whose own addEventListener was replaced still works: the platform\'s is used', async () => {
    const controller = new AbortController();
    Object.assign(controller.signal, {
      addEventListener: () => {
        throw new Error('replaced');
      },
    });
    expect(await readAnswer(sseResponse([ANSWER]).response, { signal: controller.signal })).toStrictEqual(ANSWER_VALUE);
    const { response, source } = sseResponse([], { endless: true });
    const reading = readAnswer(response, { signal: controller.signal });
    setTimeout(() => controller.abort('stop'), 5);
    expect((await answerError(reading)).code).toBe('aborted');
    expect(await expectReleased(source, response)).toBe('cancelled');
  });

  test('a body already read is a TypeError', async () => {
    const response = new Response('{"result":1}', { headers: { 'content-type': 'application/json' } });
    await response.text();
    await expect(readAnswer(response)).rejects.toThrow(TypeError);
  });

  test('not a Response is a TypeError', async () => {
    await expect(readAnswer({} as Response)).rejects.toThrow(new TypeError('response must be a fetch Response, got [object Object]'));
  });

  test('a Response-like object whose body is not a stream is a TypeError (readAnswerBody reads any body), and the body is left alone', async () => {
    let started = false;
    const body = (async function* () {
      started = true;
      yield new TextEncoder().encode(JSON.stringify(ANSWER_VALUE));
    })();
    const response = { headers: new Headers({ 'content-type': 'application/json' }), bodyUsed: false, body } as unknown as Response;
    await expect(readAnswer(response)).rejects.toThrow(new TypeError('body must be a ReadableStream or null, got [object AsyncGenerator]'));
    expect(started).toBe(false);
    expect(await readAnswerBody(body, 'application/json')).toStrictEqual(ANSWER_VALUE);
  });
});

describe('AnswerError and isAnswerError', () => {
  const detail: AnswerDetail = {
    contentType: null,
    bytesRead: 0,
    maxBytes: 1,
    events: 0,
    messages: 0,
    ignored: 0,
    lastEventId: '',
    retry: undefined,
  };

  test('an AnswerError carries code, reason (malformed only), detail and cause', () => {
    const cause = new Error('c');
    const e = new AnswerError('malformed_answer', 'm', detail, { reason: 'no_response', cause });
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe('AnswerError');
    expect(e.code).toBe('malformed_answer');
    expect(e.reason).toBe('no_response');
    expect(e.detail).toBe(detail);
    expect(e.cause).toBe(cause);
    const plain = new AnswerError('aborted', 'm', detail);
    expect(plain.reason).toBeUndefined();
    expect('cause' in plain).toBe(false);
  });

  test('isAnswerError: an AnswerError, or any object with the brand; not a plain Error', () => {
    expect(isAnswerError(new AnswerError('timeout', 'm', detail))).toBe(true);
    expect(isAnswerError({ [Symbol.for('sse-answer.AnswerError')]: true, code: 'aborted' })).toBe(true);
    expect(isAnswerError(new Error('x'))).toBe(false);
    expect(isAnswerError(Object.assign(new Error('x'), { code: 'aborted', detail }))).toBe(false);
    expect(isAnswerError({ [Symbol.for('sse-answer.AnswerError')]: 'yes' })).toBe(false);
    expect(isAnswerError({ [Symbol('sse-answer.AnswerError')]: true })).toBe(false);
    expect(isAnswerError(null)).toBe(false);
    expect(isAnswerError(undefined)).toBe(false);
    expect(isAnswerError('AnswerError')).toBe(false);
  });
});

/** A tools/call through the MCP SDK's own server transport, answered as SSE or as JSON. */
async function sdkToolCall(enableJsonResponse: boolean, resumable = false): Promise<{ response: Response }> {
  const server = new McpServer({ name: 'test', version: '1.0.0' }, { capabilities: { logging: {} } });
  server.registerTool('echo', { description: 'echo' }, async (extra) => {
    await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data: 'working' } });
    return { content: [{ type: 'text', text: 'héllo "sdk"' }] };
  });
  let n = 0;
  const transport = new WebStandardStreamableHTTPServerTransport(
    resumable
      ? {
          enableJsonResponse,
          eventStore: {
            storeEvent: async () => `ev-${++n}`,
            replayEventsAfter: async () => 'stream',
          },
          retryInterval: 2500,
        }
      : { enableJsonResponse },
  );
  await server.connect(transport);
  const request = new Request('http://localhost/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: ACCEPT,
      'mcp-protocol-version': resumable ? '2025-11-25' : '2025-06-18',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 41, method: 'tools/call', params: { name: 'echo', arguments: {} } }),
  });
  const response = await transport.handleRequest(request);
  return { response };
}

describe('aborting: an abort wins over whatever was read or queued', () => {
  test('a body fetched with the same signal errors with the abort reason first: still aborted/timeout, not stream_failed', async () => {
    for (const [controller, code] of [
      [new AbortController(), 'aborted'],
      [new AbortController(), 'timeout'],
    ] as const) {
      let cancelled = false;
      // As fetch does: the body's stream is errored by the signal, by a listener added before readAnswer's.
      const body = new ReadableStream<Uint8Array>({
        start(stream) {
          controller.signal.addEventListener('abort', () => stream.error(controller.signal.reason));
          stream.enqueue(new TextEncoder().encode(': keep-alive\n\n'));
        },
        cancel() {
          cancelled = true;
        },
      });
      const response = new Response(body, { headers: { 'content-type': 'text/event-stream' } });
      const reading = readAnswer(response, { signal: controller.signal });
      setTimeout(() => controller.abort(code === 'timeout' ? new DOMException('too slow', 'TimeoutError') : 'stop'), 5);
      const err = await answerError(reading);
      expect(err.code).toBe(code);
      expect(err.cause).toBe(controller.signal.reason);
      expect(response.body?.locked).toBe(false);
      expect(cancelled).toBe(false); // errored by its source, so there was nothing to cancel
    }
  });

  test('an abort from onMessage stops reading even when the answer is already queued', async () => {
    const controller = new AbortController();
    const { response, source } = sseResponse([NOTE, ANSWER]);
    const err = await answerError(readAnswer(response, { signal: controller.signal, onMessage: () => controller.abort('enough') }));
    expect(err.code).toBe('aborted');
    expect(err.cause).toBe('enough');
    expect(source.pulls).toBe(1);
    expect(await expectReleased(source, response)).toBe('cancelled');
    expect(source.cancelReason).toBe('enough');
  });

  test('an abort from onMessage for a message in the answer chunk still wins over the answer', async () => {
    const controller = new AbortController();
    const { response, source } = sseResponse([NOTE + ANSWER]);
    const err = await answerError(readAnswer(response, { signal: controller.signal, onMessage: () => controller.abort('enough') }));
    expect(err.code).toBe('aborted');
    expect(await expectReleased(source, response)).toBe('cancelled');
  });

  test.each([
    ['a JSON batch [notification, answer]', () => jsonResponse(['[' + JSON.stringify(NOTE_VALUE) + ',' + JSON.stringify(ANSWER_VALUE) + ']'])],
    ['a final SSE event closed only by the body\'s end', () => sseResponse([NOTE + ANSWER.trimEnd()])],
    ['a JSON batch in 5-byte chunks', () => jsonResponse(chunksOf('[' + JSON.stringify(NOTE_VALUE) + ',' + JSON.stringify(ANSWER_VALUE) + ']', 5))],
  ])('an abort from onMessage at the end of the body wins over the answer: %s', async (_name, make) => {
    const controller = new AbortController();
    const { response, source } = make();
    const seen: JsonRpcMessage[] = [];
    const err = await answerError(
      readAnswer(response, {
        signal: controller.signal,
        onMessage: (m) => {
          seen.push(m);
          controller.abort('enough');
        },
      }),
    );
    expect(err.code).toBe('aborted');
    expect(err.cause).toBe('enough');
    expect(seen).toHaveLength(1);
    await expectReleased(source, response);
  });

  test.each([
    ['a JSON batch', () => jsonResponse(['[{"method":"a"},{"method":"b"},{"method":"c"}]'])],
    ['an SSE chunk of three events', () => sseResponse(['data: {"method":"a"}\n\ndata: {"method":"b"}\n\ndata: {"method":"c"}\n\n'])],
  ])('an abort from onMessage stops the messages still to report (%s)', async (_name, make) => {
    const controller = new AbortController();
    const seen: unknown[] = [];
    const err = await answerError(
      readAnswer(make().response, {
        signal: controller.signal,
        onMessage: (m) => {
          seen.push(m.method);
          controller.abort('enough');
        },
      }),
    );
    expect(err.code).toBe('aborted');
    expect(seen).toStrictEqual(['a']);
  });
});

describe('body faults are stream_failed', () => {
  /** A response over a stream that delivers one chunk of anything; records whether it was cancelled. */
  function oneChunk(chunk: unknown) {
    const record = { cancelled: false };
    const body = new ReadableStream<unknown>({
      pull: (c) => c.enqueue(chunk),
      cancel: () => {
        record.cancelled = true;
      },
    });
    const response = new Response(body as ReadableStream<Uint8Array>, { headers: { 'content-type': 'text/event-stream' } });
    return { response, record };
  }
  const claims = <T extends object>(value: T): T => Object.defineProperty(value, Symbol.toStringTag, { value: 'Uint8Array' });

  test.each([
    ['a string', 'data: {"result":1}\n\n'],
    ['an object that claims to be a Uint8Array', { [Symbol.toStringTag]: 'Uint8Array', length: 3 }],
    ['a DataView that claims to be a Uint8Array', claims(new DataView(new ArrayBuffer(8)))],
    ['a Float64Array that claims to be a Uint8Array', claims(new Float64Array(2))],
    ['a Uint16Array', new Uint16Array(4)],
    ['an ArrayBuffer', new ArrayBuffer(4)],
    ['null', null],
  ])('a chunk that is %s: stream_failed with a TypeError, body cancelled', async (_name, chunk) => {
    const { response, record } = oneChunk(chunk);
    const err = await answerError(readAnswer(response));
    expect(err.code).toBe('stream_failed');
    expect(err.cause).toBeInstanceOf(TypeError);
    expect(err.message).toMatch(/^the response body failed while being read: TypeError: a body chunk must be a Uint8Array, got /);
    expect(record.cancelled).toBe(true);
    expect(response.body?.locked).toBe(false);
  });

  test('a Uint8Array subclass (as Node\'s buffers are) and one from another realm are bytes', async () => {
    class Bytes extends Uint8Array {}
    const sub = oneChunk(Bytes.from(new TextEncoder().encode(ANSWER)));
    expect(await readAnswer(sub.response)).toStrictEqual(ANSWER_VALUE);
    const { runInNewContext } = await import('node:vm');
    const foreign = runInNewContext('new Uint8Array(data)', { data: [...new TextEncoder().encode(ANSWER)] }) as Uint8Array;
    expect(foreign).not.toBeInstanceOf(Uint8Array);
    expect(await readAnswer(oneChunk(foreign).response)).toStrictEqual(ANSWER_VALUE);
  });
});

describe('error messages quote at most a short prefix of a value', () => {
  const HUGE = 'x'.repeat(1 << 20);
  const cases: [string, () => Promise<unknown>][] = [
    ['a 1 MiB string chunk', () => readAnswer(new Response(new ReadableStream({ pull: (c) => c.enqueue(HUGE) }), { headers: { 'content-type': 'text/event-stream' } }))],
    ['a 1 MiB abort reason', () => readAnswer(sseResponse([ANSWER]).response, { signal: AbortSignal.abort(HUGE) })],
    ['a 1 MiB Error reason', () => readAnswer(sseResponse([ANSWER]).response, { signal: AbortSignal.abort(new Error(HUGE)) })],
    ['a source error with a 1 MiB message', () => readAnswer(sseResponse([], { errorAfter: 0, error: new Error(HUGE) }).response)],
    ['a 1 MiB content type', () => readAnswerBody(null, `text/${HUGE}`)],
    ['a 1 MiB last event id', () => readAnswer(sseResponse([`id: ${HUGE}\ndata: x\n\n`]).response)],
    ['a 1 MiB maxBytes string', () => readAnswer(sseResponse([]).response, { maxBytes: HUGE as never })],
    ['a 1 MiB requestId-like string in an object', () => readAnswer(sseResponse([]).response, { requestId: [HUGE] as never })],
  ];

  test.each(cases)('%s', async (_name, read) => {
    const error = await rejection(read());
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message.length).toBeLessThan(300);
    expect((error as Error).message).not.toContain('x'.repeat(100));
  });
});

describe('content type: parsed as Fetch\'s "extract a MIME type", only HTTP whitespace trimmed', () => {
  test.each([
    ['a no-break space before', '\u00a0text/event-stream'],
    ['a no-break space after', 'text/event-stream\u00a0'],
    ['a vertical tab after', 'text/event-stream\u000b'],
    ['a form feed before', '\u000ctext/event-stream'],
    ['a form feed before the parameters', 'text/event-stream\u000c; charset=utf-8'],
    ['an ideographic space', '\u3000application/json'],
    ['a space inside', 'text /event-stream'],
  ])('%s is not a valid MIME type: unsupported_content_type', async (_name, contentType) => {
    const { body, pulls } = sourceBody([ANSWER]);
    const err = await answerError(readAnswerBody(body, contentType));
    expect(err.code).toBe('unsupported_content_type');
    // As received, but a control character (VT, FF) written \uXXXX, as every detail field of the server's text is.
    expect(err.detail.contentType).toBe(contentType.replace(/[\u000b\u000c]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
    expect(pulls).toBe(0);
  });

  test('the same through a Response, where its Headers allow the character', async () => {
    for (const contentType of ['\u00a0text/event-stream', 'text/event-stream\u000b', '\u000ctext/event-stream']) {
      const response = new Response(ANSWER, { headers: { 'content-type': contentType } });
      expect((await answerError(readAnswer(response))).code).toBe('unsupported_content_type');
    }
  });
});

describe('a deadline holds against a source that is always ready', () => {
  /** A body that has a chunk ready at every read and never ends. */
  const alwaysReady = () => sourceBody([], { endless: 'heartbeat' });
  async function* alwaysReadyIterable(): AsyncGenerator<Uint8Array> {
    const beat = new TextEncoder().encode(': ping\n\n');
    for (;;) yield beat;
  }

  test('a web stream with maxBytes Infinity: AbortSignal.timeout ends the read as timeout', async () => {
    const source = alwaysReady();
    const response = new Response(source.body, { headers: { 'content-type': 'text/event-stream' } });
    const err = await answerError(readAnswer(response, { maxBytes: Infinity, signal: AbortSignal.timeout(50) }));
    expect(err.code).toBe('timeout');
    expect(err.detail.bytesRead).toBeGreaterThan(0);
    expect(await expectReleased(source, response)).toBe('cancelled');
  });

  test('an async iterable with maxBytes Infinity: the same', async () => {
    const err = await answerError(readAnswerBody(alwaysReadyIterable(), 'text/event-stream', { maxBytes: Infinity, signal: AbortSignal.timeout(50) }));
    expect(err.code).toBe('timeout');
  });

  test('a JSON body with maxBytes Infinity: the same', async () => {
    const source = sourceBody([], { endless: 'heartbeat' });
    const err = await answerError(readAnswerBody(source.body, 'application/json', { maxBytes: Infinity, signal: AbortSignal.timeout(50) }));
    expect(err.code).toBe('timeout');
    expect(source.cancelled).toBe(true);
  });

  test('the pacing has no cost per chunk: far fewer timers than chunks', async () => {
    const chunks = Array.from({ length: 20_000 }, () => ': x\n\n');
    const timers = vi.spyOn(globalThis, 'setTimeout');
    try {
      const err = await answerError(readAnswer(sseResponse(chunks).response, { signal: new AbortController().signal }));
      expect(err.reason).toBe('no_message');
      expect(err.detail.events).toBe(0);
      expect(timers.mock.calls.length).toBeLessThan(chunks.length / 32);
    } finally {
      timers.mockRestore();
    }
  });
});

describe('one signal shared by many reads', () => {
  test('50 concurrent reads follow it once: no listener on it, one follower, and no MaxListenersExceededWarning', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const controller = new AbortController();
      const reads = Array.from({ length: 50 }, () => sseResponse([NOTE], { endless: true }));
      const pending = reads.map(({ response }) => readAnswer(response, { signal: controller.signal }));
      await vi.waitFor(() => expect(reads.every(({ source }) => source.pulls === 2)).toBe(true));
      expect([listenersOn(controller.signal), followersOf(controller.signal)]).toStrictEqual([0, 1]);
      controller.abort('all done');
      for (const err of await Promise.all(pending.map(answerError))) expect(err.code).toBe('aborted');
      for (const { source, response } of reads) expect(await expectReleased(source, response)).toBe('cancelled');
      expect([listenersOn(controller.signal), followersOf(controller.signal)]).toStrictEqual([0, 1]);
      await nextTurn();
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toStrictEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  test('reads that end before the abort leave nothing on the signal, whichever ends first; later reads reuse its follower', async () => {
    const controller = new AbortController();
    const answered = await Promise.all(Array.from({ length: 20 }, () => readAnswer(sseResponse([NOTE, ANSWER]).response, { signal: controller.signal })));
    expect(answered).toHaveLength(20);
    expect([listenersOn(controller.signal), followersOf(controller.signal)]).toStrictEqual([0, 1]);
    const slow = sseResponse([], { endless: true });
    const waiting = readAnswer(slow.response, { signal: controller.signal });
    expect(await readAnswer(sseResponse([ANSWER]).response, { signal: controller.signal })).toStrictEqual(ANSWER_VALUE);
    await vi.waitFor(() => expect(slow.source.pulls).toBe(1));
    expect([listenersOn(controller.signal), followersOf(controller.signal)]).toStrictEqual([0, 1]);
    controller.abort();
    expect((await answerError(waiting)).code).toBe('aborted');
    expect(listenersOn(controller.signal)).toBe(0);
  });
});
