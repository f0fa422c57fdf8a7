/**
 * `postJsonRpc`: one JSON-RPC exchange over MCP Streamable HTTP — the POST, the status, the
 * answer, and its resumption — under one deadline and one byte cap. The public edge of
 * `exchange.ts`: options checked, the message planned, the outcome turned into the result or the
 * one `AnswerError`.
 * @module
 */

import { checkType, checkUrl } from '../vocabulary/check-argument.js';
import { answerError } from '../vocabulary/failure.js';
import type { JsonRpcMessage, JsonRpcResponse } from '../vocabulary/json-rpc.js';
import { checkExchangeOptions, type ExchangeOptions } from './exchange-options.js';
import { declaredProtocolVersion } from './era.js';
import { planMessage, runExchange } from './exchange.js';
import { sessionStart } from './session.js';
import { SessionKeeper } from './session-keeper.js';

export type { FetchFunction, RedirectPolicy } from './send-request.js';

/**
 * Options for {@link postJsonRpc}: an exchange's options, and where passed-over messages go. Its
 * `headers` carry what a 2025 client says there: `Mcp-Session-Id`, `MCP-Protocol-Version`.
 */
export interface PostJsonRpcOptions extends ExchangeOptions {
  /** Called with every message passed over, in order, as `readAnswer`'s `onMessage` is. */
  readonly onMessage?: ((message: JsonRpcMessage) => void) | undefined;
}

/** What {@link postJsonRpc} resolves with. */
export interface PostJsonRpcResult {
  /**
   * The answer to a request, exactly as parsed (a result or an error response); `undefined` for
   * a notification or a response the server accepted.
   */
  readonly answer: JsonRpcResponse | undefined;
  /** The HTTP status of the POST. */
  readonly status: number;
  /** The POST's response headers: `Mcp-Session-Id` is there after an `initialize`. */
  readonly headers: Headers;
}

/**
 * Sends one JSON-RPC message and reads its answer, holding no stream afterwards.
 *
 * - POSTs `message` as JSON with `Accept: application/json, text/event-stream`.
 * - A request (a message with `method` and `id`) is answered by the response with its id, read
 *   as `readAnswer` reads it. A 2xx JSON-RPC error response resolves like any answer.
 * - A notification or a response is done once the server accepts it (2xx); its body is not read.
 * - A status outside 2xx is an `http_status` {@link AnswerError}; `detail.answer` holds the
 *   JSON-RPC error the server sent with it, read within the cap and the deadline.
 * - The era follows the protocol version the exchange carries: the message's
 *   `params._meta["io.modelcontextprotocol/protocolVersion"]`, else the `MCP-Protocol-Version`
 *   of `options.headers`.
 * - 2025-11-25 and earlier: an event stream that ends without the answer, after an event id, is
 *   resumed (see {@link ExchangeOptions.resume}).
 * - 2026-07-28 and later: the request metadata headers are derived from the message
 *   ({@link mcpRequestHeaders}; pass a tool's `Mcp-Param-*` in `options.headers`), no session id is
 *   sent, nothing is resumed, and a response that breaks or ends before the answer is a
 *   `stream_failed` with `detail.reissue` (the server dropped the request). An abort closes the
 *   response stream, which is that era's cancellation of the request.
 *
 * @throws {@link AnswerError} for a failed exchange, with no secret it sent in its message or
 *   detail; `TypeError`/`RangeError` for bad arguments (a request id must be a string or an
 *   integer). Whatever `onMessage` throws is rethrown as it is (a session an
 *   `initialize` was given with that answer is ended, since no headers come back).
 */
export async function postJsonRpc(url: string | URL, message: object, options: PostJsonRpcOptions = {}): Promise<PostJsonRpcResult> {
  checkUrl(url);
  const settings = checkExchangeOptions(options);
  const { onMessage } = options;
  if (onMessage !== undefined) checkType('onMessage', onMessage, 'function');
  // The message's own version decides its era; else the caller says the version the way a 2025
  // client does, in its headers (and the session too).
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
