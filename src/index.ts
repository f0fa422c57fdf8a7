/**
 * sse-answer: read one JSON-RPC answer from an MCP Streamable HTTP response — plain JSON or a
 * `text/event-stream` — and hold no stream.
 *
 * The pipeline, one file a stage: the SSE scanner (`scanner.ts`), the response selector
 * (`selector.ts`), the byte-budget guard (`budget.ts`), their composition (`answer.ts`), and the
 * driver over a fetch `Response` (`read-answer.ts`).
 * @packageDocumentation
 */

export { scan, scanEnd, scanStart } from './scanner.js';
export type { ScanEndOptions, ScanResult, ScanState, SseEvent } from './scanner.js';
