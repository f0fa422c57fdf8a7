// The answer cases: readAnswer against the official MCP TypeScript SDK's
// StreamableHTTPClientTransport (1.32.2), both given the same in-memory body through a fetch
// function: one transport is created and started per answer, as a client that reads one answer
// per request does, and each side resolves when the answer's message is in hand. And the answer
// reducer against the scanner alone on the same bytes, in 1-byte chunks.
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { answer, answerEnd, answerStart, readAnswer } from '../dist/index.js';
import { pairedCase } from './paired.mjs';
import { readWithScanner } from './readers.mjs';
import { chunked, encode } from './workloads.mjs';

const SSE = { 'content-type': 'text/event-stream' };
const REQUEST = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'read', arguments: {} } };

/** A body that delivers `chunks` as a network read would: one per pull. */
export function bodyOf(chunks) {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]);
      else controller.close();
    },
  });
}

/** The SSE framing the SDK's server uses: `event: message`, one data line, a blank line. */
const frame = (message) => `event: message\ndata: ${JSON.stringify(message)}\n\n`;

let sink = 0;
const consume = (message) => {
  sink += message.id;
};

export async function viaReadAnswer(chunks) {
  const answer = await readAnswer(new Response(bodyOf(chunks), { headers: SSE }), { requestId: 1 });
  consume(answer);
  return answer;
}

export async function viaSdk(chunks) {
  const transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
    fetch: async () => new Response(bodyOf(chunks), { headers: SSE }),
  });
  const answered = new Promise((resolve, reject) => {
    transport.onmessage = (message) => {
      if (message.id === 1 && ('result' in message || 'error' in message)) resolve(message);
    };
    transport.onerror = reject;
  });
  await transport.start();
  await transport.send(REQUEST);
  const answer = await answered;
  consume(answer);
  await transport.close();
  return answer;
}

/** The answer reducer over the chunks, to its outcome. */
export function viaAnswerReducer(chunks) {
  let state = answerStart({ format: 'event-stream', requestId: 1 });
  for (const chunk of chunks) {
    const result = answer(state, chunk);
    if (result.outcome !== undefined) return settle(result.outcome);
    state = result.state;
  }
  return settle(answerEnd(state).outcome);
}

function settle(outcome) {
  if (outcome.kind !== 'answer') throw new Error(`no answer: ${outcome.kind}`);
  consume(outcome.answer);
  return outcome.answer;
}

/** One log notification, then an initialize-sized result (~600 bytes), as one chunk. */
function smallAnswer() {
  const log = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', logger: 'server', data: 'starting' } };
  const result = {
    jsonrpc: '2.0',
    id: 1,
    result: {
      protocolVersion: '2025-11-25',
      capabilities: { logging: {}, prompts: { listChanged: true }, resources: { subscribe: true, listChanged: true }, tools: { listChanged: true } },
      serverInfo: { name: 'example-server', title: 'Example Server', version: '1.0.0' },
      instructions: 'Use the tools to read and search the example corpus. '.repeat(6),
    },
  };
  return [encode(frame(log) + frame(result))];
}

/**
 * 200 progress notifications, then a 1 MiB text tool result, in 16 KiB chunks. `unit` is the
 * result text's repeated unit: without escapes, as base64 is, by default.
 */
function largeAnswer(unit = 'y') {
  let text = '';
  for (let i = 0; i < 200; i++) {
    text += frame({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p1', progress: i, total: 200 } });
  }
  text += frame({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: unit.repeat((1 << 20) / unit.length) }] } });
  return encode(text);
}

/** One text tool result of about `size` bytes, framed as the SDK's server frames it. */
function answerOf(size) {
  return encode(frame({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'z'.repeat(size) }] } }));
}

const SDK = { id: 'sdk', label: 'MCP SDK StreamableHTTPClientTransport 1.32.2' };
const READ_ANSWER = { id: 'readAnswer', label: 'sse-answer readAnswer' };
const total = (chunks) => chunks.reduce((n, c) => n + c.length, 0);

function largeCase(id, title, about, body) {
  return pairedCase({
    id,
    group: 'answer',
    title,
    about,
    bytes: body.length,
    sides: () => {
      const chunks = chunked(body, 16 * 1024);
      return [
        { ...READ_ANSWER, read: () => viaReadAnswer(chunks) },
        { ...SDK, read: () => viaSdk(chunks) },
      ];
    },
    figures: [{ of: 'readAnswer', to: 'sdk', label: 'readAnswer ÷ SDK transport' }],
  });
}

const small = smallAnswer();
const dripBody = answerOf(200_000);

export const cases = [
  pairedCase({
    id: 'answers',
    group: 'answer',
    title: '200 small answers (a log notification and an initialize-sized result)',
    about: 'a client making many short calls: the cost of reading one answer, start to end',
    bytes: 200 * total(small),
    sides: () => [
      { ...READ_ANSWER, read: async () => { for (let i = 0; i < 200; i++) await viaReadAnswer(small); } },
      { ...SDK, read: async () => { for (let i = 0; i < 200; i++) await viaSdk(small); } },
    ],
    figures: [{ of: 'readAnswer', to: 'sdk', label: 'readAnswer ÷ SDK transport' }],
  }),
  largeCase('answer-1mib', 'a 1 MiB result after 200 progress notifications, 16 KiB chunks', 'a large tool result (a file, an image) after a long-running tool reported progress', largeAnswer()),
  largeCase(
    'answer-escaped',
    'the same, its text in 64-character lines',
    'a result text full of JSON escapes (`\\n`), which JSON.parse copies rather than slices (diagnostic)',
    largeAnswer(`${'y'.repeat(63)}\n`),
  ),
  largeCase(
    'answer-cjk',
    'the same, its text in Chinese (1 Mi characters, 3 MiB)',
    'a result text of two-byte characters, among them 小, 就 and 山, one byte of whose code is a backslash (diagnostic)',
    largeAnswer('小说就在山里'),
  ),
  pairedCase({
    id: 'answer-drip',
    group: 'answer',
    title: 'a 200 KB answer, 1-byte chunks',
    about: 'the answer path at the worst split, against the scanner alone on the same bytes: what selecting and parsing add',
    bytes: dripBody.length,
    sides: () => {
      const chunks = chunked(dripBody, 1);
      return [
        { id: 'scanner', label: 'sse-answer scanner alone', read: () => readWithScanner(chunks) },
        { id: 'answer', label: 'sse-answer answer reducer', read: () => viaAnswerReducer(chunks) },
        { ...READ_ANSWER, read: () => viaReadAnswer(chunks) },
        { ...SDK, read: () => viaSdk(chunks) },
      ];
    },
    figures: [
      { of: 'scanner', to: 'answer', label: 'answer reducer time ÷ scanner time' },
      { of: 'readAnswer', to: 'sdk', label: 'readAnswer ÷ SDK transport' },
    ],
  }),
];

/** Keeps the consumers' work observable. */
export const consumedAnswers = () => sink;

