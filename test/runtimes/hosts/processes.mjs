// Runtimes that run as a process of their own (Node, Deno, Bun): start the entry, wait for it
// with a deadline, and read the suite's result from the last line it prints.
import { spawn } from 'node:child_process';

/**
 * Runs `command args` in `cwd` and returns the JSON object on the last line of its output. A
 * process that cannot start, exits non-zero, prints no result or outlives `timeoutMs` is an
 * error that says so, with what it wrote to stderr.
 */
export function runEntry(command, args, { cwd, timeoutMs, env = {} }) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text) => (stderr += text));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} did not finish within ${timeoutMs / 1000} s\n${stderr}`));
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`${command} could not start: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const last = stdout.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !last.startsWith('{')) {
        reject(new Error(`${command} ${args.join(' ')} exited with ${signal ?? code}\n${stdout}${stderr}`));
        return;
      }
      resolve(JSON.parse(last));
    });
  });
}
