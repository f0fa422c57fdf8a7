/**
 * `postJsonRpc`: one JSON-RPC exchange over MCP Streamable HTTP — the POST, the status, the
 * answer, and its resumption — under one deadline and one byte cap. The public edge of
 * `exchange.ts`: options checked, the message planned, the outcome turned into the result or the
 * one `AnswerError`.
 * @module
 */

import { checkUrl, invalid } from '../vocabulary/check-argument.js';
import { answerError } from '../vocabulary/failure.js';
import type { JsonRpcMessage, JsonRpcResponse } from '../vocabulary/json-rpc.js';
import { checkExchangeOptions, type ExchangeOptions } from './exchange-options.js';
import { planMessage, runExchange } from './exchange.js';

export type { FetchFunction, RedirectPolicy } from './send-request.js';

/** Options for {@link postJsonRpc}: an exchange's options, and where passed-over messages go. */
export interface PostJsonRpcOptions extends ExchangeOptions {
  /**
   * Headers sent with the POST and with any GET that resumes it: `Mcp-Session-Id`,
   * `MCP-Protocol-Version`, `Authorization`, `Mcp-Param-*`, …. `Accept` and `Content-Type` are
   * set by the exchange; so are, in a 2026-07-28 exchange, `MCP-Protocol-Version`, `Mcp-Method`
   * and `Mcp-Name` (derived from the message), and `Mcp-Session-Id` is not sent there.
   */
  readonly headers?: HeadersInit | undefined;
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
 *   detail; `TypeError`/`RangeError` for bad arguments (a request id must be a string or a finite
 *   number). Whatever `onMessage` throws is rethrown as it is.
 */
export async function postJsonRpc(url: string | URL, message: object, options: PostJsonRpcOptions = {}): Promise<PostJsonRpcResult> {
  checkUrl(url);
  const settings = checkExchangeOptions(options);
  const { onMessage } = options;
  if (onMessage !== undefined && typeof onMessage !== 'function') throw invalid('onMessage', 'a function', onMessage);
  // The caller says the version and the session the way a 2025 client does, in its headers.
  const planned = planMessage(message, settings, { version: settings.headers.get('mcp-protocol-version') ?? undefined });
  const outcome = await runExchange(url, settings, planned, { onMessage });
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
