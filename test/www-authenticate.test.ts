// The WWW-Authenticate parser (RFC 9110 §11.6.1): quoted strings with commas and escapes,
// several parameters, several schemes in one header (repeated headers joined by ", "), token68,
// and what a malformed header leaves.

import { describe, expect, test } from 'vitest';
import { authChallenge, parseChallenges } from '../src/vocabulary/www-authenticate.js';

describe('parseChallenges', () => {
  test('a Bearer challenge with quoted parameters', () => {
    const [challenge, ...rest] = parseChallenges(
      'Bearer error="invalid_token", error_description="The access token expired", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", scope="files:read files:write"',
    );
    expect(rest).toEqual([]);
    expect(challenge).toEqual({
      scheme: 'Bearer',
      error: 'invalid_token',
      errorDescription: 'The access token expired',
      resourceMetadata: 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
      scope: 'files:read files:write',
      params: {
        error: 'invalid_token',
        error_description: 'The access token expired',
        resource_metadata: 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
        scope: 'files:read files:write',
      },
    });
  });

  test('a comma, an escaped quote and an escaped backslash inside a quoted string', () => {
    const [challenge] = parseChallenges('Bearer realm="a, b", error_description="say \\"hi\\", \\\\ok", error=invalid_token');
    expect(challenge?.params).toEqual({ realm: 'a, b', error_description: 'say "hi", \\ok', error: 'invalid_token' });
    expect(challenge?.error).toBe('invalid_token');
  });

  test('unquoted token values, whitespace around "=" and parameter names in any case', () => {
    const [challenge] = parseChallenges('Bearer  Error = insufficient_scope ,SCOPE="admin"');
    expect(challenge?.error).toBe('insufficient_scope');
    expect(challenge?.scope).toBe('admin');
  });

  test('several schemes in one header, each with its own parameters', () => {
    const challenges = parseChallenges('Basic realm="simple", Bearer realm="mcp", error="invalid_token", DPoP algs="ES256 RS256", Negotiate');
    expect(challenges.map((one) => one.scheme)).toEqual(['Basic', 'Bearer', 'DPoP', 'Negotiate']);
    expect(challenges[0]?.params).toEqual({ realm: 'simple' });
    expect(challenges[1]?.params).toEqual({ realm: 'mcp', error: 'invalid_token' });
    expect(challenges[2]?.params).toEqual({ algs: 'ES256 RS256' });
    expect(challenges[3]?.params).toEqual({});
  });

  test('a token68 challenge, then another scheme', () => {
    const challenges = parseChallenges('Custom dXNlcjpwYXNz==, Bearer scope="a"');
    expect(challenges.map((one) => [one.scheme, one.params])).toEqual([
      ['Custom', {}],
      ['Bearer', { scope: 'a' }],
    ]);
  });

  test('empty list elements are skipped; a repeated parameter keeps its first value', () => {
    const challenges = parseChallenges(' , Bearer error="a", error="b",, ,');
    expect(challenges).toHaveLength(1);
    expect(challenges[0]?.error).toBe('a');
  });

  test('a malformed part ends the parse and keeps what came before it', () => {
    expect(parseChallenges('Bearer error="unterminated').map((one) => one.scheme)).toEqual(['Bearer']);
    expect(parseChallenges('Bearer error="a", Basic realm="x" junk"').map((one) => one.scheme)).toEqual(['Bearer', 'Basic']);
    expect(parseChallenges('"quoted-scheme"')).toEqual([]);
    expect(parseChallenges('')).toEqual([]);
  });

  test('a parameter named __proto__ is an own property, not a prototype', () => {
    const [challenge] = parseChallenges('Bearer __proto__="x", scope=s');
    expect(Object.getPrototypeOf(challenge?.params)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(challenge?.params, '__proto__')?.value).toBe('x');
    expect(challenge?.scope).toBe('s');
  });
});

describe('authChallenge', () => {
  test('the Bearer challenge among several, whatever its position or case', () => {
    expect(authChallenge('Basic realm="x", bearer resource_metadata="https://r/x"')?.resourceMetadata).toBe('https://r/x');
  });

  test('DPoP when there is no Bearer, else the first challenge; undefined for no header', () => {
    expect(authChallenge('Basic realm="x", DPoP error="use_dpop_nonce"')?.scheme).toBe('DPoP');
    expect(authChallenge('Basic realm="x"')?.scheme).toBe('Basic');
    expect(authChallenge(null)).toBeUndefined();
    expect(authChallenge('')).toBeUndefined();
  });

  test('repeated headers, joined by Headers.get, are read as one list', () => {
    const headers = new Headers();
    headers.append('www-authenticate', 'Basic realm="x"');
    headers.append('www-authenticate', 'Bearer error="insufficient_scope", scope="mcp:write"');
    const challenge = authChallenge(headers.get('www-authenticate'));
    expect(challenge?.error).toBe('insufficient_scope');
    expect(challenge?.scope).toBe('mcp:write');
  });
});
