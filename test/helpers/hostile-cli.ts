/**
 * The built CLI run as run-cli.ts runs it, with room for what a hostile server makes it print: a
 * 1 MiB answer on stdout is past `execFile`'s default 1 MiB buffer, which would kill the child.
 */
import { execFile } from 'node:child_process';
import { CLI, type CliRun } from './run-cli.js';

/** Runs `dist/cli.js` with `args` (and `env` added); resolves with its exit code and output (a kill is -1). */
export function runHostileCli(args: readonly string[], env?: Readonly<Record<string, string>>): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [CLI, ...args],
      { encoding: 'utf8', timeout: 30_000, maxBuffer: 64 * 1024 * 1024, ...(env === undefined ? {} : { env: { ...process.env, ...env } }) },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
    child.stdin?.end('');
  });
}
