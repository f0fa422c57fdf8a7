/**
 * The recipe of docs/guides/embedding.md for the AI SDK's MCP client, as code that is
 * type-checked with the tests and run by test/ai-sdk-client.test.ts against a real server: what
 * the guide shows is what compiles and works. (The guide imports from 'sse-answer'; this file
 * from the source.)
 */

// #region ai-sdk
import { createMCPClient, type MCPClient } from '@ai-sdk/mcp';
import { AnswerTransport } from '../../src/index.js';

/**
 * The AI SDK's MCP client over AnswerTransport. It probes with `server/discover` and speaks
 * 2026-07-28 where the server does, else falls back to `initialize` and a 2025 session.
 */
export async function connectAiSdk(url: string, token: string, signal?: AbortSignal): Promise<MCPClient> {
  return createMCPClient({
    transport: new AnswerTransport(url, {
      headers: { authorization: `Bearer ${token}` }, // or authProvider: { token: async () => … }
      timeoutMs: 60_000, // each exchange's deadline, a 2025 resumption included
      maxBytes: 32 * 1024 * 1024, // each answer's cap
      ...(signal === undefined ? {} : { signal }), // ends every exchange of the client when it aborts
    }),
  });
}
// #endregion ai-sdk
