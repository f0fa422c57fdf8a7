// The scanner cases and a 1 MiB answer in Node, Bun and Deno (a diagnostic: no target). Each
// runtime runs portable.bench.mjs; Bun and Deno come from node_modules (devDependencies).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = (file) => fileURLToPath(new URL(file, import.meta.url));
const script = here('./portable.bench.mjs');

const RUNTIMES = [
  { id: 'node', command: process.execPath, args: [script] },
  { id: 'bun', command: here('../node_modules/.bin/bun'), args: [script] },
  { id: 'deno', command: here('../node_modules/.bin/deno'), args: ['run', '--allow-read', '--allow-env', script] },
];

export const cases = [
  {
    id: 'runtimes',
    group: 'runtimes',
    title: 'the scanner cases and a 1 MiB answer in Node, Bun and Deno (diagnostic)',
    async run(settings) {
      const runtimes = [];
      const figures = [];
      const missing = [];
      for (const r of RUNTIMES) {
        if (!existsSync(r.command)) {
          missing.push(r.id);
          continue;
        }
        // At most 4 rounds of 0.3 s a side: a diagnostic, kept short so the full pass stays short.
        const child = spawnSync(r.command, [...r.args, String(Math.min(4, Math.max(2, settings.rounds))), String(Math.min(settings.seconds, 0.3))], {
          encoding: 'utf8',
          maxBuffer: 1 << 24,
        });
        if (child.status !== 0) {
          runtimes.push({ id: r.id, error: child.stderr.trim().split('\n').slice(-3).join(' | ') });
          continue;
        }
        const out = JSON.parse(child.stdout.trim().split('\n').at(-1));
        runtimes.push({ id: r.id, version: out.runtime });
        for (const f of out.figures) figures.push({ ...f, id: `${r.id}:${f.id}`, runtime: r.id });
      }
      return {
        id: 'runtimes',
        group: 'runtimes',
        title: this.title,
        about: 'scanner ÷ eventsource-parser per stream case, and the answer reducer ÷ the scanner alone on a 1 MiB answer, in each runtime',
        runtimes,
        figures,
        ...(missing.length > 0 ? { skipped: `${missing.join(' and ')} not installed (npm ci installs them)` } : {}),
      };
    },
  },
];
