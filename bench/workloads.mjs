// The byte streams the benchmarks read, built once, in memory, before anything is timed.
const encoder = new TextEncoder();

/** Splits bytes into chunks of `size` (copies, as a network read would deliver them). */
export function chunked(bytes, size) {
  const chunks = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.slice(i, i + size));
  return chunks;
}

export const encode = (text) => encoder.encode(text);

/** 20,000 small token events, LF endings: the shape of an LLM token stream. */
export function tokenEvents(count = 20_000) {
  let text = '';
  for (let i = 0; i < count; i++) text += `data: {"token":"tok${i}","index":${i}}\n\n`;
  return text;
}

/** MCP progress notifications as the TypeScript SDK frames them: `event: message`, then data. */
export function mcpNotifications(count = 5_000) {
  let text = '';
  for (let i = 0; i < count; i++) {
    text += `event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t-1","progress":${i},"total":${count},"message":"step ${i}"}}\n\n`;
  }
  return text;
}

/** Events whose payloads are mostly multi-byte UTF-8: CJK, Cyrillic, accents and emoji. */
export function utf8Events(count = 10_000) {
  let text = '';
  for (let i = 0; i < count; i++) text += `data: {"text":"日本語のテキスト🙂 Ünïcödé ${i} ещё немного текста 🚀"}\n\n`;
  return text;
}

/** The token stream's events with CRLF line ends and an event type, as some servers send. */
export function crlfEvents(count = 20_000) {
  let text = '';
  for (let i = 0; i < count; i++) text += `event: message\r\ndata: {"token":"tok${i}"}\r\n\r\n`;
  return text;
}

/** One event whose data line is `size` bytes. */
export function oneLargeEvent(size) {
  return `data: ${'x'.repeat(size)}\n\n`;
}

/**
 * Progress notifications with keep-alive comments between them, as a proxy or a slow tool keeps
 * a connection open: four comment lines and a blank line before each event.
 */
export function keepAliveEvents(count = 5_000) {
  let text = '';
  for (let i = 0; i < count; i++) {
    text += `: keep-alive\n: keep-alive\n: keep-alive\n: keep-alive\n\nevent: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t-1","progress":${i}}}\n\n`;
  }
  return text;
}

/** Splits bytes into views of `size` (no copy): for streams of a million chunks. */
export function views(bytes, size) {
  const chunks = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return chunks;
}

/** The MCP notifications stream cut to `size` bytes at an event boundary (at most `size`). */
export function notificationsOf(size) {
  const one = mcpNotifications(1);
  return mcpNotifications(Math.max(1, Math.floor(size / one.length)));
}
