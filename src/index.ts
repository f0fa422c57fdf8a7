/**
 * sse-answer: read one JSON-RPC answer from an MCP Streamable HTTP response — plain JSON or a
 * `text/event-stream` — and hold no stream. The public entry: exports only. Which file owns which
 * rule: docs/guides/architecture.md.
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
