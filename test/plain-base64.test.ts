import { describe, expect, test } from 'vitest';
import { isPlainBase64 } from '../src/reducers/plain-base64.js';
import { fromBase64, withoutSetFromBase64, withSetFromBase64 } from './helpers/base64-reference.js';

/** Whole-text form: the function reads a range of a larger text. */
const plain = (text: string): boolean => isPlainBase64(`"${text}"`, 1, text.length + 1);

describe('the reference decoder follows the spec', () => {
  test('counts what it reads and writes, and stops where the array is full', () => {
    expect(fromBase64('QUJD', 3)).toEqual({ read: 4, written: 3 });
    expect(fromBase64('QUJDQUJD', 3)).toEqual({ read: 4, written: 3 });
    expect(fromBase64('QU JD\n', 10)).toEqual({ read: 6, written: 3 });
    expect(fromBase64('QQ==', 10)).toEqual({ read: 4, written: 1 });
    expect(fromBase64('QUI=', 10)).toEqual({ read: 4, written: 2 });
    expect(fromBase64('QUJDQQ', 10)).toEqual({ read: 6, written: 4 });
    // A partial last chunk that would not fit is left unread.
    expect(fromBase64('QUJDQUI', 4)).toEqual({ read: 4, written: 3 });
  });

  test('throws on what is not base64', () => {
    for (const text of ['Q', 'Q===', 'QQ=', 'QQ=A', 'QUJD\u0001', '-_AA', 'QU\\J']) {
      expect(() => fromBase64(text, 10), text).toThrow(SyntaxError);
    }
  });
});

describe('isPlainBase64: a long string proved free of control characters', () => {
  test('plain base64, padded or not, is proved', () => {
    withSetFromBase64(() => {
      for (const text of ['QUJD', 'QUJDQUI=', 'QUJDQQ==', 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/']) {
        expect(plain(text), text).toBe(true);
      }
    });
  });

  test('whitespace the decoder skips is told by the count of bytes written', () => {
    withSetFromBase64(() => {
      // Each is a multiple of four characters that the decoder accepts.
      for (const text of [' QUI', 'QUI ', 'QU  ', '    ', 'Q\tUI', 'QUJD\nQUI', 'QUJ\fD', 'QUJ\rD', 'QQ= =', 'QUI=\n   ']) {
        expect(() => fromBase64(text, 100), JSON.stringify(text)).not.toThrow();
        expect(plain(text), JSON.stringify(text)).toBe(false);
      }
    });
  });

  test('anything else is not proved: other characters, bad padding, a length that is not a multiple of four', () => {
    withSetFromBase64(() => {
      for (const text of ['', 'QUJ', 'QUJDQ', 'QUJ\u0001', 'QU\\n', 'Q===', 'QQ=A', '-_AA', 'QUJé', 'QUJ"']) {
        expect(plain(text), JSON.stringify(text)).toBe(false);
      }
    });
  });

  test('a string longer than one decoding call reads is proved in full', () => {
    withSetFromBase64(() => {
      const text = 'QUJD'.repeat(50_000); // 200 000 characters: four calls of 64 KiB at most
      expect(plain(text)).toBe(true);
      for (const at of [65_535, 65_536, 131_072, 199_999]) {
        const spaced = text.slice(0, at) + ' ' + text.slice(at + 1);
        expect(plain(spaced), `a space at ${at}`).toBe(false);
      }
    });
  });

  test('the range is read, not the text around it', () => {
    withSetFromBase64(() => {
      const text = '\t"QUJD"\t';
      expect(isPlainBase64(text, 2, 6)).toBe(true);
      expect(isPlainBase64(text, 1, 5)).toBe(false);
    });
  });

  test('an engine without setFromBase64 proves nothing: the caller searches instead', () => {
    withoutSetFromBase64(() => {
      expect(plain('QUJD')).toBe(false);
    });
  });
});
