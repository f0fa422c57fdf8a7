// The benchmark's readers of a stream of small events read the same data: a limit that read less
// than the scanner (or more) would bound nothing. Their speed is not judged here (no timed unit
// tests); what each hands its consumer is, through the sum the bench's consume() keeps.
import { describe, expect, test } from 'vitest';
// @ts-expect-error: the bench is plain JavaScript, read from its own files.
import { consumed, readEventFloor, readWithEventsourceParser, readWithScanner, readWithScannerEach } from '../bench/portable-readers.mjs';
// @ts-expect-error: as above.
import * as w from '../bench/workloads.mjs';

type Read = (chunks: Uint8Array[]) => void;

/** What `read` hands its consumer over `chunks`, as the change in consume()'s sum. */
function sumOf(read: Read, chunks: Uint8Array[]): number {
  const before = (consumed as () => number)();
  read(chunks);
  return (consumed as () => number)() - before;
}

// The CR-free streams the per-event floor is measured on; its rules are LF only.
const STREAMS: [string, () => string][] = [
  ['tokens', () => w.tokenEvents(300)],
  ['mcp', () => w.mcpNotifications(100)],
  ['utf8', () => w.utf8Events(150)],
  ['keepalive', () => w.keepAliveEvents(100)],
];

describe.each(STREAMS)('the readers of the %s stream', (_name, text) => {
  test.each([1, 7, 1024, 16_384])('hand out the same data in chunks of %i bytes', (size) => {
    const chunks = (w.chunked as (bytes: Uint8Array, size: number) => Uint8Array[])((w.encode as (text: string) => Uint8Array)(text()), size);
    const scanner = sumOf(readWithScannerEach as Read, chunks);
    expect(scanner).toBeGreaterThan(0);
    expect(sumOf(readWithScanner as Read, chunks)).toBe(scanner);
    expect(sumOf(readWithEventsourceParser as Read, chunks)).toBe(scanner);
    expect(sumOf(readEventFloor as Read, chunks)).toBe(scanner);
  });
});
