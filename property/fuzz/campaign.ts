/**
 * One time-boxed fast-check campaign over one target: generate and check inputs from a seed
 * until the time is up or one fails; then replay the failing path and shrink it, for a while.
 * The run counter is called before every check, so that a watchdog outside can tell which
 * path (`"k"`: the k-th generated input) was running when a check never returned.
 */
import fc from 'fast-check';
import type { FuzzTarget } from './target.js';

/** A failing input. */
export interface Failure {
  /** fast-check's path to it from the seed (`"k"`, or `"k:…"` once shrunk). */
  readonly path: string;
  /** The input, as small as shrinking made it in its time. */
  readonly input: unknown;
  /** What broke. */
  readonly error: string;
}

/** How a campaign went. */
export interface CampaignResult {
  /** Inputs checked before the time was up or one failed. */
  readonly numRuns: number;
  readonly failure: Failure | undefined;
}

/** Options for {@link runCampaign}. */
export interface CampaignOptions {
  readonly seed: number;
  /** How long to generate new inputs. */
  readonly ms: number;
  /** How long to shrink a failing one. */
  readonly shrinkMs: number;
  /** Replay from this path instead of searching. */
  readonly path?: string | undefined;
  /** Called before every check. */
  readonly onRun?: (() => void) | undefined;
  /** Called with the path of the first failing input, before it is shrunk. */
  readonly onFound?: ((path: string) => void) | undefined;
  /** The time limit of one check of an async target. */
  readonly runTimeoutMs?: number | undefined;
}

function propertyOf(target: FuzzTarget, onRun: () => void): fc.IRawProperty<[unknown]> {
  if (target.async) {
    return fc.asyncProperty(target.arbitrary, async (input) => {
      onRun();
      await target.check(input);
    });
  }
  return fc.property(target.arbitrary, (input) => {
    onRun();
    void target.check(input);
  });
}

function failureOf(details: fc.RunDetails<[unknown]>): Failure | undefined {
  if (!details.failed || details.counterexample === null || details.counterexamplePath === null) return undefined;
  const error = details.errorInstance instanceof Error ? `${details.errorInstance.name}: ${details.errorInstance.message}` : String(details.errorInstance);
  return { path: details.counterexamplePath, input: details.counterexample[0], error };
}

/** Runs a campaign (see the module). */
export async function runCampaign(target: FuzzTarget, options: CampaignOptions): Promise<CampaignResult> {
  const onRun = options.onRun ?? ((): void => {});
  const property = propertyOf(target, onRun);
  const common: fc.Parameters<[unknown]> = {
    seed: options.seed,
    markInterruptAsFailure: false,
    ...(target.async && options.runTimeoutMs !== undefined ? { timeout: options.runTimeoutMs } : {}),
  };
  const search = await fc.check(property, {
    ...common,
    ...(options.path === undefined ? { numRuns: Number.MAX_SAFE_INTEGER } : { path: options.path, numRuns: 1 }),
    interruptAfterTimeLimit: options.ms,
    endOnFailure: true,
  });
  const found = failureOf(search);
  if (found === undefined) return { numRuns: search.numRuns, failure: undefined };
  options.onFound?.(found.path);
  const shrunk = await fc.check(property, { ...common, path: found.path, interruptAfterTimeLimit: options.shrinkMs });
  return { numRuns: search.numRuns, failure: failureOf(shrunk) ?? found };
}

/** The input at `path` from `seed`, generated but not checked. */
export function inputAt(target: FuzzTarget, seed: number, path: string): unknown {
  let input: unknown;
  fc.check(
    fc.property(target.arbitrary, (value) => {
      input = value;
    }),
    { seed, path, numRuns: 1 },
  );
  return input;
}
