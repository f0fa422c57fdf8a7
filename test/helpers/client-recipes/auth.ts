/**
 * The client guide's auth recipe: a static token, and a refusal that says where authorization starts.
 * docs/guides/client.md shows the region below exactly, with 'sse-answer' for the source path;
 * test/answer-client-servers.test.ts type-checks it with the tests and runs it against real servers.
 */

// #region auth
import { AnswerClient, isAnswerError, type AuthProvider } from '../../../src/index.js';

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
