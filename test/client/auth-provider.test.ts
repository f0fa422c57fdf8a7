/**
 * auth-provider.ts: the two checks an exchange makes of its `authProvider` — `checkAuthProvider`
 * (an object with a `token` method and, if any, an `onUnauthorized` method; kept as the very
 * object, so its methods are called on it; an OAuthClientProvider told to adapt) and
 * `checkNoAuthorization` (an `Authorization` header beside a provider is the caller's mistake).
 * The provider at work on the wire is auth.test.ts and auth-servers.test.ts.
 */

import { describe, expect, test } from 'vitest';
import { checkAuthProvider, checkNoAuthorization } from '../../src/client/auth-provider.js';

describe('checkAuthProvider', () => {
  test('undefined is none', () => {
    expect(checkAuthProvider(undefined)).toBeUndefined();
  });

  test('an object with token(), and onUnauthorized() if any, is returned as the very object', () => {
    const plain = { token: async () => 't' };
    const both = { token: async () => 't', onUnauthorized: async () => undefined };
    expect(checkAuthProvider(plain)).toBe(plain);
    expect(checkAuthProvider(both)).toBe(both);
  });

  test('methods inherited from a class count: a provider written as a class works', () => {
    class Provider {
      async token(): Promise<string> {
        return 't';
      }
      async onUnauthorized(): Promise<void> {}
    }
    const provider = new Provider();
    expect(checkAuthProvider(provider)).toBe(provider);
  });

  test.each([
    ['null', null, 'authProvider must be an object with a token() method, got null'],
    ['a string', 'token', 'authProvider must be an object with a token() method, got "token"'],
    ['a function', async () => 't', 'authProvider must be an object with a token() method, got a function'],
  ])('%s is a TypeError', (_, value, message) => {
    expect(() => checkAuthProvider(value)).toThrow(new TypeError(message));
  });

  test('an object without token(), or with a token that is not a function: TypeError', () => {
    expect(() => checkAuthProvider({})).toThrow(new TypeError('authProvider must have a token() method'));
    expect(() => checkAuthProvider({ token: 'abc' })).toThrow(new TypeError('authProvider must have a token() method'));
  });

  test('an OAuthClientProvider (tokens() and clientInformation()) is told to adapt it', () => {
    const oauth = { tokens: async () => undefined, clientInformation: async () => undefined, redirectUrl: 'https://x' };
    expect(() => checkAuthProvider(oauth)).toThrow(/^authProvider must have a token\(\) method \(an OAuthClientProvider\? adapt it to \{ token \}: see the auth guide\)$/);
    expect(() => checkAuthProvider({ tokens: async () => undefined })).toThrow(new TypeError('authProvider must have a token() method'));
  });

  test('an onUnauthorized that is not a function: TypeError naming it', () => {
    expect(() => checkAuthProvider({ token: async () => 't', onUnauthorized: true })).toThrow(new TypeError('authProvider.onUnauthorized must be a function, got true'));
    expect(checkAuthProvider({ token: async () => 't', onUnauthorized: undefined })).toBeDefined();
  });
});

describe('checkNoAuthorization', () => {
  const provider = { token: async () => 't' };

  test('an Authorization header beside a provider: TypeError naming where, in any case of the name', () => {
    for (const name of ['Authorization', 'authorization', 'AUTHORIZATION']) {
      expect(() => checkNoAuthorization(new Headers({ [name]: 'Bearer x' }), provider, "the message's headers")).toThrow(
        new TypeError("the message's headers has an Authorization header and authProvider is set: pass one or the other"),
      );
    }
  });

  test('either alone is fine; so are other credentials beside a provider', () => {
    expect(() => checkNoAuthorization(new Headers({ authorization: 'Bearer x' }), undefined, 'options.headers')).not.toThrow();
    expect(() => checkNoAuthorization(new Headers(), provider, 'options.headers')).not.toThrow();
    expect(() => checkNoAuthorization(new Headers({ 'proxy-authorization': 'Basic x', cookie: 'a=b' }), provider, 'options.headers')).not.toThrow();
  });
});
