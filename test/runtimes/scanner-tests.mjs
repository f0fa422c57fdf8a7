// The scanner fixtures as tests: every chunking gives the expected events and public state, by
// scan and by scanEach; the reducer is pure (inputs unchanged, old states reusable, states
// cloneable, no chunk kept).
import { chunkings, encode } from './bytes.mjs';
import { same } from './check.mjs';
import { scannerCases } from './fixtures/scanner-cases.mjs';

const NO_STATE = { lastEventId: '', retry: undefined };

/** One test per scanner case, run against the package `pkg`. */
export function scannerTests(pkg) {
  return scannerCases.map((kase) => ({ name: `scanner: ${kase.name}`, run: () => checkCase(pkg, kase) }));
}

function checkCase(pkg, kase) {
  const bytes = encode(typeof kase.input === 'function' ? kase.input() : kase.input);
  const events = typeof kase.events === 'function' ? kase.events() : kase.events;
  const end = kase.end ?? NO_STATE;
  const incomplete = { events: kase.incomplete?.events ?? events, end: kase.incomplete?.end ?? end };
  const ways = chunkings(bytes, kase.sizes);
  let firstState;
  for (const way of ways) {
    const { state, events: scanned } = scanAll(pkg, way.chunks);
    if (firstState === undefined) firstState = state;
    else same(state, firstState, `${way.name}: the state equals the one after the whole input`);
    const ended = pkg.scanEnd(state);
    same([...scanned, ...ended.events], events, `${way.name}: events`);
    same(publicState(ended.state), end, `${way.name}: state after scanEnd`);
    const flushed = pkg.scanEnd(state, { dispatchIncomplete: true });
    same([...scanned, ...flushed.events], incomplete.events, `${way.name}: events with dispatchIncomplete`);
    same(publicState(flushed.state), incomplete.end, `${way.name}: state after scanEnd with dispatchIncomplete`);
    const each = scanEachAll(pkg, way.chunks);
    same(each.state, state, `${way.name}: scanEach leaves the state scan leaves`);
    same(each.events, scanned, `${way.name}: scanEach hands a sink the events scan lists`);
    const handed = [];
    same(pkg.scanEndEach(state, (event) => handed.push(event), { dispatchIncomplete: true }), flushed.state, `${way.name}: scanEndEach's state`);
    same(handed, flushed.events, `${way.name}: scanEndEach's events`);
  }
  checkPurity(pkg, bytes, events);
}

function scanAll(pkg, chunks) {
  let state = pkg.scanStart();
  const events = [];
  for (const chunk of chunks) {
    const result = pkg.scan(state, chunk);
    state = result.state;
    events.push(...result.events);
  }
  return { state, events };
}

function scanEachAll(pkg, chunks) {
  let state = pkg.scanStart();
  const events = [];
  const onEvent = (event) => events.push(event);
  for (const chunk of chunks) state = pkg.scanEach(state, chunk, onEvent);
  return { state, events };
}

/**
 * In 3-byte steps (20 000-byte steps through a long input, so that its chunks are read in
 * pieces) through one reused buffer: the chunk is not changed, the same state and chunk
 * give the same result twice, a structuredClone of every state goes on alike, and overwriting the
 * buffer after each call changes nothing (no state or event keeps a view of it).
 */
function checkPurity(pkg, bytes, events) {
  const size = bytes.length > 4096 ? 20_000 : 3;
  const buffer = new Uint8Array(size);
  let state = pkg.scanStart();
  let clone = structuredClone(state);
  const seen = [];
  const seenByClone = [];
  for (let at = 0; at < bytes.length; at += size) {
    const piece = bytes.subarray(at, at + size);
    buffer.set(piece);
    const chunk = buffer.subarray(0, piece.length);
    const result = pkg.scan(state, chunk);
    same(Array.from(chunk), Array.from(piece), `at byte ${at}: scan changed its chunk`);
    same(pkg.scan(state, chunk), result, `at byte ${at}: the same state and chunk gave another result`);
    const fromClone = pkg.scan(clone, chunk);
    buffer.fill(0x0a);
    state = result.state;
    clone = structuredClone(fromClone.state);
    seen.push(...result.events);
    seenByClone.push(...fromClone.events);
  }
  const flushed = pkg.scanEnd(state).events;
  same([...seen, ...flushed], events, 'events through a reused buffer');
  same([...seenByClone, ...pkg.scanEnd(clone).events], events, 'events through structuredClone states');
}

function publicState(state) {
  return { lastEventId: state.lastEventId, retry: state.retry };
}
