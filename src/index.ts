/**
 * sse-answer: read one JSON-RPC answer from an MCP Streamable HTTP response — plain JSON or a
 * `text/event-stream` — and hold no stream.
 *
 * The pipeline, one folder a layer and one file a stage:
 * - `vocabulary/`: the words every layer shares — JSON-RPC types, `AnswerError`, argument checks.
 * - `reducers/`: pure `(state, chunk) → (state, output)` steps — the SSE scanner (`scanner.ts`,
 *   over `utf8.ts`), the response selector (`selector.ts`, over `parse-json.ts`), the byte budget
 *   (`budget.ts`), and their composition, the answer reducer (`answer.ts`).
 * - `drivers/`: move a body's chunks through the reducers — `readAnswer` (`read-answer.ts`,
 *   pulling through `chunk-source.ts`), `scanEvents` and `SseEventStream`.
 * - `client/`: one exchange with an MCP server as a value (`exchange.ts`, over `send-request.ts`,
 *   `authorized-request.ts`, `deadline.ts` and `resume.ts`), and the public edges on it: the
 *   exchange alone (`post-json-rpc.ts`), the transport MCP clients take (`answer-transport.ts`),
 *   and an MCP client of its own (`answer-client.ts`, over `negotiate.ts`, `tool-headers.ts` and
 *   `input-required.ts`).
 * - `cli/`: the `sse-answer` command, its own entry and the one place that uses Node APIs.
 * Everything here uses web-platform globals only.
 * @packageDocumentation
 */

export { scan, scanEach, scanEnd, scanEndEach, scanStart } from './reducers/scanner.js';
export type { ScanEndOptions, ScanResult, ScanState, SseEvent, SseEventSink } from './reducers/scanner.js';

export { select, selectEnd, selectStart, selectValue } from './reducers/selector.js';
export type {
  SelectAnswered,
  SelectEndResult,
  SelectOptions,
  SelectResult,
  SelectState,
  SelectUnanswered,
} from './reducers/selector.js';

export { budget, budgetStart, DEFAULT_MAX_BYTES } from './reducers/budget.js';
export type { BudgetResult, BudgetState } from './reducers/budget.js';

export { answer, answerEnd, answerProgress, answerStart } from './reducers/answer.js';
export type {
  AnswerEndResult,
  AnswerFormat,
  AnswerFound,
  AnswerMalformed,
  AnswerOverBudget,
  AnswerOptions,
  AnswerOutcome,
  AnswerProgress,
  AnswerResult,
  AnswerState,
  EventStreamAnswerState,
  JsonAnswerState,
} from './reducers/answer.js';

export { ACCEPT, readAnswer, readAnswerBody } from './drivers/read-answer.js';
export type { ReadAnswerOptions } from './drivers/read-options.js';

export { scanEvents } from './drivers/scan-events.js';
export type { ScanEventsOptions } from './drivers/scan-events.js';
export { SseEventStream } from './drivers/sse-event-stream.js';
export type { SseEventStreamOptions } from './drivers/sse-event-stream.js';

export { DEFAULT_TIMEOUT_MS } from './client/deadline.js';
export type { ExchangeOptions } from './client/exchange-options.js';
export { postJsonRpc } from './client/post-json-rpc.js';
export type { FetchFunction, PostJsonRpcOptions, PostJsonRpcResult, RedirectPolicy } from './client/post-json-rpc.js';

// Request metadata headers of MCP 2026-07-28 (SEP-2243): pure functions, no exchange.
export { eraOf, isProtocolVersion, LEGACY_PROTOCOL_VERSION, MODERN_PROTOCOL_VERSION } from './client/era.js';
export type { McpEra } from './client/era.js';
export { mcpRequestHeaders } from './client/mcp-request-headers.js';
export type { McpRequestHeadersOptions } from './client/mcp-request-headers.js';
export { checkMcpHeaderParams } from './client/mcp-param-headers.js';
export type {
  McpHeaderParam,
  McpHeaderParamsCheck,
  McpHeaderParamsInvalid,
  McpHeaderParamsValid,
  McpHeaderParamType,
} from './client/mcp-param-headers.js';
export { decodeMcpHeaderValue, encodeMcpHeaderValue } from './client/mcp-header-value.js';

export { AnswerClient } from './client/answer-client.js';
export type { AnswerClientCachedOptions, AnswerClientOptions, AnswerClientRequestOptions } from './client/answer-client.js';
export type {
  CallToolResult,
  ContentBlock,
  GetPromptResult,
  Icon,
  Prompt,
  PromptArgument,
  PromptMessage,
  ReadResourceResult,
  Resource,
  ResourceContents,
  ResourceTemplate,
  Tool,
} from './client/mcp-results.js';
export { MAX_LIST_PAGES } from './client/list-pages.js';
export type { HandshakeAnswer, NegotiatedBy, VersionNegotiation } from './client/negotiate.js';
export type { InputRequest, InputRequestContext, InputRequestHandler } from './client/input-required.js';
export type { ClientInfo } from './client/request-message.js';

export { AnswerTransport } from './client/answer-transport.js';
export type { AnswerTransportOptions, AnswerTransportSendOptions, TransportMessage } from './client/answer-transport.js';
export type { AuthProvider, UnauthorizedContext } from './client/auth-provider.js';
export { isBearerToken } from './vocabulary/bearer-token.js';
export { preflightedHeaders } from './client/page-cors.js';
export type { AuthChallenge } from './vocabulary/www-authenticate.js';

export { AnswerError, isAnswerError } from './vocabulary/errors.js';
export { escapedPrefix, escapeUnsafe, quoteText } from './vocabulary/describe-value.js';
export { MIN_SECRET_LENGTH, REDACTED, Secrets } from './vocabulary/secrets.js';
export type { AnswerDetail, AnswerErrorCode, AnswerErrorOptions, MalformedReason, NoAnswerReason } from './vocabulary/errors.js';

export type {
  JsonObject,
  JsonRpcErrorResponse,
  JsonRpcMessage,
  JsonRpcRequest,
  JsonRpcRequestId,
  JsonRpcResponse,
  JsonRpcResultResponse,
  JsonValue,
} from './vocabulary/json-rpc.js';
