/**
 * answer-client.ts, negotiate.ts, discover-outcome.ts (`retryVersion`): a 2026-07-28
 * `UnsupportedProtocolVersion` (-32022) whose `error.data.supported` lists a version this client
 * speaks is asked again once, in that version (issue #51.4; SEP-2575) — by `connect`'s
 * `server/discover`, and by any request (a client pinned to 2026-07-28 with no handshake); a
 * second -32022 is `negotiation_failed`; a list with no version in common fails `connect`. The
 * official conformance suite's `request-metadata` scenario, replayed: its server refuses the
 * first request it gets. Against the v2 SDK server: answer-client-renewal-servers.test.ts.
 */

import { describe, expect, test } from 'vitest';
import { AnswerClient } from '../../src/client/answer-client.js';
import { answerError } from '../helpers/bodies.js';
import { json, resultFor, scriptedFetch, trail, type SentRequest } from '../helpers/client-fetch.js';
import { after, connectTo, metaOf, MODERN, paramsOf, unsupportedVersion, URL_, type Handle } from '../helpers/answer-client-script.js';

const DISCOVERED = { supportedVersions: [MODERN], capabilities: { tools: {} } };
const TOOLS = { tools: [{ name: 'weather', inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } } }] };

/** A 2026 server that refuses the first `refusals` requests it gets (any method) with -32022 listing `supported`, with `status`. */
function refusingFirst(refusals: number, supported: readonly string[] = [MODERN], status = 400) {
  let refused = 0;
  return scriptedFetch((sent) => {
    if (refused < refusals) {
      refused += 1;
      return unsupportedVersion(sent, supported, status);
    }
    if (sent.rpc === 'server/discover') return json(resultFor(sent, DISCOVERED));
    if (sent.rpc === 'tools/list') return json(resultFor(sent, TOOLS));
    return json(resultFor(sent, { content: [{ type: 'text', text: 'ok' }] }));
  });
}

const versionsOf = (sent: readonly SentRequest[]) => sent.map((request) => [request.headers.get('mcp-protocol-version'), metaOf(request)?.['io.modelcontextprotocol/protocolVersion']]);
const idsOf = (sent: readonly SentRequest[]) => sent.map((request) => request.body?.['id']);

describe('connect', () => {
  test.each([400, 200])('server/discover refused -32022 (HTTP %i) listing 2026-07-28: asked once more in it, and connected', async (status) => {
    const { fetch, sent } = refusingFirst(1, ['2025-11-25', MODERN], status);
    const client = await AnswerClient.connect(URL_, { fetch });
    expect([client.era, client.protocolVersion, client.negotiatedBy]).toEqual(['modern', MODERN, { by: 'discover' }]);
    expect(trail(sent)).toEqual(['POST server/discover', 'POST server/discover']);
    expect(versionsOf(sent)).toEqual([[MODERN, MODERN], [MODERN, MODERN]]);
  });

  test('a second -32022: negotiation_failed, after two probes', async () => {
    const { fetch, sent } = refusingFirst(2);
    const error = await answerError(AnswerClient.connect(URL_, { fetch }));
    expect(error.code).toBe('negotiation_failed');
    expect(error.message).toBe('server/discover was refused with UnsupportedProtocolVersion (-32022) in 2026-07-28, a version it lists as supported');
    expect(error.detail.answer).toMatchObject({ error: { code: -32022 } });
    expect(trail(sent)).toEqual(['POST server/discover', 'POST server/discover']);
  });

  test('-32022 (HTTP 200) listing no version in common: negotiation_failed at connect, nothing asked again', async () => {
    const { fetch, sent } = refusingFirst(1, ['2027-01-01'], 200);
    const error = await answerError(AnswerClient.connect(URL_, { fetch }));
    expect(error.code).toBe('negotiation_failed');
    expect(error.message).toBe('the server supports 2027-01-01; this client speaks 2026-07-28 and 2025-11-25 or earlier');
    expect(trail(sent)).toEqual(['POST server/discover']);
  });

  test('a DiscoverResult with no version in common: negotiation_failed', async () => {
    const { fetch } = scriptedFetch((sent) => json(resultFor(sent, { supportedVersions: ['2027-01-01'] })));
    expect((await answerError(AnswerClient.connect(URL_, { fetch }))).code).toBe('negotiation_failed');
  });

  test('issue #51.4: -32022 with HTTP 400 (as servers send it) listing no version in common is negotiation_failed at connect', async () => {
    // Today it is http_status 400, as negotiate.test.ts pins and the client guide says ("or
    // http_status when it came with a 4xx"); the issue asks for negotiation_failed.
    const { fetch, sent } = refusingFirst(1, ['2027-01-01'], 400);
    const error = await answerError(AnswerClient.connect(URL_, { fetch }));
    expect([error.code, error.detail.status]).toEqual(['negotiation_failed', 400]);
    expect(trail(sent)).toEqual(['POST server/discover']);
  });

  test('the retried server/discover has a new id', async () => {
    const { fetch, sent } = refusingFirst(1);
    await AnswerClient.connect(URL_, { fetch });
    const [first, retry] = idsOf(sent);
    expect(retry).not.toEqual(first);
  });
});

describe('any request, pinned to 2026-07-28 with no handshake', () => {
  const pinned = (fetch: ReturnType<typeof refusingFirst>['fetch']) => AnswerClient.connect(URL_, { fetch, versionNegotiation: { pin: MODERN } });

  test.each([400, 200])('the first request refused -32022 (HTTP %i): asked once more, with a new id, and answered', async (status) => {
    const { fetch, sent } = refusingFirst(1, [MODERN], status);
    const client = await pinned(fetch);
    expect(sent).toEqual([]);
    expect(await client.request('prompts/list', { cursor: 'c' })).toMatchObject({ id: 2, result: {} });
    expect(trail(sent)).toEqual(['POST prompts/list', 'POST prompts/list']);
    expect(idsOf(sent)).toEqual([1, 2]);
    expect(paramsOf(sent[1])).toEqual(paramsOf(sent[0]));
    expect(versionsOf(sent)).toEqual([[MODERN, MODERN], [MODERN, MODERN]]);
    expect(client.protocolVersion).toBe(MODERN);
  });

  test('a client pinned to a 2026-era version the server does not speak is asked again in the one listed', async () => {
    const { fetch, sent } = scriptedFetch((request) =>
      request.headers.get('mcp-protocol-version') === MODERN ? json(resultFor(request, { prompts: [] })) : unsupportedVersion(request, ['2025-11-25', MODERN]),
    );
    const client = await AnswerClient.connect(URL_, { fetch, versionNegotiation: { pin: '2027-01-01' } });
    expect(await client.listPrompts()).toEqual([]);
    expect(versionsOf(sent)).toEqual([['2027-01-01', '2027-01-01'], [MODERN, MODERN]]);
    expect(client.protocolVersion).toBe(MODERN);
    await client.listPrompts({ fresh: true });
    expect(trail(sent)).toHaveLength(3);
  });

  test('typed calls are asked again the same way', async () => {
    const { fetch, sent } = refusingFirst(1);
    const client = await pinned(fetch);
    expect(await client.listTools()).toEqual(TOOLS.tools);
    expect(trail(sent)).toEqual(['POST tools/list', 'POST tools/list']);
  });

  test('a second -32022: negotiation_failed, the refusal in detail.answer; nothing more is sent', async () => {
    const { fetch, sent } = refusingFirst(2);
    const client = await pinned(fetch);
    const error = await answerError(client.request('tools/list'));
    expect(error.code).toBe('negotiation_failed');
    expect(error.message).toBe('the server refused tools/list with UnsupportedProtocolVersion (-32022) in 2026-07-28, a version it lists as supported');
    expect(error.detail.answer).toMatchObject({ id: 2, error: { code: -32022, data: { supported: [MODERN] } } });
    expect(trail(sent)).toEqual(['POST tools/list', 'POST tools/list']);
  });

  test('-32022 listing no version this client speaks: no retry; negotiation_failed, the refusal kept in its detail', async () => {
    const { fetch, sent } = refusingFirst(1, ['2027-01-01']);
    const client = await pinned(fetch);
    const error = await answerError(client.request('tools/list'));
    expect([error.code, error.detail.status]).toEqual(['negotiation_failed', 400]);
    expect(error.message).toBe('the server supports 2027-01-01; this client speaks 2026-07-28 and 2025-11-25 or earlier');
    expect(error.detail.answer).toMatchObject({ error: { code: -32022 } });
    expect(trail(sent)).toEqual(['POST tools/list']);
  });

  test.each([
    ['no data', undefined],
    ['supported that is no list', { supported: MODERN }],
    ['supported with no strings', { supported: [20260728] }],
  ])('-32022 with %s: no retry; negotiation_failed', async (_, data) => {
    const { fetch, sent } = scriptedFetch((request) => json({ jsonrpc: '2.0', id: request.body?.['id'], error: { code: -32022, message: 'no', ...(data === undefined ? {} : { data }) } }, { status: 400 }));
    const client = await pinned(fetch);
    expect((await answerError(client.request('tools/list'))).code).toBe('negotiation_failed');
    expect(trail(sent)).toEqual(['POST tools/list']);
  });

  test('another error (-32020, -32602) is not asked again', async () => {
    for (const code of [-32020, -32602]) {
      const { fetch, sent } = scriptedFetch((request) => json({ jsonrpc: '2.0', id: request.body?.['id'], error: { code, message: 'no', data: { supported: [MODERN] } } }, { status: 400 }));
      const client = await pinned(fetch);
      await answerError(client.request('tools/list'));
      expect(trail(sent)).toEqual(['POST tools/list']);
    }
  });

  test('2025: a -32022 is no 2026 refusal, and is not asked again', async () => {
    const { client, sent, from } = await connectTo('legacy', (request) => unsupportedVersion(request, [MODERN]));
    expect((await answerError(client.request('tools/list'))).code).toBe('http_status');
    expect(after(sent, from)).toHaveLength(1);
  });

  test("the retried tools/call carries the tool's Mcp-Param-* headers too", async () => {
    let refused = false;
    const { fetch, sent } = scriptedFetch((request) => {
      if (request.rpc === 'tools/list') return json(resultFor(request, TOOLS));
      if (!refused) {
        refused = true;
        return unsupportedVersion(request, [MODERN]);
      }
      return json(resultFor(request, { content: [] }));
    });
    const client = await pinned(fetch);
    await client.callTool('weather', { region: 'eu' });
    const calls = sent.filter((request) => request.rpc === 'tools/call');
    expect(calls.map((request) => request.headers.get('mcp-param-region'))).toEqual(['eu', 'eu']);
    expect(idsOf(calls)).toEqual([1, 2]);
  });

  test("the client's own tools/list page (for a tools/call's headers) refused -32022 is asked again too", async () => {
    const { fetch, sent } = refusingFirst(1);
    const client = await pinned(fetch);
    expect(await client.callTool('weather', { region: 'eu' })).toEqual({ content: [{ type: 'text', text: 'ok' }] });
    expect(trail(sent)).toEqual(['POST tools/list', 'POST tools/list', 'POST tools/call']);
  });
});

describe("the conformance suite's request-metadata scenario (0.2.0-alpha.12), replayed", () => {
  /** Its server: the first POST, whatever it is, is refused 400/-32022 listing 2026-07-28; then it answers. */
  function scenario() {
    let rejected = false;
    const checks: { retried?: [string | null, unknown] } = {};
    const handle: Handle = (sent) => {
      if (!rejected) {
        rejected = true;
        return unsupportedVersion(sent, [MODERN]);
      }
      checks.retried ??= [sent.headers.get('mcp-protocol-version'), metaOf(sent)?.['io.modelcontextprotocol/protocolVersion']];
      if (sent.rpc === 'server/discover') return json(resultFor(sent, { supportedVersions: [MODERN], capabilities: {}, serverInfo: { name: 'test', version: '1.0' } }));
      return json(resultFor(sent, sent.rpc === 'tools/list' ? { tools: [] } : {}));
    };
    return { ...scriptedFetch(handle), checks };
  }

  test("'auto' (the flow the suite's client runs: connect, then listTools): retried in 2026-07-28, header and _meta alike", async () => {
    const { fetch, sent, checks } = scenario();
    const client = await AnswerClient.connect(URL_, { fetch, capabilities: { roots: { listChanged: true }, elicitation: {} } });
    expect(await client.listTools()).toEqual([]);
    expect(checks.retried).toEqual([MODERN, MODERN]);
    expect(trail(sent)).toEqual(['POST server/discover', 'POST server/discover', 'POST tools/list']);
    for (const request of sent) {
      expect(metaOf(request)).toMatchObject({ 'io.modelcontextprotocol/clientCapabilities': { roots: { listChanged: true }, elicitation: {} } });
      expect(metaOf(request)?.['io.modelcontextprotocol/clientInfo']).toEqual({ name: 'sse-answer', version: '0.1.0' });
    }
  });

  test('pinned to 2026-07-28: the first request is the one refused, and retried', async () => {
    const { fetch, sent, checks } = scenario();
    const client = await AnswerClient.connect(URL_, { fetch, versionNegotiation: { pin: MODERN } });
    expect(await client.listTools()).toEqual([]);
    expect(checks.retried).toEqual([MODERN, MODERN]);
    expect(trail(sent)).toEqual(['POST tools/list', 'POST tools/list']);
  });
});
