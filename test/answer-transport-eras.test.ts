// AnswerTransport under the v2 SDK Client in every negotiation mode, and under the v1 Client,
// against every era server (four implementations nobody here wrote): it connects wherever the
// SDK's own transport connects, fails where that fails, sends the same POSTs, and opens no stream
// of its own. Then what a 2026-07-28 connection does through it, call by call.
import { Client, SdkError, SdkErrorCode, StreamableHTTPClientTransport, type Transport, type VersionNegotiationMode } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport as V1TransportShape } from '@modelcontextprotocol/sdk/shared/transport.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AnswerTransport, isAnswerError } from '../src/index.js';
import { eventually } from './helpers/mcp-server.js';
import { ELICIT_KEY, ERA_SERVERS, PROGRESS_LOG, REGION_HEADER, startEraServers, type EraRequest, type RunningEraServer } from './helpers/era-servers.js';

const MODERN = '2026-07-28';
const MiB = 1024 * 1024;

// Checked by the type-check: both SDKs' Transport accept an AnswerTransport as it is.
const asV2 = (transport: AnswerTransport): Transport => transport;
const asV1 = (transport: AnswerTransport): V1TransportShape => transport;

const MODES = ['legacy', 'auto', 'pin', 'v1'] as const;
type Mode = (typeof MODES)[number];
const NEGOTIATION: Record<Exclude<Mode, 'v1'>, VersionNegotiationMode> = { legacy: 'legacy', auto: 'auto', pin: { pin: MODERN } };

type Outcome =
  | { readonly ok: true; readonly version: string | undefined; readonly session: boolean; readonly echo: string }
  | { readonly ok: false; readonly error: Error };

function textOf(result: unknown): string {
  return (result as { content: { text: string }[] }).content[0]!.text;
}

/** Connect, list tools, call `echo`, close: through `which` transport. */
async function run(url: string, mode: Mode, which: 'sdk' | 'answer'): Promise<Outcome> {
  const answer = which === 'answer' ? new AnswerTransport(url) : undefined;
  if (mode === 'v1') {
    const client = new V1Client({ name: 'eras-v1', version: '1.0.0' });
    const sdk = new V1Transport(new URL(url));
    try {
      await client.connect(answer === undefined ? sdk : asV1(answer));
      await client.listTools();
      const echo = textOf(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }));
      return { ok: true, version: answer?.protocolVersion ?? sdk.protocolVersion, session: (answer ?? sdk).sessionId !== undefined, echo };
    } catch (error) {
      return { ok: false, error: error as Error };
    } finally {
      await client.close();
    }
  }
  const client = new Client({ name: 'eras-v2', version: '1.0.0' }, { versionNegotiation: { mode: NEGOTIATION[mode] } });
  const sdk = new StreamableHTTPClientTransport(new URL(url));
  try {
    await client.connect(answer === undefined ? sdk : asV2(answer));
    await client.listTools();
    const echo = textOf(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }));
    return { ok: true, version: client.getNegotiatedProtocolVersion(), session: (answer ?? sdk).sessionId !== undefined, echo };
  } catch (error) {
    return { ok: false, error: error as Error };
  } finally {
    await client.close();
  }
}

const posts = (requests: readonly EraRequest[]): string[] =>
  requests.filter((request) => request.method === 'POST').map((request) => `${request.rpcMethod ?? '?'} ${String(request.status)}`);

/** The cause a failure names: negotiation's own verdict word for word, else the server's refusal. */
function causeOf(error: Error): string {
  if (error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed) return error.message;
  const refusal = /Unsupported protocol version: [\d-]+/.exec(error.message);
  return refusal === null ? `unclassified: ${error.message}` : refusal[0];
}

describe('the v2 Client in every negotiation mode, and the v1 Client: AnswerTransport beside the SDK transport', () => {
  const servers = new Map<string, RunningEraServer>();
  beforeAll(async () => {
    for (const server of await startEraServers()) servers.set(server.name, server);
  });
  afterAll(async () => {
    await Promise.all([...servers.values()].map((server) => server.stop()));
  });

  for (const kind of ERA_SERVERS) {
    for (const mode of MODES) {
      test(`${kind.name} × ${mode}: the same outcome and the same POSTs; no GET, no DELETE of its own`, async () => {
        const server = servers.get(kind.name)!;
        let from = server.requests.length;
        const theirs = await run(server.url, mode, 'sdk');
        const theirPosts = posts(server.requests.slice(from));
        from = server.requests.length;
        const ours = await run(server.url, mode, 'answer');
        const seen = server.requests.slice(from);

        expect(ours.ok).toBe(theirs.ok);
        if (ours.ok && theirs.ok) expect(ours).toEqual(theirs);
        if (!ours.ok && !theirs.ok) {
          expect(causeOf(ours.error)).toBe(causeOf(theirs.error));
          expect(causeOf(ours.error)).not.toMatch(/^unclassified/);
        }
        expect(posts(seen).filter((post) => !post.startsWith('notifications/cancelled'))).toEqual(theirPosts.filter((post) => !post.startsWith('notifications/cancelled')));
        expect(seen.filter((request) => request.method === 'GET')).toEqual([]);
        // A DELETE only ends a 2025 session, and only when there is one.
        expect(seen.some((request) => request.method === 'DELETE')).toBe(ours.ok && ours.session && ours.version !== MODERN);
        if (ours.ok && ours.version === MODERN) {
          for (const request of seen) {
            expect(request.headers['mcp-protocol-version']).toBe(MODERN);
            expect(request.headers['mcp-method']).toBe(request.rpcMethod);
            expect(request.headers['mcp-session-id']).toBeUndefined();
          }
        }
      });
    }
  }
});

/** The servers that serve 2026-07-28. */
const MODERN_SERVERS = ['sdk-modern', 'sdk-both', 'mcp-handler', 'tmcp'];

describe.each(ERA_SERVERS.filter((kind) => MODERN_SERVERS.includes(kind.name)))('the v2 Client over AnswerTransport, 2026-07-28, against $name', ({ name, start }) => {
  let server: RunningEraServer;
  let client: Client;
  let transport: AnswerTransport;
  let logs: unknown[];
  beforeAll(async () => {
    server = await start();
    client = new Client({ name: 'eras-modern', version: '1.0.0' }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: MODERN } } });
    logs = [];
    client.setNotificationHandler('notifications/message', (notification) => {
      logs.push(notification.params.data);
    });
    client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { name: 'ann' } }));
    transport = new AnswerTransport(server.url);
    await client.connect(asV2(transport));
  });
  afterAll(async () => {
    await client.close();
    await server.stop();
  });

  test('progress before the result: onprogress sees each step', async () => {
    const progress: number[] = [];
    const result = await client.callTool({ name: 'progress', arguments: { steps: 3 } }, { onprogress: (p) => progress.push(p.progress) });
    expect(textOf(result)).toBe('done');
    expect(progress).toEqual([1, 2, 3]);
    expect(logs).toEqual(name === 'tmcp' ? [] : [PROGRESS_LOG]);
  });

  test('a 5 MiB result arrives whole', async () => {
    expect(textOf(await client.callTool({ name: 'big', arguments: { bytes: 5 * MiB } })).length).toBe(5 * MiB);
  });

  test(`an x-mcp-header parameter whose value needs the sentinel: Mcp-Param-${REGION_HEADER} goes Base64, and the server accepts it`, async () => {
    await client.listTools();
    const region = ' région 1 ';
    const from = server.requests.length;
    expect(textOf(await client.callTool({ name: 'tagged', arguments: { region, text: 'hi' } }))).toBe(`${region}:hi`);
    const [call] = server.requests.slice(from);
    expect(call?.headers['mcp-param-region']).toBe(`=?base64?${btoa(String.fromCharCode(...new TextEncoder().encode(region)))}?=`);
    expect(call?.status).toBe(200);
  });

  test('an abort mid-call closes the response stream: no notifications/cancelled, and the handler sees its cancellation', async () => {
    const from = server.requests.length;
    const before = server.cancelled('never');
    const abort = new AbortController();
    const call = client.callTool({ name: 'never', arguments: {} }, { signal: abort.signal });
    await eventually(() => server.running('never') === 1);
    abort.abort('stop');
    await expect(call).rejects.toMatchObject({ code: SdkErrorCode.RequestTimeout, message: 'stop' });
    await eventually(() => server.cancelled('never') === before + 1);
    const seen = server.requests.slice(from);
    expect(seen.map((request) => request.rpcMethod)).toEqual(['tools/call']);
    expect(seen[0]?.closedEarly).toBe(true);
  });

  test('a stream that breaks mid-call: the call fails at once with stream_failed, reissue (the SDK transport waits for its timeout)', async () => {
    const before = server.cancelled('breaks');
    let progressed = 0;
    const error = await client.callTool({ name: 'breaks', arguments: {} }, { onprogress: () => (progressed += 1), timeout: 10_000 }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(progressed).toBe(1);
    expect(isAnswerError(error) && [error.code, error.detail.reissue]).toEqual(['stream_failed', true]);
    await eventually(() => server.cancelled('breaks') === before + 1);
    expect(server.requests.some((request) => request.method === 'GET')).toBe(false);
  });

  test('a multi round-trip request: the InputRequiredResult reaches the Client, and its retry with inputResponses is answered', async () => {
    const from = server.requests.length;
    expect(textOf(await client.callTool({ name: 'elicit', arguments: {} }))).toBe('hello ann');
    const calls = server.requests.slice(from);
    expect(calls.map((request) => `${request.toolName ?? '?'} ${String(request.status)}`)).toEqual(['elicit 200', 'elicit 200']);
    expect((calls[1]?.body as { params: { inputResponses: Record<string, unknown> } }).params.inputResponses[ELICIT_KEY]).toEqual({ action: 'accept', content: { name: 'ann' } });
  });

  test('subscriptions/listen is refused by the transport before anything is sent', async () => {
    const from = server.requests.length;
    const error = await transport.send({ jsonrpc: '2.0', id: 'listen:1', method: 'subscriptions/listen', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN } } }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(isAnswerError(error) && error.code).toBe('unsupported_request');
    expect(server.requests.length).toBe(from);
  });
});
