/**
 * MCP test servers for the 2025-11-25 and 2026-07-28 eras from implementations nobody here
 * wrote, on 127.0.0.1 port 0, with what the client tests need to see from the server's side.
 * Every server offers the same tools (see `era-tools.ts`), so a client test loops over
 * `ERA_SERVERS`; each logs its HTTP requests (`era-http.ts`) and counts cancelled calls.
 *
 * - `sdk-modern`, `sdk-both`, `sdk-stateful`: the v2 SDK server (`era-server-sdk.ts`).
 * - `mcp-handler`: Vercel's mcp-handler (`era-server-mcp-handler.ts`).
 * - `tmcp`: tmcp with its HTTP transport (`era-server-tmcp.ts`).
 */

import { startMcpHandlerServer } from './era-server-mcp-handler.js';
import { startSdkServer } from './era-server-sdk.js';
import { startTmcpServer } from './era-server-tmcp.js';
import type { RunningEraServer } from './era-tools.js';

export { BREAKING_TOOL, type EraRequest } from './era-http.js';
export { registerSdkTools, startSdkServer, type RunningSdkServer, type SdkCacheHints, type SdkServerMode, type SdkServerOptions } from './era-server-sdk.js';
export { startMcpHandlerServer } from './era-server-mcp-handler.js';
export { startTmcpServer } from './era-server-tmcp.js';
export * from './era-tools.js';

/** One era server a test can start. */
export interface EraServerKind {
  /** The `name` of the server it starts. */
  readonly name: string;
  readonly start: () => Promise<RunningEraServer>;
}

/** Every era server, in a fixed order. */
export const ERA_SERVERS: readonly EraServerKind[] = [
  { name: 'sdk-modern', start: () => startSdkServer('modern') },
  { name: 'sdk-both', start: () => startSdkServer('both') },
  { name: 'sdk-stateful', start: () => startSdkServer('stateful') },
  { name: 'mcp-handler', start: startMcpHandlerServer },
  { name: 'tmcp', start: startTmcpServer },
];

/** Starts every era server; stops those already started if one fails. */
export async function startEraServers(): Promise<RunningEraServer[]> {
  const started: RunningEraServer[] = [];
  try {
    for (const kind of ERA_SERVERS) started.push(await kind.start());
  } catch (error) {
    await Promise.all(started.map((server) => server.stop()));
    throw error;
  }
  return started;
}
