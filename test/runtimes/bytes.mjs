// Fixture inputs as bytes, and the ways the suite cuts them into chunks.

const encoder = new TextEncoder();

/**
 * The bytes of a fixture input: a list of parts, each a string (encoded as UTF-8) or an array of
 * byte values (for bytes no string encodes to, such as invalid UTF-8).
 */
export function encode(parts) {
  const pieces = parts.map((part) => (typeof part === 'string' ? encoder.encode(part) : Uint8Array.from(part)));
  const bytes = new Uint8Array(pieces.reduce((sum, piece) => sum + piece.length, 0));
  let at = 0;
  for (const piece of pieces) {
    bytes.set(piece, at);
    at += piece.length;
  }
  return bytes;
}

/**
 * The chunkings a case is read in, each a named list of chunks (fresh copies, so a chunk kept by
 * mistake is caught by the purity checks): the whole input, fixed sizes, and for short inputs
 * every cut into two. `sizes` overrides the fixed sizes for long inputs.
 */
export function chunkings(bytes, sizes = [1, 3, 7]) {
  const ways = [{ name: 'whole', chunks: [bytes.slice()] }];
  for (const size of sizes) {
    if (size >= bytes.length) continue;
    const chunks = [];
    for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.slice(i, i + size));
    ways.push({ name: `${size}-byte chunks`, chunks });
  }
  if (bytes.length <= 400) {
    for (let cut = 1; cut < bytes.length; cut++) {
      ways.push({ name: `cut at byte ${cut}`, chunks: [bytes.slice(0, cut), bytes.slice(cut)] });
    }
  }
  return ways;
}
