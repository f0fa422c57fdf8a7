// postJsonRpc with mcpRequestHeaders against the servers that serve 2026-07-28 (three
// implementations nobody here wrote): the stateless exchange a transport of its own would make —
// discover, list, a call whose x-mcp-header value needs the sentinel, progress passed over.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkMcpHeaderParams, mcpRequestHeaders, postJsonRpc, type JsonRpcMessage } from '../src/index.js';
import { ERA_SERVERS, REGION_HEADER, type RunningEraServer } from './helpers/era-servers.js';

const MODERN = '2026-07-28';
const meta = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'post-json-rpc-eras', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const request = (id: number, method: string, params: Record<string, unknown> = {}): Record<string, unknown> => ({
  jsonrpc: '2.0',
  id,
  method,
  params: { ...params, _meta: { ...meta, ...(params['_meta'] as object | undefined) } },
});

describe.each(ERA_SERVERS.filter((kind) => kind.name !== 'sdk-stateful'))('postJsonRpc, 2026-07-28, against $name', ({ start }) => {
  let server: RunningEraServer;
  beforeAll(async () => {
    server = await start();
  });
  afterAll(() => server.stop());

  test('server/discover: the supported versions, with the standard headers and no session', async () => {
    const { answer, headers } = await postJsonRpc(server.url, request(1, 'server/discover'));
    expect((answer?.['result'] as { supportedVersions: string[] }).supportedVersions).toContain(MODERN);
    expect(headers.get('mcp-session-id')).toBeNull();
    const seen = server.requests.at(-1)!;
    expect([seen.headers['mcp-protocol-version'], seen.headers['mcp-method'], seen.headers['mcp-session-id']]).toEqual([MODERN, 'server/discover', undefined]);
  });

  test("tools/call of a tool with an x-mcp-header parameter: the headers from the tool's definition, the value Base64 where it must be", async () => {
    const { answer } = await postJsonRpc(server.url, request(2, 'tools/list'));
    const tool = (answer?.['result'] as { tools: { name: string }[] }).tools.find((candidate) => candidate.name === 'tagged')!;
    const check = checkMcpHeaderParams(tool);
    expect(check.valid && check.params.map((param) => [param.header, param.path])).toEqual([[`Mcp-Param-${REGION_HEADER}`, ['region']]]);
    for (const region of ['us-west1', 'Zürich', ' padded ']) {
      const call = request(3, 'tools/call', { name: 'tagged', arguments: { region, text: 'x' } });
      const result = await postJsonRpc(server.url, call, { headers: mcpRequestHeaders(call, { tool }) });
      expect((result.answer?.['result'] as { content: { text: string }[] }).content[0]!.text).toBe(`${region}:x`);
      const sent = server.requests.at(-1)!.headers[`mcp-param-${REGION_HEADER.toLowerCase()}`];
      expect(sent).toBe(region === 'us-west1' ? region : `=?base64?${btoa(String.fromCharCode(...new TextEncoder().encode(region)))}?=`);
    }
  });

  test('without the tool, the same call is refused: http_status 400 with HeaderMismatch', async () => {
    const call = request(4, 'tools/call', { name: 'tagged', arguments: { region: 'us-west1', text: 'x' } });
    const error = await postJsonRpc(server.url, call).then(
      () => undefined,
      (caught: unknown) => caught as { code: string; detail: { status: number; answer: { error: { code: number } } } },
    );
    expect([error?.code, error?.detail.status, error?.detail.answer.error.code]).toEqual(['http_status', 400, -32020]);
  });

  test('progress is passed over before the answer', async () => {
    const seen: JsonRpcMessage[] = [];
    const call = request(5, 'tools/call', { name: 'progress', arguments: { steps: 2 }, _meta: { progressToken: 'p' } });
    const { answer } = await postJsonRpc(server.url, call, { onMessage: (message) => seen.push(message) });
    expect((answer?.['result'] as { content: { text: string }[] }).content[0]!.text).toBe('done');
    expect(seen.filter((message) => message['method'] === 'notifications/progress')).toHaveLength(2);
  });
});
