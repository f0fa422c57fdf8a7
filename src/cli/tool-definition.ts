/**
 * The definition of the tool a 2026-07-28 `tools/call` calls, from `tools/list`: its
 * `x-mcp-header` annotations say which arguments the call mirrors into `Mcp-Param-*` headers,
 * which a client must send (Streamable HTTP, "Custom Headers from Tool Parameters").
 * @module
 */

import { checkMcpHeaderParams, postJsonRpc, type JsonValue } from '../index.js';
import { CommandFailed } from './command-failed.js';
import { objectOf, stepOptions, type ExchangeSettings } from './exchange-settings.js';
import { modernRequest } from './modern-request.js';

/** Pages of `tools/list` read before giving up: a cursor that never ends stops here. */
export const MAX_TOOL_PAGES = 100;

/**
 * Lists the server's tools (page by page, until `name` is found) and returns its definition, or
 * `undefined` when the server lists no such tool or answers `tools/list` with an error: the call
 * is then sent with no `Mcp-Param-*`, and the server's answer to it is what the user sees.
 * @throws CommandFailed for a tool whose `x-mcp-header` annotations are invalid: a client
 *   excludes such a tool, so it never calls it. The exchange's `AnswerError` as it is.
 */
export async function toolDefinition(settings: ExchangeSettings, name: string, version: string): Promise<object | undefined> {
  let cursor: string | undefined;
  for (let page = 1; page <= MAX_TOOL_PAGES; page += 1) {
    const request = modernRequest(settings, `tools/list-${page}`, 'tools/list', cursor === undefined ? undefined : { cursor }, version);
    const { answer } = await postJsonRpc(settings.url, request, stepOptions(settings, settings.headers));
    const result = objectOf(answer?.['result']);
    const tools = result?.['tools'];
    if (!Array.isArray(tools)) return undefined;
    const tool = tools.map(objectOf).find((candidate) => candidate?.['name'] === name);
    if (tool !== undefined) return checked(tool, name);
    const next: JsonValue | undefined = result?.['nextCursor'];
    if (typeof next !== 'string') return undefined;
    cursor = next;
  }
  return undefined;
}

function checked(tool: object, name: string): object {
  const check = checkMcpHeaderParams(tool);
  if (!check.valid) {
    throw new CommandFailed(`the server's tool ${JSON.stringify(name)} has invalid x-mcp-header annotations (${check.reasons.join('; ')}): a 2026-07-28 client excludes it and does not call it`);
  }
  return tool;
}
