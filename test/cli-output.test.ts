/**
 * output.ts's `textLine`: one `sse-answer: …` line, its unsafe characters escaped and, past 2,048
 * characters, cut — never inside a `\uXXXX` escape nor a surrogate pair. The same line under
 * generated texts of 1 MiB is the fuzz target `quoting`; whole CLI runs are hostile-server.test.ts.
 */

import { describe, expect, test } from 'vitest';
import { textLine } from '../src/cli/output.js';

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

  test('cut past 2,048 characters, never inside a surrogate pair', () => {
    const kept = body(textLine(`${'x'.repeat(2047)}😀tail`)).slice(0, -1);
    expect(kept).toBe('x'.repeat(2047));
  });
});
