/**
 * The servers of the browser test: the example's own (`examples/browser/servers.mjs`, what
 * `npm run demo:browser` runs) — the page's server, the v2 SDK server in each era with every
 * piece of CORS — and four that each lack one piece.
 */

import { CORS, startMcpServer, startPageServer, type RunningMcpServer, type RunningPageServer } from '../../examples/browser/servers.mjs';

/** The one token `challengeNotExposed` accepts. */
export const BEARER_TOKEN = 'a-token-of-the-browser-test';

/** The servers, running. */
export interface CorsServers {
  /** The page's own origin. */
  readonly page: RunningPageServer;
  /** 2026-07-28, stateless, every piece of CORS. */
  readonly modern: RunningMcpServer;
  /** 2025-11-25 with sessions, every piece of CORS. */
  readonly legacy: RunningMcpServer;
  /** (a) 2026-07-28: the preflight is not answered (the MCP handler gets the `OPTIONS`). */
  readonly noPreflight: RunningMcpServer;
  /** (b) 2026-07-28: the preflight allows none of the `Mcp-*` headers (nor `MCP-Protocol-Version`). */
  readonly mcpHeadersNotAllowed: RunningMcpServer;
  /** (c) 2025-11-25 with sessions: `Mcp-Session-Id` not exposed. */
  readonly sessionNotExposed: RunningMcpServer;
  /** (d) 2026-07-28 behind a bearer gate ({@link BEARER_TOKEN}): `WWW-Authenticate` not exposed. */
  readonly challengeNotExposed: RunningMcpServer;
  /** Stops them all. */
  stop(): Promise<void>;
}

/** The names of `list` that `pattern` does not match. */
function without(list: readonly string[], pattern: RegExp): string[] {
  return list.filter((name) => !pattern.test(name));
}

/** Starts the page's server, then every MCP server, allowing the page's origin. */
export async function startCorsServers(): Promise<CorsServers> {
  const page = await startPageServer();
  const { origins } = page;
  const [modern, legacy, noPreflight, mcpHeadersNotAllowed, sessionNotExposed, challengeNotExposed] = await Promise.all([
    startMcpServer({ era: 'modern', origins }),
    startMcpServer({ era: 'legacy', origins }),
    startMcpServer({ era: 'modern', origins, cors: { ...CORS, preflight: false } }),
    startMcpServer({ era: 'modern', origins, cors: { ...CORS, allowHeaders: without(CORS.allowHeaders, /^mcp-/i) } }),
    startMcpServer({ era: 'legacy', origins, cors: { ...CORS, exposeHeaders: without(CORS.exposeHeaders, /^mcp-session-id$/i) } }),
    startMcpServer({ era: 'modern', origins, token: BEARER_TOKEN, cors: { ...CORS, exposeHeaders: without(CORS.exposeHeaders, /^www-authenticate$/i) } }),
  ]);
  const mcp = [modern, legacy, noPreflight, mcpHeadersNotAllowed, sessionNotExposed, challengeNotExposed];
  return {
    page,
    modern,
    legacy,
    noPreflight,
    mcpHeadersNotAllowed,
    sessionNotExposed,
    challengeNotExposed,
    async stop() {
      await Promise.all([...mcp.map((server) => server.stop()), page.stop()]);
    },
  };
}
