// Live-heap probes of the scanner, run in a child `node --expose-gc` process so that a test can
// measure what a state or an event keeps alive: a bound on bytes, not a timing.
//   node --expose-gc heap-probe.mjs <dist entry> retention
//   node --expose-gc heap-probe.mjs <dist entry> one-of-many
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

/**
 * One 8 MiB chunk of small events (40-character data, each with an id and a type): the one event
 * of them that is kept. A large chunk is read in pieces of at most 16 KiB, and an event's values
 * are views of its piece's text; one event must keep no more than a piece alive, not the chunk's text.
 */
function oneOfMany() {
  const eventsOf = (size) => {
    let text = '';
    for (let i = 0; text.length < size; i++) text += `event: type-${i}-${'t'.repeat(20)}\nid: id-${i}-${'i'.repeat(20)}\ndata: ${String(i).padStart(40, 'd')}\n\n`;
    return encoder.encode(text);
  };
  // Once first, smaller: code the engine compiles for the copies, and may drop in a GC, would
  // otherwise count as what the event holds (about 200 KB in Node 20; it still can, less often).
  scan(scanStart(), eventsOf(64 * 1024));
  const chunk = eventsOf(8 * 1024 * 1024);
  const { events } = scan(scanStart(), chunk);
  return { bytesRead: chunk.length, kept: events[events.length >> 1] };
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

const make = probe === 'retention' ? retention : probe === 'one-of-many' ? oneOfMany : () => lines(JSON.parse(args[0]), Number(args[1]));
// What the results alone hold alive: the heap with them, less the heap without them. The reading
// moves by what the engine frees on its own in a GC (compiled code, up to a few hundred KB under
// load), which only adds: one-of-many, whose bound is tight, takes the least of three readings.
let bytesRead = 0;
let retained = Infinity;
for (let trial = probe === 'one-of-many' ? 3 : 1; trial > 0; trial--) {
  const holder = make();
  const withKept = live();
  holder.kept = undefined;
  bytesRead = holder.bytesRead;
  retained = Math.min(retained, withKept - live());
}
console.log(JSON.stringify({ bytesRead, retained }));
