/**
 * The byte budget, a pure reducer: counts a body's bytes and cuts the chunk that crosses the cap,
 * so no byte past it is read (docs/guides/answer-path.md, "The byte budget").
 * @module
 */

import { invalid } from '../vocabulary/check-argument.js';
import { checkChunk } from './uint8-array.js';

/**
 * The default cap on an answer's body: 16 MiB, where the MCP Go and Rust SDKs settled. Written
 * out: a bundler keeps an unused product in every bundle.
 */
export const DEFAULT_MAX_BYTES = 16_777_216;

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
  /** The part of the chunk within the cap: the chunk itself, or a view of its first bytes. */
  readonly chunk: Uint8Array;
  /** Whether the body has now gone past the cap (bytes were cut from this chunk, or all of it). */
  readonly exceeded: boolean;
}

/**
 * The cap a `maxBytes` option sets: the default for `undefined`, whole bytes, or `Infinity`.
 * @throws TypeError for a value that is not a number, RangeError for a number out of range.
 */
export function checkMaxBytes(maxBytes: unknown): number {
  if (maxBytes === undefined) return DEFAULT_MAX_BYTES;
  if (typeof maxBytes !== 'number') throw invalid('maxBytes', 'a number of bytes', maxBytes);
  if (maxBytes === Infinity || (Number.isInteger(maxBytes) && maxBytes >= 0)) return maxBytes;
  throw invalid('maxBytes', 'a whole number of bytes (0 or more) or Infinity', maxBytes, RangeError);
}

/**
 * The state that begins guarding a body of at most `maxBytes` bytes (default 16 MiB).
 * @throws TypeError for a `maxBytes` that is not a number, RangeError for one out of range.
 */
export function budgetStart(maxBytes?: number): BudgetState {
  return { maxBytes: checkMaxBytes(maxBytes), bytes: 0 };
}

/**
 * Counts a chunk against the cap and returns the part of it that may be scanned. Pure.
 * @throws TypeError for a chunk that is not a `Uint8Array`.
 */
export function budget(state: BudgetState, chunk: Uint8Array): BudgetResult {
  checkChunk(chunk);
  return uncheckedBudget(state, chunk);
}

/**
 * {@link budget} of a chunk known to be a `Uint8Array`.
 * @internal For a driver whose chunks its body's reader has checked already.
 */
export function uncheckedBudget(state: BudgetState, chunk: Uint8Array): BudgetResult {
  const bytes = state.bytes + chunk.length;
  const within = cutToBudget(state, chunk, bytes);
  return { state: { maxBytes: state.maxBytes, bytes }, chunk: within, exceeded: within !== chunk };
}

/**
 * The cap rule: `chunk` itself while the body stays within the cap, else a view of its first
 * bytes; `bytes` is the count with it, passed in (read again, 4% of `answer-drip`'s instructions).
 * @internal For a reducer that keeps the count in its own state: no objects per chunk.
 */
export function cutToBudget(state: BudgetState, chunk: Uint8Array, bytes: number): Uint8Array {
  // The cut a call of its own: this stays small enough to inline into every step.
  return bytes <= state.maxBytes ? chunk : cut(state, chunk);
}

/** {@link cutToBudget} for a chunk that crosses the cap: its first bytes up to the cap, if any. */
function cut(state: BudgetState, chunk: Uint8Array): Uint8Array {
  return chunk.subarray(0, state.bytes < state.maxBytes ? state.maxBytes - state.bytes : 0);
}
