/**
 * The client guide's Worker recipe: a tool call from a module Worker (run in workerd, through Miniflare).
 * docs/guides/client.md shows the region below exactly, with 'sse-answer' for the source path;
 * test/answer-client-servers.test.ts type-checks it with the tests and runs it against real servers.
 */

// #region worker
import { AnswerClient, isAnswerError } from '../../../src/index.js';

/** The Worker's bindings: the server's URL (a var) and its token (a secret). */
export interface Env {
  readonly MCP_URL: string;
  readonly MCP_TOKEN: string;
}

/**
 * A module Worker that calls one MCP tool for each request it serves: connect, call, close.
 * Nothing is held between requests — no session, no stream — so any isolate can serve any request.
 */
export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const text = new URL(request.url).searchParams.get('text') ?? 'hello';
    let client: AnswerClient | undefined;
    try {
      client = await AnswerClient.connect(env.MCP_URL, {
        authProvider: { token: async () => env.MCP_TOKEN },
        timeoutMs: 20_000, // each exchange's deadline: the handshake, the call, the DELETE
      });
      const result = await client.callTool('echo', { text });
      return Response.json({ era: client.era, protocolVersion: client.protocolVersion, result });
    } catch (error) {
      // Switch on error.code: rpc_error, http_status, timeout, negotiation_failed, …
      if (isAnswerError(error)) return Response.json({ code: error.code, message: error.message }, { status: 502 });
      throw error;
    } finally {
      // A 2025 session ends with a DELETE (a 2026-07-28 client has nothing to end); a DELETE that
      // fails leaves the session to the server's own expiry, and the answer stands.
      await client?.close().catch(() => undefined);
    }
  },
};
// #endregion worker
