// Cost growth: time per byte of the same stream at growing sizes, for every stream reader. A
// reader whose time per byte grows with the stream (re-scanning or re-joining what it holds)
// shows it here. With `spread`, every size is read from the same amount of memory (256 streams
// of 64 KiB, 16 of 1 MiB, one of 16 MiB), so that a small stream gains nothing from sitting in
// the CPU's cache. Reads of the sizes and readers are interleaved, so drift falls on all alike.
import { median, timeOnce } from './harness.mjs';
import * as r from './readers.mjs';
import * as w from './workloads.mjs';

const KiB = 1024;
const MiB = 1024 * KiB;

/** Each reader given the chunks of one size; `prepare` runs outside the timer. */
const READERS = [
  { id: 'scanner', label: 'sse-answer scanner', read: r.readWithScanner },
  { id: 'eventsource-parser', label: 'eventsource-parser 4.1.3 + TextDecoder', read: r.readWithEventsourceParser },
  { id: 'undici', label: 'undici 7.30.2 EventSourceStream', prepare: r.toBuffers, read: r.readWithUndici },
  { id: 'fetch-event-source', label: '@microsoft/fetch-event-source 2.0.1', read: r.readWithFetchEventSource },
];
/** What any reader that hands out the one event's data as a string pays per byte. */
const CEILING = { id: 'ceiling', label: 'ceiling: one TextDecoder.decode of the data', prepare: (chunks) => eventData(chunks), read: r.readCeiling };

/** The data bytes of a stream of one event (`data: ` and the two line ends cut off). */
function eventData(chunks) {
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return all.slice(6, all.length - 2);
}

function growthCase({ id, title, about, sizes, build, spread = false, ceiling = false, excluded = {} }) {
  return {
    id,
    group: 'growth',
    title,
    async run(settings) {
      const readers = (settings.figures !== undefined ? READERS.filter((x) => x.id === 'scanner') : [...READERS, ...(ceiling ? [CEILING] : [])]).filter(
        (x) => !excluded[x.id],
      );
      // The smoke pass only proves the case runs: a sixteenth of each size.
      const scale = settings.mode === 'smoke' ? 16 : 1;
      const inputs = sizes.map((full) => {
        const size = full / scale;
        const copies = spread ? sizes.at(-1) / full : 1;
        const streams = Array.from({ length: copies }, () => build(size));
        const bytes = copies * streams[0].reduce((n, c) => n + c.length, 0);
        return { size, bytes, of: Object.fromEntries(readers.map((x) => [x.id, streams.map((chunks) => (x.prepare ? x.prepare(chunks) : chunks))])) };
      });
      const series = {};
      for (const x of readers) series[x.id] = { label: x.label, perByte: sizes.map(() => []) };
      for (const [id, why] of Object.entries(excluded)) series[id] = { label: READERS.find((x) => x.id === id).label, perByte: [], note: `not read: ${why}` };
      // A warm-up read of each: it also finds a reader that fails at a size.
      for (const x of readers) {
        for (const [i, input] of inputs.entries()) {
          try {
            await timeOnce(() => readAll(x, input));
          } catch (error) {
            series[x.id].note = `failed at ${sizeName(input.size)}: ${String(error.message).slice(0, 80)}`;
            series[x.id].failedAt = i;
            break;
          }
        }
      }
      for (let read = 0; read < settings.growthReads; read++) {
        for (const [i, input] of inputs.entries()) {
          for (const x of readers) {
            if (series[x.id].failedAt <= i) continue;
            const seconds = await timeOnce(() => readAll(x, input));
            series[x.id].perByte[i].push((seconds * 1e9) / input.bytes);
          }
        }
      }
      for (const s of Object.values(series)) {
        s.nsPerByte = s.perByte.map((xs) => (xs.length > 0 ? median(xs) : null));
        delete s.failedAt;
      }
      const ours = series.scanner;
      const first = ours.nsPerByte[0];
      const figure = {
        id: `${id}.scanner`,
        label: `scanner time per byte, ${sizeName(inputs.at(-1).size)} ÷ ${sizeName(inputs[0].size)}`,
        value: ours.nsPerByte.at(-1) / first,
        rounds: ours.perByte.at(-1).map((x) => x / first),
        lowerIsBetter: true,
      };
      return { id, group: 'growth', title, about, sizes, sizeNames: inputs.map((input) => sizeName(input.size)), series, figures: [figure] };
    },
  };
}

function readAll(reader, input) {
  for (const stream of input.of[reader.id]) reader.read(stream);
}

export function sizeName(size) {
  return size >= MiB ? `${size / MiB} MiB` : `${size / KiB} KiB`;
}

export const cases = [
  growthCase({
    id: 'growth-events',
    title: 'MCP notifications, 16 KiB chunks',
    about: 'many small events: time per byte at 64 KiB, 1 MiB and 16 MiB of stream',
    sizes: [64 * KiB, MiB, 16 * MiB],
    build: (size) => w.chunked(w.encode(w.notificationsOf(size)), 16 * KiB),
    spread: true,
  }),
  growthCase({
    id: 'growth-line',
    title: 'one event, 16 KiB chunks',
    about: 'one long line: time per byte for a 64 KiB, 1 MiB and 16 MiB event',
    sizes: [64 * KiB, MiB, 16 * MiB],
    build: (size) => w.chunked(w.encode(w.oneLargeEvent(size)), 16 * KiB),
    spread: true,
    ceiling: true,
    excluded: { 'fetch-event-source': r.QUADRATIC },
  }),
  growthCase({
    id: 'growth-drip',
    title: 'one event, 1-byte chunks',
    about: 'one long line, every byte its own read: time per byte for a 64 KiB and a 1 MiB event',
    sizes: [64 * KiB, MiB],
    build: (size) => w.views(w.encode(w.oneLargeEvent(size)), 1),
    excluded: { 'fetch-event-source': r.QUADRATIC },
  }),
];
