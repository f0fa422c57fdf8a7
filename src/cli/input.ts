/**
 * A captured body from a file or stdin, as a web `ReadableStream`, and the sniffing of its
 * format when no content type is given.
 * @module
 */

import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';

/** Opens `path` (`-` or none: stdin) as a byte stream. Fails at once, with the OS's reason, for a file that cannot be read. */
export async function openInput(path: string | undefined): Promise<ReadableStream<Uint8Array>> {
  if (path === undefined || path === '-') return Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>;
  const handle = await open(path, 'r').catch((error: unknown) => {
    throw new Error(`cannot read ${path}: ${(error as { code?: string }).code ?? String(error)}`);
  });
  return Readable.toWeb(createReadStream(path, { fd: handle })) as ReadableStream<Uint8Array>;
}

/** The bytes a JSON text may start with before its first character: whitespace and a BOM. */
const BLANK = new Set([0x20, 0x09, 0x0a, 0x0d, 0xef, 0xbb, 0xbf]);

/**
 * Reads `body` up to its first non-blank byte and says whether the body looks like JSON (`{` or
 * `[`) or an event stream (anything else). The returned stream replays what was read.
 */
export async function sniffFormat(body: ReadableStream<Uint8Array>): Promise<{ contentType: string; body: ReadableStream<Uint8Array> }> {
  const reader = body.getReader();
  const peeked: Uint8Array[] = [];
  let first: number | undefined;
  let done = false;
  while (first === undefined && !done) {
    const chunk = await reader.read();
    if (chunk.done) done = true;
    else {
      peeked.push(chunk.value);
      first = chunk.value.find((byte) => !BLANK.has(byte));
    }
  }
  const json = first === 0x7b || first === 0x5b;
  const replay = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = peeked.shift();
      if (next !== undefined) return controller.enqueue(next);
      if (done) return controller.close();
      const chunk = await reader.read();
      if (chunk.done) controller.close();
      else controller.enqueue(chunk.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return { contentType: json ? 'application/json' : 'text/event-stream', body: replay };
}
