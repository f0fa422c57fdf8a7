/**
 * output.ts's `textLine`: one `sse-answer: …` line, its unsafe characters escaped and, past 2,048
 * characters, cut — never inside a `\uXXXX` escape nor a surrogate pair; and `neverPrint`, the
 * secrets `jsonLine` and `textLine` redact. The same line under
 * generated texts of 1 MiB is the fuzz target `quoting`; whole CLI runs are hostile-server.test.ts.
 */

import { afterEach, describe, expect, test } from 'vitest';
import { jsonLine, neverPrint, oneLine, textLine } from '../src/cli/output.js';

const PREFIX = 'sse-answer: ';
const body = (line: string): string => line.slice(PREFIX.length, -1);

describe('textLine', () => {
  test('one line: its lines joined by a space, unsafe characters escaped', () => {
    expect(textLine('a\n  b\r\x1b[2K\u202e')).toBe(`${PREFIX}a b\\u000d\\u001b[2K\\u202e\n`);
  });

  test.each([0, 1, 2, 3, 4, 5])('cut past 2,048 characters, never inside an escape (escape %i characters before the cut)', (before) => {
    const line = textLine(`${'x'.repeat(2048 - before)}\x1b${'y'.repeat(100)}`);
    const kept = body(line).slice(0, -1);
    expect(body(line).endsWith('…')).toBe(true);
    expect(kept.length).toBeLessThanOrEqual(2048);
    // What is kept is whole: every escape complete, and it is a prefix of the uncut escaped text.
    expect(`${'x'.repeat(2048 - before)}\\u001b${'y'.repeat(100)}`.startsWith(kept)).toBe(true);
    expect(/\\u[0-9a-f]{0,3}$/.test(kept)).toBe(false);
  });

  test('a lone surrogate is escaped, as every quote of the library escapes it; a pair is kept', () => {
    expect(textLine('a\ud800b\udc00c\ud83d\ude00')).toBe(`${PREFIX}a\\ud800b\\udc00c\ud83d\ude00\n`);
  });

  test('cut past 2,048 characters, never inside a surrogate pair', () => {
    const kept = body(textLine(`${'x'.repeat(2047)}😀tail`)).slice(0, -1);
    expect(kept).toBe('x'.repeat(2047));
  });
});

describe('oneLine: part of a line, at most the given characters and an ellipsis', () => {
  test.each([1, 5, 6, 7, 10])('cut at %i, never inside an escape', (limit) => {
    const line = oneLine('ab\x1bcdefghij', limit);
    expect(line.endsWith('…')).toBe(true);
    expect(line.length - 1).toBeLessThanOrEqual(limit);
    expect('ab\\u001bcdefghij'.startsWith(line.slice(0, -1))).toBe(true);
    expect(/\\u[0-9a-f]{0,3}$/.test(line.slice(0, -1))).toBe(false);
  });

  test('within the limit: whole, its lines joined', () => {
    expect(oneLine('a\n b', 3)).toBe('a b');
  });
});

describe('what no output may show: the secrets taken as the exchange takes them', () => {
  afterEach(() => neverPrint(new Headers(), [], []));

  test("an Authorization's credentials after any run of spaces, a secret header's after its scheme, a cookie's value, the token", () => {
    const headers = new Headers({ authorization: 'Bearer  abcdefghijk', 'x-key': 'Token key-0123456789', cookie: 'theme=dark; sid=sid-0123456789' });
    neverPrint(headers, ['x-key'], ['tok-0123456789']);
    const line = jsonLine({ auth: 'abcdefghijk', key: 'key-0123456789', sid: 'sid-0123456789', token: 'tok-0123456789', theme: 'dark' });
    expect(JSON.parse(line)).toEqual({ auth: '[redacted]', key: '[redacted]', sid: '[redacted]', token: '[redacted]', theme: 'dark' });
  });
});
