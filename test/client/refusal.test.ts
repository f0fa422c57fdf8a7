/**
 * refusal.ts: a response outside 2xx as an `http_status` failure — the status, the reason phrase
 * and the server's JSON-RPC error in the message (quoted as server text), the error in
 * `detail.answer`, a 401's or 403's `WWW-Authenticate` parsed into `detail.challenge` and named
 * in the message, a note and a cause carried. What the exchanges make of it end to end is in
 * exchange-network.test.ts and auth.test.ts; this file calls `refusal` itself.
 */

import { describe, expect, test } from 'vitest';
import { refusal } from '../../src/client/refusal.js';
import { answerError, nothingRead, said, written } from '../../src/vocabulary/failure.js';
import { Secrets } from '../../src/vocabulary/secrets.js';

const DETAIL = nothingRead(1000, 'application/json');
const text = (response: Response, answer?: Record<string, unknown>): string => written(refusal(response, DETAIL, answer as never).message);
const rpcError = (error: unknown) => ({ jsonrpc: '2.0', id: 1, error }) as Record<string, unknown>;

describe('the message', () => {
  test('the status, and the reason phrase when there is one', () => {
    expect(text(new Response(null, { status: 404, statusText: 'Not Found' }))).toBe('the server answered HTTP 404 Not Found');
    expect(text(new Response(null, { status: 500 }))).toBe('the server answered HTTP 500');
  });

  test("the JSON-RPC error's message, quoted, and its code", () => {
    const response = new Response(null, { status: 400, statusText: 'Bad Request' });
    expect(text(response, rpcError({ code: -32600, message: 'bad "request"' }))).toBe('the server answered HTTP 400 Bad Request: "bad \\"request\\"" (JSON-RPC error -32600)');
    expect(text(response, rpcError({ code: '-32600', message: 'no number' }))).toBe('the server answered HTTP 400 Bad Request: "no number"');
    expect(text(response, rpcError({ code: -32600 }))).toBe('the server answered HTTP 400 Bad Request: a JSON-RPC error');
    expect(text(response, rpcError('oops'))).toBe('the server answered HTTP 400 Bad Request: a JSON-RPC error');
  });

  test("the server's words are server text: escaped, bounded, and redacted when written", () => {
    const secrets = new Secrets();
    secrets.add('tok-secret-123456');
    const response = new Response(null, { status: 400, statusText: 'Bad\u0085Request' });
    const failure = refusal(response, DETAIL, rpcError({ code: 1, message: `echo tok-secret-123456 \u001b[31m${'x'.repeat(200)}` }) as never);
    const error = answerError(failure, secrets);
    expect(error.message).toMatch(/^the server answered HTTP 400 Bad\\u0085Request: "echo \[redacted\] \\u001b\[31mx+…" \(JSON-RPC error 1\)$/);
    expect(error.message.length).toBeLessThan(160);
    expect(JSON.stringify(error.detail)).not.toContain('tok-secret-123456');
  });

  test('a note is appended after everything else', () => {
    const failure = refusal(new Response(null, { status: 403 }), DETAIL, undefined, said` to the GET that resumes the stream`);
    expect(written(failure.message)).toBe('the server answered HTTP 403 to the GET that resumes the stream');
  });
});

describe('the detail', () => {
  test('the detail given, with the status and the answer', () => {
    const answer = rpcError({ code: -32000, message: 'm' });
    const failure = refusal(new Response(null, { status: 409 }), DETAIL, answer as never);
    expect(failure.code).toBe('http_status');
    expect(failure.detail).toEqual({ ...DETAIL, status: 409, answer });
    expect('challenge' in failure.detail).toBe(false);
  });

  test.each([401, 403])('%i: its Bearer challenge parsed into detail.challenge, its error named in the message', (status) => {
    const response = new Response(null, {
      status,
      headers: { 'www-authenticate': 'Bearer error="invalid_token", resource_metadata="https://as.example/.well-known/oauth-protected-resource"' },
    });
    const failure = refusal(response, DETAIL, undefined);
    expect(failure.detail.challenge).toMatchObject({ scheme: 'Bearer', error: 'invalid_token', resourceMetadata: 'https://as.example/.well-known/oauth-protected-resource' });
    expect(written(failure.message)).toBe(`the server answered HTTP ${status} (Bearer error "invalid_token")`);
  });

  test('insufficient_scope names the scope it needs', () => {
    const response = new Response(null, { status: 403, headers: { 'www-authenticate': 'Bearer error="insufficient_scope", scope="files:write"' } });
    expect(written(refusal(response, DETAIL, undefined).message)).toBe('the server answered HTTP 403 (Bearer error "insufficient_scope", scope "files:write")');
  });

  test('a challenge without an error is kept, and not named', () => {
    const response = new Response(null, { status: 401, headers: { 'www-authenticate': 'Bearer realm="mcp"' } });
    const failure = refusal(response, DETAIL, undefined);
    expect(failure.detail.challenge).toMatchObject({ scheme: 'Bearer' });
    expect(written(failure.message)).toBe('the server answered HTTP 401');
  });

  test('another status carries no challenge, whatever its headers', () => {
    const response = new Response(null, { status: 400, headers: { 'www-authenticate': 'Bearer error="invalid_token"' } });
    const failure = refusal(response, DETAIL, undefined);
    expect('challenge' in failure.detail).toBe(false);
    expect(written(failure.message)).toBe('the server answered HTTP 400');
  });

  test('a cause is carried when given, and none is claimed otherwise', () => {
    const cause = new Error('onUnauthorized failed');
    const withCause = refusal(new Response(null, { status: 401 }), DETAIL, undefined, [], cause);
    expect([withCause.cause, withCause.hasCause]).toEqual([cause, true]);
    expect(answerError(withCause).cause).toBe(cause);
    const without = refusal(new Response(null, { status: 401 }), DETAIL, undefined);
    expect(without.hasCause).toBeUndefined();
    expect('cause' in answerError(without)).toBe(false);
  });
});
