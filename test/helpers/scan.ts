/** Driving the scanner over chunks, shared by the unit and property tests. */
import { scan, scanStart, type ScanState, type SseEvent } from '../../src/index.js';

/** What scanning some chunks gave. */
export interface ScanRun {
  /** All events, in order. */
  readonly events: SseEvent[];
  /** The final state. */
  readonly state: ScanState;
  /** The state after each chunk. */
  readonly states: ScanState[];
}

/** Scans `chunks` in order from `from`, collecting the events and the state after each chunk. */
export function scanAll(chunks: readonly Uint8Array[], from: ScanState = scanStart()): ScanRun {
  let state = from;
  const events: SseEvent[] = [];
  const states: ScanState[] = [];
  for (const chunk of chunks) {
    const r = scan(state, chunk);
    events.push(...r.events);
    state = r.state;
    states.push(state);
  }
  return { events, state, states };
}
