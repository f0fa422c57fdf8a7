/**
 * `Uint8Array.prototype.setFromBase64` as the ECMAScript spec writes it (FromBase64, base64
 * alphabet, `lastChunkHandling: "loose"`), step by step and slow: for the engines that lack it
 * (Node 20), so the tests of `plain-base64.ts` run there too. The runtime fixtures run the
 * engines' own decoders on the same rules (test/runtimes/fixtures/answer-cases.mjs).
 * @see https://tc39.es/proposal-arraybuffer-base64/spec/#sec-frombase64
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The spec's ASCII whitespace: TAB, LF, FF, CR, space. */
function skipWhitespace(text: string, index: number): number {
  while (index < text.length && '\t\n\f\r '.includes(text[index]!)) index++;
  return index;
}

/** FromBase64(text, "base64", "loose", maxLength): how far it read and how many bytes it wrote. */
export function fromBase64(text: string, maxLength: number): { read: number; written: number } {
  if (maxLength === 0) return { read: 0, written: 0 };
  let read = 0;
  let written = 0;
  let chunk = 0; // characters of the chunk being read
  let index = 0;
  for (;;) {
    index = skipWhitespace(text, index);
    if (index === text.length) {
      if (chunk === 1) throw new SyntaxError('a lone final character');
      if (chunk > 0) written += chunk - 1;
      return { read: text.length, written };
    }
    const char = text[index++]!;
    if (char === '=') {
      if (chunk < 2) throw new SyntaxError('padding too early');
      index = skipWhitespace(text, index);
      if (chunk === 2) {
        if (index === text.length) throw new SyntaxError('one "=" where two are needed');
        if (text[index] === '=') index = skipWhitespace(text, index + 1);
      }
      if (index < text.length) throw new SyntaxError('characters after the padding');
      return { read: text.length, written: written + chunk - 1 };
    }
    if (!ALPHABET.includes(char)) throw new SyntaxError(`not base64: ${JSON.stringify(char)}`);
    const remaining = maxLength - written;
    if ((remaining === 1 && chunk === 2) || (remaining === 2 && chunk === 3)) return { read, written };
    chunk++;
    if (chunk === 4) {
      written += 3;
      chunk = 0;
      read = index;
      if (written === maxLength) return { read, written };
    }
  }
}

type Decoding = { setFromBase64(this: Uint8Array, text: string): { read: number; written: number } };

/** Runs `body` with `setFromBase64` on `Uint8Array.prototype` set to `decoder`, or absent; the engine's own is restored afterwards. */
function withDecoder<T>(decoder: Decoding['setFromBase64'] | undefined, body: () => T): T {
  const prototype = Uint8Array.prototype as Uint8Array & Partial<Decoding>;
  const own = Object.getOwnPropertyDescriptor(prototype, 'setFromBase64');
  if (decoder === undefined) delete prototype.setFromBase64;
  else Object.defineProperty(prototype, 'setFromBase64', { configurable: true, writable: true, value: decoder });
  try {
    return body();
  } finally {
    delete prototype.setFromBase64;
    if (own !== undefined) Object.defineProperty(prototype, 'setFromBase64', own);
  }
}

/**
 * Runs `body` with `setFromBase64` on `Uint8Array.prototype`: {@link fromBase64}, which reports
 * what it wrote but writes no bytes (`plain-base64.ts` reads only the counts), called through
 * `onCall` when given. An engine's own is set aside meanwhile, so every engine runs the same
 * rules here.
 */
export function withSetFromBase64<T>(body: () => T, onCall?: () => void): T {
  return withDecoder(function setFromBase64(this: Uint8Array, text: string) {
    onCall?.();
    return fromBase64(text, this.length);
  }, body);
}

/** Runs `body` with no `setFromBase64` on `Uint8Array.prototype`, as in Node 20. */
export function withoutSetFromBase64<T>(body: () => T): T {
  return withDecoder(undefined, body);
}
