/**
 * sse-answer: read one JSON-RPC answer from an MCP Streamable HTTP response — plain JSON or a
 * `text/event-stream` — and hold no stream.
 *
 * The pipeline, one file a stage: the SSE scanner (`scanner.ts`, over `utf8.ts`), the response
 * selector (`selector.ts`, over `parse-json.ts`), the byte-budget guard (`budget.ts`), their
 * composition into the answer reducer (`answer.ts`), and the driver over a body or a fetch
 * `Response` (`read-answer.ts`, pulling through `chunk-source.ts`). The adapters move chunks into
 * the same reducers: `scanEvents` (`scan-events.ts`) and `SseEventStream` (`sse-event-stream.ts`).
 * The client: one exchange with a server (`post-json-rpc.ts`, with `deadline.ts` and `resume.ts`),
 * and the MCP SDK client transport built on it (`answer-transport.ts`).
 * Everything here uses web-platform globals only.
 * @packageDocumentation
 */

export { scan, scanEnd, scanStart } from './scanner.js';
export type { ScanEndOptions, ScanResult, ScanState, SseEvent } from './scanner.js';

export { select, selectEnd, selectStart, selectValue } from './selector.js';
export type {
  SelectAnswered,
  SelectEndResult,
  SelectOptions,
  SelectResult,
  SelectState,
  SelectUnanswered,
} from './selector.js';

export { budget, budgetStart, DEFAULT_MAX_BYTES } from './budget.js';
export type { BudgetResult, BudgetState } from './budget.js';

export { answer, answerEnd, answerProgress, answerStart } from './answer.js';
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
} from './answer.js';

export { ACCEPT, readAnswer, readAnswerBody } from './read-answer.js';
export type { ReadAnswerOptions } from './read-options.js';

export { scanEvents } from './scan-events.js';
export type { ScanEventsOptions } from './scan-events.js';
export { SseEventStream } from './sse-event-stream.js';
export type { SseEventStreamOptions } from './sse-event-stream.js';

export { DEFAULT_TIMEOUT_MS } from './deadline.js';
export { postJsonRpc } from './post-json-rpc.js';
export type { FetchFunction, PostJsonRpcOptions, PostJsonRpcResult } from './post-json-rpc.js';

export { AnswerTransport } from './answer-transport.js';
export type { AnswerTransportOptions, AnswerTransportSendOptions, TransportMessage } from './answer-transport.js';

export { AnswerError, isAnswerError } from './errors.js';
export type { AnswerDetail, AnswerErrorCode, AnswerErrorOptions, MalformedReason, NoAnswerReason } from './errors.js';

export type {
  JsonObject,
  JsonRpcErrorResponse,
  JsonRpcMessage,
  JsonRpcRequest,
  JsonRpcRequestId,
  JsonRpcResponse,
  JsonRpcResultResponse,
  JsonValue,
} from './json-rpc.js';
