// The scanner cases: one stream each, read by every stream reader of readers.mjs side by side.
import { pairedCase } from './paired.mjs';
import * as r from './readers.mjs';
import * as w from './workloads.mjs';

const PEERS = [
  { id: 'eventsource-parser', label: 'eventsource-parser 4.1.3 + TextDecoder' },
  { id: 'undici', label: "undici 7.30.2 EventSourceStream" },
  { id: 'fetch-event-source', label: '@microsoft/fetch-event-source 2.0.1' },
  { id: 'floor', label: 'floor: decode + find line ends' },
];

/** The sides every stream case reads, over the same chunks. */
function streamSides(chunks, { drip = false } = {}) {
  const buffers = r.toBuffers(chunks);
  return [
    { id: 'scanner', label: 'sse-answer scanner', read: () => r.readWithScanner(chunks) },
    { id: 'eventsource-parser', label: PEERS[0].label, read: () => r.readWithEventsourceParser(chunks) },
    { id: 'undici', label: PEERS[1].label, read: () => r.readWithUndici(buffers) },
    { id: 'fetch-event-source', label: PEERS[2].label, read: () => r.readWithFetchEventSource(chunks), ...(drip ? { excluded: r.QUADRATIC } : {}) },
    { id: 'floor', label: PEERS[3].label, read: () => r.readFloor(chunks) },
  ];
}

const againstEach = PEERS.map((p) => ({ of: 'scanner', to: p.id, label: `scanner ÷ ${p.id}` }));

function streamCase(id, title, about, text, chunkSize) {
  const bytes = w.encode(text);
  return pairedCase({
    id,
    group: 'scanner',
    title,
    about,
    bytes: bytes.length,
    sides: () => streamSides(w.chunked(bytes, chunkSize), { drip: chunkSize === 1 }),
    figures: againstEach,
  });
}

const LARGE = 1 << 20;

export const cases = [
  streamCase('tokens', '20,000 token events, 1 KiB chunks', 'an LLM token stream: small `data:` events, LF line ends', w.tokenEvents(), 1024),
  streamCase('mcp', '5,000 MCP progress notifications, 1 KiB chunks', 'what the MCP SDK server sends: `event: message` and one JSON-RPC data line', w.mcpNotifications(), 1024),
  streamCase('utf8', '10,000 UTF-8-heavy events, 1 KiB chunks', 'payloads mostly multi-byte (CJK, Cyrillic, emoji), characters split across chunks', w.utf8Events(), 1024),
  streamCase('keepalive', '5,000 notifications behind keep-alive comments, 1 KiB chunks', 'a connection kept open by proxies or slow tools: four comment lines before each event', w.keepAliveEvents(), 1024),
  streamCase('crlf', '20,000 typed events with CRLF line ends, 1 KiB chunks', 'servers that end lines with CRLF, as some frameworks do', w.crlfEvents(), 1024),
  (() => {
    const bytes = w.encode(w.oneLargeEvent(LARGE));
    const data = bytes.slice(6, 6 + LARGE);
    return pairedCase({
      id: 'large',
      group: 'scanner',
      title: 'one 1 MiB event, 16 KiB chunks',
      about: 'a large tool result or an image sent as one event: one long line across many reads',
      bytes: bytes.length,
      sides: () => [...streamSides(w.chunked(bytes, 16 * 1024)), { id: 'ceiling', label: 'ceiling: one TextDecoder.decode of the data', read: () => r.readCeiling(data) }],
      figures: [
        ...againstEach,
        { of: 'scanner', to: 'ceiling', label: 'scanner ÷ ceiling (fraction of the ceiling)' },
        { of: 'ceiling', to: 'eventsource-parser', label: 'ceiling ÷ eventsource-parser (the most any reader can beat it by)' },
      ],
    });
  })(),
  streamCase('drip', 'one 200 KB line, 1-byte chunks', 'the worst split a network can deliver: every byte its own read', w.oneLargeEvent(200_000), 1),
];
