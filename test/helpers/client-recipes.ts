/**
 * The recipes of docs/guides/client.md, as code that is type-checked with the tests and run by
 * test/answer-client-servers.test.ts against real servers (the Worker in workerd, through
 * Miniflare): what the guide shows is what compiles and works. (The guide imports from
 * 'sse-answer'; this file from the source.)
 */

// #region worker
import { AnswerClient, isAnswerError } from '../../src/index.js';

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
      const answer = await client.request('tools/call', { name: 'echo', arguments: { text } });
      if ('error' in answer) return Response.json({ error: answer.error }, { status: 502 });
      return Response.json({ era: client.era, protocolVersion: client.protocolVersion, result: answer.result });
    } catch (error) {
      // Switch on error.code: http_status, timeout, negotiation_failed, …
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

// #region auth
import type { AuthProvider } from '../../src/index.js';

/** A static bearer token or API key: `token()` is called before every request, the DELETE included. */
export function bearer(token: string): AuthProvider {
  return { token: async () => token };
}

/** Connects with a token; a refused one says where the server's authorization starts. */
export async function connectWithToken(url: string, token: string): Promise<AnswerClient> {
  try {
    return await AnswerClient.connect(url, { authProvider: bearer(token) });
  } catch (error) {
    if (isAnswerError(error) && error.code === 'http_status' && error.detail.status === 401) {
      // The server's WWW-Authenticate, parsed: where to discover its authorization server.
      const where = error.detail.challenge?.resourceMetadata ?? 'no resource metadata';
      throw new Error(`the token was refused (${where})`, { cause: error });
    }
    throw error;
  }
}
// #endregion auth

// #region elicitation
import type { InputRequestHandler, JsonObject, JsonValue } from '../../src/index.js';

/** What the user is asked: the server's message, and the schema of the answer it wants. */
export interface Question {
  readonly message: string;
  readonly requestedSchema: JsonValue | undefined;
}

/**
 * Answers the server's `elicitation/create` with `ask` (a form, a prompt): `undefined` declines.
 * The same handler serves both eras — the `inputRequests` of a 2026-07-28 `input_required`
 * result, and a 2025 server request on the call's stream.
 */
export function elicitation(ask: (question: Question, signal: AbortSignal) => Promise<JsonObject | undefined>): InputRequestHandler {
  return async (request, { signal }) => {
    if (request.method !== 'elicitation/create') throw new Error(`this client does not answer ${request.method}`);
    const message = request.params?.['message'];
    const question = { message: typeof message === 'string' ? message : '', requestedSchema: request.params?.['requestedSchema'] };
    const content = await ask(question, signal); // signal: the call ended, or the client closed
    return content === undefined ? { action: 'decline' } : { action: 'accept', content };
  };
}

/** A client that declares elicitation, so that servers ask it, and answers with `ask`. */
export function connectWithElicitation(url: string, ask: (question: Question, signal: AbortSignal) => Promise<JsonObject | undefined>): Promise<AnswerClient> {
  return AnswerClient.connect(url, { capabilities: { elicitation: {} }, onInputRequired: elicitation(ask) });
}
// #endregion elicitation
