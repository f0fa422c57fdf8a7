/**
 * exchange-options.ts: `checkExchangeOptions`, the one check of the options every exchange takes
 * — each option's type and range, the defaults, the headers copied once, an `Authorization`
 * beside an `authProvider` refused — and the secrets it gathers: `Authorization`,
 * `Proxy-Authorization` and `Cookie` always, and the headers `secretHeaders` names (in any case).
 * Also `globalFetch`. That the public APIs refuse bad options before sending anything is in
 * post-json-rpc.test.ts and answer-transport.test.ts; `checkSignal`, the rule of every signal
 * option, is in abort-signals.test.ts.
 */

import { afterEach, describe, expect, test, vi } from 'vitest';
import { checkExchangeOptions, globalFetch } from '../../src/client/exchange-options.js';
import { DEFAULT_MAX_BYTES } from '../../src/reducers/budget.js';
import { headersObject } from '../helpers/client-fetch.js';

const TOKEN = { token: async () => 'abc' };
const throwsFor = (options: unknown) => () => checkExchangeOptions(options);

describe('defaults', () => {
  test.each([[undefined], [{}], [{ unrelated: 1 }]])('%j: every default', (options) => {
    const settings = checkExchangeOptions(options);
    expect(settings.fetch).toBe(globalFetch);
    expect(headersObject(settings.headers)).toEqual({});
    expect(settings).toMatchObject({ timeoutMs: 30_000, maxBytes: DEFAULT_MAX_BYTES, signal: undefined, redirect: 'same-origin', authProvider: undefined, resume: true });
    expect(settings.secrets.empty).toBe(true);
  });

  test('what was given is kept as given', () => {
    const fetch = async () => new Response(null);
    const signal = new AbortController().signal;
    const settings = checkExchangeOptions({ fetch, signal, timeoutMs: Infinity, maxBytes: 0, redirect: 'error', authProvider: TOKEN, resume: false });
    expect(settings).toMatchObject({ timeoutMs: Infinity, maxBytes: 0, redirect: 'error', resume: false });
    expect(settings.fetch).toBe(fetch);
    expect(settings.signal).toBe(signal);
    expect(settings.authProvider).toBe(TOKEN);
  });
});

describe('each option is checked', () => {
  test.each([['a string', 'x'], ['null', null], ['a number', 3]])('options that are %s: TypeError', (_, options) => {
    expect(throwsFor(options)).toThrow(new TypeError(`options must be an object, got ${options === 'x' ? '"x"' : String(options)}`));
  });

  test('fetch: a function', () => {
    expect(throwsFor({ fetch: 'https://x' })).toThrow(new TypeError('fetch must be a function, got "https://x"'));
  });

  test('signal: a real AbortSignal, not one that merely looks like it', () => {
    const lookalike = { aborted: false, reason: undefined, addEventListener() {}, removeEventListener() {} };
    expect(throwsFor({ signal: lookalike })).toThrow(new TypeError('signal must be an AbortSignal, got [object Object]'));
  });

  test('resume: a boolean', () => {
    expect(throwsFor({ resume: 'yes' })).toThrow(new TypeError('resume must be a boolean, got "yes"'));
    expect(throwsFor({ resume: 0 })).toThrow(TypeError);
  });

  test('timeoutMs and maxBytes: numbers in range', () => {
    expect(throwsFor({ timeoutMs: '5' })).toThrow(TypeError);
    expect(throwsFor({ timeoutMs: -1 })).toThrow(RangeError);
    expect(throwsFor({ maxBytes: '5' })).toThrow(TypeError);
    expect(throwsFor({ maxBytes: 1.5 })).toThrow(RangeError);
    expect(throwsFor({ maxBytes: -1 })).toThrow(RangeError);
  });

  test('redirect: "same-origin" or "error"', () => {
    expect(checkExchangeOptions({ redirect: 'same-origin' }).redirect).toBe('same-origin');
    expect(throwsFor({ redirect: 'follow' })).toThrow(new TypeError('redirect must be "same-origin" or "error", got "follow"'));
    expect(throwsFor({ redirect: 'manual' })).toThrow(TypeError);
  });

  test('authProvider: an object with token()', () => {
    expect(throwsFor({ authProvider: {} })).toThrow(new TypeError('authProvider must have a token() method'));
  });

  test('headers: what Headers accepts; a name fetch would refuse is a TypeError', () => {
    expect(throwsFor({ headers: { 'bad name': 'x' } })).toThrow(TypeError);
    expect(throwsFor({ headers: { 'x-a': 'line\nbreak' } })).toThrow(TypeError);
    expect(checkExchangeOptions({ headers: [['X-A', '1']] }).headers.get('x-a')).toBe('1');
  });

  test('an Authorization header beside an authProvider: TypeError naming options.headers', () => {
    expect(throwsFor({ headers: { Authorization: 'Bearer mine' }, authProvider: TOKEN })).toThrow(
      new TypeError('options.headers has an Authorization header and authProvider is set: pass one or the other'),
    );
    expect(checkExchangeOptions({ headers: { Authorization: 'Bearer mine' } }).headers.get('authorization')).toBe('Bearer mine');
  });

  test('secretHeaders: an array of header names', () => {
    expect(throwsFor({ secretHeaders: 'x-api-key' })).toThrow(new TypeError('secretHeaders must be an array of header names, got "x-api-key"'));
    expect(throwsFor({ secretHeaders: ['x-a', 1] })).toThrow(TypeError);
  });

  test('the headers are copied once: changing the caller\'s afterwards changes nothing', () => {
    const headers = new Headers({ 'x-a': '1' });
    const settings = checkExchangeOptions({ headers });
    headers.set('x-a', '2');
    headers.set('x-b', '3');
    expect(headersObject(settings.headers)).toEqual({ 'x-a': '1' });
    expect(settings.headers).not.toBe(headers);
  });
});

describe('the global fetch', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  test('no global fetch and none given: TypeError; one given is enough', () => {
    vi.stubGlobal('fetch', undefined);
    expect(throwsFor({})).toThrow(new TypeError('there is no global fetch; pass options.fetch'));
    const fetch = async () => new Response(null);
    expect(checkExchangeOptions({ fetch }).fetch).toBe(fetch);
  });

  test('globalFetch looks the global up at each call, and calls it on the global object, never on the settings', async () => {
    const settings = checkExchangeOptions({});
    const seen: unknown[] = [];
    vi.stubGlobal('fetch', function (this: unknown, input: string, init: RequestInit) {
      seen.push([this === globalThis, input, init.method]);
      return Promise.resolve(new Response('ok'));
    });
    const response = await settings.fetch('https://x.test/mcp', { method: 'POST' });
    expect(await response.text()).toBe('ok');
    expect(seen).toEqual([[true, 'https://x.test/mcp', 'POST']]);
  });
});

describe('the secrets gathered from the headers', () => {
  const redacts = (options: object, text: string): string => checkExchangeOptions(options).secrets.redact(text);

  test.each(['Authorization', 'Proxy-Authorization', 'Cookie'])('%s is always secret: its whole value and its credentials alone', (name) => {
    const value = `Basic dXNlcjpwYXNzd29yZA==`;
    expect(redacts({ headers: { [name]: value } }, `got ${value} and dXNlcjpwYXNzd29yZA== again`)).toBe('got [redacted] and [redacted] again');
  });

  test('a Cookie value is secret whole', () => {
    expect(redacts({ headers: { cookie: 'session=abcdef123456' } }, 'echo session=abcdef123456')).toBe('echo [redacted]');
  });

  test("each cookie's value is secret alone, however many the Cookie carries", () => {
    const cookie = 'sid=abcdefghijkl0123; theme=dark; csrf=zyxwvutsrq9876';
    expect(redacts({ headers: { cookie } }, 'invalid session abcdefghijkl0123, csrf zyxwvutsrq9876, theme dark')).toBe('invalid session [redacted], csrf [redacted], theme dark');
  });

  test('the credentials after a scheme are secret, however many spaces come between', () => {
    expect(redacts({ headers: { authorization: 'Bearer  abcdefghijk' } }, 'token abcdefghijk')).toBe('token [redacted]');
  });

  test('secretHeaders names more, in any case; other headers are not secret', () => {
    const options = { headers: { 'X-Api-Key': 'key-0123456789', 'X-Trace': 'trace-0123456789' }, secretHeaders: ['X-API-KEY'] };
    expect(redacts(options, 'key-0123456789 trace-0123456789')).toBe('[redacted] trace-0123456789');
  });

  test('a secret is redacted in the forms a server reflects it in: percent-encoded and JSON-escaped', () => {
    const options = { headers: { 'x-secret': 'a/b"c d 0123' }, secretHeaders: ['x-secret'] };
    expect(redacts(options, `?q=${encodeURIComponent('a/b"c d 0123')} ${JSON.stringify('a/b"c d 0123')}`)).toBe('?q=[redacted] "[redacted]"');
  });

  test('no secret headers, no secrets; a value too short to tell from text is none', () => {
    expect(checkExchangeOptions({ headers: { 'x-trace': 'trace-0123456789' } }).secrets.empty).toBe(true);
    expect(checkExchangeOptions({ headers: { authorization: 'abc' } }).secrets.empty).toBe(true);
  });

  test('each settings has its own secrets', () => {
    const one = checkExchangeOptions({ headers: { authorization: 'Bearer first-0123456789' } });
    const two = checkExchangeOptions({});
    expect(two.secrets.redact('first-0123456789')).toBe('first-0123456789');
    expect(one.secrets.redact('first-0123456789')).toBe('[redacted]');
  });
});

