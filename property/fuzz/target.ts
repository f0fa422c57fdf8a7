/**
 * What a fuzz target is: an arbitrary of inputs and a check that throws (or rejects) when an
 * input breaks one of the library's promises. Inputs are plain data (see `serialize.ts`), so a
 * counterexample can be stored and replayed without the generator.
 */
import type fc from 'fast-check';

/** One fuzz target. */
export interface FuzzTarget<T = unknown> {
  /** The name a finding and `--target` use. */
  readonly name: string;
  /** What it checks, in one line (printed with the run count). */
  readonly summary: string;
  /** The inputs. */
  readonly arbitrary: fc.Arbitrary<T>;
  /** Checks one input: throws, or rejects, when a promise is broken. */
  readonly check: (input: T) => void | Promise<void>;
  /** Whether `check` returns a promise (then each run also has a time limit). */
  readonly async: boolean;
}

/** A target, typed by its input, as an entry of the list. */
export function defineTarget<T>(target: FuzzTarget<T>): FuzzTarget {
  return target as unknown as FuzzTarget;
}

/** A broken promise. */
export class Broken extends Error {
  override readonly name = 'Broken';
}

/** Throws {@link Broken} with `message` unless `condition` holds. */
export function ensure(condition: boolean, message: string | (() => string)): asserts condition {
  if (!condition) throw new Broken(typeof message === 'string' ? message : message());
}
