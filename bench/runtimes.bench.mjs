// The portable figures (portable-core.mjs) in every runtime the package claims: Node, Chromium,
// workerd, Deno and Bun, each in its own process (or page, or worker, through bench/hosts/),
// with the same workloads and the same peer. Figure ids are `<runtime>:<figure>`, and
// bench/targets.json holds a target per runtime, so the gate judges each runtime on its own.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureInChromium } from './hosts/chromium.mjs';
import { measureInWorkerd } from './hosts/workerd.mjs';

const here = (file) => fileURLToPath(new URL(file, import.meta.url));
const require = createRequire(import.meta.url);
const script = here('./hosts/process.mjs');
const TIMEOUT_MS = 600_000;
// Deno and Bun would otherwise check for updates of themselves over the network.
const quiet = { ...process.env, DENO_NO_UPDATE_CHECK: '1', DO_NOT_TRACK: '1' };

/** A runtime started as a process, running bench/hosts/process.mjs: prints one JSON line of { runtime, figures }. */
function processRuntime(command, args) {
  return async (entry, settings) => {
    if (!existsSync(command)) throw new Error(`${command} is not installed (npm ci installs it)`);
    const child = spawnSync(command, [...args, script, entry, JSON.stringify(settings)], {
      encoding: 'utf8',
      env: quiet,
      maxBuffer: 1 << 24,
      timeout: TIMEOUT_MS,
    });
    if (child.status !== 0) throw new Error(child.stderr.trim().split('\n').slice(-3).join(' | ') || `exited ${child.status ?? child.signal}`);
    return JSON.parse(child.stdout.trim().split('\n').at(-1));
  };
}

/** The platform binary of Bun's npm package (its postinstall may not have run; see test/runtimes/run.mjs). */
function bunBinary() {
  const arch = process.arch === 'arm64' ? 'aarch64' : process.arch;
  const platformBinary = join(dirname(require.resolve('bun/package.json')), '..', '@oven', `bun-${process.platform}-${arch}`, 'bin', 'bun');
  return existsSync(platformBinary) ? platformBinary : here('../node_modules/.bin/bun');
}

/**
 * Each runtime, as `measure(entry, settings)`: the `measure(settings)` export of `bench/<entry>`
 * run there, resolving with `{ runtime, figures }`.
 */
export const RUNTIMES = [
  { id: 'node', measure: processRuntime(process.execPath, []) },
  { id: 'chromium', measure: (entry, settings) => measureInChromium(entry, settings, TIMEOUT_MS) },
  { id: 'workerd', measure: (entry, settings) => measureInWorkerd(entry, settings, TIMEOUT_MS) },
  { id: 'deno', measure: processRuntime(here('../node_modules/.bin/deno'), ['run', '--no-prompt', '--no-lock', '--allow-read', '--allow-env']) },
  { id: 'bun', measure: processRuntime(bunBinary(), []) },
];

/** The runtimes a filter names, `deno` or `deno+bun`; every runtime for none (`''` or `undefined`). */
export function runtimesNamed(filter) {
  return filter ? RUNTIMES.filter((r) => filter.split('+').includes(r.id)) : RUNTIMES;
}

/** What a portable figure measures, in the page's words. */
function labelOf(id) {
  const [name, ratio] = id.split('.');
  if (ratio === 'scanner/eventsource-parser') return `${name}: scanner (scanEach) ÷ eventsource-parser`;
  if (ratio === 'scan/eventsource-parser') return `${name}: scan, which lists each chunk's events, ÷ eventsource-parser`;
  if (ratio === 'decode/eventsource-parser') return `${name}: decode-only ÷ eventsource-parser (the most a reader that decodes as it does can beat it by)`;
  if (ratio === 'floor/eventsource-parser') return `${name}: per-event floor ÷ eventsource-parser (decode, search for CR and each LF, hand out each data line's value as a string: the most a reader that does so can beat it by)`;
  if (ratio === 'scanner/ceiling') return `${name}: scanner ÷ ceiling (fraction of one TextDecoder.decode)`;
  if (ratio === 'scanner/scanner+parse') return `${name}: scanner + JSON.parse time ÷ scanner time (what the engine's own parse costs)`;
  if (ratio === 'scanner/scanner+check') return `${name}: scanner + string check time ÷ scanner time (the least the answer reducer can cost)`;
  return `${name}: answer reducer time ÷ scanner time`;
}

/**
 * The figure sets each pass measures, one process per entry. The gate measures the targets alone;
 * the full pass measures them the same way, and the limits after, in a fresh process, so that
 * the page shows the figures the gate judges. The limit readers run the scanner and the decoder
 * in other ways than the targeted readers do, and an engine compiles shared code for every way it
 * has seen: in two processes each, `chromium:keepalive` read 1.33 beside the limits and 1.48–1.49
 * without them. The smoke pass only proves that each runtime runs, in one process.
 */
const SETS = { check: [['targets']], full: [['targets'], ['limits']], smoke: [['targets', 'limits']] };

export const cases = [
  {
    id: 'runtimes',
    group: 'runtimes',
    title: 'the stream cases and the answer reducer in Node, Chromium, workerd, Deno and Bun',
    async run(settings) {
      const runtimes = [];
      const figures = [];
      // A runtime's --only filter: `--only bun:` (or `deno+bun:`) measures some runtimes,
      // `--only :utf8` one figure in each.
      const [runtimeFilter, figureFilter] = settings.only?.includes(':') ? settings.only.split(':') : [undefined, undefined];
      const measured = { rounds: settings.rounds, seconds: settings.seconds, only: figureFilter || undefined };
      for (const r of runtimesNamed(runtimeFilter)) {
        try {
          let version;
          for (const sets of SETS[settings.mode]) {
            const out = await r.measure('portable-core.mjs', { ...measured, sets });
            version = out.runtime;
            for (const f of out.figures) figures.push({ ...f, id: `${r.id}:${f.id}`, label: labelOf(f.id), runtime: r.id });
          }
          runtimes.push({ id: r.id, version });
        } catch (error) {
          runtimes.push({ id: r.id, error: error instanceof Error ? error.message : String(error) });
        }
      }
      const failed = runtimes.filter((r) => r.error);
      return {
        id: 'runtimes',
        group: 'runtimes',
        title: this.title,
        about:
          'per runtime: scanner ÷ eventsource-parser on each stream case, each event handed to a callback as the parser hands it (scanEach); the scanner ÷ one TextDecoder.decode of the large event (the engine\'s ceiling); outside the gate and in a process of their own, scan (which lists each chunk\'s events) ÷ eventsource-parser on each stream case, a decode-only reader ÷ eventsource-parser on each small-event case (the most any reader that decodes as it does can beat it by), and the per-event floor ÷ eventsource-parser (a reader that decodes so, searches each chunk for CR and each LF, and hands out each data line\'s value as a string, and follows no other rule: the most a reader that hands out a string per event can beat it by); the answer reducer\'s time ÷ the scanner\'s on a 1 MiB answer and at 1-byte chunks, and beside it the scanner followed by one JSON.parse of the data (what the engine\'s own parse costs)',
        runtimes,
        figures,
        ...(failed.length > 0 ? { error: failed.map((r) => `${r.id}: ${r.error}`).join('; ') } : {}),
      };
    },
  },
];
