// utf8.ts's contract, directly: a chunk decoded after the bytes carried from the last one gives,
// chunk after chunk and with `flushTail` at the end, exactly what one TextDecoder over the whole
// stream gives (the BOM kept: dropping one is `withoutBom`'s, the caller's); a sequence split at
// any byte is carried as a tail of copied bytes; invalid bytes are U+FFFD where and as often as
// TextDecoder puts them; one ASCII byte at no tail needs no decoder.
import { describe, expect, test } from 'vitest';
import { asciiByte, decodeChunk, flushTail, NO_TAIL, withoutBom, type Utf8Tail } from '../src/reducers/utf8.js';
import { cutAt } from './helpers/chunks.js';

const whole = (bytes: Uint8Array): string => new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);

/** The text of `chunks` decoded one after another, the tail flushed at the end, and each tail carried. */
function decodeAll(chunks: readonly Uint8Array[]): { text: string; tails: Utf8Tail[] } {
  let tail: Utf8Tail = NO_TAIL;
  let text = '';
  const tails: Utf8Tail[] = [];
  for (const chunk of chunks) {
    const decoded = decodeChunk(tail, chunk);
    text += decoded.head + decoded.text;
    tail = decoded.tail;
    tails.push(tail);
  }
  return { text: text + flushTail(tail), tails };
}

/** Every way to cut `bytes` into two chunks, and into three around each pair of points up to 8 bytes. */
function cutsOf(length: number): number[][] {
  const cuts: number[][] = [[]];
  for (let i = 0; i <= length; i++) cuts.push([i]);
  for (let i = 0; i <= Math.min(length, 8); i++) for (let j = i; j <= Math.min(length, 8); j++) cuts.push([i, j]);
  return cuts;
}

const bytesOf = (...values: number[]): Uint8Array => Uint8Array.from(values);

describe('valid text, split anywhere', () => {
  test.each([
    ['two-byte characters', 'é ñ ß'],
    ['three-byte characters', '€ 就 小 山'],
    ['four-byte characters', '🚀😀𝄞'],
    ['a mix, with a BOM inside', 'a\uFEFFé€🚀z'],
    ['a leading BOM, kept', '\uFEFFdata'],
  ])('%s: every cut decodes as one TextDecoder does', (_what, text) => {
    const bytes = new TextEncoder().encode(text);
    for (const cuts of cutsOf(bytes.length)) expect(decodeAll(cutAt(bytes, cuts)).text).toBe(text);
  });

  test('a chunk that ends inside a sequence carries exactly its bytes, and the next completes it as `head`', () => {
    const rocket = new TextEncoder().encode('🚀'); // F0 9F 9A 80
    const first = decodeChunk(NO_TAIL, bytesOf(0x61, ...rocket.subarray(0, 2)));
    expect(first).toStrictEqual({ head: '', text: 'a', tail: [0xf0, 0x9f] });
    const second = decodeChunk(first.tail, rocket.subarray(2, 3));
    expect(second).toStrictEqual({ head: '', text: '', tail: [0xf0, 0x9f, 0x9a] });
    expect(decodeChunk(second.tail, bytesOf(0x80, 0x62))).toStrictEqual({ head: '🚀', text: 'b', tail: [] });
  });

  test('the tail is a copy: changing the chunk afterwards changes nothing carried, and neither input is changed', () => {
    const chunk = bytesOf(0x61, 0xe2, 0x82);
    const tail: Utf8Tail = Object.freeze([]);
    const decoded = decodeChunk(tail, chunk);
    chunk.fill(0);
    expect(decoded.tail).toStrictEqual([0xe2, 0x82]);
    expect(decodeChunk(decoded.tail, bytesOf(0xac)).head).toBe('€');
    expect(decoded.tail).toStrictEqual([0xe2, 0x82]);
  });
});

describe('invalid bytes: U+FFFD as TextDecoder gives it', () => {
  test.each([
    ['a lone continuation byte', [0x80]],
    ['C0 and C1, never leads', [0xc0, 0x80, 0xc1, 0xbf]],
    ['F5 to FF', [0xf5, 0xf8, 0xfe, 0xff]],
    ['an overlong three-byte form (E0 80)', [0xe0, 0x80, 0x80]],
    ['a surrogate (ED A0 80)', [0xed, 0xa0, 0x80]],
    ['past U+10FFFF (F4 90)', [0xf4, 0x90, 0x80, 0x80]],
    ['a sequence broken by ASCII', [0xe2, 0x82, 0x41]],
    ['a sequence broken by another lead', [0xf0, 0x9f, 0xe2, 0x82, 0xac]],
    ['a truncated sequence at the end', [0x41, 0xf0, 0x9f, 0x9a]],
    ['a truncated two-byte lead at the end', [0xc3]],
    ['valid text around them', [0x61, 0xc3, 0xa9, 0xff, 0xe2, 0x82, 0xac, 0x80, 0x62]],
  ])('%s, at every cut', (_what, values) => {
    const bytes = Uint8Array.from(values);
    const expected = whole(bytes);
    expect(expected).toContain('\uFFFD');
    for (const cuts of cutsOf(bytes.length)) expect(decodeAll(cutAt(bytes, cuts)).text).toBe(expected);
  });

  test('a broken sequence is not carried: the tail holds only a sequence still valid so far', () => {
    expect(decodeChunk(NO_TAIL, bytesOf(0xe0, 0x80)).tail).toStrictEqual([]);
    expect(decodeChunk(NO_TAIL, bytesOf(0xe0, 0xa0)).tail).toStrictEqual([0xe0, 0xa0]);
    expect(decodeChunk([0xf4], bytesOf(0x90))).toStrictEqual({ head: '\uFFFD', text: '\uFFFD', tail: [] });
  });

  test('flushTail: a tail left at the end is one U+FFFD, no tail nothing', () => {
    expect(flushTail(NO_TAIL)).toBe('');
    expect(flushTail([0xe2, 0x82])).toBe('\uFFFD');
    expect(flushTail([0xf0])).toBe('\uFFFD');
  });
});

describe('the one ASCII byte, and the BOM', () => {
  test('asciiByte: the code of one ASCII byte at no tail, else -1', () => {
    expect(asciiByte(NO_TAIL, bytesOf(0x41))).toBe(0x41);
    expect(asciiByte(NO_TAIL, bytesOf(0x00))).toBe(0);
    expect(asciiByte(NO_TAIL, bytesOf(0x80))).toBe(-1);
    expect(asciiByte(NO_TAIL, bytesOf(0x41, 0x42))).toBe(-1);
    expect(asciiByte(NO_TAIL, bytesOf())).toBe(-1);
    expect(asciiByte([0xc3], bytesOf(0x41))).toBe(-1);
  });

  test('decodeChunk takes such a byte as its text, and after a tail decodes it as TextDecoder does', () => {
    expect(decodeChunk(NO_TAIL, bytesOf(0x7a))).toStrictEqual({ head: '', text: 'z', tail: [] });
    expect(decodeChunk([0xc3], bytesOf(0x41))).toStrictEqual({ head: '\uFFFD', text: 'A', tail: [] });
  });

  test('withoutBom drops one leading U+FEFF, no other', () => {
    expect(withoutBom('\uFEFF\uFEFFa\uFEFF')).toBe('\uFEFFa\uFEFF');
    expect(withoutBom('a\uFEFF')).toBe('a\uFEFF');
    expect(withoutBom('')).toBe('');
  });
});
