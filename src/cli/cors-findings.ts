/** What `probe --origin ORIGIN` finds of the server's CORS: each era's requests sent as a page at ORIGIN sends them, then their preflights; every finding gathered. @module */

import {
  AnswerClient,
  checkMcpHeaderParams,
  DEFAULT_TIMEOUT_MS,
  mcpRequestHeaders,
  preflightedHeaders,
  type FetchFunction,
  type JsonObject,
  type McpEra,
  type VersionNegotiation,
} from '../index.js';
import type { ClientSettings } from './client-options.js';
import { oneLine } from './output.js';
import { exposed, needsPreflight, originAllowed, preflightHeaders, preflightProblems, type CorsProblem } from './cors-rules.js';
import { describeFailure, type CorsFinding, type CorsReport, type ProbeReport } from './probe-report.js';

/** One request of a page's client: its name in the report, its method and the headers it carries (`Origin` apart). */
interface PageRequest {
  readonly label: string;
  readonly method: string;
  readonly headers: Headers;
  /** Header names as the client spells them where `Headers` lower-cases them (`Mcp-Param-*`). */
  readonly spelled?: readonly string[];
}

/** The most `tools/list` pages read for the tools' `Mcp-Param-*` headers. */
const MAX_TOOL_PAGES = 20;
/** The most tools with `Mcp-Param-*` headers whose `tools/call` is preflighted: a preflight each. */
const MAX_PARAM_TOOLS = 100;
/** The most characters of a tool's name (the server's text) in a request's label. */
const MAX_NAME = 64;

/** The findings of the eras the report says the server speaks, for a page at `origin`. */
export async function corsReport(settings: ClientSettings, origin: string, report: ProbeReport): Promise<CorsReport> {
  const findings = new Findings(origin);
  const eras: McpEra[] = [];
  if (report.modern.supported) {
    eras.push('modern');
    await checkEra(settings, findings, 'modern', 'auto', false);
  }
  if (report.legacy.supported) {
    eras.push('legacy');
    // A page reaches the 2025 era of a server that speaks both only by asking for it; of a 2025
    // server, through server/discover first, which must then pass CORS too.
    await checkEra(settings, findings, 'legacy', report.modern.supported ? 'legacy' : 'auto', report.legacy.primesStreams);
  }
  return { origin, eras, findings: findings.list() };
}

async function checkEra(settings: ClientSettings, findings: Findings, era: McpEra, negotiation: VersionNegotiation, resumes: boolean): Promise<void> {
  const tokenGiven = settings.options.authProvider !== undefined || new Headers(settings.options.headers).has('authorization');
  const sent: PageRequest[] = [];
  const fetchFn = settings.options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const page: FetchFunction = async (input, init) => {
    const request = pageRequest(init);
    sent.push(request);
    const headers = new Headers(init.headers);
    headers.set('origin', findings.origin);
    const response = await fetchFn(input, { ...init, headers });
    checkResponse(findings, era, request.label, response, tokenGiven);
    return response;
  };
  const would: PageRequest[] = [];
  let client: AnswerClient | undefined;
  try {
    client = await AnswerClient.connect(settings.url, { ...settings.options, fetch: page, versionNegotiation: negotiation });
    if (era === 'modern') would.push(...(await modernCalls(client, sent.at(-1)!)));
  } catch (error) {
    findings.add(era, { kind: 'request_failed', error: describeFailure(error) }, [sent.at(-1)?.label ?? 'connect']);
  } finally {
    await client?.close().catch(() => undefined); // a DELETE refused is not CORS's business
  }
  // A resumption is a GET with the POST's headers, the session and version, and Last-Event-ID.
  const lastPost = [...sent].reverse().find((request) => request.method === 'POST');
  if (era === 'legacy' && resumes && lastPost !== undefined) {
    const headers = new Headers(lastPost.headers);
    headers.delete('content-type');
    headers.set('accept', 'text/event-stream');
    headers.set('last-event-id', '0');
    would.push({ label: 'GET (resumes a stream, Last-Event-ID)', method: 'GET', headers });
  }
  await sendPreflights(settings, findings, era, [...sent, ...would]);
}

function pageRequest(init: RequestInit): PageRequest {
  const method = (init.method ?? 'GET').toUpperCase();
  const headers = new Headers(init.headers);
  if (method === 'DELETE') return { label: 'DELETE (ends the session)', method, headers };
  let rpc: unknown;
  try {
    rpc = typeof init.body === 'string' ? (JSON.parse(init.body) as { method?: unknown }).method : undefined;
  } catch {
    rpc = undefined;
  }
  return { label: typeof rpc === 'string' ? `${method} ${rpc}` : method, method, headers };
}

/** What a page may read of one response: the response itself, a session it is issued, a challenge. */
function checkResponse(findings: Findings, era: McpEra, label: string, response: Response, tokenGiven: boolean): void {
  const { headers } = response;
  if (!originAllowed(findings.origin, headers)) findings.add(era, { kind: 'origin_not_allowed' }, [label]);
  if (headers.has('mcp-session-id') && !exposed('Mcp-Session-Id', headers)) findings.add(era, { kind: 'header_not_exposed', name: 'Mcp-Session-Id' }, [label]);
  // A server that takes a token answers 401 once it expires: its challenge must be readable then.
  if ((tokenGiven || response.status === 401) && !exposed('WWW-Authenticate', headers)) {
    findings.add(era, { kind: 'header_not_exposed', name: 'WWW-Authenticate' }, [label]);
  }
}

/**
 * The 2026-07-28 requests a page would send that the probe does not (they may act): a `tools/call`
 * of each listed tool, `prompts/get` and `resources/read`, with `like`'s headers; of the tools with
 * `Mcp-Param-*`, the first {@link MAX_PARAM_TOOLS}, a preflight each.
 */
async function modernCalls(client: AnswerClient, like: PageRequest): Promise<PageRequest[]> {
  const capabilities = client.capabilities ?? {};
  const version = client.protocolVersion;
  const calls: PageRequest[] = [];
  const withHeaders = (label: string, message: JsonObject, extra: readonly string[] = []): void => {
    const headers = new Headers(like.headers);
    try {
      mcpRequestHeaders(message, { protocolVersion: version }).forEach((value, name) => headers.set(name, value));
    } catch {
      return; // a name no header can carry: no client sends that request
    }
    for (const name of extra) headers.set(name, 'x');
    calls.push({ label, method: 'POST', headers, spelled: extra });
  };
  if (capabilities['tools'] !== undefined) {
    let plain = false;
    let withParams = 0;
    for (const tool of await listTools(client)) {
      const check = checkMcpHeaderParams(tool);
      if (!check.valid) continue; // a client never calls it
      const name = typeof tool['name'] === 'string' ? tool['name'] : '';
      const message = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name } };
      // The tools with no Mcp-Param-* carry the same headers: one request stands for them all.
      if (check.params.length > 0) {
        if ((withParams += 1) <= MAX_PARAM_TOOLS) withHeaders(`POST tools/call ${oneLine(name, MAX_NAME)}`, message, check.params.map((param) => param.header));
      } else if (!plain) {
        plain = true;
        withHeaders('POST tools/call', message);
      }
    }
  }
  if (capabilities['prompts'] !== undefined) withHeaders('POST prompts/get', { jsonrpc: '2.0', id: 1, method: 'prompts/get', params: { name: 'x' } });
  if (capabilities['resources'] !== undefined) withHeaders('POST resources/read', { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'x' } });
  return calls;
}

async function listTools(client: AnswerClient): Promise<JsonObject[]> {
  const tools: JsonObject[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_PAGES; page += 1) {
    const answer = await client.request('tools/list', cursor === undefined ? {} : { cursor });
    const given = 'result' in answer ? answer.result : undefined;
    const result = typeof given === 'object' && given !== null && !Array.isArray(given) ? given : undefined;
    const listed = Array.isArray(result?.['tools']) ? result['tools'] : [];
    for (const tool of listed) if (typeof tool === 'object' && tool !== null && !Array.isArray(tool)) tools.push(tool);
    const next = result?.['nextCursor'];
    if (typeof next !== 'string') break;
    cursor = next;
  }
  return tools;
}

/** Sends each preflight the requests need, once for each method and set of headers (as a browser caches it), and checks its answer. */
async function sendPreflights(settings: ClientSettings, findings: Findings, era: McpEra, requests: readonly PageRequest[]): Promise<void> {
  const byPreflight = new Map<string, { method: string; names: string[]; labels: string[]; spelled: string[] }>();
  for (const request of requests) {
    const names = preflightedHeaders(request.headers);
    if (!needsPreflight(request.method, names)) continue;
    const key = `${request.method} ${names.map((name) => name.toLowerCase()).sort().join(',')}`;
    const group = byPreflight.get(key) ?? { method: request.method, names, labels: [], spelled: [] };
    if (!group.labels.includes(request.label)) group.labels.push(request.label);
    group.spelled.push(...(request.spelled ?? []));
    byPreflight.set(key, group);
  }
  const fetchFn = settings.options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  for (const { method, names, labels, spelled } of byPreflight.values()) {
    let response: Response;
    try {
      response = await fetchFn(settings.url, {
        method: 'OPTIONS',
        headers: preflightHeaders(findings.origin, method, names),
        redirect: 'manual', // a browser follows no redirect of a preflight
        signal: AbortSignal.timeout(settings.options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      });
    } catch (error) {
      findings.add(era, { kind: 'request_failed', error: `the preflight (OPTIONS) failed: ${describeFailure(error)}` }, labels);
      continue;
    }
    await response.body?.cancel().catch(() => undefined);
    for (const problem of preflightProblems(findings.origin, method, names, response)) findings.add(era, problem, labels, spelled);
  }
}

/** The findings, one per era, kind and name, each with every request it concerns. */
class Findings {
  readonly origin: string;
  readonly #found = new Map<string, CorsFinding & { readonly requests: string[] }>();

  constructor(origin: string) {
    this.origin = origin;
  }

  /** Adds `problem` of `era` for `requests`; `spelled` gives a header's name as the request wrote it. */
  add(era: McpEra, problem: CorsProblem | { readonly kind: 'request_failed'; readonly error: string }, requests: readonly string[], spelled: readonly string[] = []): void {
    const name = 'name' in problem ? (spelled.find((given) => given.toLowerCase() === problem.name.toLowerCase()) ?? problem.name) : undefined;
    const status = problem.kind === 'preflight_refused' ? problem.status : undefined;
    const key = [era, problem.kind, name ?? '', status ?? '', problem.kind === 'request_failed' ? problem.error : ''].join('\n');
    const known = this.#found.get(key);
    if (known !== undefined) {
      for (const request of requests) if (!known.requests.includes(request)) known.requests.push(request);
      return;
    }
    const said = problem.kind === 'request_failed' ? { error: problem.error } : { fix: this.#fix(problem, name) };
    this.#found.set(key, { era, kind: problem.kind, ...(name === undefined ? {} : { name }), ...(status === undefined ? {} : { status }), requests: [...requests], ...said });
  }

  list(): CorsFinding[] {
    return [...this.#found.values()];
  }

  #fix(problem: CorsProblem, name: string | undefined): string {
    switch (problem.kind) {
      case 'origin_not_allowed':
        return `Access-Control-Allow-Origin: ${this.origin}`;
      case 'preflight_refused':
        return 'answer the preflight (OPTIONS) with a 2xx, before any auth check';
      case 'method_not_allowed':
        return `Access-Control-Allow-Methods: ${name}`;
      case 'header_not_allowed':
        return `Access-Control-Allow-Headers: ${name}`;
      case 'header_not_exposed':
        return `Access-Control-Expose-Headers: ${name}`;
    }
  }
}
