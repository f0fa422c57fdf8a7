/**
 * A scripted MCP server for `AnswerClient`'s unit tests (`test/client/answer-client-*.test.ts`),
 * over `client-fetch.ts`'s recording fetch. It answers the handshake of its era — `server/discover`
 * (a 2025 server answers it 404), `initialize` with a new session `s-1`, `s-2`, … each time,
 * `notifications/initialized`, the DELETE — and, in 2025, refuses what carries no session (400)
 * or a session it does not hold (404, as the 2025-11-25 transport says). `forget()` forgets every
 * session, as a restarted server would. Every other request goes to the test's `handle`.
 */

import { AnswerClient, type AnswerClientOptions } from '../../src/client/answer-client.js';
import { empty, json, resultFor, scriptedFetch, type SentRequest } from './client-fetch.js';

export const URL_ = 'https://mcp.example/mcp';
export const MODERN = '2026-07-28';
export const LEGACY = '2025-11-25';

/** Answers one request the handshake does not. */
export type Handle = (sent: SentRequest) => Response | Promise<Response>;

/** Answers every request `{ ok: true }`. */
export const answerOk: Handle = (sent) => json(resultFor(sent, { ok: true }));

/** How the scripted server runs. */
export interface ScriptOptions {
  /** The version a 2025 server answers `initialize` with. Default 2025-11-25. */
  readonly version?: string;
  /** Answers `initialize` (the session it issues is `session`); by default a result in `version`. */
  readonly initialize?: (sent: SentRequest, session: string) => Response | Promise<Response>;
}

/** A scripted server of `era`, its requests, and the sessions it holds. */
export function mcpScript(era: 'modern' | 'legacy', handle: Handle = answerOk, options: ScriptOptions = {}) {
  const live = new Set<string>();
  let issued = 0;
  const script = scriptedFetch((sent) => {
    const session = sent.headers.get('mcp-session-id');
    if (sent.method === 'DELETE') {
      if (session === null || !live.delete(session)) return empty(404);
      return empty(204);
    }
    if (sent.rpc === 'server/discover') {
      if (era === 'legacy') return empty(404);
      return json(resultFor(sent, { supportedVersions: [MODERN], capabilities: { tools: {} } }));
    }
    if (sent.rpc === 'initialize') {
      const id = `s-${(issued += 1)}`;
      live.add(id);
      if (options.initialize !== undefined) return options.initialize(sent, id);
      return json(resultFor(sent, { protocolVersion: options.version ?? LEGACY, capabilities: { tools: {} }, serverInfo: { name: 'old', version: '1' } }), {
        headers: { 'mcp-session-id': id },
      });
    }
    if (era === 'legacy') {
      if (session === null) return rpcError(sent, -32000, 'Bad Request: no session', 400);
      if (!live.has(session)) return rpcError(sent, -32001, 'Session not found', 404);
    }
    if (sent.body?.['id'] === undefined) return empty(202);
    return handle(sent);
  });
  return {
    ...script,
    /** The sessions the server holds. */
    live,
    /** Forgets every session, as a restarted server would: their requests get 404. */
    forget: (): void => live.clear(),
  };
}

/** A client connected to a scripted server of `era`; `from` is the count of requests the handshake sent. */
export async function connectTo(era: 'modern' | 'legacy', handle?: Handle, options: AnswerClientOptions = {}, script: ScriptOptions = {}) {
  const server = mcpScript(era, handle, script);
  const client = await AnswerClient.connect(URL_, { ...options, fetch: server.fetch });
  return { client, server, sent: server.sent, from: server.sent.length };
}

/** A JSON-RPC error response to `sent`, with `status` (default 200). */
export function rpcError(sent: SentRequest, code: number, message: string, status = 200, data?: unknown): Response {
  const error = data === undefined ? { code, message } : { code, message, data };
  return json({ jsonrpc: '2.0', id: sent.body?.['id'] ?? null, error }, { status });
}

/** The `UnsupportedProtocolVersion` refusal of `sent`, listing `supported`, with a 400 (or `status`). */
export function unsupportedVersion(sent: SentRequest, supported: readonly string[], status = 400): Response {
  const requested = sent.headers.get('mcp-protocol-version') ?? '';
  return rpcError(sent, -32022, 'Unsupported protocol version', status, { supported, requested });
}

/** A request's params as sent. */
export function paramsOf(sent: SentRequest | undefined): Record<string, unknown> {
  const params = sent?.body?.['params'];
  return typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : {};
}

/** A request's `params._meta` as sent. */
export function metaOf(sent: SentRequest | undefined): Record<string, unknown> | undefined {
  const meta = paramsOf(sent)['_meta'];
  return typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>) : undefined;
}

/** The requests sent after the first `from`. */
export function after(sent: readonly SentRequest[], from: number): SentRequest[] {
  return sent.slice(from);
}

/** A promise and its resolver: a gate a test opens. */
export function gate(): { readonly opened: Promise<void>; open(): void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** Waits `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
