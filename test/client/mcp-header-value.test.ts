/**
 * mcp-header-value.ts: the Value Encoding of 2026-07-28's mirrored headers. The revision's
 * examples and the decoder's refusals are pinned by mcp-request-headers.test.ts; this file pins
 * each exported function's own contract: `plainValue` (the headers with no encoded form),
 * `encodeValue` naming its value, what the encoder's output may hold, and that the decoder gives
 * back every string the encoder took (long ones too, past the encoder's chunk size).
 */

import { describe, expect, test } from 'vitest';
import { decodeMcpHeaderValue, encodeMcpHeaderValue, encodeValue, plainValue } from '../../src/client/mcp-header-value.js';

describe('plainValue', () => {
  test.each(['tools/call', '2026-07-28', 'a b', '~!@#$%^&*()', 'x'])('%j is plain: returned as it is', (value) => {
    expect(plainValue('message.method', value)).toBe(value);
  });

  test.each(['', ' a', 'a ', 'a\tb', 'a\nb', 'ü', '\u007f', '\u0000'])('%j is refused, the value named', (value) => {
    expect(() => plainValue('message.method', value)).toThrow(TypeError);
    expect(() => plainValue('message.method', value)).toThrow(
      /^message\.method must be visible ASCII, not empty, without leading or trailing spaces \(this header has no encoded form\), got /,
    );
  });

  test('a value that looks like the sentinel is plain here: these headers are read as they are', () => {
    expect(plainValue('v', '=?base64?QQ==?=')).toBe('=?base64?QQ==?=');
  });
});

describe('encodeValue / encodeMcpHeaderValue', () => {
  test('the error names the value as given', () => {
    expect(() => encodeValue('message.params.name', 7)).toThrow(new TypeError('message.params.name must be a string, got 7'));
    expect(() => encodeValue('message.params.uri', 'x\udc00')).toThrow(/^message\.params\.uri must be a string without lone surrogates/);
  });

  test('the same encoding either way', () => {
    for (const value of ['plain', ' pad', 'ü', '=?base64?x?=', '']) expect(encodeValue('v', value)).toBe(encodeMcpHeaderValue(value));
  });

  test('the empty string is plain', () => {
    expect(encodeMcpHeaderValue('')).toBe('');
  });

  test('a tab, inside or at an end, is encoded (a control character)', () => {
    expect(encodeMcpHeaderValue('a\tb')).toBe(`=?base64?${btoa('a\tb')}?=`);
  });

  test('every output is visible ASCII and interior spaces, and Headers keeps it as it is', () => {
    const values = ['  ', 'a\r\nX: 1', '\u0000', 'é', '🚀', 'a\u2028b', '=?base64?', '?=', '=?base64??=', 'x'.repeat(5000)];
    for (const value of values) {
      const encoded = encodeMcpHeaderValue(value);
      expect(encoded, JSON.stringify(value)).toMatch(/^(?:[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?)?$/);
      expect(new Headers({ 'mcp-name': encoded }).get('mcp-name')).toBe(encoded);
    }
  });
});

describe('decodeMcpHeaderValue gives back what the encoder took', () => {
  test.each([
    ['ASCII', 'us-west1'],
    ['a sentinel-looking literal', '=?base64?literal?='],
    ['padding', ' padded '],
    ['controls', 'line1\r\nline2\u0000'],
    ['non-ASCII', 'Zürich 東京 🚀'],
    ['a BOM first', '\ufeffx'],
  ])('%s', (_, value) => {
    expect(decodeMcpHeaderValue(encodeMcpHeaderValue(value))).toBe(value);
  });

  test('a value longer than one chunk of the encoder (0x8000 bytes), its characters across the cut', () => {
    const value = 'é'.repeat(0x8000) + '🚀'.repeat(1000);
    const encoded = encodeMcpHeaderValue(value);
    expect(encoded.startsWith('=?base64?') && encoded.endsWith('?=')).toBe(true);
    expect(decodeMcpHeaderValue(encoded)).toBe(value);
  });
});
