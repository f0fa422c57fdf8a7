/**
 * A fast proof that a long string of base64 holds no control character and no backslash, by the
 * engine's `setFromBase64` where it has one (faster than a search: docs/guides/benchmarks.md).
 * @module
 */

/** An array with the engines' base64 decoder into it; the standard library's types do not have it yet. */
type Base64Target = Uint8Array & {
  setFromBase64(text: string): { read: number; written: number };
};

/** Bytes decoded a call, into one array thrown away: at 48 KiB a call, the calls' own cost is negligible. */
const SCRATCH = 49_152;

const EQUALS = 0x3d;

/**
 * Whether `text[start, end)` is plain base64 (the alphabet, a multiple of four, end padding only);
 * `false` says nothing. The decoder throws on anything but the alphabet, padding and whitespace,
 * and only without whitespace or inner padding do its bytes come to 3 for 4 characters.
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
