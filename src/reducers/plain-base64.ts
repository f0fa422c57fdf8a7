/**
 * A fast proof that a long slice of text holds no control character and no backslash, for the
 * string values large answers carry most: base64 (an image, audio, a blob). `parse-json.ts` must
 * know that of a long string before it shares it; a regular expression proves it at about
 * 0.3 ns a character in V8, and `Uint8Array.prototype.setFromBase64`, where an engine has it,
 * rejects every such character faster: about ten times in workerd, Deno and Bun, about half
 * again in Chromium (figures: docs/guides/benchmarks.md).
 * @module
 */

/** An array with the engines' base64 decoder into it; the standard library's types do not have it yet. */
type Base64Target = Uint8Array & {
  setFromBase64(text: string): { read: number; written: number };
};

/**
 * How many bytes are decoded per call. The bytes are thrown away, so one array, made per string,
 * takes every call's; at 48 KiB (64 KiB of text) a call, the calls' own cost is negligible.
 */
const SCRATCH = 49_152;

const EQUALS = 0x3d;

/**
 * Whether `text[start, end)` is base64 written plainly: characters of the standard alphabet
 * only, a multiple of four of them, with at most two `=` of padding at the end. Such text has no
 * control character and no backslash. `false` says nothing (the caller searches as it would
 * have); so does an engine without `setFromBase64`.
 *
 * Why the count proves it: the decoder accepts only the alphabet, `=` as final padding and ASCII
 * whitespace (TAB, LF, FF, CR, space), and throws on any other character. Whitespace decodes to
 * nothing, and padding to fewer bytes than its characters would be worth, so the bytes written
 * come to three for every four characters, less one for each `=`, only when neither is there but
 * that padding at the end.
 */
export function isPlainBase64(text: string, start: number, end: number): boolean {
  const length = end - start;
  if (length === 0 || length % 4 !== 0) return false;
  if (typeof (Uint8Array.prototype as Partial<Base64Target>).setFromBase64 !== 'function') return false;
  const scratch = new Uint8Array(SCRATCH) as Base64Target;
  const padding = text.charCodeAt(end - 1) !== EQUALS ? 0 : text.charCodeAt(end - 2) !== EQUALS ? 1 : 2;
  let written = 0;
  try {
    // Each call decodes until the array is full and says how far into its text it read.
    for (let at = start; at < end; ) {
      const result = scratch.setFromBase64(text.slice(at, end));
      if (result.read === 0) return false;
      at += result.read;
      written += result.written;
    }
  } catch {
    return false; // a character outside the alphabet
  }
  return written === (length / 4) * 3 - padding;
}
