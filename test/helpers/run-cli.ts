/**
 * Runs the built command line (`dist/cli.js`) as a child process, asynchronously, so that a
 * server under test can live in the test's own process.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built CLI's path. */
export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/** How a run ended. */
export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** What a run is given besides its arguments. */
export interface CliRunOptions {
  /** Written to stdin, which is then closed (empty by default). */
  readonly stdin?: string | undefined;
  /** Variables added to the environment. */
  readonly env?: Readonly<Record<string, string>> | undefined;
  /** Close the reading end of its stderr at once, so that every write there fails (EPIPE). */
  readonly closedStderr?: boolean | undefined;
}

/** Runs the CLI with `args`; resolves with its exit code and output (a kill is code -1). */
export function runCli(args: readonly string[], options: CliRunOptions = {}): Promise<CliRun> {
  const { stdin, env, closedStderr } = options;
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [CLI, ...args],
      {
        encoding: 'utf8',
        timeout: 20_000,
        ...(env === undefined ? {} : { env: { ...process.env, ...env } }),
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
    if (closedStderr === true) child.stderr?.destroy();
    child.stdin?.end(stdin ?? '');
  });
}
