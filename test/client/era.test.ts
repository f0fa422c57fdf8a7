/**
 * era.ts: which era a protocol version belongs to (modern from 2026-07-28 on, a dated version
 * compared as a string; legacy otherwise), and the version a message declares in its `_meta`,
 * read through own properties only. The eras' behaviour on the wire is pinned by
 * post-json-rpc.test.ts and answer-transport-requests.test.ts; this file pins the two functions.
 */

import { describe, expect, test } from 'vitest';
import { declaredProtocolVersion, eraOf, LEGACY_PROTOCOL_VERSION, MODERN_PROTOCOL_VERSION, PROTOCOL_VERSION_META } from '../../src/client/era.js';

test('the two versions and the _meta key are the revisions\' own', () => {
  expect(MODERN_PROTOCOL_VERSION).toBe('2026-07-28');
  expect(LEGACY_PROTOCOL_VERSION).toBe('2025-11-25');
  expect(PROTOCOL_VERSION_META).toBe('io.modelcontextprotocol/protocolVersion');
});

describe('eraOf', () => {
  test.each(['2026-07-28', '2026-07-29', '2026-12-01', '2027-01-01', '9999-12-31'])('%s, on or after 2026-07-28, is modern', (version) => {
    expect(eraOf(version)).toBe('modern');
  });

  test.each(['2026-07-27', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '0000-00-00'])('%s, before 2026-07-28, is legacy', (version) => {
    expect(eraOf(version)).toBe('legacy');
  });

  test.each([undefined, null, '', '2026-7-28', '2026-07-28x', ' 2026-07-28', '2026/07/28', 'latest', '20260728', '２０２６-07-28'])(
    '%j, no dated version, is legacy',
    (version) => {
      expect(eraOf(version)).toBe('legacy');
    },
  );
});

describe('declaredProtocolVersion', () => {
  const withMeta = (meta: unknown): object => ({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } });

  test('the version in params._meta', () => {
    expect(declaredProtocolVersion(withMeta({ [PROTOCOL_VERSION_META]: '2026-07-28', other: 1 }))).toBe('2026-07-28');
    expect(declaredProtocolVersion(withMeta({ [PROTOCOL_VERSION_META]: 'not-a-date' }))).toBe('not-a-date');
  });

  test.each([
    ['no params', { jsonrpc: '2.0', method: 'm' }],
    ['params that are not an object', { jsonrpc: '2.0', method: 'm', params: 'x' }],
    ['no _meta', { jsonrpc: '2.0', method: 'm', params: {} }],
    ['a null _meta', { jsonrpc: '2.0', method: 'm', params: { _meta: null } }],
    ['a numeric version', { jsonrpc: '2.0', method: 'm', params: { _meta: { [PROTOCOL_VERSION_META]: 20260728 } } }],
    ['the version elsewhere', { jsonrpc: '2.0', method: 'm', params: { [PROTOCOL_VERSION_META]: '2026-07-28' } }],
  ])('undefined for a message with %s', (_, message) => {
    expect(declaredProtocolVersion(message)).toBeUndefined();
  });

  test('inherited fields are not read, at any level', () => {
    const inheritedMeta = { params: Object.create({ _meta: { [PROTOCOL_VERSION_META]: '2026-07-28' } }) as object };
    const inheritedVersion = withMeta(Object.create({ [PROTOCOL_VERSION_META]: '2026-07-28' }));
    const inheritedParams = Object.create({ params: { _meta: { [PROTOCOL_VERSION_META]: '2026-07-28' } } }) as object;
    expect([inheritedMeta, inheritedVersion, inheritedParams].map(declaredProtocolVersion)).toEqual([undefined, undefined, undefined]);
  });
});
