/**
 * secrets.ts: `Secrets.redact` under the percent-encodings a server reflects, and the values of a
 * header given more than once. The rule's whole reach under generated texts is the fuzz targets
 * `quoting` and `quoting-sites`; this pins the case `quoting-sites` found, where a `%` or `%X`
 * just before an encoded secret takes its first characters into an escape of its own when the
 * text is read through its escapes.
 */

import { describe, expect, test } from 'vitest';
import { REDACTED, Secrets } from '../src/vocabulary/secrets.js';

function secretsOf(...values: string[]): Secrets {
  const secrets = new Secrets();
  for (const value of values) secrets.add(value);
  return secrets;
}

describe('Secrets.redact: an encoded secret after a stray escape start', () => {
  test.each([
    ['1A%AAAAAAA', '%'],
    ['ab+cdefgh/ij', '%2'],
    ['key!*\'-~secret', '%'],
  ])('%s, encoded, after %s: redacted in every common encoding', (secret, before) => {
    const secrets = secretsOf(secret);
    const lowerHex = (text: string) => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
    for (const encoded of [encodeURIComponent(secret), lowerHex(encodeURIComponent(secret)), new URLSearchParams({ t: secret }).toString().slice(2)]) {
      const out = secrets.redact(`${before}${encoded} tail`);
      expect(out, encoded).toBe(`${before}${REDACTED} tail`);
    }
  });

  test("a path's encoding (every character encodeURIComponent encodes but /) after a stray %: redacted", () => {
    const secret = '1A%/abcdefgh';
    const pathEncoded = encodeURIComponent(secret).replaceAll('%2F', '/');
    expect(secretsOf(secret).redact(`x %${pathEncoded} tail`)).toBe(`x %${REDACTED} tail`);
  });

  test('read through its escapes as before: a secret percent-encoded byte by byte', () => {
    const secret = 'Hostile~Token';
    const everyByte = [...new TextEncoder().encode(secret)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
    expect(secretsOf(secret).redact(`x=${everyByte}&y`)).toBe(`x=${REDACTED}&y`);
  });

  test('nothing changes where there is no secret', () => {
    expect(secretsOf('1A%AAAAAAA').redact('%1A%25AAAAAA! not it')).toBe('%1A%25AAAAAA! not it');
  });
});

describe('Secrets.addHeaders: each value a header was given', () => {
  test('a header given twice is sent joined ("a, b"): each value is a secret alone', () => {
    const secrets = new Secrets();
    secrets.addHeaders(new Headers([['x-api-key', 'FirstKey-0123456789'], ['x-api-key', 'SecondKey-0123456789'], ['authorization', 'Bearer tok-0123456789']]), ['x-api-key']);
    expect(secrets.redact('saw FirstKey-0123456789; then SecondKey-0123456789, tok-0123456789')).toBe(`saw ${REDACTED}; then ${REDACTED}, ${REDACTED}`);
  });
});

describe('Secrets.redactValue: what it is given that is no tree', () => {
  const secret = 'tok-0123456789abcdef';
  const secrets = (): Secrets => {
    const made = new Secrets();
    made.add(secret);
    return made;
  };

  test('a value met twice (no cycle) is redacted in both places', () => {
    const shared = { said: `reflected ${secret}` };
    const out = secrets().redactValue({ a: shared, b: [shared] });
    expect(out.a).toEqual({ said: `reflected ${REDACTED}` });
    expect(out.b[0]).toEqual(out.a);
    expect(shared.said).toBe(`reflected ${secret}`);
  });

  test('a cycle ends: everything before it redacted, the reference that closes it left as it was', () => {
    const inner: Record<string, unknown> = { said: `inner ${secret}` };
    const outer: Record<string, unknown> = { said: `outer ${secret}`, inner };
    inner['back'] = outer;
    const out = secrets().redactValue(outer);
    expect(out['said']).toBe(`outer ${REDACTED}`);
    expect(out['inner']).toEqual({ said: `inner ${REDACTED}`, back: outer });
    expect((out['inner'] as Record<string, unknown>)['back']).toBe(outer);
    expect(outer['said']).toBe(`outer ${secret}`);
  });
});
