/**
 * describe-value.ts: how the package shows a server's text — `quoteText` and `prefixText` in a
 * message (64 characters, escaped as JSON writes them, and what JSON leaves raw), `detailText`
 * in an error's detail (2,048 characters, only the unsafe characters escaped). The same rules
 * under generated texts of 1 MiB are the fuzz target `quoting`.
 */

import { describe, expect, test } from 'vitest';
import { DETAIL_PREFIX, detailText, PREFIX, prefixText, quoteText } from '../src/vocabulary/describe-value.js';

const TERMINAL = '\r\x1b[2K\x07\u009b31m\u202e\u2028\x7f\ud800';

describe('quoteText and prefixText: a message\'s quote', () => {
  test('short text: quoted whole, escaped as JSON and beyond', () => {
    expect(quoteText('a "b" \\ c')).toBe('"a \\"b\\" \\\\ c"');
    expect(quoteText(TERMINAL)).toBe('"\\r\\u001b[2K\\u0007\\u009b31m\\u202e\\u2028\\u007f\\ud800"');
    expect(prefixText('plain')).toBe('plain');
  });

  test(`longer than ${PREFIX}: the first ${PREFIX} characters and an ellipsis, never half a surrogate pair`, () => {
    expect(quoteText('x'.repeat(1 << 20))).toBe(`"${'x'.repeat(PREFIX)}…"`);
    const pair = `${'x'.repeat(PREFIX - 1)}😀tail`;
    expect(prefixText(pair)).toBe(`${'x'.repeat(PREFIX - 1)}…`);
  });
});

describe('detailText: a field of an error\'s detail', () => {
  test('a real content type, Location or event id is kept exactly, quotes and backslashes too', () => {
    for (const text of ['text/event-stream; charset=utf-8', 'multipart/mixed; boundary="a\\b"', `https://example.com/${'p'.repeat(1500)}?q=1`, '', '😀 id'])
      expect(detailText(text)).toBe(text);
  });

  test('unsafe characters are written \\uXXXX; nothing else changes', () => {
    expect(detailText(`id ${TERMINAL} end`)).toBe('id \\u000d\\u001b[2K\\u0007\\u009b31m\\u202e\\u2028\\u007f\\ud800 end');
  });

  test(`longer than ${DETAIL_PREFIX}: the first ${DETAIL_PREFIX} characters and an ellipsis, never half a surrogate pair`, () => {
    expect(detailText('x'.repeat(1 << 20))).toBe(`${'x'.repeat(DETAIL_PREFIX)}…`);
    expect(detailText(`${'x'.repeat(DETAIL_PREFIX - 1)}😀tail`)).toBe(`${'x'.repeat(DETAIL_PREFIX - 1)}…`);
    expect(detailText('\x1b'.repeat(1 << 20)).length).toBe(6 * DETAIL_PREFIX + 1);
  });
});
