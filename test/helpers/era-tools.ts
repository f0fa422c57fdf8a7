/**
 * What every era test server offers, whichever library implements it: the tool names and their
 * fixed answers, the running-server shape the client tests loop over, and the counters a
 * handler keeps (calls that saw their cancellation).
 *
 * Tools (same names on every server):
 * - `echo {text}`: the text back.
 * - `progress {steps}`: a log message where the library sends one, and `steps` progress
 *   notifications when the call carried a progress token, then `done`.
 * - `big {bytes}`: a text result of `bytes` characters.
 * - `never`: answers only when the call is cancelled (counted) or the server stops (not counted).
 * - `tagged {region, text}`: `region` carries `"x-mcp-header": "Region"`, so a 2026 client sends
 *   `Mcp-Param-Region`; answers `region:text`.
 * - `elicit`: on 2026-07-28 an `InputRequiredResult` asking for `{ name }` under the key
 *   `ELICIT_KEY` (a multi round-trip request; all three libraries have them), and the retry with
 *   `inputResponses` gets `hello NAME`; on a 2025 connection each library does what it does.
 * - `breaks`: one progress notification, then waits like `never`; the HTTP layer destroys the
 *   connection once that notification is out (see `era-http.ts`).
 */

import type { EraRequest, RecordingServer } from './era-http.js';

/** The tools every era server registers. */
export const ERA_TOOL_NAMES = ['echo', 'progress', 'big', 'never', 'tagged', 'elicit', 'breaks'] as const;

/** The `inputRequests` key of `elicit`'s question. */
export const ELICIT_KEY = 'name';

/** The elicitation schema `elicit` asks with. */
export const ELICIT_SCHEMA: { type: 'object'; properties: { name: { type: 'string' } }; required: string[] } = {
  type: 'object',
  properties: { name: { type: 'string' } },
  required: ['name'],
};

/** The header name `tagged`'s `region` is mirrored into (`Mcp-Param-Region`). */
export const REGION_HEADER = 'Region';

/** The log message `progress` sends before its notifications. */
export const PROGRESS_LOG = 'starting';

/**
 * What a server started with its catalog (`catalog: true` in `startSdkServer`'s and
 * `startMcpServer`'s options) offers besides the tools, the same on the v2 and the v1 SDK
 * servers, for the typed calls (`listResources`, `readResource`, `getPrompt`, …):
 *
 * - the resource `resource` (`text/plain`), whose text counts the reads the server served:
 *   `read N` — so a test sees whether a read reached the server;
 * - the resource template `template` (`page://{n}`), read as `page N`;
 * - the prompt `prompt` with one string argument `who`: one user message, `hello WHO`;
 * - the tool `fails`: a result with `isError: true` and the text `it failed`;
 * - the tool `changes {uri}`: sends `notifications/tools/list_changed`, then
 *   `notifications/resources/updated` for `uri`, on its own response stream, then `changed`.
 */
export const CATALOG = {
  resource: 'note://one',
  resourceName: 'note',
  template: 'page://{n}',
  templateName: 'page',
  prompt: 'greet',
  failing: 'fails',
  changing: 'changes',
} as const;

/**
 * The protocol eras a server can serve, named as the v2 Client's `getProtocolEra()` names them:
 * `legacy` for the `initialize` revisions (2025-11-25 and before), `modern` for 2026-07-28.
 */
export type Era = 'legacy' | 'modern';

/** A running era server. */
export interface RunningEraServer {
  /** Which implementation and mode, e.g. `sdk-modern`. */
  readonly name: string;
  /** The endpoint, `http://127.0.0.1:PORT/mcp`. */
  readonly url: string;
  /** The eras the server is configured to serve. */
  readonly eras: readonly Era[];
  /** Every HTTP request, in arrival order. */
  readonly requests: EraRequest[];
  /** Sockets accepted. */
  sockets(): number;
  /** Calls to `tool` (`never`, `breaks`) whose handler saw its abort signal fire. */
  cancelled(tool: 'never' | 'breaks'): number;
  /** Calls to `tool` that have started and not yet ended. */
  running(tool: 'never' | 'breaks'): number;
  /** Stops the server: ends waiting handlers (uncounted), then closes every connection. */
  stop(): Promise<void>;
}

/** The handler-side state a server keeps for `never` and `breaks`. */
export interface ToolCounters {
  /** Resolves when `signal` aborts (counted as cancelled) or the server stops (not counted). */
  waitForCancel(tool: 'never' | 'breaks', signal: AbortSignal | undefined): Promise<'cancelled' | 'stopped'>;
  cancelled(tool: 'never' | 'breaks'): number;
  running(tool: 'never' | 'breaks'): number;
  /** Ends every waiting handler without counting it. */
  stopAll(): void;
}

/** New counters. */
export function toolCounters(): ToolCounters {
  const cancelled = { never: 0, breaks: 0 };
  const running = { never: 0, breaks: 0 };
  const stoppers = new Set<() => void>();
  return {
    waitForCancel(tool, signal) {
      running[tool] += 1;
      return new Promise((resolve) => {
        const end = (how: 'cancelled' | 'stopped'): void => {
          if (!stoppers.delete(stop)) return;
          signal?.removeEventListener('abort', onAbort);
          running[tool] -= 1;
          if (how === 'cancelled') cancelled[tool] += 1;
          resolve(how);
        };
        const stop = (): void => end('stopped');
        const onAbort = (): void => end('cancelled');
        stoppers.add(stop);
        if (signal?.aborted === true) onAbort();
        else signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    cancelled: (tool) => cancelled[tool],
    running: (tool) => running[tool],
    stopAll() {
      for (const stop of [...stoppers]) stop();
    },
  };
}

/** Puts a recording server and its counters together as a `RunningEraServer`. */
export function runningEraServer(
  meta: { readonly name: string; readonly eras: readonly Era[] },
  recording: RecordingServer,
  counters: ToolCounters,
  beforeStop: () => Promise<void> = async () => undefined,
): RunningEraServer {
  return {
    ...meta,
    url: recording.url,
    requests: recording.requests,
    sockets: recording.sockets,
    cancelled: counters.cancelled,
    running: counters.running,
    async stop() {
      counters.stopAll();
      await beforeStop();
      await recording.stop();
    },
  };
}
