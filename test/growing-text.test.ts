// growing-text.ts's contract, directly: grown text is `settled + recent`, `settled` a whole
// multiple of SETTLE characters and `recent` shorter than SETTLE, the split a function of the text
// alone whatever appends built it; a copy shares nothing; bytes decoded onto it as they arrive
// read, at their end, as "UTF-8 decode" reads them whole (one leading BOM dropped, a cut sequence
// U+FFFD).
import { describe, expect, test } from 'vitest';
import { copyOf, decodedTextOf, decodeOnto, grow, isShort, NO_BYTES, NO_TEXT, SETTLE, textOf, type DecodedText, type GrowingText } from '../src/reducers/growing-text.js';
import { cutAt } from './helpers/chunks.js';

/** `text` grown from nothing by the given appends. */
const grown = (appends: readonly string[]): GrowingText => appends.reduce(grow, NO_TEXT);

/** The appends that cut `text` at every `step` characters. */
const appendsOf = (text: string, step: number): string[] => Array.from({ length: Math.ceil(text.length / step) }, (_, i) => text.slice(i * step, (i + 1) * step));

describe('settled and recent', () => {
  test('SETTLE is 256 characters', () => {
    expect(SETTLE).toBe(256);
  });

  test.each([0, 1, 15, 16, 17, 255, 256, 257, 511, 512, 700, 1500])('%i characters: the split is whole SETTLEs and the rest', (length) => {
    const text = Array.from({ length }, (_, i) => String.fromCharCode(0x61 + (i % 26))).join('');
    const parts = grow(NO_TEXT, text);
    expect(textOf(parts)).toBe(text);
    expect(parts.settled.length).toBe(length - (length % SETTLE));
    expect(parts.recent.length).toBe(length % SETTLE);
    expect(isShort(parts)).toBe(length < SETTLE);
  });

  test('the split depends on the text alone: one append, one character at a time, or any step, give equal parts', () => {
    const text = 'données 🚀 '.repeat(80); // 880 characters, surrogate pairs included
    const once = grow(NO_TEXT, text);
    for (const step of [1, 3, 16, 17, 255, 256, 300]) expect(grown(appendsOf(text, step))).toStrictEqual(once);
  });

  test('appends never change the text they grow: each keeps its own parts', () => {
    const first = grown(['a'.repeat(250)]);
    const second = grow(first, 'b'.repeat(10));
    expect(first).toStrictEqual({ settled: '', recent: 'a'.repeat(250) });
    expect(second).toStrictEqual({ settled: 'a'.repeat(250) + 'b'.repeat(6), recent: 'b'.repeat(4) });
  });

  test('an empty append gives the same text', () => {
    const text = grown(['x'.repeat(300)]);
    expect(textOf(grow(text, ''))).toBe(textOf(text));
    expect(grow(NO_TEXT, '')).toStrictEqual(NO_TEXT);
  });

  test('NO_TEXT is empty and frozen', () => {
    expect(textOf(NO_TEXT)).toBe('');
    expect(isShort(NO_TEXT)).toBe(true);
    expect(Object.isFrozen(NO_TEXT)).toBe(true);
  });
});

describe('copyOf', () => {
  test('an equal string, from a rope or a slice', () => {
    const big = 'q'.repeat(100_000);
    const rope = big + 'tail';
    expect(copyOf(rope)).toBe(rope);
    expect(copyOf(big.slice(10, 50))).toBe('q'.repeat(40));
    expect(copyOf('')).toBe('');
  });
});

describe('bytes decoded as they arrive', () => {
  const decodeAll = (chunks: readonly Uint8Array[]): DecodedText => chunks.reduce(decodeOnto, NO_BYTES);

  test('any cut of the bytes reads as one "UTF-8 decode" of them all: a leading BOM dropped once, a sequence carried over a cut', () => {
    const text = '\uFEFF{"k":"é€🚀"}\uFEFF';
    const bytes = new TextEncoder().encode(text);
    for (let i = 0; i <= bytes.length; i++) {
      for (let j = i; j <= bytes.length; j += 3) expect(decodedTextOf(decodeAll(cutAt(bytes, [i, j])))).toBe(text.slice(1));
    }
  });

  test('bytes left in a sequence at the end read as U+FFFD; invalid bytes as TextDecoder reads them', () => {
    const bytes = Uint8Array.from([0x61, 0xff, 0xe2, 0x82, 0x41, 0xf0, 0x9f]);
    const expected = new TextDecoder().decode(bytes);
    for (let i = 0; i <= bytes.length; i++) expect(decodedTextOf(decodeAll(cutAt(bytes, [i])))).toBe(expected);
  });

  test('an empty chunk changes nothing, and a chunk is not kept: changed afterwards, the text is the same', () => {
    const decoded = decodeOnto(NO_BYTES, new TextEncoder().encode('ab'));
    expect(decodeOnto(decoded, new Uint8Array(0))).toBe(decoded);
    const chunk = Uint8Array.from([0x63, 0xe2, 0x82]);
    const next = decodeOnto(decoded, chunk);
    chunk.fill(0x7a);
    expect(decodedTextOf(decodeOnto(next, Uint8Array.from([0xac])))).toBe('abc€');
  });

  test('NO_BYTES is no text and no tail, and frozen', () => {
    expect(decodedTextOf(NO_BYTES)).toBe('');
    expect(Object.isFrozen(NO_BYTES)).toBe(true);
  });
});
