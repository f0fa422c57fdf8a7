// AnswerClient's session renewal (issue #51.3) and version retry (#51.4) against real servers
// on 127.0.0.1, none written here. Renewal: the v1 SDK server with sessions, which answers a
// session it forgot 404 as the 2025-11-25 transport says, and the v2 SDK server with sessions,
// wired as its examples wire it (a session it does not hold is 400, "No valid session ID
// provided": no client can tell that from another 400, so none is renewed) or answering 404
// (then renewed). Version retry: every 2026-07-28 server here refuses a version it does not speak
// with 400/-32022 listing 2026-07-28, and the client asks again in it — a client pinned to a newer
// version, and a server/discover sent in one. Servers start once for the file.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AnswerClient, type FetchFunction } from '../src/index.js';
import { answerError } from './helpers/bodies.js';
import { startMcpHandlerServer, startSdkServer, startTmcpServer, type RunningSdkServer } from './helpers/era-servers.js';
import type { RecordedRequest } from './helpers/era-http.js';
import { startMcpServer, type RunningMcpServer } from './helpers/mcp-server.js';
import type { RunningEraServer } from './helpers/era-tools.js';

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
/** A 2026-era version no server here speaks. */
const NEWER = '2027-01-01';

let v1: RunningMcpServer;
let sdk400: RunningSdkServer;
let sdk404: RunningSdkServer;
const modernServers = new Map<string, RunningEraServer>();

beforeAll(async () => {
  v1 = await startMcpServer({ stateful: true, json: false });
  sdk400 = await startSdkServer('stateful');
  sdk404 = await startSdkServer('stateful', { unknownSession: 404 });
  modernServers.set('sdk-modern', await startSdkServer('modern'));
  modernServers.set('mcp-handler', await startMcpHandlerServer());
  modernServers.set('tmcp', await startTmcpServer());
}, 20_000);

afterAll(async () => {
  await Promise.all([v1, sdk400, sdk404, ...modernServers.values()].map((server) => server.stop()));
});

/** A request as a line: `METHOD status [session]`, the session as `old`, `new` or `none`. */
function lines(requests: readonly RecordedRequest[], from: number, sessions: { readonly old: string | undefined; readonly new?: string | undefined }): string[] {
  return requests.slice(from).map((request) => {
    const id = request.headers['mcp-session-id'];
    const which = id === undefined ? 'none' : id === sessions.old ? 'old' : id === sessions.new ? 'new' : `other ${String(id)}`;
    return `${request.rpcMethod ?? request.method} ${String(request.status)} ${which}`;
  });
}

const idOf = (request: RecordedRequest | undefined): unknown => (request?.body as { id?: unknown } | undefined)?.id;
const paramsOf = (request: RecordedRequest | undefined): Record<string, unknown> => (request?.body as { params?: Record<string, unknown> } | undefined)?.params ?? {};

/** The two servers that answer a forgotten session 404: the v1 SDK server, and the v2 one told to. */
const FORGETTING = [
  { name: 'v1 SDK, stateful', server: () => v1 },
  { name: 'v2 SDK, stateful, 404 for a session it does not hold', server: () => sdk404 },
] as const;

describe.each(FORGETTING)('$name: a session the server forgot is renewed', ({ server }) => {
  test('the handshake again, in the version spoken, then the call once more in the new session, with a new id', async () => {
    const client = await AnswerClient.connect(server().url);
    const old = client.sessionId;
    expect([client.protocolVersion, old === undefined]).toEqual([LEGACY, false]);
    const from = server().requests.length;
    server().forgetSessions();
    const result = await client.callTool('echo', { text: 'again' });
    expect(result.content).toEqual([{ type: 'text', text: 'again' }]);
    const renewed = client.sessionId;
    expect(renewed === undefined || renewed === old).toBe(false);
    expect(lines(server().requests, from, { old, new: renewed })).toEqual(['tools/call 404 old', 'initialize 200 none', 'notifications/initialized 202 new', 'tools/call 200 new']);
    const requests = server().requests.slice(from);
    expect(paramsOf(requests[1])['protocolVersion']).toBe(LEGACY);
    expect(idOf(requests[3])).not.toEqual(idOf(requests[0]));
    expect(paramsOf(requests[3])).toEqual(paramsOf(requests[0]));
    // No DELETE of the forgotten session; close() ends the new one.
    expect(await client.close()).toBe(200);
    expect(lines(server().requests, from + 4, { old, new: renewed })).toEqual(['DELETE 200 new']);
  });

  test('four calls at once, all met by 404: one initialize, and every call answered in the new session', async () => {
    const client = await AnswerClient.connect(server().url);
    const from = server().requests.length;
    server().forgetSessions();
    const texts = ['a', 'b', 'c', 'd'];
    const results = await Promise.all(texts.map((text) => client.callTool('echo', { text })));
    expect(results.map((result) => result.content[0]!.text)).toEqual(texts);
    const requests = server().requests.slice(from);
    expect(requests.filter((request) => request.rpcMethod === 'initialize')).toHaveLength(1);
    const answered = requests.filter((request) => request.rpcMethod === 'tools/call' && request.status === 200);
    expect(answered.map((request) => request.headers['mcp-session-id'])).toEqual(Array(4).fill(client.sessionId));
    await client.close();
  });

  test('a typed list is renewed the same way', async () => {
    const client = await AnswerClient.connect(server().url);
    server().forgetSessions();
    expect((await client.listTools()).map((tool) => tool.name)).toContain('echo');
    await client.close();
  });

  test('renewSession: false: http_status 404, the session cleared, nothing more sent', async () => {
    const client = await AnswerClient.connect(server().url, { renewSession: false });
    const from = server().requests.length;
    server().forgetSessions();
    const error = await answerError(client.callTool('echo', { text: 'x' }));
    expect([error.code, error.detail.status]).toEqual(['http_status', 404]);
    expect(client.sessionId).toBeUndefined();
    expect(server().requests.slice(from).map((request) => request.rpcMethod)).toEqual(['tools/call']);
    expect(await client.close()).toBeUndefined();
  });
});

describe('v2 SDK, stateful, wired as its examples are: a session it does not hold is 400', () => {
  test('not renewed: http_status 400 quoting the server, and the client still holds the dead session', async () => {
    const client = await AnswerClient.connect(sdk400.url);
    const old = client.sessionId;
    const from = sdk400.requests.length;
    sdk400.forgetSessions();
    const error = await answerError(client.callTool('echo', { text: 'x' }));
    expect([error.code, error.detail.status]).toEqual(['http_status', 400]);
    expect(error.message).toContain('No valid session ID provided');
    expect(client.sessionId).toBe(old);
    expect(lines(sdk400.requests, from, { old })).toEqual(['tools/call 400 old']);
    // Its DELETE meets the same 400: close() rejects, and the client is closed all the same.
    expect((await answerError(client.close())).detail.status).toBe(400);
  });
});

describe('version retry: a 2026-07-28 server refuses a version it does not speak with -32022, and the client asks again', () => {
  test.each(['sdk-modern', 'mcp-handler', 'tmcp'])(`%s: a client pinned to ${NEWER} asks again in 2026-07-28, with a new id, and speaks it after`, async (name) => {
    const server = modernServers.get(name)!;
    const client = await AnswerClient.connect(server.url, { versionNegotiation: { pin: NEWER } });
    const from = server.requests.length;
    expect((await client.listTools()).map((tool) => tool.name)).toContain('echo');
    expect(client.protocolVersion).toBe(MODERN);
    await client.callTool('echo', { text: 'x' });
    const requests = server.requests.slice(from);
    expect(requests.map((request) => `${String(request.rpcMethod)} ${String(request.status)} ${String(request.headers['mcp-protocol-version'])}`)).toEqual([
      `tools/list 400 ${NEWER}`,
      `tools/list 200 ${MODERN}`,
      `tools/call 200 ${MODERN}`,
    ]);
    expect(idOf(requests[1])).not.toEqual(idOf(requests[0]));
    const meta = paramsOf(requests[1])['_meta'] as Record<string, unknown>;
    expect(meta['io.modelcontextprotocol/protocolVersion']).toBe(MODERN);
  });

  test("sdk-modern: connect's server/discover sent in a version the server does not speak is asked again in 2026-07-28", async () => {
    const server = modernServers.get('sdk-modern')!;
    // A probe in a newer version than the server's, as a client of a later revision sends it: the first one only.
    let rewritten = false;
    const newerFirst: FetchFunction = (input, init) => {
      if (rewritten || typeof init.body !== 'string' || !init.body.includes('"server/discover"')) return fetch(input, init);
      rewritten = true;
      const headers = new Headers(init.headers);
      headers.set('mcp-protocol-version', NEWER);
      return fetch(input, { ...init, headers, body: init.body.replace(`"io.modelcontextprotocol/protocolVersion":"${MODERN}"`, `"io.modelcontextprotocol/protocolVersion":"${NEWER}"`) });
    };
    const from = server.requests.length;
    const client = await AnswerClient.connect(server.url, { fetch: newerFirst });
    expect([client.era, client.protocolVersion, client.negotiatedBy]).toEqual(['modern', MODERN, { by: 'discover' }]);
    expect(server.requests.slice(from).map((request) => `${String(request.rpcMethod)} ${String(request.status)} ${String(request.headers['mcp-protocol-version'])}`)).toEqual([
      `server/discover 400 ${NEWER}`,
      `server/discover 200 ${MODERN}`,
    ]);
  });

  test("sdk-modern: a pinned client's first call reads tools/list for its headers; refused -32022, it is asked again too", async () => {
    const server = modernServers.get('sdk-modern')!;
    const client = await AnswerClient.connect(server.url, { versionNegotiation: { pin: NEWER } });
    const result = await client.callTool('tagged', { region: 'eu', text: 't' });
    expect(result.content).toEqual([{ type: 'text', text: 'eu:t' }]);
  });
});
