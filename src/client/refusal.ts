/**
 * A response outside 2xx as a failure: `http_status`, with the status, the JSON-RPC error the
 * server sent with it, and for a 401 or 403 its parsed `WWW-Authenticate` challenge. Every word
 * of the server's that the message repeats — the reason phrase, the error's message, the
 * challenge — is quoted as server text.
 * @module
 */

import type { AnswerDetail } from '../vocabulary/errors.js';
import { barePart, said, quotedPart, type Failure, type MessagePart } from '../vocabulary/failure.js';
import type { JsonRpcResponse } from '../vocabulary/json-rpc.js';
import { authChallenge, type AuthChallenge } from '../vocabulary/www-authenticate.js';
import { hiddenChallengeNote } from './page-cors.js';

/**
 * The `http_status` failure of `response`; `answer` is the JSON-RPC error it carried, if any,
 * and `note` says more (what else failed). The message names the challenge's `error` (and
 * `scope` for `insufficient_scope`).
 */
export function refusal(
  response: Response,
  detail: AnswerDetail,
  answer: JsonRpcResponse | undefined,
  note: readonly MessagePart[] = [],
  cause?: unknown,
): Failure {
  const text = response.statusText === '' ? said`` : said` ${barePart(response.statusText)}`;
  const rpc = answer === undefined ? said`` : said`: ${describeRpcError(answer['error'])}`;
  const challenge = response.status === 401 || response.status === 403 ? authChallenge(response.headers.get('www-authenticate')) : undefined;
  const failure: Failure = {
    code: 'http_status',
    message: said`the server answered HTTP ${response.status}${text}${describeChallenge(challenge)}${rpc}${note}${hiddenChallengeNote(response)}`,
    detail: { ...detail, status: response.status, answer, ...(challenge === undefined ? {} : { challenge }) },
  };
  return cause === undefined ? failure : { ...failure, cause, hasCause: true };
}

/** ` (Bearer error "insufficient_scope", scope "…")`: what a challenge says, quoted short. */
function describeChallenge(challenge: AuthChallenge | undefined): readonly MessagePart[] {
  if (challenge?.error === undefined) return [];
  const scope = challenge.error === 'insufficient_scope' && challenge.scope !== undefined ? said`, scope ${quotedPart(challenge.scope)}` : said``;
  return said` (${barePart(challenge.scheme)} error ${quotedPart(challenge.error)}${scope})`;
}

/** `"message" (JSON-RPC error -32000)`: what a JSON-RPC error says, its message quoted. */
export function describeRpcError(error: unknown): readonly MessagePart[] {
  if (typeof error === 'object' && error !== null) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (typeof message === 'string') {
      return typeof code === 'number' ? said`${quotedPart(message)} (JSON-RPC error ${code})` : said`${quotedPart(message)}`;
    }
  }
  return said`a JSON-RPC error`;
}
