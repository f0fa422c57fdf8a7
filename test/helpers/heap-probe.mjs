// Live-heap probes of the scanner, run in a child `node --expose-gc` process so that a test can
// measure what a state or an event keeps alive: a bound on bytes, not a timing.
//   node --expose-gc heap-probe.mjs <dist entry> retention
//   node --expose-gc heap-probe.mjs <dist entry> lines <line as JSON> <bytes>
// Prints one JSON object: { bytesRead, retained }, retained being the bytes of heap that the
// scanner's results alone keep alive, after a full GC.
const [entry, probe, ...args] = process.argv.slice(2);
const { scan, scanStart } = await import(entry);
const encoder = new TextEncoder();

function live() {
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed;
}

/**
 * One 8 MiB chunk whose event type, id, data line and pending line are each long enough (13+
 * characters) for an engine to make them views of the chunk's text: the result of scanning it.
 */
function retention() {
  const chunk = encoder.encode(
    `event: ${'t'.repeat(40)}\nid: ${'i'.repeat(40)}\ndata: ${'d'.repeat(40)}\n\n` +
      `: ${'p'.repeat(8 * 1024 * 1024)}\n` +
      `event: ${'u'.repeat(40)}\nid: ${'j'.repeat(40)}\ndata: ${'e'.repeat(40)}\n${'q'.repeat(40)}`,
  );
  return { bytesRead: chunk.length, kept: scan(scanStart(), chunk) };
}

/** The state after `total` bytes of `line` repeated, in 64 KiB chunks, with no blank line. */
function lines(line, total) {
  const chunk = encoder.encode(line.repeat(Math.ceil((64 * 1024) / line.length)));
  let state = scanStart();
  let bytesRead = 0;
  while (bytesRead < total) {
    state = scan(state, chunk).state;
    bytesRead += chunk.length;
  }
  return { bytesRead, kept: state };
}

const holder = probe === 'retention' ? retention() : lines(JSON.parse(args[0]), Number(args[1]));
const withKept = live();
holder.kept = undefined;
// What the results alone hold alive: the heap with them, less the heap without them.
console.log(JSON.stringify({ bytesRead: holder.bytesRead, retained: withKept - live() }));
