/**
 * The options of `readAnswer` and `readAnswerBody`, and their check: every option is checked
 * before the body is touched, so a bad one leaves the body as it was.
 * @module
 */

import { checkSignal } from './abort-watch.js';
import { checkMaxBytes } from '../reducers/budget.js';
import { checkRequestId, checkType, optionsObject } from '../vocabulary/check-argument.js';
import type { JsonRpcMessage, JsonRpcRequestId } from '../vocabulary/json-rpc.js';

/** Options for {@link readAnswer} and {@link readAnswerBody}. */
export interface ReadAnswerOptions {
  /**
   * The id of the request this is the answer to: a string or an integer, as MCP's request ids
   * are. When given, a response with another id is passed over (ids compare strictly: `1` is not
   * `"1"`), except an error response with `id: null`, which answers. When omitted, the first
   * response answers.
   */
  readonly requestId?: JsonRpcRequestId | undefined;
  /**
   * The cap on body bytes read: default 16 MiB (`DEFAULT_MAX_BYTES`); any whole number of bytes;
   * `Infinity` for none.
   */
  readonly maxBytes?: number | undefined;
  /**
   * Stops reading and releases the body when aborted: the error's code is `timeout` when the
   * signal's reason is a `TimeoutError` (as from `AbortSignal.timeout(ms)`), `aborted` otherwise.
   * Without a signal there is no deadline: a server that never finishes its answer is waited on.
   * One signal may be shared by any number of reads: it holds one listener for all of them.
   */
  readonly signal?: AbortSignal | undefined;
  /**
   * Called synchronously with every message passed over, in order: notifications, server
   * requests, responses to other requests, batch elements. Its return value is ignored (never
   * awaited). If it throws, reading stops, the body is released, and the read rejects with
   * that same error. If it aborts the signal, reading stops there too, even when the answer is
   * already read. A promise it returns is not observed either: an async callback must handle
   * its own rejections.
   */
  readonly onMessage?: ((message: JsonRpcMessage) => void) | undefined;
}

/** The options after their check, with the default cap filled in. */
export interface CheckedOptions {
  readonly requestId: JsonRpcRequestId | undefined;
  readonly maxBytes: number;
  readonly signal: AbortSignal | undefined;
  readonly onMessage: ((message: JsonRpcMessage) => void) | undefined;
}

/**
 * Checks every option, reading each once.
 * @throws TypeError naming the option for a value of the wrong type (a `signal` that is not a
 *   real `AbortSignal` among them), RangeError for a number out of range.
 */
export function checkReadAnswerOptions(options: unknown): CheckedOptions {
  const { requestId, maxBytes, signal, onMessage } = optionsObject(options) as Record<keyof ReadAnswerOptions, unknown>;
  if (requestId !== undefined) checkRequestId('requestId', requestId);
  const checkedSignal = checkSignal('signal', signal);
  if (onMessage !== undefined) checkType('onMessage', onMessage, 'function');
  return { requestId: requestId as CheckedOptions['requestId'], maxBytes: checkMaxBytes(maxBytes), signal: checkedSignal, onMessage: onMessage as CheckedOptions['onMessage'] };
}
