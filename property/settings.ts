/**
 * The one place for the fast-check budget and seed of the property tests.
 *
 * - `numRuns` is fixed, sized so the whole `property` project runs well under a minute on 2 cores.
 * - `seed` comes from the environment variable `FC_SEED` when set (to replay a failure), else it
 *   is drawn at random so that each run explores new inputs. Either way it is printed once per
 *   test file that imports this module, with the command that replays it.
 *
 * Every `fc.assert` in this folder takes `fcParams` (`{ seed, numRuns }`).
 */

/** Runs per property. */
export const numRuns = 500;

function chooseSeed(): number {
  const fromEnv = process.env['FC_SEED'];
  if (fromEnv !== undefined && fromEnv.trim() !== '') {
    const parsed = Number(fromEnv);
    if (!Number.isInteger(parsed)) throw new Error(`FC_SEED must be an integer, got ${JSON.stringify(fromEnv)}`);
    return parsed | 0;
  }
  return (Math.random() * 0x1_0000_0000) | 0;
}

/** The seed of every property in this run. */
export const seed = chooseSeed();

console.log(
  `[fast-check] seed=${seed} numRuns=${numRuns}` +
    ` (replay: FC_SEED=${seed} npx vitest run --project property)`,
);

/** The parameters every `fc.assert` takes. */
export const fcParams = { seed, numRuns } as const;
