// isBearerToken: the one rule of what a bearer token may hold, which the exchange
// (authProvider.token()) and the CLI (--bearer-token-env) both check a token by.
import { describe, expect, test } from 'vitest';
import { bearerTokenFromEnv } from '../src/cli/bearer-token.js';
import { isBearerToken, postJsonRpc } from '../src/index.js';

const VISIBLE_ASCII = Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) => String.fromCharCode(0x21 + i)).join('');

describe('isBearerToken', () => {
  test.each([
    ['an RFC 6750 b64token', 'mF_9.B5f-4.1JqM'],
    ['b64token padding', 'abc+/def=='],
    ['a JWT', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig-_'],
    ['every visible ASCII character', VISIBLE_ASCII],
  ])('%s: a token', (_name, value) => {
    expect(isBearerToken(value)).toBe(true);
  });

  test.each([
    ['empty', ''],
    ['a space inside', 'abc def'],
    ['"Bearer " before it', 'Bearer abcdefgh'],
    ['a tab', 'abc\tdef'],
    ['CR LF (a header split)', 'abc\r\nX-Evil: 1'],
    ['DEL', 'abc\x7f'],
    ['a non-ASCII letter', 'tökenvalue'],
    ['a NUL', 'abc\0def'],
  ])('%s: not a token', (_name, value) => {
    expect(isBearerToken(value)).toBe(false);
  });

  test.each([undefined, null, 42, ['abcdefgh'], { token: 'abcdefgh' }])('%s, not a string: not a token', (value) => {
    expect(isBearerToken(value)).toBe(false);
  });
});

describe('the exchange and the CLI take exactly the tokens isBearerToken takes', () => {
  const samples = ['abcdefgh-ok', VISIBLE_ASCII, 'abcd efgh', 'abcdefgh\u00e9', 'abcdefgh\x7f'];

  test.each(samples)('%j', async (token) => {
    const env = { TOKEN: token };
    const cli = (() => {
      try {
        return bearerTokenFromEnv('TOKEN', new Headers(), env) !== undefined;
      } catch {
        return false;
      }
    })();
    let sent = false;
    const fetch = async (): Promise<Response> => {
      sent = true;
      return new Response('{"jsonrpc":"2.0","id":1,"result":{}}', { headers: { 'content-type': 'application/json' } });
    };
    await postJsonRpc('http://127.0.0.1:9/mcp', { jsonrpc: '2.0', id: 1, method: 'ping' }, { fetch, authProvider: { token: async () => token } }).catch(() => undefined);
    expect([cli, sent]).toStrictEqual([isBearerToken(token), isBearerToken(token)]);
  });
});
