// How the promised figures are measured and decided, with their noise (promises.mjs holds the
// rule): each figure is measured by fresh processes, one sample each, in sweeps over the
// runtimes; a process measures every figure of its runtime and source still undecided. A figure
// is decided once MIN_PROCESSES have measured it and every sample falls on one side of its bound;
// while the bound lies within their spread it is measured again, up to MAX_PROCESSES, and until
// the time cap, after which no process starts and the median of each undecided figure decides.
// With `failFast`, no process starts once a judged figure is decided missed: a decided figure is
// never measured again, so the gate's verdict is the one it would reach at its end.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { decide, decidedMissed, MAX_PROCESSES, median } from './promises.mjs';
import { runtimeNamed } from './runtimes.mjs';

const here = (file) => fileURLToPath(new URL(file, import.meta.url));

/**
 * One process of `runtime` measuring `figures` (their names, without the runtime) of `source`:
 * resolves with `{ version, values: { name: value } }`. `settings`: the pass's `gateRounds` and
 * `gateSeconds`, `handicap` (the portable figures only) and `handicapClient` (the client figures
 * only). The Node suite measures them with the gate's settings in every pass, so that the full
 * pass shows what the gate judges.
 */
async function measureOnce(runtime, source, figures, settings) {
  const r = runtimeNamed(runtime);
  if (source === 'portable') {
    const out = await r.measure('portable-core.mjs', { rounds: settings.gateRounds, seconds: settings.gateSeconds, figures, handicap: settings.handicap });
    return { version: out.runtime, values: Object.fromEntries(out.figures.map((f) => [f.id, f.value])) };
  }
  const child = spawnSync(r.binary(), [here('./node-suite.mjs'), JSON.stringify({ mode: 'check', figures, handicapClient: settings.handicapClient })], { encoding: 'utf8', maxBuffer: 1 << 26, timeout: 600_000 });
  if (child.status !== 0) throw new Error(child.stderr.trim().split('\n').slice(-3).join(' | ') || `exited ${child.status ?? child.signal}`);
  const out = JSON.parse(child.stdout.trim().split('\n').at(-1));
  const failed = out.records.filter((record) => record.error);
  if (failed.length > 0) throw new Error(failed.map((record) => `${record.id}: ${record.error}`).join('; '));
  return { version: out.runtime, values: Object.fromEntries(out.records.flatMap((record) => record.figures.map((f) => [f.id, f.value]))) };
}

/**
 * Measures and decides `figures` (promises.mjs's `promisedFigures`). Resolves with each, in order,
 * as `{ ...figure, samples, value, met, how, note? }`, and the version of each runtime measured.
 * `settings`: `gateRounds`, `gateSeconds`, `handicap`, `handicapClient`, `capSeconds` (no process starts after it),
 * `failFast` (no process starts once a judged figure is decided missed; the figures still open then
 * are left undecided, `met` undefined), `log` (told of each process).
 */
export async function judge(figures, settings) {
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  const samples = new Map(figures.map((f) => [f.id, []]));
  const notes = new Map();
  const failures = new Map();
  const versions = {};
  const open = (f) => !decide(samples.get(f.id), f.bound).decided && samples.get(f.id).length < MAX_PROCESSES && (failures.get(`${f.runtime} ${f.source}`) ?? 0) < 2;
  let capped = false;
  let stopped = false;
  for (let sweep = 1; !capped && !stopped; sweep++) {
    const groups = new Map();
    for (const f of figures.filter(open)) {
      const key = `${f.runtime} ${f.source}`;
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(f);
    }
    if (groups.size === 0) break;
    for (const [key, group] of groups) {
      if (elapsed() >= settings.capSeconds) {
        capped = true;
        break;
      }
      if (settings.failFast && decidedMissed(figures, (f) => samples.get(f.id))) {
        stopped = true;
        break;
      }
      const [runtime, source] = key.split(' ');
      const processStarted = performance.now();
      try {
        const { version, values } = await measureOnce(runtime, source, group.map((f) => f.figure), settings);
        versions[runtime] = version;
        for (const f of group) {
          if (typeof values[f.figure] === 'number') samples.get(f.id).push(values[f.figure]);
          else notes.set(f.id, 'a process measured no value');
        }
        settings.log?.(`  sweep ${sweep}: ${version}, ${group.length} figure${group.length === 1 ? '' : 's'} (${((performance.now() - processStarted) / 1000).toFixed(1)} s)`);
      } catch (error) {
        // A process that fails is tried once more in the next sweep; twice, and its figures are not measured.
        failures.set(key, (failures.get(key) ?? 0) + 1);
        const message = error instanceof Error ? error.message : String(error);
        for (const f of group) notes.set(f.id, `not measured: ${message.slice(0, 300)}`);
        settings.log?.(`  sweep ${sweep}: ${runtime} (${source}) failed: ${message.slice(0, 300)}`);
      }
    }
  }
  const decided = figures.map((f) => {
    const values = samples.get(f.id);
    if (stopped && !decide(values, f.bound).decided) {
      return { ...f, samples: values, value: values.length === 0 ? null : median(values), met: undefined, how: 'not decided: the gate stopped at a missed figure' };
    }
    const verdict = decide(values, f.bound, { last: true });
    const atCap = capped && !decide(values, f.bound).decided;
    const how = verdict.how + (atCap ? ', at the time cap' : '');
    return { ...f, samples: values, value: verdict.value, met: verdict.met, how, ...(notes.has(f.id) && values.length === 0 ? { note: notes.get(f.id) } : {}) };
  });
  return { figures: decided, versions, seconds: Math.round(elapsed()), capped, stopped };
}
