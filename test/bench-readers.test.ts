// The benchmark's readers of a stream of small events read the same data: a limit that read less
// than the scanner (or more) would bound nothing. Their speed is not judged here (no timed unit
// tests); what each hands its consumer is, through the sum the bench's consume() keeps.
import { describe, expect, test } from 'vitest';
// @ts-expect-error: the bench is plain JavaScript, read from its own files.
import * as benchReaders from '../bench/portable-readers.mjs';
// @ts-expect-error: as above.
import * as benchWorkloads from '../bench/workloads.mjs';

type Read = (chunks: Uint8Array[]) => void;

/** The bench modules as this test reads them. */
const readers = benchReaders as Record<'readWithScannerEach' | 'readWithScanner' | 'readWithEventsourceParser' | 'readEventFloor', Read> & {
  consumed: () => number;
};
const w = benchWorkloads as Record<'tokenEvents' | 'mcpNotifications' | 'utf8Events' | 'keepAliveEvents', (count: number) => string> & {
  encode: (text: string) => Uint8Array;
  chunked: (bytes: Uint8Array, size: number) => Uint8Array[];
};

/** What `read` hands its consumer over `chunks`, as the change in consume()'s sum. */
function sumOf(read: Read, chunks: Uint8Array[]): number {
  const before = readers.consumed();
  read(chunks);
  return readers.consumed() - before;
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
    const chunks = w.chunked(w.encode(text()), size);
    const scanner = sumOf(readers.readWithScannerEach, chunks);
    expect(scanner).toBeGreaterThan(0);
    expect(sumOf(readers.readWithScanner, chunks)).toBe(scanner);
    expect(sumOf(readers.readWithEventsourceParser, chunks)).toBe(scanner);
    expect(sumOf(readers.readEventFloor, chunks)).toBe(scanner);
  });
});
