// The browser example (examples/browser/: a page on AnswerClient, from the built dist/index.js) in
// real Chromium against the servers `npm run demo:browser` runs — the v2 SDK server, 2026-07-28
// stateless and 2025-11-25 with sessions, on other origins with CORS — clicked through as a person
// would: connect, list, call, close, and what the servers saw. Then against servers that each lack
// one piece of CORS: what the page says. One browser and one tab for the file; servers started once.
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { RunningMcpServer, SeenRequest } from '../examples/browser/servers.mjs';
import { launchChromium, PageDriver } from './helpers/browser-page.js';
import { BEARER_TOKEN, startCorsServers, type CorsServers } from './helpers/cors-servers.js';

// Each step waits on a real browser and real servers, on a machine the rest of the suite shares.
vi.setConfig({ testTimeout: 20_000 });

let servers: CorsServers | undefined;
let browser: Browser | undefined;
let tab: PageDriver;

beforeAll(async () => {
  // The page imports the built package, as a user's page would.
  if (!existsSync(new URL('../dist/index.js', import.meta.url))) throw new Error('dist/ is not built: run `npm run build` first');
  const [started, launched] = await Promise.allSettled([startCorsServers(), launchChromium()]);
  if (started.status === 'fulfilled') servers = started.value;
  if (launched.status === 'fulfilled') browser = launched.value;
  if (started.status === 'rejected') throw started.reason;
  if (launched.status === 'rejected') throw launched.reason;
  tab = await PageDriver.open(launched.value, started.value.page.pageUrl);
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await servers?.stop();
});

/** The servers, once started. */
function running(): CorsServers {
  if (servers === undefined) throw new Error('the servers did not start');
  return servers;
}

/** The responses `server` still has open, once they had up to a second to finish (the server hears of the end after the page). */
async function openAfterAWhile(server: RunningMcpServer): Promise<number> {
  for (let waited = 0; server.openResponses() > 0 && waited < 1000; waited += 10) await sleep(10);
  return server.openResponses();
}

/** The headers a preflight asked for, as a list. */
function askedHeaders(request: SeenRequest | undefined): string[] {
  return String(request?.headers['access-control-request-headers'] ?? '').split(',').map((name) => name.trim());
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const ERAS = [
  { version: '2026-07-28', era: 'modern', server: () => running().modern, negotiatedBy: /^server\/discover$/, said: 'the stateless era' },
  { version: '2025-11-25', era: 'legacy', server: () => running().legacy, negotiatedBy: /^initialize, after server\/discover was refused \(.+\)$/, said: 'the 2025 era' },
] as const;

describe.each(ERAS)('the $version era', ({ version, era, server, negotiatedBy, said }) => {
  test('connects from another origin (preflighted): says the era, the version and how they were settled, and lists the tools', async () => {
    await tab.load(server().url);
    expect(await tab.connect()).toBe('connected');
    const view = await tab.view();
    expect(view.error.shown).toBe(false);
    expect(view.status).toBe(`Connected: ${said}, ${version}, 3 tools.`);
    expect([view.era, view.protocolVersion]).toEqual([era, version]);
    expect(view.negotiatedBy).toMatch(negotiatedBy);
    expect(view.tools).toEqual(['countdown', 'echo', 'tagged']);

    // The first request is a preflight: the handshake's Content-Type and Mcp-* headers are not safelisted.
    const [preflight] = server().requests;
    expect(preflight?.method).toBe('OPTIONS');
    expect(preflight?.status).toBe(204);
    expect(askedHeaders(preflight)).toEqual(expect.arrayContaining(['content-type', 'mcp-method', 'mcp-protocol-version']));
    const listed = server().requests.find((request) => request.rpc === 'tools/list');
    expect(listed?.headers.origin).toBe(running().page.origin);
    if (era === 'legacy') {
      expect(view.sessionId).toMatch(UUID);
      expect(listed?.headers['mcp-session-id']).toBe(view.sessionId);
    } else {
      expect(view.sessionId).toBe('none');
      expect(listed?.headers['mcp-session-id']).toBeUndefined();
    }
  });

  test('arguments that are not a JSON object are said beside the textarea, and nothing is sent', async () => {
    const sent = server().requests.length;
    expect(await tab.call('echo', '{"text": ')).toBe('connected');
    const view = await tab.view();
    expect(view.argumentsInvalid).not.toBe('');
    expect(view.status).toBe('The arguments are not a JSON object.');
    expect(await tab.call('echo', '["hello"]')).toBe('connected');
    expect((await tab.view()).argumentsInvalid).toBe('the arguments must be a JSON object');
    expect(server().requests.length).toBe(sent);
  });

  test('calls countdown: each message passed over is shown, the progress bar reaches its total with its message, then the answer; no response is left open', async () => {
    expect(await tab.call('countdown', '{ "from": 4 }')).toBe('answered');
    const view = await tab.view();
    expect(view.error.shown).toBe(false);
    expect(view.messages[0]).toBe('notifications/message info: counting down from 4');
    const progress = view.messages.slice(1);
    expect(progress).toHaveLength(4);
    progress.forEach((line, index) => {
      expect(line).toMatch(/^notifications\/progress \{"progressToken":"page-\d+",/);
      expect(line).toContain(`"progress":${index + 1},"total":4,"message":"${3 - index} to go"}`);
    });
    expect(view.progress).toEqual({ value: 4, max: 4, message: '0 to go' });
    expect(JSON.parse(view.answer)).toMatchObject({ content: [{ type: 'text', text: 'liftoff' }] });
    expect(view.status).toBe('countdown answered.');

    const call = server().requests.filter((request) => request.rpc === 'tools/call').at(-1);
    expect(call?.status).toBe(200);
    if (era === 'modern') expect([call?.headers['mcp-method'], call?.headers['mcp-name']]).toEqual(['tools/call', 'countdown']);
    else expect(call?.headers['mcp-session-id']).toBe(view.sessionId);
    expect(await openAfterAWhile(server())).toBe(0);
  });

  test(`calls tagged: ${era === 'modern' ? 'its Mcp-Param-Region header is allowed by the preflight' : 'no Mcp-Param-* header in 2025'}`, async () => {
    expect(await tab.call('tagged', '{"region": "eu-west1", "text": "hi"}')).toBe('answered');
    expect(JSON.parse((await tab.view()).answer)).toMatchObject({ content: [{ type: 'text', text: 'eu-west1: hi' }] });
    const call = server().requests.filter((request) => request.rpc === 'tools/call').at(-1);
    expect(call?.status).toBe(200);
    expect(call?.headers['mcp-param-region']).toBe(era === 'modern' ? 'eu-west1' : undefined);
  });

  test(era === 'legacy' ? 'close() ends the session: the server saw its DELETE' : 'close() has no session to end: no DELETE', async () => {
    const { sessionId } = await tab.view();
    expect(await tab.close()).toBe('closed');
    const view = await tab.view();
    const deletes = server().requests.filter((request) => request.method === 'DELETE');
    if (era === 'legacy') {
      expect(view.status).toBe('Closed: the DELETE ended the session (200).');
      expect(deletes.map((request) => [request.headers['mcp-session-id'], request.status])).toEqual([[sessionId, 200]]);
      expect(server().endedSessions).toEqual([sessionId]);
    } else {
      expect(view.status).toBe('Closed: there was no session to end.');
      expect(deletes).toEqual([]);
    }
    expect(await openAfterAWhile(server())).toBe(0);
  });
});

describe('behind a bearer gate', () => {
  test('with a token: Authorization is allowed by the preflight, and the page connects and calls', async () => {
    const server = running().challengeNotExposed;
    await tab.load(server.url);
    expect(await tab.connect(BEARER_TOKEN)).toBe('connected');
    expect((await tab.view()).era).toBe('modern');
    expect(askedHeaders(server.requests.find((request) => request.method === 'OPTIONS'))).toContain('authorization');
    expect(await tab.call('echo', '{"text": "let in"}')).toBe('answered');
    const posts = server.requests.filter((request) => request.method === 'POST');
    expect(posts.map((request) => [request.rpc, request.status])).toEqual([['server/discover', 200], ['tools/list', 200], ['tools/call', 200]]);
    for (const post of posts) expect(post.headers.authorization).toBe(`Bearer ${BEARER_TOKEN}`);
    expect(await tab.close()).toBe('closed');
  });
});

/** What the client says when a piece of CORS is missing (its words are the client's contract). */
const FLAWS = [
  {
    name: '(a) no preflight answer',
    server: () => running().noPreflight,
    code: 'connect_failed',
    says: ['CORS', 'Access-Control-Allow-Origin', 'Access-Control-Allow-Headers'],
    saw(requests: SeenRequest[]) {
      expect(requests.map((request) => request.method)).toEqual(['OPTIONS']);
      expect(requests[0]?.status).not.toBe(204);
    },
  },
  {
    name: '(b) a preflight that allows none of the Mcp-* headers',
    server: () => running().mcpHeadersNotAllowed,
    code: 'connect_failed',
    says: ['CORS', 'Access-Control-Allow-Origin', 'Access-Control-Allow-Headers'],
    saw(requests: SeenRequest[]) {
      expect(requests.map((request) => [request.method, request.status])).toEqual([['OPTIONS', 204]]);
      expect(askedHeaders(requests[0])).toEqual(expect.arrayContaining(['mcp-method', 'mcp-protocol-version']));
    },
  },
  {
    name: '(c) Mcp-Session-Id not exposed (2025, sessions)',
    server: () => running().sessionNotExposed,
    code: 'http_status',
    says: ['Access-Control-Expose-Headers: Mcp-Session-Id'],
    saw(requests: SeenRequest[]) {
      // The session was issued; the page could not read it, so the next request went without it.
      const initialize = requests.findIndex((request) => request.rpc === 'initialize');
      expect(requests[initialize]?.status).toBe(200);
      const next = requests.slice(initialize + 1).find((request) => request.method === 'POST');
      expect(next?.headers['mcp-session-id']).toBeUndefined();
      expect(next?.status).toBe(400);
    },
  },
  {
    name: '(d) WWW-Authenticate not exposed (a 401 with a challenge)',
    server: () => running().challengeNotExposed,
    code: 'http_status',
    says: ['Access-Control-Expose-Headers: WWW-Authenticate'],
    saw(requests: SeenRequest[]) {
      const refused = requests.filter((request) => request.method === 'POST' && request.headers.authorization === undefined);
      expect(refused.map((request) => [request.rpc, request.status])).toEqual([['server/discover', 401]]);
    },
  },
];

describe('a server that lacks one piece of CORS', () => {
  test.each(FLAWS)('$name: the page shows $code and says what is missing', async ({ server, code, says, saw }) => {
    const before = server().requests.length;
    await tab.load(server().url);
    expect(await tab.connect()).toBe('failed');
    saw(server().requests.slice(before));
    const { error, state, era } = await tab.view();
    expect([state, error.shown, era]).toEqual(['failed', true, '']);
    expect.soft(error.code).toBe(code);
    for (const part of says) expect.soft(error.message).toContain(part);
  });
});

test('the page threw nothing, and asked only its own origin and the servers it was given', () => {
  const { page, modern, legacy, noPreflight, mcpHeadersNotAllowed, sessionNotExposed, challengeNotExposed } = running();
  const mcp = [modern, legacy, noPreflight, mcpHeadersNotAllowed, sessionNotExposed, challengeNotExposed];
  const allowed = [page.origin, ...mcp.map((server) => new URL(server.url).origin)];
  expect(tab.thrown).toEqual([]);
  expect(tab.asked.length).toBeGreaterThan(0);
  for (const url of tab.asked) expect(allowed).toContain(new URL(url).origin);
});
