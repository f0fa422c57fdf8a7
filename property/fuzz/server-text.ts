/**
 * What the quoting fuzz targets (`quoting`, `quoting-sites`) share about a server's text: the
 * characters a quote must escape, how often a piece of text repeats, and what a secret may run
 * into without being one, and the forms in which a server shows a secret back.
 */
import fc from 'fast-check';

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, i) => from + i);
}

/** Every character a quote escapes beyond JSON's own, and C0, which JSON escapes. */
export const UNSAFE_CODES: readonly number[] = [...range(0, 0x20), 0x7f, ...range(0x80, 0xa0), 0x61c, 0x200e, 0x200f, ...range(0x202a, 0x202f), ...range(0x2066, 0x206a), 0x2028, 0x2029];

/** How many times a piece of text repeats: mostly a few, sometimes hundreds, now and then up to 1 MiB. */
export const timesArb: fc.Arbitrary<number> = fc.oneof(
  { weight: 48, arbitrary: fc.integer({ min: 1, max: 3 }) },
  { weight: 5, arbitrary: fc.integer({ min: 4, max: 200 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 1 << 20 }) },
);

/**
 * What a secret may run into without being one: the marker, and a `\uXXXX` escape (of a quote, a
 * text line or a detail field), whose hex digits beside the server's text could spell part of one
 * (`\u008d` and a server's `]0123456789` read "d]0123456789").
 */
export const MARKER_OR_ESCAPE = /\[redacted\]|\\u[0-9a-f]{4}/;

/** How a server may show back a secret it was sent. */
export type EncodedForm = 'raw' | 'percent' | 'search' | 'lower-hex' | 'path' | 'every-byte' | 'json' | 'bearer';

/** `secret` as a server shows it back in `form`. */
export function encodedSecret(secret: string, form: EncodedForm): string {
  switch (form) {
    case 'raw':
      return secret;
    case 'percent':
      return encodeURIComponent(secret);
    case 'search':
      return new URLSearchParams({ t: secret }).toString().slice(2);
    case 'lower-hex':
      return encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
    case 'path':
      return encodeURIComponent(secret).replaceAll('%2F', '/'); // as a path's encoder leaves `/`
    case 'every-byte':
      return Array.from(new TextEncoder().encode(secret), (byte) => `%${byte.toString(16).padStart(2, '0').toUpperCase()}`).join('');
    case 'json':
      return JSON.stringify(secret).slice(1, -1);
    case 'bearer':
      return `Bearer ${secret}`;
  }
}
