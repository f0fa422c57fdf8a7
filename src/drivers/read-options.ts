/**
 * The options of `readAnswer` and `readAnswerBody`, each checked before the body is touched.
 * @module
 */

import { checkSignal } from './abort-watch.js';
import { checkMaxBytes } from '../reducers/budget.js';
import { checkRequestId, checkType, optionsObject } from '../vocabulary/check-argument.js';
import type { JsonRpcMessage, JsonRpcRequestId } from '../vocabulary/json-rpc.js';

/** Options for {@link readAnswer} and {@link readAnswerBody}. */
export interface ReadAnswerOptions {
  /**
   * The request's id (a string or an integer): a response with another id is passed over (`1` is
   * not `"1"`), but an error with `id: null` answers. Omitted: the first response answers.
   */
  readonly requestId?: JsonRpcRequestId | undefined;
  /** The cap on body bytes read: default 16 MiB (`DEFAULT_MAX_BYTES`), `Infinity` for none. */
  readonly maxBytes?: number | undefined;
  /**
   * Stops reading and releases the body when aborted: `timeout` for a `TimeoutError` reason,
   * `aborted` otherwise. Without one there is no deadline. Any number of reads may share one.
   */
  readonly signal?: AbortSignal | undefined;
  /**
   * Called synchronously with every message passed over, in order; never awaited. What it throws
   * stops the read, which rejects with it; an abort of the signal in it stops the read too.
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
 * @throws TypeError naming the option for a value of the wrong type, RangeError for one out of range.
 */
export function checkReadAnswerOptions(options: unknown): CheckedOptions {
  const { requestId, maxBytes, signal, onMessage } = optionsObject(options) as Record<keyof ReadAnswerOptions, unknown>;
  if (requestId !== undefined) checkRequestId('requestId', requestId);
  const checkedSignal = checkSignal('signal', signal);
  if (onMessage !== undefined) checkType('onMessage', onMessage, 'function');
  return { requestId: requestId as CheckedOptions['requestId'], maxBytes: checkMaxBytes(maxBytes), signal: checkedSignal, onMessage: onMessage as CheckedOptions['onMessage'] };
}
