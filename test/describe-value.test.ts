/**
 * describe-value.ts: how the package shows a server's text — `quoteText` and `shortText` in a
 * message (64 characters, escaped as JSON writes them, and what JSON leaves raw), `detailField`
 * in an error's detail (2,048 characters, only the unsafe characters escaped). The same rules
 * under generated texts of 1 MiB are the fuzz target `quoting`.
 */

import { describe, expect, test } from 'vitest';
import { DETAIL_PREFIX, detailField, escapedPrefix, escapeUnsafe, PREFIX, shortText, quoteText } from '../src/vocabulary/describe-value.js';

const TERMINAL = '\r\x1b[2K\x07\u009b31m\u202e\u2028\x7f\ud800';

describe('quoteText and shortText: a message\'s quote', () => {
  test('short text: quoted whole, escaped as JSON and beyond', () => {
    expect(quoteText('a "b" \\ c')).toBe('"a \\"b\\" \\\\ c"');
    expect(quoteText(TERMINAL)).toBe('"\\r\\u001b[2K\\u0007\\u009b31m\\u202e\\u2028\\u007f\\ud800"');
    expect(shortText('plain')).toBe('plain');
  });

  test(`longer than ${PREFIX}: the first ${PREFIX} characters and an ellipsis, never half a surrogate pair`, () => {
    expect(quoteText('x'.repeat(1 << 20))).toBe(`"${'x'.repeat(PREFIX)}…"`);
    const pair = `${'x'.repeat(PREFIX - 1)}😀tail`;
    expect(shortText(pair)).toBe(`${'x'.repeat(PREFIX - 1)}…`);
  });
});

describe('detailField: a field of an error\'s detail', () => {
  test('a real content type, Location or event id is kept exactly, quotes and backslashes too', () => {
    for (const text of ['text/event-stream; charset=utf-8', 'multipart/mixed; boundary="a\\b"', `https://example.com/${'p'.repeat(1500)}?q=1`, '', '😀 id'])
      expect(detailField(text)).toBe(text);
  });

  test('unsafe characters are written \\uXXXX; nothing else changes', () => {
    expect(detailField(`id ${TERMINAL} end`)).toBe('id \\u000d\\u001b[2K\\u0007\\u009b31m\\u202e\\u2028\\u007f\\ud800 end');
  });

  test(`longer than ${DETAIL_PREFIX}: the first ${DETAIL_PREFIX} characters and an ellipsis, never half a surrogate pair`, () => {
    expect(detailField('x'.repeat(1 << 20))).toBe(`${'x'.repeat(DETAIL_PREFIX)}…`);
    expect(detailField(`${'x'.repeat(DETAIL_PREFIX - 1)}😀tail`)).toBe(`${'x'.repeat(DETAIL_PREFIX - 1)}…`);
    expect(detailField('\x1b'.repeat(1 << 20)).length).toBe(6 * DETAIL_PREFIX + 1);
  });
});

describe('escapeUnsafe and escapedPrefix: the one rule the CLI writes its lines by', () => {
  test('escapeUnsafe writes every unsafe character \\uXXXX and leaves the rest, quotes and backslashes too', () => {
    expect(escapeUnsafe('a\u001b[31m"b\\c\u202e\u2028\ud800')).toBe('a\\u001b[31m"b\\c\\u202e\\u2028\\ud800');
    expect(escapeUnsafe('plain ascii, é, 🚀')).toBe('plain ascii, é, 🚀');
    const json = JSON.stringify({ text: 'x\u0085y' });
    expect(JSON.parse(escapeUnsafe(json))).toEqual({ text: 'x\u0085y' });
  });

  test('escapedPrefix cuts the escaped text, never inside an escape nor a surrogate pair', () => {
    expect(escapedPrefix('abc', 10)).toBe('abc');
    // 'ab' then an escape of 6 characters: a cut at 5 would land inside it, so it ends before it.
    expect(escapedPrefix('ab\u001bcd', 5)).toBe('ab…');
    expect(escapedPrefix('a🚀b', 2)).toBe('a…');
    for (let limit = 1; limit < 40; limit++) {
      const cut = escapedPrefix('\u001b'.repeat(5) + '🚀'.repeat(5), limit);
      expect(cut.length).toBeLessThanOrEqual(limit + 1);
      expect(cut.replace(/…$/, '')).toMatch(/^(?:\\u001b)*(?:🚀)*$/u);
    }
  });
});
