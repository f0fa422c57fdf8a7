// Types for signal-tests.mjs, which every runtime loads as it is.

/** A caller's signal of one shape, made fresh. */
export interface ShapedSignal {
  readonly signal: AbortSignal;
  /** Aborts it now, or (a timeout) resolves once it has aborted by itself. */
  abort(): Promise<void>;
  /** The code an exchange its abort ends settles with: `aborted`, or `timeout`. */
  readonly code: 'aborted' | 'timeout';
}

/** One shape of a caller's signal: what else listens to it, or how it was made. */
export interface SignalShape {
  readonly name: string;
  /** The signal aborts by itself (a timeout): nothing else can choose when. */
  readonly abortsItself?: boolean;
  make(): ShapedSignal;
}

/** Every shape the suite aborts an API with. */
export const SIGNAL_SHAPES: readonly SignalShape[];

/** The message of the throwing listener's error. */
export const LISTENER_FAILURE: string;

/** When a timeout shape aborts itself, in milliseconds. */
export const TIMEOUT_MS: number;

/**
 * Tests for every API under every shape of signal, and for a signal that aborts while another
 * read of it settles, run against the package `pkg`.
 */
export function signalTests(pkg: object): { name: string; run(): Promise<void> }[];
