// readAnswer against the official MCP TypeScript SDK's StreamableHTTPClientTransport (1.32.2),
// both given the same in-memory body through a fetch function: one transport is created and
// started per answer, as a client that reads one answer per request does, and each side resolves
// when the answer's message is in hand. Both read the same pre-encoded chunks.
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readAnswer } from '../dist/index.js';
import { compare, line } from './harness.mjs';
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
const consume = (answer) => {
  sink += answer.id;
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
  return chunked(encode(text), 16 * 1024);
}

export async function run() {
  const results = [];
  console.log('readAnswer vs MCP SDK StreamableHTTPClientTransport 1.32.2 (throughput ratio, higher is better)');
  const small = smallAnswer();
  const twoHundred = async (read) => {
    for (let i = 0; i < 200; i++) await read(small);
  };
  const cases = [
    { name: '200 small answers (log + initialize result)', ours: () => twoHundred(viaReadAnswer), peer: () => twoHundred(viaSdk), target: 5 },
    { name: '1 MiB result after 200 progress, 16 KiB chunks', chunks: largeAnswer(), target: 1.3 },
    // Diagnostic, no target: the same with a text of 64-character lines, so the result string
    // holds escapes and is parsed by JSON.parse as a copy (see src/parse-json.ts).
    { name: 'diagnostic: the same, text with line breaks', chunks: largeAnswer(`${'y'.repeat(63)}\n`) },
  ];
  for (const c of cases) {
    const ours = c.ours ?? (() => viaReadAnswer(c.chunks));
    const peer = c.peer ?? (() => viaSdk(c.chunks));
    const result = await compare(c.name, ours, peer);
    console.log(line(result, c.target));
    if (c.target === undefined) continue;
    results.push({ ...result, target: c.target, met: result.ratio >= c.target });
  }
  if (sink === -1) console.log('');
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
