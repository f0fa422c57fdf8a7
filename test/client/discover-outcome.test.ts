/**
 * discover-outcome.ts: what the answer to a `server/discover` probe says about the server's era,
 * by every rule of the 2026-07-28 Backward Compatibility sections (basic/versioning and
 * basic/transports/streamable-http): a DiscoverResult with a version in common is modern; a
 * recognised modern JSON-RPC error (-32020 HeaderMismatch, -32021
 * MissingRequiredClientCapability, -32022 UnsupportedProtocolVersion) means a modern server —
 * never fall back — unless its `supported` lists only legacy versions; a 4xx without one (401 and
 * 403 aside) or a JSON-RPC error that is not modern means legacy (fall back to `initialize`); a
 * 5xx, a 401/403 or a failed exchange says nothing of the era. The outcomes are built as values
 * here; the fallback on the wire is in cli-eras.test.ts and answer-transport-requests.test.ts.
 */

import { describe, expect, test } from 'vitest';
import { discoverOutcome, MODERN_ERROR_CODES, MODERN_VERSIONS, noCommonVersion, refusalSaysLegacy, retryVersion, type DiscoverOutcome } from '../../src/client/discover-outcome.js';
import type { RequestOutcome } from '../../src/client/exchange.js';
import { nothingRead, said, written, type Failure } from '../../src/vocabulary/failure.js';
import type { JsonRpcResponse } from '../../src/vocabulary/json-rpc.js';

const DETAIL = { contentType: 'application/json', bytesRead: 10, events: 0, messages: 0, ignored: 0, lastEventId: '', retry: undefined, maxBytes: 100 };

function answered(body: Record<string, unknown>, status = 200): RequestOutcome {
  return { kind: 'answered', answer: { jsonrpc: '2.0', id: 0, ...body } as unknown as JsonRpcResponse, status, headers: new Headers(), format: 'json', progress: DETAIL };
}
const result = (value: unknown): RequestOutcome => answered({ result: value });
const rpcError = (error: Record<string, unknown>, status = 200): RequestOutcome => answered({ error }, status);

function refused(status: number, error?: Record<string, unknown>): RequestOutcome & { kind: 'refused' } {
  const answer = error === undefined ? undefined : ({ jsonrpc: '2.0', id: 0, error } as JsonRpcResponse);
  const failure: Failure = { code: 'http_status', message: said`the server answered HTTP ${status}`, detail: { ...nothingRead(100), status, answer } };
  return { kind: 'refused', status, headers: new Headers(), answer, failure };
}

/** The outcome's kind and, for legacy, its reason written; for failed, its failure's code. */
function summary(found: DiscoverOutcome): string {
  switch (found.kind) {
    case 'modern':
      return `modern ${found.version}`;
    case 'legacy':
      return `legacy: ${written(found.reason)}`;
    case 'failed':
      return `failed: ${found.failure.code}`;
    case 'retry':
      return `retry in ${found.version}`;
  }
}

const unsupported = (supported?: unknown) => ({ code: -32022, message: 'Unsupported protocol version', ...(supported === undefined ? {} : { data: { supported } }) });

test("the revision's error codes, and the modern versions this package speaks", () => {
  expect([...MODERN_ERROR_CODES]).toEqual([
    [-32020, 'HeaderMismatch'],
    [-32021, 'MissingRequiredClientCapability'],
    [-32022, 'UnsupportedProtocolVersion'],
  ]);
  expect(MODERN_VERSIONS).toEqual(['2026-07-28']);
});

describe('a 2xx answer', () => {
  test('a DiscoverResult that lists 2026-07-28: modern, with the result and every version it lists', () => {
    const discovered = { resultType: 'complete', supportedVersions: ['2025-11-25', '2026-07-28', '2027-01-01'], capabilities: { tools: {} } };
    expect(discoverOutcome(result(discovered))).toEqual({ kind: 'modern', version: '2026-07-28', result: discovered, supported: ['2025-11-25', '2026-07-28', '2027-01-01'] });
  });

  test.each([
    ['no supportedVersions', { capabilities: {} }],
    ['supportedVersions that is not a list', { supportedVersions: '2026-07-28' }],
    ['supportedVersions with a non-string', { supportedVersions: ['2026-07-28', 1] }],
  ])('a result with %s is no DiscoverResult: legacy', (_, value) => {
    expect(summary(discoverOutcome(result(value)))).toBe('legacy: HTTP 200 without a DiscoverResult');
  });

  test.each([['a string', 'ok'], ['null', null], ['a list', ['2026-07-28']]])('a result that is %s: legacy', (_, value) => {
    expect(summary(discoverOutcome(result(value)))).toBe('legacy: HTTP 200 without a DiscoverResult');
  });

  test('a DiscoverResult that lists only legacy versions: legacy, answered by its handshake', () => {
    expect(summary(discoverOutcome(result({ supportedVersions: ['2025-11-25', '2025-06-18'] })))).toBe('legacy: it supports only 2025-11-25, 2025-06-18');
  });

  test('a DiscoverResult with only versions this package does not speak: failed, negotiation_failed, the versions named', () => {
    const found = discoverOutcome(result({ supportedVersions: ['2027-01-01'] }));
    expect(found.kind).toBe('failed');
    const failure = (found as { failure: Failure }).failure;
    expect(failure.code).toBe('negotiation_failed');
    expect(written(failure.message)).toBe('the server supports 2027-01-01; this client speaks 2026-07-28 and 2025-11-25 or earlier');
    expect(failure.detail.answer).toMatchObject({ result: { supportedVersions: ['2027-01-01'] } });
  });

  test('an empty list: failed, naming no version', () => {
    const found = discoverOutcome(result({ supportedVersions: [] }));
    expect(found.kind === 'failed' && written(found.failure.message)).toBe('the server supports no version it names; this client speaks 2026-07-28 and 2025-11-25 or earlier');
  });

  test.each([
    [-32601, 'legacy: HTTP 200, JSON-RPC -32601'],
    [-32600, 'legacy: HTTP 200, JSON-RPC -32600'],
    [-32000, 'legacy: HTTP 200, JSON-RPC -32000'],
    [-32019, 'legacy: HTTP 200, JSON-RPC -32019'],
    [-32023, 'legacy: HTTP 200, JSON-RPC -32023'],
  ])('a JSON-RPC error %i that is not the revision\'s: legacy', (code, expected) => {
    expect(summary(discoverOutcome(rpcError({ code, message: 'Method not found' })))).toBe(expected);
  });

  test("a JSON-RPC error whose code is no number: legacy, the code quoted as the server's", () => {
    expect(summary(discoverOutcome(rpcError({ code: 'E1', message: 'x' })))).toBe('legacy: HTTP 200, JSON-RPC \\"E1\\"');
    expect(summary(discoverOutcome(rpcError({ message: 'x' })))).toBe('legacy: HTTP 200, JSON-RPC none');
  });

  test.each([
    [-32020, 'HeaderMismatch'],
    [-32021, 'MissingRequiredClientCapability'],
  ])('a modern error %i (%s): failed, negotiation_failed, never a fallback', (code, name) => {
    const found = discoverOutcome(rpcError({ code, message: 'header "x" differs' }));
    expect(found.kind).toBe('failed');
    const failure = (found as { failure: Failure }).failure;
    expect(failure.code).toBe('negotiation_failed');
    expect(written(failure.message)).toBe(`server/discover was refused with ${name} (${code}): header \\"x\\" differs`);
    expect(failure.detail.answer).toMatchObject({ error: { code } });
  });

  test('UnsupportedProtocolVersion listing only legacy versions: legacy', () => {
    expect(summary(discoverOutcome(rpcError(unsupported(['2025-11-25', '2025-03-26']))))).toBe(
      'legacy: HTTP 200, UnsupportedProtocolVersion, it supports 2025-11-25, 2025-03-26',
    );
  });

  test.each([
    ['a modern version among them', ['2027-01-01', '2025-11-25']],
    ['no list', undefined],
    ['an empty list', []],
    ['a list that is not of strings', [20251125]],
  ])('UnsupportedProtocolVersion with %s: failed, negotiation_failed', (_, supported) => {
    const found = discoverOutcome(rpcError(unsupported(supported)));
    expect(summary(found)).toBe('failed: negotiation_failed');
  });
});

describe('a refusal (a status outside 2xx)', () => {
  test.each([400, 404, 405, 406, 409, 415, 422, 499])('%i without a JSON-RPC error: legacy', (status) => {
    expect(summary(discoverOutcome(refused(status)))).toBe(`legacy: HTTP ${status}`);
  });

  test("400 with a JSON-RPC error that is not the revision's: legacy, its code said", () => {
    expect(summary(discoverOutcome(refused(400, { code: -32600, message: 'Bad Request: Server not initialized' })))).toBe('legacy: HTTP 400, JSON-RPC -32600');
    expect(summary(discoverOutcome(refused(404, { code: -32601, message: 'Method not found' })))).toBe('legacy: HTTP 404, JSON-RPC -32601');
  });

  test.each([401, 403, 500, 502, 503, 300, 100])('%i without a modern error says nothing of the era: failed, the refusal itself', (status) => {
    const outcome = refused(status);
    const found = discoverOutcome(outcome);
    expect(found.kind === 'failed' && found.failure).toBe(outcome.failure);
  });

  test('a 5xx with a JSON-RPC error that is not modern: failed', () => {
    const outcome = refused(500, { code: -32603, message: 'Internal error' });
    expect(discoverOutcome(outcome)).toEqual({ kind: 'failed', failure: outcome.failure });
  });

  test.each([
    [-32020, 400],
    [-32021, 400],
    [-32020, 404],
  ])('a modern error %i with %i: failed with the refusal (http_status), never a fallback', (code, status) => {
    const outcome = refused(status, { code, message: 'm' });
    expect(discoverOutcome(outcome)).toEqual({ kind: 'failed', failure: outcome.failure });
  });

  test('400 with UnsupportedProtocolVersion listing a modern version in common: ask again in it, once (SEP-2575)', () => {
    for (const supported of [['2026-07-28', '2025-11-25'], ['2027-01-01', '2026-07-28']]) {
      expect(discoverOutcome(refused(400, unsupported(supported)))).toEqual({ kind: 'retry', version: '2026-07-28' });
    }
    expect(retryVersion({ jsonrpc: '2.0', id: 0, error: unsupported(['2026-07-28']) } as JsonRpcResponse)).toBe('2026-07-28');
    expect(retryVersion({ jsonrpc: '2.0', id: 0, error: { ...unsupported(['2026-07-28']), code: -32020 } } as JsonRpcResponse)).toBeUndefined();
    expect(retryVersion({ jsonrpc: '2.0', id: 0, result: {} } as JsonRpcResponse)).toBeUndefined();
    expect(retryVersion(undefined)).toBeUndefined();
  });

  test('400 with UnsupportedProtocolVersion listing no version in common, or none: negotiation_failed, with the refusal\'s detail', () => {
    for (const supported of [['2027-01-01'], undefined]) {
      const outcome = refused(400, unsupported(supported));
      const found = discoverOutcome(outcome);
      expect(found.kind === 'failed' && found.failure.code).toBe('negotiation_failed');
      expect(found.kind === 'failed' && found.failure.detail).toEqual({ ...outcome.failure.detail, answer: outcome.answer });
    }
  });

  test('400 with UnsupportedProtocolVersion listing only legacy versions: legacy', () => {
    expect(summary(discoverOutcome(refused(400, unsupported(['2025-11-25']))))).toBe('legacy: HTTP 400, UnsupportedProtocolVersion, it supports 2025-11-25');
  });

  test.each([500, 401])('%i whose error code is the string "-32020" (not a JSON-RPC code, so no modern error): failed, as without it', (status) => {
    const outcome = refused(status, { code: '-32020', message: 'm' });
    expect(discoverOutcome(outcome)).toEqual({ kind: 'failed', failure: outcome.failure });
  });
});

describe('no answer', () => {
  test('a failed exchange: failed, its own failure', () => {
    const failure: Failure = { code: 'timeout', message: said`the exchange timed out`, detail: nothingRead(0) };
    expect(discoverOutcome({ kind: 'failed', failure, headers: undefined })).toEqual({ kind: 'failed', failure });
  });
});

describe('helpers', () => {
  test('refusalSaysLegacy: any 4xx but 401 and 403', () => {
    const legacy = [100, 200, 204, 301, 307, 399, 400, 401, 402, 403, 404, 418, 499, 500, 503, 599].filter(refusalSaysLegacy);
    expect(legacy).toEqual([400, 402, 404, 418, 499]);
  });

  test('noCommonVersion names at most eight versions, then how many more', () => {
    const versions = Array.from({ length: 10 }, (_, i) => `2030-01-${String(i + 10)}`);
    const failure = noCommonVersion(versions, undefined);
    expect(written(failure.message)).toBe(
      `the server supports ${versions.slice(0, 8).join(', ')}, and 2 more; this client speaks 2026-07-28 and 2025-11-25 or earlier`,
    );
    expect([failure.code, failure.detail.answer]).toEqual(['negotiation_failed', undefined]);
  });

  test("the server's versions are its text: escaped when written", () => {
    const found = discoverOutcome(result({ supportedVersions: ['2025-11-25', 'x\u001b[2J'] }));
    expect(found.kind === 'legacy' && written(found.reason)).toBe('it supports only 2025-11-25, x\\u001b[2J');
  });

});
