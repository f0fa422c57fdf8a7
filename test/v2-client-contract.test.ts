// The v2 SDK Client's side of the Transport contract, seen from a structural transport that is
// not the SDK's (what AnswerTransport will be): what connect's server/discover probe makes of
// each kind of failure, and what the Client passes to send() on each era. No HTTP here: a
// scripted in-memory transport answers, and records every send with its options.
import {
  Client,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SUPPORTED_PROTOCOL_VERSIONS,
  UnsupportedProtocolVersionError,
  type JSONRPCMessage,
  type Transport,
  type TransportSendOptions,
  type VersionNegotiationMode,
} from '@modelcontextprotocol/client';
import { describe, expect, test } from 'vitest';
import { eventually } from './helpers/mcp-server.js';

const MODERN = '2026-07-28';

/** What the script answers a request with: a message, a rejection of send(), or nothing. */
type Answer = { readonly result: Record<string, unknown> } | { readonly error: { code: number; message: string; data?: unknown } } | { readonly reject: unknown } | 'hold';

interface Sent {
  readonly message: JSONRPCMessage & { id?: string | number; method?: string; params?: Record<string, unknown> };
  readonly options: TransportSendOptions | undefined;
}

const DISCOVER = { supportedVersions: [MODERN], capabilities: { tools: { listChanged: true } }, resultType: 'complete' };
const INITIALIZE = { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'scripted', version: '1.0.0' } };
const TAGGED = {
  name: 'tagged',
  inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, text: { type: 'string' } } },
};

function defaultScript(method: string): Answer {
  switch (method) {
    case 'server/discover':
      return { result: DISCOVER };
    case 'initialize':
      return { result: INITIALIZE };
    case 'tools/list':
      // 2026-07-28 list results carry their cache hints.
      return { result: { tools: [TAGGED], ttlMs: 0, cacheScope: 'private', resultType: 'complete' } };
    case 'tools/call':
      return { result: { content: [{ type: 'text', text: 'ok' }], resultType: 'complete' } };
    default:
      return 'hold';
  }
}

/** A structural transport that answers from a script and records what the Client sent. */
class ScriptedTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onerror?: (error: Error) => void;
  onclose?: () => void;
  readonly sent: Sent[] = [];
  readonly versions: string[] = [];
  supported: string[] | undefined;
  readonly hasPerRequestStream?: boolean;

  constructor(
    perRequestStream: boolean,
    readonly script: (method: string, sent: Sent) => Answer = defaultScript,
  ) {
    if (perRequestStream) this.hasPerRequestStream = true;
  }

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.onclose?.();
  }

  setProtocolVersion(version: string): void {
    this.versions.push(version);
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.supported = versions;
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const sent = { message, options } as Sent;
    this.sent.push(sent);
    const { id, method } = sent.message;
    if (id === undefined || method === undefined) return;
    const answer = this.script(method, sent);
    if (answer === 'hold') return;
    if ('reject' in answer) throw answer.reject;
    // After send() resolves, as a transport reading the response would deliver it.
    queueMicrotask(() => this.onmessage?.({ jsonrpc: '2.0', id, ...answer } as JSONRPCMessage));
  }

  methods(): (string | undefined)[] {
    return this.sent.map((sent) => sent.message.method);
  }
}

function client(mode: VersionNegotiationMode): Client {
  return new Client({ name: 'contract', version: '1.0.0' }, { versionNegotiation: { mode, probe: { timeoutMs: 500 } } });
}

/** An error that passes `instanceof SdkHttpError` by the SDK's cross-bundle brand, without importing the SDK. */
function brandedHttpError(status: number): Error {
  const error = Object.assign(new Error(`HTTP ${status}`), { data: { status, statusText: 'Bad Request', text: '' } });
  Object.defineProperty(error, Symbol.for('mcp.sdk.errorBrands'), { value: new Set(['mcp.SdkError', 'mcp.SdkHttpError']) });
  return error;
}

type ProbeCase = readonly [label: string, answer: Answer, auto: string, pin: string];

const LEGACY_FALLBACK = 'legacy: server/discover,initialize,notifications/initialized';
const PIN_REFUSED = 'SdkError ERA_NEGOTIATION_FAILED Version negotiation failed: the server did not offer pinned protocol version 2026-07-28 via server/discover (no fallback in pin mode)';

/** The probe's classification of each reply to `server/discover`, in `'auto'` and pinned to 2026-07-28. */
const PROBE_CASES: readonly ProbeCase[] = [
  ['an in-band -32601 error', { error: { code: -32601, message: 'Method not found' } }, LEGACY_FALLBACK, PIN_REFUSED],
  ['an in-band -32000 error (a 2025 server\'s "no session")', { error: { code: -32000, message: 'Bad Request' } }, LEGACY_FALLBACK, PIN_REFUSED],
  ['an in-band -32020 error', { error: { code: -32020, message: 'Header mismatch' } }, LEGACY_FALLBACK, PIN_REFUSED],
  ['an in-band -32022 listing only 2025 versions', { error: { code: -32022, message: 'Unsupported', data: { supported: ['2025-11-25'] } } }, LEGACY_FALLBACK, 'UnsupportedProtocolVersionError -32022 Unsupported'],
  // The corrective retry names the same version again; the second refusal is final.
  ['an in-band -32022 listing 2026-07-28', { error: { code: -32022, message: 'Unsupported', data: { supported: [MODERN] } } }, 'UnsupportedProtocolVersionError -32022 Unsupported', 'UnsupportedProtocolVersionError -32022 Unsupported'],
  ['a result that is no DiscoverResult', { result: {} }, LEGACY_FALLBACK, PIN_REFUSED],
  ['send() rejecting with a plain Error', { reject: new Error('HTTP 400') }, 'SdkError ERA_NEGOTIATION_FAILED Version negotiation probe failed: HTTP 400', 'SdkError ERA_NEGOTIATION_FAILED Version negotiation probe failed: HTTP 400'],
  ['send() rejecting with a branded SdkHttpError 400', { reject: brandedHttpError(400) }, LEGACY_FALLBACK, PIN_REFUSED],
  ['send() rejecting with a branded SdkHttpError 500', { reject: brandedHttpError(500) }, 'SdkHttpError ERA_NEGOTIATION_FAILED Version negotiation failed: the server answered the probe with HTTP 500', 'SdkHttpError ERA_NEGOTIATION_FAILED Version negotiation failed: the server answered the probe with HTTP 500'],
  ['send() rejecting with a SyntaxError', { reject: new SyntaxError('Unexpected token') }, 'SdkError ERA_NEGOTIATION_FAILED Version negotiation probe failed: the server answered with an unusable reply (Unexpected token)', 'SdkError ERA_NEGOTIATION_FAILED Version negotiation probe failed: the server answered with an unusable reply (Unexpected token)'],
];

async function probeOutcome(mode: VersionNegotiationMode, answer: Answer): Promise<string> {
  const transport = new ScriptedTransport(true, (method) => (method === 'server/discover' ? answer : defaultScript(method)));
  const subject = client(mode);
  try {
    await subject.connect(transport);
    return `${subject.getProtocolEra() ?? '?'}: ${transport.methods().join(',')}`;
  } catch (error) {
    const typed = error as Error & { code?: unknown };
    return `${typed.constructor.name} ${String(typed.code)} ${typed.message}`;
  } finally {
    await subject.close();
  }
}

describe('connect: how the server/discover probe classifies a reply from a structural transport', () => {
  test.each(PROBE_CASES)('%s', async (_label, answer, auto, pin) => {
    expect(await probeOutcome('auto', answer)).toBe(auto);
    expect(await probeOutcome({ pin: MODERN }, answer)).toBe(pin);
  });

  test('the probe is sent with no send options, a string id, and the _meta envelope', async () => {
    const transport = new ScriptedTransport(true);
    const subject = client('auto');
    await subject.connect(transport);
    const [probe] = transport.sent;
    expect(probe?.options).toBeUndefined();
    expect(probe?.message).toEqual({
      jsonrpc: '2.0',
      id: 'server-discover-probe-1',
      method: 'server/discover',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientInfo': { name: 'contract', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    });
    expect(transport.versions).toEqual([MODERN]);
    expect(transport.supported).toEqual(SUPPORTED_PROTOCOL_VERSIONS);
    await subject.close();
  });
});

describe('send options on each era', () => {
  test('2026, hasPerRequestStream: every request gets a requestSignal; tools/call gets Mcp-Param-* in headers; no onRequestStreamEnd', async () => {
    const transport = new ScriptedTransport(true);
    const subject = client('auto');
    await subject.connect(transport);
    await subject.listTools();
    await subject.callTool({ name: 'tagged', arguments: { region: 'us-west1', text: 'hi' } });
    const [list, call] = transport.sent.slice(1);
    expect(list?.options?.requestSignal).toBeInstanceOf(AbortSignal);
    expect(list?.options?.headers).toBeUndefined();
    expect(call?.options?.requestSignal).toBeInstanceOf(AbortSignal);
    expect(call?.options?.headers).toEqual({ 'Mcp-Param-Region': 'us-west1' });
    expect(call?.options?.onRequestStreamEnd).toBeUndefined();
    expect(call?.message.params?.['_meta']).toMatchObject({ 'io.modelcontextprotocol/protocolVersion': MODERN });
    await subject.close();
  });

  test('2026, hasPerRequestStream: cancelling aborts the requestSignal and sends no notifications/cancelled', async () => {
    const transport = new ScriptedTransport(true, (method, sent) => (sent.message.params?.['name'] === 'never' ? 'hold' : defaultScript(method)));
    const subject = client('auto');
    await subject.connect(transport);
    const abort = new AbortController();
    const call = subject.callTool({ name: 'never', arguments: {} }, { signal: abort.signal });
    await eventually(() => transport.sent.length === 2);
    const signal = transport.sent[1]?.options?.requestSignal;
    expect(signal?.aborted).toBe(false);
    abort.abort('stop');
    await expect(call).rejects.toMatchObject({ code: SdkErrorCode.RequestTimeout, message: 'stop' });
    expect(signal?.aborted).toBe(true);
    expect(transport.methods()).toEqual(['server/discover', 'tools/call']);
    await subject.close();
  });

  test('2026 without hasPerRequestStream: no requestSignal, and cancelling sends notifications/cancelled (enveloped)', async () => {
    const transport = new ScriptedTransport(false, (method, sent) => (sent.message.params?.['name'] === 'never' ? 'hold' : defaultScript(method)));
    const subject = client('auto');
    await subject.connect(transport);
    const abort = new AbortController();
    const call = subject.callTool({ name: 'never', arguments: {} }, { signal: abort.signal });
    await eventually(() => transport.sent.length === 2);
    expect(transport.sent[1]?.options?.requestSignal).toBeUndefined();
    abort.abort('stop');
    await expect(call).rejects.toMatchObject({ code: SdkErrorCode.RequestTimeout });
    await eventually(() => transport.sent.length === 3);
    const cancelled = transport.sent[2]!;
    expect(cancelled.message.method).toBe('notifications/cancelled');
    expect(cancelled.message.params).toMatchObject({ requestId: transport.sent[1]?.message.id, reason: 'stop', _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN } });
    await subject.close();
  });

  test('2025 (legacy), even with hasPerRequestStream: no requestSignal, no headers, cancelling sends notifications/cancelled', async () => {
    const transport = new ScriptedTransport(true, (method, sent) => (sent.message.params?.['name'] === 'never' ? 'hold' : defaultScript(method)));
    const subject = client('legacy');
    await subject.connect(transport);
    expect(transport.methods()).toEqual(['initialize', 'notifications/initialized']);
    expect(transport.versions).toEqual(['2025-11-25']);
    const abort = new AbortController();
    const call = subject.callTool({ name: 'never', arguments: {} }, { signal: abort.signal });
    await eventually(() => transport.sent.length === 3);
    expect(transport.sent[2]?.options).toEqual({ relatedRequestId: undefined, resumptionToken: undefined, onresumptiontoken: undefined, headers: undefined, requestSignal: undefined });
    abort.abort('stop');
    await expect(call).rejects.toMatchObject({ code: SdkErrorCode.RequestTimeout });
    await eventually(() => transport.sent.length === 4);
    expect(transport.sent[3]?.message).toEqual({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: transport.sent[2]?.message.id, reason: 'stop' } });
    await subject.close();
  });
});

describe('how a structural transport fails one request, or all', () => {
  test('send() rejecting fails that request with the very error', async () => {
    const failure = new Error('the stream broke');
    const transport = new ScriptedTransport(true, (method) => (method === 'tools/call' ? { reject: failure } : defaultScript(method)));
    const subject = client('auto');
    await subject.connect(transport);
    await expect(subject.callTool({ name: 'echo', arguments: {} })).rejects.toBe(failure);
    await subject.close();
  });

  test('an in-band JSON-RPC error response fails that request as a ProtocolError with its code', async () => {
    const transport = new ScriptedTransport(true, (method) => (method === 'tools/call' ? { error: { code: -32603, message: 'broken' } } : defaultScript(method)));
    const subject = client('auto');
    await subject.connect(transport);
    const error = await subject.callTool({ name: 'echo', arguments: {} }).then(() => undefined, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(-32603);
    await subject.close();
  });

  test('onclose fails every pending request with ConnectionClosed', async () => {
    const transport = new ScriptedTransport(true, (method, sent) => (sent.message.params?.['name'] === 'never' ? 'hold' : defaultScript(method)));
    const subject = client('auto');
    await subject.connect(transport);
    const call = subject.callTool({ name: 'never', arguments: {} });
    await eventually(() => transport.sent.length === 2);
    transport.onclose?.();
    const error = await call.then(() => undefined, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(SdkError);
    expect((error as SdkError).code).toBe(SdkErrorCode.ConnectionClosed);
  });
});

describe('subscriptions/listen', () => {
  test('sent with a string id, the filter, requestSignal and onRequestStreamEnd; the stream ending before the ack rejects listen()', async () => {
    const transport = new ScriptedTransport(true);
    const subject = client('auto');
    await subject.connect(transport);
    const listening = subject.listen({ toolsListChanged: true });
    await eventually(() => transport.sent.length === 2);
    const listen = transport.sent[1]!;
    expect(listen.message).toMatchObject({ id: 'listen:0', method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true }, _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN } } });
    expect(listen.options?.requestSignal).toBeInstanceOf(AbortSignal);
    expect(typeof listen.options?.onRequestStreamEnd).toBe('function');
    listen.options?.onRequestStreamEnd?.();
    await expect(listening).rejects.toThrow('subscriptions/listen: stream ended');
    expect(listen.options?.requestSignal?.aborted).toBe(true);
    await subject.close();
  });

  test('close() after the ack aborts requestSignal and also sends notifications/cancelled for the listen id', async () => {
    const transport = new ScriptedTransport(true);
    const subject = client('auto');
    await subject.connect(transport);
    const listening = subject.listen({ toolsListChanged: true });
    await eventually(() => transport.sent.length === 2);
    transport.onmessage?.({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { toolsListChanged: true }, _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen:0' } },
    });
    const subscription = await listening;
    expect(subscription.honoredFilter).toEqual({ toolsListChanged: true });
    await subscription.close();
    expect(transport.sent[1]?.options?.requestSignal?.aborted).toBe(true);
    expect(transport.sent[2]?.message).toMatchObject({ method: 'notifications/cancelled', params: { requestId: 'listen:0' } });
    expect(await subscription.closed).toBe('local');
    await subject.close();
  });

  test('listen() on a 2025 connection fails before sending', async () => {
    const transport = new ScriptedTransport(true);
    const subject = client('legacy');
    await subject.connect(transport);
    await expect(subject.listen({ toolsListChanged: true })).rejects.toMatchObject({ code: SdkErrorCode.MethodNotSupportedByProtocolVersion });
    expect(transport.methods()).toEqual(['initialize', 'notifications/initialized']);
    await subject.close();
  });
});

test('the 2026 probe error classes the Client exports are what a caller sees', () => {
  // Keeps the import honest: the -32022 verdict is this class, a subclass of ProtocolError.
  expect(new UnsupportedProtocolVersionError({ supported: [MODERN], requested: MODERN })).toBeInstanceOf(ProtocolError);
});
