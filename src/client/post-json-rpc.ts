/** `postJsonRpc`: one exchange's public edge — options checked, the message planned, the outcome made the result or the one `AnswerError`. @module */

import { checkType, checkUrl } from '../vocabulary/check-argument.js';
import { answerError } from '../vocabulary/failure.js';
import type { JsonRpcMessage, JsonRpcResponse } from '../vocabulary/json-rpc.js';
import { checkExchangeOptions, type ExchangeOptions } from './exchange-options.js';
import { declaredProtocolVersion } from './era.js';
import { planMessage, runExchange } from './exchange.js';
import { sessionStart } from './session.js';
import { SessionKeeper } from './session-keeper.js';

export type { FetchFunction, RedirectPolicy } from './send-request.js';

/** Options for {@link postJsonRpc}: an exchange's options, and where passed-over messages go. Its `headers` carry what a 2025 client says there: `Mcp-Session-Id`, `MCP-Protocol-Version`. */
export interface PostJsonRpcOptions extends ExchangeOptions {
  /** Called with every message passed over, in order, as `readAnswer`'s `onMessage` is. */
  readonly onMessage?: ((message: JsonRpcMessage) => void) | undefined;
}

/** What {@link postJsonRpc} resolves with. */
export interface PostJsonRpcResult {
  /** The answer to a request, exactly as parsed; `undefined` for a notification or a response the server accepted. */
  readonly answer: JsonRpcResponse | undefined;
  /** The HTTP status of the POST. */
  readonly status: number;
  /** The POST's response headers: `Mcp-Session-Id` is there after an `initialize`. */
  readonly headers: Headers;
}

/**
 * Sends one JSON-RPC message and reads its answer, holding no stream afterwards; its era follows its `_meta` version, else `options.headers`' `MCP-Protocol-Version` (the embedding guide).
 * @throws {@link AnswerError} for a failed exchange (outside 2xx: `http_status`, the server's JSON-RPC error in `detail.answer`); `TypeError`/`RangeError` for bad arguments; what `onMessage` throws.
 */
export async function postJsonRpc(url: string | URL, message: object, options: PostJsonRpcOptions = {}): Promise<PostJsonRpcResult> {
  checkUrl(url);
  const settings = checkExchangeOptions(options);
  const { onMessage } = options;
  if (onMessage !== undefined) checkType('onMessage', onMessage, 'function');
  // The message's own version decides its era; else the caller's headers say it, as a 2025 client's do.
  const version = declaredProtocolVersion(message) ?? settings.headers.get('mcp-protocol-version') ?? undefined;
  const planned = planMessage(message, settings, { version, sessionId: settings.headers.get('mcp-session-id') ?? undefined });
  // The caller holds the session, from the headers: this state only ends those passed over.
  const session = new SessionKeeper(url, settings, sessionStart('caller', planned.era, version, planned.sessionId));
  const outcome = await runExchange(url, settings, planned, { onMessage, session });
  switch (outcome.kind) {
    case 'answered':
      return { answer: outcome.answer, status: outcome.status, headers: outcome.headers };
    case 'accepted':
      return { answer: undefined, status: outcome.status, headers: outcome.headers };
    case 'refused':
    case 'failed':
      throw answerError(outcome.failure, settings.secrets);
  }
}
