/** A response outside 2xx as `http_status`: the status, the JSON-RPC error, a 401's or 403's challenge, every word of the server's quoted as its text. @module */

import type { AnswerDetail } from '../vocabulary/errors.js';
import { barePart, said, quotedPart, type Failure, type MessagePart } from '../vocabulary/failure.js';
import type { JsonRpcResponse } from '../vocabulary/json-rpc.js';
import { authChallenge, type AuthChallenge } from '../vocabulary/www-authenticate.js';
import { hiddenChallengeNote } from './page-cors.js';

/** The `http_status` failure of `response`, with the JSON-RPC error it carried (`answer`) and `note` (what else failed); the message names the challenge's `error`. */
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
