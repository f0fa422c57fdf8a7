/**
 * `sse-answer call`: one request to a live MCP server, in the era negotiated with it (or
 * pinned): the request, the answer on stdout, and a 2025 session ended.
 * @module
 */

import { postJsonRpc, type JsonValue } from '../index.js';
import { postOptions, type ExchangeSettings } from './exchange-settings.js';
import { endLegacySession } from './legacy-handshake.js';
import { modernRequest, withParamHeaders } from './modern-request.js';
import { negotiate, negotiatedLine, type NegotiationPlan } from './negotiate.js';
import { printFailure, printJson, printNote } from './output.js';
import { toolDefinition } from './tool-definition.js';

/** What `call` is given. */
export interface CallCommand extends ExchangeSettings, NegotiationPlan {
  readonly method: string;
  readonly params: JsonValue | undefined;
}

/** The id of the user's request. */
const REQUEST_ID = 1;

/** Runs the call; a session the negotiation opened is ended on every exit. */
export async function call(command: CallCommand): Promise<void> {
  const negotiated = await negotiate(command, command);
  // Built before the era line: array params, which have no place for _meta, are bad usage alone.
  const modern = negotiated.era === 'modern'
    ? { version: negotiated.version, request: modernRequest(command, REQUEST_ID, command.method, command.params, negotiated.version) }
    : undefined;
  printNote(negotiatedLine(negotiated));
  try {
    if (modern !== undefined) {
      // Mcp-Param-* need the tool's definition: a conforming client sends them on every call.
      const { version, request } = modern;
      const name = command.method === 'tools/call' ? (request.params as { name?: unknown }).name : undefined;
      const tool = typeof name === 'string' ? await toolDefinition(command, name, version) : undefined;
      const headers = tool === undefined ? negotiated.headers : withParamHeaders(negotiated.headers, request, tool);
      const { answer } = await postJsonRpc(command.url, request, postOptions(command, headers));
      printJson(answer);
      return;
    }
    const request = { jsonrpc: '2.0', id: REQUEST_ID, method: command.method, ...(command.params === undefined ? {} : { params: command.params }) };
    const { answer } = await postJsonRpc(command.url, request, postOptions(command, negotiated.headers));
    printJson(answer);
  } finally {
    if (negotiated.session?.sessionId != null) await endLegacySession(command, negotiated.session.headers, printFailure);
  }
}
