/**
 * The byte-budget guard: the read cap, as a pure reducer.
 *
 * It counts the body's bytes as they are delivered (after any content decoding) and cuts the
 * chunk that crosses the cap, so that no byte past the cap is scanned or buffered. A body of
 * exactly `maxBytes` passes; one more byte exceeds it.
 *
 * Why 16 MiB by default: the MCP Go and Rust SDKs settled there after 64 KiB and 1 MiB caps broke
 * real tool results.
 * @module
 */

/** The default cap on an answer's body: 16 MiB. */
export const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;

/** The guard's state: plain, immutable data. */
export interface BudgetState {
  /** The cap, in bytes; `Infinity` for none. */
  readonly maxBytes: number;
  /** Bytes delivered so far, counting any past the cap. */
  readonly bytes: number;
}

/** What {@link budget} returns. */
export interface BudgetResult {
  /** The state after the chunk. */
  readonly state: BudgetState;
  /**
   * The part of the chunk within the cap: the chunk itself, or a view of its first bytes. It is
   * the caller's memory, so consume it before reusing the chunk.
   */
  readonly chunk: Uint8Array;
  /** Whether the body has now gone past the cap (bytes were cut from this chunk, or all of it). */
  readonly exceeded: boolean;
}

/**
 * Checks a `maxBytes` option: a whole number of bytes, zero or more, or `Infinity` for no cap.
 * @throws RangeError for anything else, naming the value.
 */
export function checkMaxBytes(maxBytes: unknown): number {
  if (typeof maxBytes === 'number' && (maxBytes === Infinity || (Number.isSafeInteger(maxBytes) && maxBytes >= 0))) {
    return maxBytes;
  }
  throw new RangeError(
    `maxBytes must be a whole number of bytes (0 or more) or Infinity, got ${describeValue(maxBytes)}`,
  );
}

/** The state that begins guarding a body of at most `maxBytes` bytes (default 16 MiB). */
export function budgetStart(maxBytes: number = DEFAULT_MAX_BYTES): BudgetState {
  return { maxBytes: checkMaxBytes(maxBytes), bytes: 0 };
}

/** Counts a chunk against the cap and returns the part of it that may be scanned. Pure. */
export function budget(state: BudgetState, chunk: Uint8Array): BudgetResult {
  const bytes = state.bytes + chunk.length;
  const next = { maxBytes: state.maxBytes, bytes };
  if (bytes <= state.maxBytes) return { state: next, chunk, exceeded: false };
  const room = state.bytes < state.maxBytes ? state.maxBytes - state.bytes : 0;
  return { state: next, chunk: chunk.subarray(0, room), exceeded: true };
}

/** A bad option value, for the error that names it: strings quoted, objects by their type. */
function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  return value === null ? 'null' : typeof value;
}
