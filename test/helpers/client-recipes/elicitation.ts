/**
 * The client guide's elicitation recipe: one handler for both eras.
 * docs/guides/client.md shows the region below exactly, with 'sse-answer' for the source path;
 * test/answer-client-servers.test.ts type-checks it with the tests and runs it against real servers.
 */

// #region elicitation
import { AnswerClient, type InputRequestHandler, type JsonObject, type JsonValue } from '../../../src/index.js';

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
  return async (request, { signal }): Promise<JsonObject> => {
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
