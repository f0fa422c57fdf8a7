/**
 * The fuzz worker: runs one campaign (or generates one input) in a worker thread started by
 * run.mjs, which stops it if it outlives its time. Before every check it counts the run in
 * shared memory, so that the watchdog knows which path hung even when the thread is stuck.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { inputAt, runCampaign } from './campaign.js';
import { storeInput } from './serialize.js';
import { targetNamed, targets } from './targets.js';

/** What run.mjs asks of a worker. */
export interface WorkerRequest {
  readonly mode: 'campaign' | 'generate';
  readonly target: string;
  readonly seed: number;
  readonly ms: number;
  readonly shrinkMs: number;
  readonly runTimeoutMs: number;
  readonly path: string | undefined;
  /** Int32 [runs started, phase]: phase 0 while searching, 1 while shrinking. */
  readonly counter: SharedArrayBuffer;
}

/** The names of the targets, in order (run.mjs imports the bundle for them). */
export const targetNames: readonly string[] = targets.map((t) => t.name);

/** One line a target's summary, for the campaign's header. */
export const targetSummaries: Readonly<Record<string, string>> = Object.fromEntries(targets.map((t) => [t.name, t.summary]));

async function serve(request: WorkerRequest): Promise<void> {
  const target = targetNamed(request.target);
  if (request.mode === 'generate') {
    parentPort!.postMessage({ kind: 'input', input: storeInput(inputAt(target, request.seed, request.path ?? '0')) });
    return;
  }
  const counter = new Int32Array(request.counter);
  const result = await runCampaign(target, {
    seed: request.seed,
    ms: request.ms,
    shrinkMs: request.shrinkMs,
    path: request.path,
    runTimeoutMs: request.runTimeoutMs,
    onRun: () => {
      Atomics.add(counter, 0, 1);
    },
    onFound: (path: string) => {
      Atomics.store(counter, 1, 1);
      parentPort!.postMessage({ kind: 'found', path });
    },
  });
  const failure = result.failure === undefined ? undefined : { path: result.failure.path, error: result.failure.error, input: storeInput(result.failure.input) };
  parentPort!.postMessage({ kind: 'done', numRuns: result.numRuns, failure });
}

if (!isMainThread && parentPort !== null) void serve(workerData as WorkerRequest);
