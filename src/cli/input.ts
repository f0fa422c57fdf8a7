/** A captured body from a file or stdin as a web `ReadableStream`, and its format sniffed; a read that fails errors the stream with an {@link InputFailed}. @module */

import { open, type FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { InputFailed } from './input-failed.js';

/** The bytes read from a file at a time: the most a chunk of the input holds. */
export const CHUNK_BYTES = 64 * 1024;

/** Opens `path` (`-` or none: stdin) as a byte stream read only as it is pulled; a file that cannot be opened (or a directory) fails at once, a later read errors the stream, as an {@link InputFailed}. */
export async function openInput(path: string | undefined): Promise<ReadableStream<Uint8Array>> {
  if (path === undefined || path === '-') return stdinStream();
  const handle = await open(path, 'r').catch((error: unknown) => {
    throw new InputFailed(path, error);
  });
  try {
    // Linux opens a directory for reading; its first read would fail, so say so now.
    if ((await handle.stat()).isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw new InputFailed(path, error);
  }
  return fileStream(path, handle);
}

function fileStream(path: string, handle: FileHandle): ReadableStream<Uint8Array> {
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await handle.close().catch(() => undefined);
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let bytesRead: number;
        const chunk = new Uint8Array(CHUNK_BYTES);
        try {
          ({ bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, null));
        } catch (error) {
          await close();
          controller.error(new InputFailed(path, error));
          return;
        }
        if (bytesRead === 0) {
          await close();
          controller.close();
        } else {
          controller.enqueue(chunk.subarray(0, bytesRead));
        }
      },
      cancel: close,
    },
    // Nothing is read ahead of the reader: the reader's cap is the bound.
    { highWaterMark: 0 },
  );
}

/** Stdin (Node's own backpressure: it buffers a chunk or so ahead), its errors as {@link InputFailed}. */
function stdinStream(): ReadableStream<Uint8Array> {
  const reader = (Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>).getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (error) {
          controller.error(new InputFailed('stdin', error));
          return;
        }
        if (chunk.done) controller.close();
        else controller.enqueue(chunk.value);
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

const BLANK = new Set([0x20, 0x09, 0x0a, 0x0d, 0xef, 0xbb, 0xbf]);

/**
 * Reads `body` to its first non-blank byte and says whether it looks like JSON (`{`, `[`) or an event
 * stream; the stream returned replays what was read. A blank prefix past `maxBytes` is over the cap
 * whatever the format: sniffing stops there (an event stream) and the reader reports `budget_exceeded`.
 */
export async function sniffFormat(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<{ contentType: string; body: ReadableStream<Uint8Array> }> {
  const reader = body.getReader();
  const peeked: Uint8Array[] = [];
  let held = 0;
  let first: number | undefined;
  let done = false;
  try {
    while (first === undefined && !done && held <= maxBytes) {
      const chunk = await reader.read();
      if (chunk.done) done = true;
      else {
        peeked.push(chunk.value);
        held += chunk.value.byteLength;
        first = chunk.value.find((byte) => !BLANK.has(byte));
      }
    }
  } catch (error) {
    reader.releaseLock();
    void body.cancel().catch(() => undefined);
    throw error;
  }
  const json = first === 0x7b || first === 0x5b;
  const replay = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = peeked.shift();
        if (next !== undefined) return controller.enqueue(next);
        if (done) return controller.close();
        const chunk = await reader.read();
        if (chunk.done) controller.close();
        else controller.enqueue(chunk.value);
      },
      cancel(reason) {
        peeked.length = 0;
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return { contentType: json ? 'application/json' : 'text/event-stream', body: replay };
}
