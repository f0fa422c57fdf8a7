/**
 * `mimeEssence` against a model written step by step from the Fetch standard ("extract a MIME
 * type", "parse a MIME type", "get, decode, and split"), over headers built from the characters
 * that decide each step: commas, quotes, backslashes, semicolons, slashes, HTTP whitespace and
 * the whitespace that is not HTTP whitespace.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { mimeEssence } from '../src/vocabulary/content-type.js';
import { numRuns, seed } from './settings.js';

const HTTP_WHITESPACE = '\t\n\r ';
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Fetch's "get, decode, and split": values at commas outside quoted strings, tab and space trimmed. */
function splitModel(header: string): string[] {
  const values: string[] = [];
  let value = '';
  let position = 0;
  for (;;) {
    while (position < header.length && header[position] !== '"' && header[position] !== ',') value += header[position++];
    if (position < header.length && header[position] === '"') {
      // An HTTP quoted string, extracted with its quotes and escapes as they are.
      value += header[position++];
      while (position < header.length) {
        const c = header[position++]!;
        value += c;
        if (c === '\\') {
          if (position < header.length) value += header[position++];
        } else if (c === '"') break;
      }
      if (position < header.length) continue;
    }
    values.push(value.replace(/^[\t ]+|[\t ]+$/g, ''));
    if (position >= header.length) return values;
    position++; // the comma
    value = '';
  }
}

/** Fetch's "parse a MIME type", as far as the essence: `undefined` for failure. */
function parseModel(input: string): string | undefined {
  let start = 0;
  let end = input.length;
  while (start < end && HTTP_WHITESPACE.includes(input[start]!)) start++;
  while (end > start && HTTP_WHITESPACE.includes(input[end - 1]!)) end--;
  const text = input.slice(start, end);
  const slash = text.indexOf('/');
  if (slash === -1) return undefined;
  const type = text.slice(0, slash);
  if (!TOKEN.test(type)) return undefined;
  const semicolon = text.indexOf(';', slash + 1);
  let subtype = text.slice(slash + 1, semicolon === -1 ? text.length : semicolon);
  while (subtype !== '' && HTTP_WHITESPACE.includes(subtype[subtype.length - 1]!)) subtype = subtype.slice(0, -1);
  if (!TOKEN.test(subtype)) return undefined;
  return `${type}/${subtype}`.toLowerCase();
}

/** Fetch's "extract a MIME type", as far as the essence: the last value that parses and is not *\/*. */
function essenceModel(header: string): string | undefined {
  let essence: string | undefined;
  for (const value of splitModel(header)) {
    const parsed = parseModel(value);
    if (parsed !== undefined && parsed !== '*/*') essence = parsed;
  }
  return essence;
}

const pieceArb = fc.constantFrom(
  'text', 'event-stream', 'application', 'JSON', '*', 'a b',
  '/', ';', ',', '"', '\\', '=', 'charset=utf-8',
  ' ', '\t', '\n', '\r', '\u00a0', '\v', '\f', '\u3000',
);
const headerArb = fc.array(pieceArb, { maxLength: 14 }).map((pieces) => pieces.join(''));

test('mimeEssence is Fetch\'s "extract a MIME type" essence, for any header', () => {
  fc.assert(
    fc.property(headerArb, (header) => {
      expect(mimeEssence(header)).toBe(essenceModel(header));
    }),
    { seed, numRuns: numRuns * 10 },
  );
});

test.each([
  ['text/event-stream', 'text/event-stream'],
  [' \ttext/Event-Stream ; charset=utf-8', 'text/event-stream'],
  ['text/event-stream\u00a0', undefined],
  ['\vtext/event-stream', undefined],
  ['application/json, text/event-stream', 'text/event-stream'],
  ['text/event-stream, */*', 'text/event-stream'],
  ['text/event-stream; a="x,application/json"', 'text/event-stream'],
  ['text/event-stream; a="x\\",application/json"', 'text/event-stream'],
  ['text/event-stream, bogus', 'text/event-stream'],
])('the model and mimeEssence agree on %j', (header, essence) => {
  expect(essenceModel(header)).toBe(essence);
  expect(mimeEssence(header)).toBe(essence);
});
