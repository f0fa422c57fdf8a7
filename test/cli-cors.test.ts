// `sse-answer probe URL --origin ORIGIN` (issue 52): the preflights a browser at ORIGIN sends for
// each era's requests, and what the responses let a page read, as the report's `cors` findings.
// The Fetch standard's checks as functions, then the built CLI against the browser test's servers
// (test/helpers/cors-servers.ts: the example's, with every piece of CORS, and four that each lack
// one), a server that allows another origin, and the v1 SDK server with no CORS at all.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { EXIT_USAGE } from '../src/cli/exit-codes.js';
import { exposed, needsPreflight, originAllowed, preflightHeaders, preflightProblems } from '../src/cli/cors-rules.js';
import { parseOrigin } from '../src/cli/options.js';
import type { CorsFinding, CorsReport, ProbeReport } from '../src/cli/probe-report.js';
import { UsageError } from '../src/cli/usage-error.js';
import { BEARER_TOKEN, startCorsServers, type CorsServers } from './helpers/cors-servers.js';
import { startMcpServer as startV1Server, type RunningMcpServer as RunningV1Server } from './helpers/mcp-server.js';
import { runCli } from './helpers/run-cli.js';

vi.setConfig({ testTimeout: 30_000 });

const PAGE = 'https://app.example.com';

describe("the Fetch standard's CORS checks", () => {
  const answer = (status: number, headers: Record<string, string>) => ({ status, headers: new Headers(headers) });
  const ALL = { 'access-control-allow-origin': PAGE, 'access-control-allow-methods': 'GET, POST, DELETE', 'access-control-allow-headers': 'Content-Type, MCP-Protocol-Version, Mcp-Method, Authorization' };

  test('a preflight that allows the origin, the method and every header: nothing found, whatever the case of the names', () => {
    expect(preflightProblems(PAGE, 'DELETE', ['Content-Type', 'MCP-Protocol-Version', 'Mcp-Method', 'Authorization'], answer(204, ALL))).toEqual([]);
    expect(preflightProblems(PAGE, 'POST', ['content-type', 'mcp-protocol-version'], answer(200, ALL))).toEqual([]);
  });

  test('the origin: exactly the page\'s, or *; a list, another origin, null or none is refused before anything else', () => {
    for (const allowed of [PAGE, '*']) expect(originAllowed(PAGE, new Headers({ 'access-control-allow-origin': allowed }))).toBe(true);
    for (const allowed of [`${PAGE}/`, `${PAGE}, https://b.example`, 'null', 'https://other.example']) {
      expect(originAllowed(PAGE, new Headers({ 'access-control-allow-origin': allowed }))).toBe(false);
      expect(preflightProblems(PAGE, 'POST', ['Mcp-Method'], answer(500, { ...ALL, 'access-control-allow-origin': allowed }))).toEqual([{ kind: 'origin_not_allowed' }]);
    }
    expect(originAllowed(PAGE, new Headers())).toBe(false);
  });

  test('a status outside 2xx refuses the preflight, the origin allowed', () => {
    expect(preflightProblems(PAGE, 'POST', ['Mcp-Method'], answer(405, ALL))).toEqual([{ kind: 'preflight_refused', status: 405 }]);
    expect(preflightProblems(PAGE, 'POST', ['Mcp-Method'], answer(301, ALL))).toEqual([{ kind: 'preflight_refused', status: 301 }]);
  });

  test('methods: DELETE must be listed (or *); GET and POST, safelisted, never need to be', () => {
    const none = answer(204, { ...ALL, 'access-control-allow-methods': 'OPTIONS' });
    expect(preflightProblems(PAGE, 'DELETE', [], none)).toEqual([{ kind: 'method_not_allowed', name: 'DELETE' }]);
    expect(preflightProblems(PAGE, 'DELETE', [], answer(204, { 'access-control-allow-origin': PAGE }))).toEqual([{ kind: 'method_not_allowed', name: 'DELETE' }]);
    expect(preflightProblems(PAGE, 'DELETE', [], answer(204, { ...ALL, 'access-control-allow-methods': '*' }))).toEqual([]);
    for (const method of ['GET', 'POST']) expect(preflightProblems(PAGE, method, [], none)).toEqual([]);
  });

  test('headers: each one listed, or *, which never covers Authorization', () => {
    const some = answer(204, { ...ALL, 'access-control-allow-headers': 'content-type,  ,mcp-method' });
    expect(preflightProblems(PAGE, 'POST', ['Content-Type', 'Mcp-Method', 'Mcp-Name', 'MCP-Protocol-Version'], some)).toEqual([
      { kind: 'header_not_allowed', name: 'Mcp-Name' },
      { kind: 'header_not_allowed', name: 'MCP-Protocol-Version' },
    ]);
    const star = answer(204, { ...ALL, 'access-control-allow-headers': '*' });
    expect(preflightProblems(PAGE, 'POST', ['Content-Type', 'Mcp-Param-Region', 'Authorization'], star)).toEqual([{ kind: 'header_not_allowed', name: 'Authorization' }]);
  });

  test('exposed: the safelisted response headers always, others when listed or *', () => {
    expect(exposed('Content-Type', new Headers())).toBe(true);
    expect(exposed('Mcp-Session-Id', new Headers())).toBe(false);
    expect(exposed('Mcp-Session-Id', new Headers({ 'access-control-expose-headers': 'www-authenticate, MCP-SESSION-ID' }))).toBe(true);
    expect(exposed('WWW-Authenticate', new Headers({ 'access-control-expose-headers': 'Mcp-Session-Id' }))).toBe(false);
    expect(exposed('WWW-Authenticate', new Headers({ 'access-control-expose-headers': '*' }))).toBe(true);
  });

  test('the preflight as browsers write it: Access-Control-Request-Headers lower case, sorted, no spaces; none without headers', () => {
    const headers = preflightHeaders(PAGE, 'POST', ['Mcp-Method', 'Content-Type', 'MCP-Protocol-Version']);
    const sent: Record<string, string> = {};
    headers.forEach((value, name) => (sent[name] = value));
    expect(sent).toEqual({ origin: PAGE, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,mcp-method,mcp-protocol-version' });
    expect(preflightHeaders(PAGE, 'DELETE', []).has('access-control-request-headers')).toBe(false);
  });

  test('which requests are preflighted: a method other than GET, HEAD and POST, or any header outside the safelist', () => {
    expect([needsPreflight('GET', []), needsPreflight('POST', []), needsPreflight('DELETE', []), needsPreflight('GET', ['Last-Event-ID'])]).toEqual([false, false, true, true]);
  });
});

describe('--origin', () => {
  test.each([
    ['https://app.example.com', 'https://app.example.com'],
    ['https://app.example.com/', 'https://app.example.com'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['https://APP.example.com:443', 'https://app.example.com'],
  ])('%s is the origin %s', (given, origin) => {
    expect(parseOrigin(given)).toBe(origin);
  });

  test.each(['app.example.com', 'https://app.example.com/page', 'https://app.example.com?x=1', 'ftp://app.example.com', 'null', 'https://user:pw@app.example.com'])('%s: bad usage', (given) => {
    expect(() => parseOrigin(given)).toThrow(UsageError);
  });

  test('a user and a password: bad usage, the password not repeated', () => {
    expect(() => parseOrigin('https://user:s3cret-pw@app.example.com')).toThrow(/^--origin must be the origin of a page, with no user or password$/);
  });

  test('through the CLI: exit 2, one line', async () => {
    const { code, stdout, stderr } = await runCli(['probe', 'http://127.0.0.1:9/mcp', '--origin', 'https://app.example.com/page']);
    expect([code, stdout]).toEqual([EXIT_USAGE, '']);
    expect(stderr).toMatch(/^sse-answer: --origin must be the origin of a page .*\n$/);
  });
});

/** Runs `probe URL --origin ORIGIN` (and `args`); the report's cors section, the run having exited 0. */
async function probeCors(url: string, origin: string, args: readonly string[] = [], env?: Record<string, string>): Promise<CorsReport> {
  const { code, stdout, stderr } = await runCli(['probe', url, '--origin', origin, ...args], { env });
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  const report = JSON.parse(stdout) as ProbeReport;
  expect(report.cors?.origin).toBe(origin);
  return report.cors!;
}

/** The findings as kind and name, for a short comparison. */
const kinds = (findings: readonly CorsFinding[]): string[] => findings.map((finding) => `${finding.era} ${finding.kind}${finding.name === undefined ? '' : ` ${finding.name}`}`);

describe('probe --origin against servers a page uses, or cannot', () => {
  let servers: CorsServers;
  beforeAll(async () => {
    servers = await startCorsServers();
  });
  afterAll(() => servers.stop());

  test('2026-07-28, every piece of CORS: no finding; every preflight a page would send was sent, every request carried the Origin', async () => {
    const { modern, page } = servers;
    modern.requests.length = 0;
    const cors = await probeCors(modern.url, page.origin);
    expect(cors).toEqual({ origin: page.origin, eras: ['modern'], findings: [] });
    const withOrigin = modern.requests.filter((request) => request.headers.origin === page.origin);
    const preflights = withOrigin.filter((request) => request.method === 'OPTIONS').map((request) => request.headers['access-control-request-headers']);
    expect(preflights).toEqual([
      'content-type,mcp-method,mcp-protocol-version', // server/discover and tools/list: one preflight, as a browser caches it
      'content-type,mcp-method,mcp-name,mcp-protocol-version', // a tools/call of a tool with no Mcp-Param-*
      'content-type,mcp-method,mcp-name,mcp-param-region,mcp-protocol-version', // tagged's
    ]);
    // The real requests a page sends: those with the Origin; none that might act (no tools/call).
    expect(withOrigin.filter((request) => request.method !== 'OPTIONS').map((request) => request.rpc)).toEqual(['server/discover', 'tools/list']);
    expect(modern.openResponses()).toBe(0);
  });

  test('2025-11-25 with sessions, every piece of CORS: no finding; the DELETE preflighted, the session ended', async () => {
    const { legacy, page } = servers;
    legacy.requests.length = 0;
    const ended = legacy.endedSessions.length;
    const cors = await probeCors(legacy.url, page.origin);
    expect(cors).toEqual({ origin: page.origin, eras: ['legacy'], findings: [] });
    const preflights = legacy.requests.filter((request) => request.method === 'OPTIONS' && request.headers.origin === page.origin);
    expect(preflights.map((request) => [request.headers['access-control-request-method'], request.headers['access-control-request-headers']])).toContainEqual(['DELETE', 'mcp-protocol-version,mcp-session-id']);
    // A 2025 server a page reaches through server/discover first: that preflight too.
    expect(preflights.map((request) => request.headers['access-control-request-headers'])).toContain('content-type,mcp-method,mcp-protocol-version');
    // The probe's own sessions and the page pass's: every one ended.
    expect(legacy.endedSessions.length - ended).toBe(legacy.requests.filter((request) => request.rpc === 'initialize').length);
  });

  test('(a) no preflight answered: preflight_refused, with its status, for every request', async () => {
    const cors = await probeCors(servers.noPreflight.url, servers.page.origin);
    expect(cors.findings).toEqual([
      {
        era: 'modern',
        kind: 'preflight_refused',
        status: expect.any(Number) as number,
        requests: ['POST server/discover', 'POST tools/list', 'POST tools/call', 'POST tools/call tagged'],
        fix: 'answer the preflight (OPTIONS) with a 2xx, before any auth check',
      },
    ]);
    expect(cors.findings[0]!.status! < 200 || cors.findings[0]!.status! > 299).toBe(true);
  });

  test('(b) no Mcp-* header allowed: each one, and the requests that carry it', async () => {
    const cors = await probeCors(servers.mcpHeadersNotAllowed.url, servers.page.origin);
    const all = ['POST server/discover', 'POST tools/list', 'POST tools/call', 'POST tools/call tagged'];
    expect(cors.findings).toEqual([
      { era: 'modern', kind: 'header_not_allowed', name: 'Mcp-Method', requests: all, fix: 'Access-Control-Allow-Headers: Mcp-Method' },
      { era: 'modern', kind: 'header_not_allowed', name: 'MCP-Protocol-Version', requests: all, fix: 'Access-Control-Allow-Headers: MCP-Protocol-Version' },
      { era: 'modern', kind: 'header_not_allowed', name: 'Mcp-Name', requests: all.slice(2), fix: 'Access-Control-Allow-Headers: Mcp-Name' },
      { era: 'modern', kind: 'header_not_allowed', name: 'Mcp-Param-Region', requests: ['POST tools/call tagged'], fix: 'Access-Control-Allow-Headers: Mcp-Param-Region' },
    ]);
  });

  test('(c) Mcp-Session-Id not exposed: found on the initialize that issued it', async () => {
    const cors = await probeCors(servers.sessionNotExposed.url, servers.page.origin);
    expect(cors.findings).toEqual([
      { era: 'legacy', kind: 'header_not_exposed', name: 'Mcp-Session-Id', requests: ['POST initialize'], fix: 'Access-Control-Expose-Headers: Mcp-Session-Id' },
    ]);
  });

  test('(d) WWW-Authenticate not exposed, by a server that takes a token: found on its responses; Authorization allowed', async () => {
    const cors = await probeCors(servers.challengeNotExposed.url, servers.page.origin, ['--bearer-token-env', 'TOKEN'], { TOKEN: BEARER_TOKEN });
    expect(kinds(cors.findings)).toEqual(['modern header_not_exposed WWW-Authenticate']);
    expect(cors.findings[0]!.requests).toEqual(['POST server/discover', 'POST tools/list']);
    const preflights = servers.challengeNotExposed.requests.filter((request) => request.method === 'OPTIONS');
    expect(preflights.every((request) => String(request.headers['access-control-request-headers']).includes('authorization'))).toBe(true);
  });

  test('the same server without the token: the probe fails as it does without --origin (http_status, exit 9)', async () => {
    const { code, stdout, stderr } = await runCli(['probe', servers.challengeNotExposed.url, '--origin', servers.page.origin]);
    expect([code, stdout]).toEqual([9, '']);
    expect(stderr).toMatch(/^sse-answer: http_status: the server answered HTTP 401/);
  });

  test('an origin the server does not allow: origin_not_allowed, and the request it refused', async () => {
    const cors = await probeCors(servers.modern.url, PAGE);
    expect(cors.findings).toEqual([
      { era: 'modern', kind: 'origin_not_allowed', requests: ['POST server/discover'], fix: `Access-Control-Allow-Origin: ${PAGE}` },
      { era: 'modern', kind: 'request_failed', requests: ['POST server/discover'], error: 'http_status: the server answered HTTP 403 Forbidden' },
    ]);
  });

  test('without --origin: no cors section, and no request carries an Origin', async () => {
    const { modern } = servers;
    modern.requests.length = 0;
    const { code, stdout } = await runCli(['probe', modern.url]);
    expect(code).toBe(0);
    expect(Object.keys(JSON.parse(stdout) as object)).not.toContain('cors');
    expect(modern.requests.filter((request) => request.headers.origin !== undefined)).toEqual([]);
  });
});

describe('probe --origin against the v1 SDK server, which sends no CORS header at all', () => {
  let server: RunningV1Server;
  beforeAll(async () => {
    server = await startV1Server({ stateful: true, json: false, resumable: { retryInterval: 100 } });
  });
  afterAll(() => server.stop());

  test('no origin allowed, on any request: the resumption GET (it primes its streams) and the DELETE among them', async () => {
    const cors = await probeCors(server.url, PAGE);
    expect(cors.eras).toEqual(['legacy']);
    expect(kinds(cors.findings)).toEqual(['legacy origin_not_allowed', 'legacy header_not_exposed Mcp-Session-Id']);
    expect(cors.findings[0]!.requests).toEqual([
      'POST server/discover',
      'POST initialize',
      'POST notifications/initialized',
      'DELETE (ends the session)',
      'GET (resumes a stream, Last-Event-ID)',
    ]);
    const resumption = server.requests.find((request) => request.method === 'OPTIONS' && request.headers['access-control-request-method'] === 'GET');
    expect(resumption?.headers['access-control-request-headers']).toBe('last-event-id,mcp-protocol-version,mcp-session-id');
    // Only preflights and the page's own requests carried the Origin: no GET was ever sent.
    expect(server.requests.filter((request) => request.method === 'GET')).toEqual([]);
  });
});
