/**
 * mcp-handler 2.4.0 (Vercel's `createMcpHandler`) as an era test server. It builds a v2 SDK
 * `McpServer` a request and hands it to the SDK's `createMcpHandler` with `legacy: 'stateless'`
 * fixed (no option changes it), so it serves 2026-07-28 and, statelessly, 2025-era traffic.
 * It is a Web `Request → Response` handler; `serveWeb` bridges it to node:http.
 */

import { createMcpHandler } from 'mcp-handler';
import { serveWeb, startRecordingServer } from './era-http.js';
import { registerSdkTools } from './era-server-sdk.js';
import { runningEraServer, toolCounters, type RunningEraServer } from './era-tools.js';

/** Starts mcp-handler on a free loopback port. */
export async function startMcpHandlerServer(): Promise<RunningEraServer> {
  const counters = toolCounters();
  const handler = createMcpHandler((server) => registerSdkTools(server, counters), {
    serverInfo: { name: 'sse-answer-era-mcp-handler', version: '1.0.0' },
    capabilities: { logging: {} },
    // No spans: nothing here registers a tracer provider, and the tests need no telemetry.
    telemetry: false,
  });
  const recording = await startRecordingServer((req, res, _body, text) => serveWeb(handler, req, res, text));
  return runningEraServer({ name: 'mcp-handler', eras: ['legacy', 'modern'] }, recording, counters);
}
