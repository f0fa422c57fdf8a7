/** The CLI's exit codes: one a failure kind, so a script can tell them apart without parsing text. @module */

import type { AnswerErrorCode } from '../index.js';

/** Answered: the answer (a result or a JSON-RPC error response) is on stdout. */
export const EXIT_ANSWERED = 0;
/** Any other failure: a file that cannot be read, an `initialize` the server refused. */
export const EXIT_FAILED = 1;
/** Bad usage: an unknown command or option, a value that does not parse. */
export const EXIT_USAGE = 2;

/**
 * One exit code an `AnswerError` code. `negotiation_failed` and `invalid_tool` (the command could
 * not do what was asked) exit {@link EXIT_FAILED}, said in words alone; `rpc_error` and
 * `input_required` are no command's failure (`call` prints such an answer and exits 0).
 */
export const EXIT_CODES: Readonly<Record<Exclude<AnswerErrorCode, 'negotiation_failed' | 'invalid_tool' | 'rpc_error' | 'input_required'>, number>> = {
  unsupported_content_type: 3,
  malformed_answer: 4,
  budget_exceeded: 5,
  aborted: 6,
  timeout: 7,
  stream_failed: 8,
  http_status: 9,
  unsupported_request: 10,
  connect_failed: 11,
  session_expired: 12,
};

/** The exit code of an `AnswerError` code with one of its own; `undefined` for those that exit {@link EXIT_FAILED}. */
export function exitCodeOf(code: AnswerErrorCode): number | undefined {
  return Object.hasOwn(EXIT_CODES, code) ? EXIT_CODES[code as keyof typeof EXIT_CODES] : undefined;
}
