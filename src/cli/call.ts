/**
 * `sse-answer call`: one request to a live MCP server — initialize, the request, the answer on
 * stdout, and the session ended.
 * @module
 */

import { endSession } from '../client/end-session.js';
import { postJsonRpc, type AuthProvider, type JsonValue } from '../index.js';
import { printFailure, printJson, printPassedOver } from './output.js';

/** The protocol version the CLI asks for; the server's answer decides. */
export const PROTOCOL_VERSION = '2025-11-25';

/** What `call` is given. */
export interface CallCommand {
  readonly url: URL;
  readonly method: string;
  readonly params: JsonValue | undefined;
  readonly headers: Headers;
  /** `--bearer-token-env`: the token on every request, the DELETE too. */
  readonly authProvider?: AuthProvider | undefined;
  readonly timeoutMs: number | undefined;
  readonly maxBytes: number | undefined;
  readonly initialize: boolean;
  readonly version: string;
}

/** A failure that is neither bad usage nor an `AnswerError`: exit 1, one line. */
export class CallFailed extends Error {
  /** A failure saying `message`. */
  constructor(message: string) {
    super(message);
    this.name = 'CallFailed';
  }
}

/** Runs the call; the session it opened is ended on every exit. */
export async function call(command: CallCommand): Promise<void> {
  const headers = new Headers(command.headers);
  const exchange = { timeoutMs: command.timeoutMs, maxBytes: command.maxBytes, onMessage: printPassedOver, authProvider: command.authProvider };
  let sessionId: string | null = null;
  try {
    if (command.initialize) {
      const init = await postJsonRpc(command.url, {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'sse-answer', version: command.version } },
      }, { ...exchange, headers });
      sessionId = init.headers.get('mcp-session-id');
      const result = init.answer?.['result'];
      const version = typeof result === 'object' && result !== null && !Array.isArray(result) ? result['protocolVersion'] : undefined;
      if (typeof version !== 'string') throw new CallFailed(`the server did not accept initialize: ${JSON.stringify(init.answer)}`);
      if (sessionId !== null) headers.set('mcp-session-id', sessionId);
      headers.set('mcp-protocol-version', version);
      await postJsonRpc(command.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, { ...exchange, headers });
    }
    const request = { jsonrpc: '2.0', id: 1, method: command.method, ...(command.params === undefined ? {} : { params: command.params }) };
    const { answer } = await postJsonRpc(command.url, request, { ...exchange, headers });
    printJson(answer);
  } finally {
    if (sessionId !== null) {
      await endSession(command.url, { headers, timeoutMs: command.timeoutMs, authProvider: command.authProvider }).catch((error: unknown) => {
        printFailure(`ending the session failed: ${error instanceof Error ? error.message : String(error)}`);
      });
    }
  }
}
