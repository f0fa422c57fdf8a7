// `sse-answer call --bearer-token-env NAME`: the token from the environment, never from the
// command line, never printed. The option's rules as a function, then the built command (dist/
// cli.js) against the OAuth-protected v2 SDK server of helpers/auth-servers.ts.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearerTokenFromEnv } from '../src/cli/bearer-token.js';
import { EXIT_CODES, EXIT_USAGE } from '../src/cli/exit-codes.js';
import { UsageError } from '../src/cli/usage-error.js';
import { startAuthServers, type AuthServers } from './helpers/auth-servers.js';
import { runCli, type CliRun } from './helpers/run-cli.js';

const SECRET = 'cli-secret-token-0123456789';

describe('bearerTokenFromEnv', () => {
  test('without the option: no authProvider', () => {
    expect(bearerTokenFromEnv(undefined, new Headers(), {})).toBeUndefined();
  });

  test('the variable\'s value is the token', async () => {
    const bearer = bearerTokenFromEnv('MCP_TOKEN', new Headers(), { MCP_TOKEN: SECRET });
    expect(await bearer?.authProvider.token()).toBe(SECRET);
    expect(bearer?.token).toBe(SECRET);
  });

  test.each([
    ['a bad name', 'not a name', { MCP_TOKEN: SECRET }, /takes the name of an environment variable/],
    ['an unset variable', 'MCP_TOKEN', {}, /MCP_TOKEN is not set, or empty/],
    ['an empty variable', 'MCP_TOKEN', { MCP_TOKEN: '' }, /MCP_TOKEN is not set, or empty/],
    ['a value with "Bearer " in it', 'MCP_TOKEN', { MCP_TOKEN: `Bearer ${SECRET}` }, /without "Bearer "/],
    ['a value with a line break', 'MCP_TOKEN', { MCP_TOKEN: `${SECRET}\nX: 1` }, /does not hold a bearer token/],
    ['a token shorter than 8 characters, which could not be kept out of the output', 'MCP_TOKEN', { MCP_TOKEN: 'abc1234' }, /shorter than 8 characters/],
  ])('%s: UsageError that does not quote the value', (_case, name, env, message) => {
    let thrown: unknown;
    try {
      bearerTokenFromEnv(name, new Headers(), env);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UsageError);
    expect((thrown as Error).message).toMatch(message);
    expect((thrown as Error).message).not.toContain(SECRET);
  });

  test('--header Authorization as well: UsageError', () => {
    expect(() => bearerTokenFromEnv('MCP_TOKEN', new Headers({ authorization: 'Bearer x' }), { MCP_TOKEN: SECRET })).toThrow(UsageError);
  });
});

const run = (args: readonly string[], env: Record<string, string>): Promise<CliRun> => runCli(args, { env });

describe.each(['both', 'stateful'] as const)('sse-answer call against the OAuth-protected v2 SDK server (%s)', (mode) => {
  let servers: AuthServers;
  beforeAll(async () => {
    servers = await startAuthServers({ mode });
  });
  afterAll(() => servers.stop());

  test('the token from the variable on every request (the DELETE too); the answer printed, the token nowhere in the output', async () => {
    const token = servers.issue();
    servers.resourceRequests.length = 0;
    const result = await run(['call', servers.mcpUrl, 'tools/call', '{"name":"echo","arguments":{"text":"via cli"}}', '--bearer-token-env', 'MCP_TOKEN'], { MCP_TOKEN: token });
    // The one line that says the era: the dual-era server is spoken to in 2026-07-28, the stateful one in 2025.
    expect(result.stderr).toMatch(mode === 'stateful' ? /^sse-answer: era legacy \(2025-11-25\): server\/discover refused \(HTTP 400[^\n]*\n$/ : /^sse-answer: era modern \(2026-07-28\): negotiated by server\/discover\n$/);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ id: 1, result: { content: [{ type: 'text', text: 'via cli' }] } });
    expect(result.stdout + result.stderr).not.toContain(token);
    const mcp = servers.resourceRequests.filter((one) => one.path === '/mcp');
    expect(mcp.map((one) => one.authorization)).toEqual(mcp.map(() => `Bearer ${token}`));
    // stateful: server/discover, initialize, notifications/initialized, tools/call, DELETE; both: server/discover, tools/list, tools/call.
    expect(mcp.map((one) => one.method)).toEqual(mode === 'stateful' ? ['POST', 'POST', 'POST', 'POST', 'DELETE'] : ['POST', 'POST', 'POST']);
  });

  test('probe takes the token too: on every request and every DELETE, nowhere in the report', async () => {
    const token = servers.issue();
    servers.resourceRequests.length = 0;
    const result = await run(['probe', servers.mcpUrl, '--bearer-token-env', 'MCP_TOKEN'], { MCP_TOKEN: token });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ era: mode === 'stateful' ? 'legacy' : 'modern' });
    expect(result.stdout + result.stderr).not.toContain(token);
    const mcp = servers.resourceRequests.filter((one) => one.path === '/mcp');
    expect(mcp.length).toBeGreaterThan(1);
    expect(mcp.map((one) => one.authorization)).toEqual(mcp.map(() => `Bearer ${token}`));
    expect(mcp.some((one) => one.method === 'DELETE')).toBe(mode === 'stateful');
  });

  test('a token the server refuses: http_status\'s exit code, one line naming the challenge, the token not in it', async () => {
    const result = await run(['call', servers.mcpUrl, 'tools/list', '--bearer-token-env', 'MCP_TOKEN'], { MCP_TOKEN: SECRET });
    expect(result.code).toBe(EXIT_CODES.http_status);
    expect(result.stderr).toMatch(/^sse-answer: http_status: the server answered HTTP 401 Unauthorized \(Bearer error "invalid_token"\)/);
    expect(result.stdout + result.stderr).not.toContain(SECRET);
  });

  test('an unset variable: bad usage, nothing sent', async () => {
    servers.resourceRequests.length = 0;
    const result = await run(['call', servers.mcpUrl, 'tools/list', '--bearer-token-env', 'SSE_ANSWER_UNSET_TOKEN'], {});
    expect(result.code).toBe(EXIT_USAGE);
    expect(result.stderr).toContain('SSE_ANSWER_UNSET_TOKEN is not set');
    expect(servers.resourceRequests).toEqual([]);
  });
});
