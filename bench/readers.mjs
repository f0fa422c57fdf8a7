// The stream readers the scanner cases compare, each reading pre-built chunks to the end and
// handing every event's data to consume() (portable-readers.mjs: the ones any runtime runs).
import { createRequire } from 'node:module';
import { consume, observe } from './portable-readers.mjs';
export { readCeiling } from './portable-readers.mjs';

export { consume, consumed, readWithEventsourceParser, readWithScanner } from './portable-readers.mjs';

const require = createRequire(import.meta.url);
// Deep paths: neither package exports its parser from its main entry.
const { EventSourceStream } = require('undici/lib/web/eventsource/eventsource-stream.js');
const { getLines, getMessages } = require('@microsoft/fetch-event-source/lib/cjs/parse.js');

/**
 * undici's EventSourceStream with the settings its EventSource uses by default, driven through
 * its transform step directly so that no stream machinery is timed. It reads Buffers: the
 * chunks are given as Buffer views made before timing (toBuffers).
 */
export function readWithUndici(buffers) {
  let failure;
  const stream = new EventSourceStream({
    push: (event) => {
      consume(event.options.data);
      return true;
    },
  });
  const done = (error) => {
    if (error) failure = error;
  };
  for (const buffer of buffers) {
    stream._transform(buffer, 'buffer', done);
    if (failure) throw failure;
  }
}

/** Buffer views of the chunks (no copy), for undici. */
export const toBuffers = (chunks) => chunks.map((c) => Buffer.from(c.buffer, c.byteOffset, c.byteLength));

/** @microsoft/fetch-event-source's getLines feeding its getMessages, as fetchEventSource does. */
export function readWithFetchEventSource(chunks) {
  const onChunk = getLines(
    getMessages(
      () => {},
      () => {},
      (message) => consume(message.data),
    ),
  );
  for (const chunk of chunks) onChunk(chunk);
}

/** The floor: decode every chunk (streaming) and find every line end, nothing else. */
export function readFloor(chunks) {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let ends = 0;
  for (const chunk of chunks) ends += lineEnds(decoder.decode(chunk, { stream: true }));
  ends += lineEnds(decoder.decode());
  observe(ends);
}

function lineEnds(text) {
  let ends = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) ends++;
  for (let i = text.indexOf('\r'); i !== -1; i = text.indexOf('\r', i + 1)) ends++;
  return ends;
}

/**
 * Why fetch-event-source is not given a long line in small chunks: getLines joins its whole
 * buffer with every chunk, so a read's time grows with the square of the line.
 */
export const QUADRATIC = 'getLines copies the whole pending line on every chunk (time grows with the square of the line)';
