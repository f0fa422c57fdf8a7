import { describe, expect, test } from 'vitest';
import { longStrings, parseJson, parseJsonWith } from '../src/reducers/parse-json.js';
import { parseOutcome } from './helpers/canonical.js';

const long = (n: number, c = 'x') => c.repeat(n);

/** parseJsonWith at small limits (long strings from 4 characters, an envelope of 64). */
const parseSmall = (text: string) => parseJsonWith(text, 4, 64);

/** Both parse alike (canonical form: key order and -0 kept) or both throw the same error. */
function expectAsJsonParse(text: string, parse: (text: string) => unknown = parseSmall): void {
  expect(parseOutcome(() => parse(text))).toEqual(parseOutcome(() => JSON.parse(text)));
}

describe('longStrings: which strings are taken as slices', () => {
  test('a long value string, its contents without the quotes', () => {
    const text = '{"a":"xxxxx","b":1}';
    expect(longStrings(text, 4, 64)).toEqual([6, 11]);
  });

  test('strings shorter than the limit are not', () => {
    expect(longStrings('{"a":"xyz","b":"abc"}', 4, 64)).toBeUndefined();
  });

  test('several, in text order, across arrays and nesting', () => {
    const text = '[ "aaaa", {"k": ["bbbbb"]}, "cc" ]';
    expect(longStrings(text, 4, 64)).toEqual([3, 7, 18, 23]);
  });

  test('a string with an escape is not, and the scan goes on past it', () => {
    expect(longStrings('["ab\\ncd","xxxx"]', 4, 64)).toEqual([11, 15]);
    // An escaped quote does not end the string.
    expect(longStrings('["ab\\"cd\\\\","xxxx"]', 4, 64)).toEqual([13, 17]);
    // A \uXXXX escape.
    expect(longStrings('["\\u0041BCDE","yyyy"]', 4, 64)).toEqual([15, 19]);
  });

  test('a key is not, however long', () => {
    expect(longStrings('{"kkkkk":1}', 4, 64)).toBeUndefined();
    expect(longStrings('{"kkkkk" \n\t\r : "vvvv"}', 4, 64)).toEqual([16, 20]);
  });

  test('none when a string holds a control character (JSON allows them only escaped: not JSON)', () => {
    for (const control of ['\u0000', '\u0009', '\u000a', '\u000d', '\u001f']) {
      expect(longStrings(`["ab${control}cd","xxxx"]`, 4, 64)).toBeUndefined();
      expect(longStrings(`["xxxx","ab${control}cd"]`, 4, 64)).toBeUndefined();
    }
    // Whitespace between tokens is not inside a string.
    expect(longStrings('[\n\t"xxxx"\r\n]', 4, 64)).toEqual([4, 8]);
    // U+007F and U+0080 are not control characters to JSON.
    expect(longStrings('["ab\u007f\u0080"]', 4, 64)).toEqual([2, 6]);
  });

  test('none when the envelope (the text besides the long strings) is over the limit', () => {
    const text = `{"a":"${long(10)}","b":[${'1,'.repeat(40)}1]}`;
    expect(longStrings(text, 4, 64)).toBeUndefined();
    expect(longStrings(text, 4, 128)).toEqual([6, 16]);
    // Escaped long strings count as envelope: the scan stops inside them.
    expect(longStrings(`["${'\\n'.repeat(100)}"]`, 4, 64)).toBeUndefined();
  });

  test('none when the envelope holds \\u0000, the one way JSON writes a string a marker could be mistaken for', () => {
    expect(longStrings('["xxxx","\\u0000"]', 4, 64)).toBeUndefined();
    expect(longStrings('{"\\u0000k":"xxxx"}', 4, 64)).toBeUndefined();
    // An escaped backslash before `u0000` is no NUL, but it is counted too: the text only goes to JSON.parse.
    expect(longStrings('["\\\\u0000","xxxx"]', 4, 64)).toBeUndefined();
    // Other escapes are not.
    expect(longStrings('["\\u0001","xxxx"]', 4, 64)).toEqual([11, 15]);
  });

  test('two-byte text: CJK characters whose code has the byte of a backslash or a quote are plain', () => {
    // U+5C0F 小, U+5C31 就, U+5C71 山 (a byte 0x5C, a backslash's); U+4E22 丢 (a byte 0x22, a quote's).
    const contents = '小就山丢'.repeat(3);
    expect(longStrings(`["${contents}"]`, 4, 64)).toEqual([2, 2 + contents.length]);
    // A backslash or a control character in such a string is still found.
    expect(longStrings(`["${contents}\\n${contents}","xxxx"]`, 4, 64)).toEqual([31, 35]);
    expect(longStrings(`["${contents}\u0001${contents}","xxxx"]`, 4, 64)).toBeUndefined();
    // A string led by ASCII, with the backslash after wider characters.
    expect(longStrings(`["${'x'.repeat(40)}小\\n","yyyy"]`, 4, 64)).toEqual([48, 52]);
  });

  test('none for an unterminated string', () => {
    expect(longStrings('["xxxxx', 4, 64)).toBeUndefined();
    expect(longStrings('["xxxxx\\"]', 4, 64)).toBeUndefined();
  });
});

describe('parseJson: exactly JSON.parse', () => {
  test('the long strings come back equal, in place', () => {
    const value = { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'image', data: long(300_000, 'A'), mimeType: 'image/png' }] } };
    const parsed = parseJson(JSON.stringify(value));
    expect(parsed).toEqual(value);
    expect(Object.keys(parsed as object)).toEqual(['jsonrpc', 'id', 'result']);
  });

  test.each([
    ['the whole text is one long string', '"xxxxx"'],
    ['two long strings', '{"a":"xxxxx","b":"yyyyy"}'],
    ['integer keys come first: the reviver visits out of text order', '{"b":"xxxxx","1":"yyyyy","0":"zzzzz"}'],
    ['own __proto__ properties, as JSON.parse makes them', '{"__proto__":"xxxxx","a":{"__proto__":["yyyyy"]}}'],
    ["a duplicate key: the last value, at the first key's place", '{"a":"xxxxx","a":"yyyyy"}'],
    ['numbers JSON.parse rounds', '[-0,"xxxxx",1e400,-1e-400,0.1]'],
    ['the text carries a marker: the count catches it', '["xxxxx","\\u00000"]'],
    ['markers and long strings interleaved', '["\\u00000","xxxxx","\\u00001","yyyyy"]'],
    ['a marker as a key is harmless', '{"\\u00000":"xxxxx"}'],
    ['a duplicate key puts a marker-like string where the marker was', '{"a":"xxxxx","a":"\\u00000"}'],
    ["lone surrogates are JSON.parse's to keep", '["\ud800xxxx","x\udfffxxx"]'],
    ['whitespace around the value', ' \n["xxxxx"] \t'],
  ])('at small limits, %s: as JSON.parse', (_, text) => {
    expectAsJsonParse(text);
  });

  test('deep nesting JSON.parse accepts is walked without recursion', () => {
    const depth = 20_000;
    const text = '['.repeat(depth) + '"xxxxx"' + ']'.repeat(depth);
    expect(longStrings(text, 4, 1e6)).toEqual([depth + 1, depth + 6]);
    let value = parseJsonWith(text, 4, 1e6);
    for (let i = 0; i < depth; i++) value = (value as unknown[])[0];
    expect(value).toBe('xxxxx');
  });

  test('two-byte text: long strings of Cyrillic, CJK and emoji come back equal', () => {
    const text = JSON.stringify({ a: 'привет мир '.repeat(3), b: ['日本語のテキスト'.repeat(2)], c: '🙂🚀'.repeat(5) });
    expect(longStrings(text, 8, 64)).toHaveLength(6);
    expectAsJsonParse(text, (t) => parseJsonWith(t, 8, 64));
  });

  test.each([
    ['the envelope is not JSON', '["xxxxx"'],
    ['text after the value', '["xxxxx"]x'],
    ['a raw control character in a long string', '["xx\nxxx"]'],
    ['a trailing comma', '{"a":"xxxxx",}'],
    ['an unterminated string', '"xxxxx'],
    ['no text', ''],
  ])("errors are JSON.parse's own: %s", (_, text) => {
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
    expectAsJsonParse(text);
  });

  test('the text is not left in RegExp\'s legacy statics, where it would outlive the answer', () => {
    const statics = RegExp as unknown as { input: string; lastMatch: string };
    for (const text of ['["xxxxx"]', '["xx\\nxxx","yyyyy"]', '["xxxxx","ab\ncd"]']) {
      const parse = () => parseJsonWith(text, 4, 64);
      if (text.includes('\n')) expect(parse).toThrow(SyntaxError); // a raw LF in a string
      else expect(parse()).toEqual(JSON.parse(text));
      expect(statics.input).toBe('');
      expect(statics.lastMatch).toBe('');
    }
  });

  test.each(['1', '{"a":[1,2,{"b":null}]}', `[${'1,'.repeat(1000)}1]`])(
    'short texts and texts with no long strings go to JSON.parse unchanged (%#)',
    (text) => {
      expectAsJsonParse(text, parseJson);
    },
  );
});
