// The CLI's inputs under hostile shapes (issue 16, rule 7): the sniffing of a body's format, and
// events, hold no more than --max-bytes and a chunk, whatever the body; an input that cannot be
// read — missing, a directory, a path through a file, a symbolic link loop, a read error at the
// start or mid-way — is exit 1 and one line on every path (read with and without --content-type,
// events). The built CLI runs as a process; the mid-way read error, which no real file gives on
// cue, is injected under `open` in-process. Every unreadable input here is one no user can read,
// root included (issue 49): the verdict never depends on who runs the suite, nor from where.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest';
import { EXIT_CODES } from '../src/cli/exit-codes.js';
import { CLI, runCli, type CliRun } from './helpers/run-cli.js';

// Several CLI processes a test, on a machine other work shares: room beyond the 5 s default.
vi.setConfig({ testTimeout: 30_000 });
const dir = mkdtempSync(join(tmpdir(), 'sse-answer-cli-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (args: readonly string[]): Promise<CliRun> => runCli(args);

const ANSWER = 'data: {"jsonrpc":"2.0","id":1,"result":1}\n\n';

/** Every path that reads a file. */
const PATHS: readonly (readonly string[])[] = [
  ['read'],
  ['read', '--content-type', 'text/event-stream'],
  ['read', '--content-type', 'application/json'],
  ['events'],
];

function expectCannotRead(result: CliRun, path: string, code: string, label: string): void {
  expect(result.code, label).toBe(1);
  expect(result.stdout, label).toBe('');
  expect(result.stderr, label).toBe(`sse-answer: cannot read ${path}: ${code}\n`);
}

describe('an input that cannot be read: exit 1, one line, on every path', () => {
  const missing = join(dir, 'missing.sse');
  const directory = join(dir, 'a-directory');
  mkdirSync(directory);
  // A file's mode would not do: root reads any file. These refuse every user alike.
  const file = join(dir, 'file.sse');
  writeFileSync(file, ANSWER);
  const throughFile = join(file, 'x');
  const loop = join(dir, 'loop.sse');
  symlinkSync(loop, loop);

  test.each(PATHS)('missing, a directory: %s', async (...command) => {
    expectCannotRead(await run([...command, missing]), missing, 'ENOENT', 'missing');
    expectCannotRead(await run([...command, directory]), directory, 'EISDIR', 'directory');
  });

  test.each(PATHS)('a path through a file, a symbolic link to itself: %s', async (...command) => {
    expectCannotRead(await run([...command, throughFile]), throughFile, 'ENOTDIR', 'through a file');
    expectCannotRead(await run([...command, loop]), loop, 'ELOOP', 'link loop');
  });

  // Linux's /proc/self/mem opens, then fails its first read at offset 0 (unmapped): a real read error.
  test.each(PATHS)('a read that fails after the open: %s', async (...command) => {
    expect(existsSync('/proc/self/mem')).toBe(true);
    expectCannotRead(await run([...command, '/proc/self/mem']), '/proc/self/mem', 'EIO', 'read error');
  });

  test('a readable file still reads', async () => {
    const ok = join(dir, 'ok.sse');
    writeFileSync(ok, ANSWER);
    const { code, stdout } = await run(['read', ok]);
    expect([code, JSON.parse(stdout)]).toEqual([0, { jsonrpc: '2.0', id: 1, result: 1 }]);
  });
});

/**
 * Feeds the CLI's stdin `chunk` again and again, as fast as it reads, until it exits or
 * `limit` bytes are written; resolves with the exit code, stderr and the bytes it took in.
 */
function feed(args: readonly string[], chunk: Uint8Array, limit: number): Promise<{ code: number | null; stderr: string; written: number }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    let written = 0;
    let exited = false;
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.stdin.on('error', () => undefined); // EPIPE once the CLI has stopped reading
    const pump = (): void => {
      while (!exited && written < limit) {
        written += chunk.byteLength;
        if (!child.stdin.write(chunk)) {
          child.stdin.once('drain', pump);
          return;
        }
      }
      if (!exited) child.stdin.end();
    };
    child.on('exit', (code) => {
      exited = true;
      resolve({ code, stderr, written });
    });
    pump();
  });
}

describe('sniffing the format holds no more than --max-bytes and a chunk', () => {
  const limit = 256 * 1024 * 1024;

  test.each([
    ['spaces', 0x20],
    ['line ends', 0x0a],
    ['BOM bytes', 0xbb],
  ])('an endless blank prefix (%s) on stdin: budget_exceeded as soon as the cap is passed, the rest never read', async (_, byte) => {
    const { code, stderr, written } = await feed(['read', '--max-bytes', '1000'], new Uint8Array(64 * 1024).fill(byte), limit);
    expect(code).toBe(EXIT_CODES.budget_exceeded);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^sse-answer: budget_exceeded/);
    // What the pipe and Node's stream buffer, not the 256 MiB a sniff to the end would take in.
    expect(written).toBeLessThan(8 * 1024 * 1024);
  }, 30_000);

  test('a blank prefix under the cap that spans several chunks: still sniffed as JSON', async () => {
    const path = join(dir, 'padded.json');
    writeFileSync(path, `${' \n'.repeat(200 * 1024)}{"jsonrpc":"2.0","id":1,"result":"padded"}`);
    const { code, stdout } = await run(['read', path]);
    expect([code, JSON.parse(stdout)]).toEqual([0, { jsonrpc: '2.0', id: 1, result: 'padded' }]);
  });

  test('a blank prefix over the cap in a file: budget_exceeded, one line', async () => {
    const path = join(dir, 'blank.sse');
    writeFileSync(path, `${'\n'.repeat(300 * 1024)}${ANSWER}`);
    const { code, stderr } = await run(['read', path, '--max-bytes', '1000']);
    expect(code).toBe(EXIT_CODES.budget_exceeded);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('events holds no more than --max-bytes and a chunk', () => {
  const limit = 256 * 1024 * 1024;

  test.each([
    ['--max-bytes 1000', ['--max-bytes', '1000'], 8 * 1024 * 1024],
    ['the default, 16 MiB as read\'s', [], 24 * 1024 * 1024],
  ])('one endless line on stdin, %s: budget_exceeded, the rest never read', async (_, cap, most) => {
    const { code, stderr, written } = await feed(['events', ...cap], new Uint8Array(64 * 1024).fill(0x78), limit);
    expect(code).toBe(EXIT_CODES.budget_exceeded);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^sse-answer: budget_exceeded: the event stream went past maxBytes/);
    expect(written).toBeLessThan(most);
  }, 30_000);

  test('a stream of exactly the cap passes; one byte more prints the events within it, then budget_exceeded', async () => {
    const path = join(dir, 'two.sse');
    const text = 'data: a\n\ndata: b\n\n';
    writeFileSync(path, text);
    const exact = await run(['events', path, '--max-bytes', String(text.length)]);
    expect([exact.code, exact.stdout.trim().split('\n').length]).toEqual([0, 2]);
    const over = await run(['events', path, '--max-bytes', String(text.length - 1)]);
    expect(over.code).toBe(EXIT_CODES.budget_exceeded);
    // The second event lost its closing blank line to the cap: not printed, though at the end.
    expect(over.stdout.trim().split('\n').map((line) => JSON.parse(line) as unknown)).toEqual([{ type: 'message', data: 'a', lastEventId: '' }]);
    expect(over.stderr.trim().split('\n')).toHaveLength(1);
  });
});

// A read error mid-way, under the real commands in this process: `open` hands out a file whose
// second read fails. The error a command throws is what main() reports, through inputFailure.
const opened = vi.hoisted(() => ({ handles: [] as { closed: boolean }[] }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...actual,
    open: async (path: string, flags: string): Promise<FileHandle> => {
      if (!path.endsWith('fails-midway.sse')) return actual.open(path, flags);
      const state = { closed: false, reads: 0 };
      opened.handles.push(state);
      const first = new TextEncoder().encode(': a comment, then the disk fails\n'.repeat(8));
      return {
        stat: async () => ({ isDirectory: () => false }),
        read: async (buffer: Uint8Array) => {
          state.reads += 1;
          if (state.reads > 1) throw Object.assign(new Error('i/o error, read'), { code: 'EIO' });
          buffer.set(first);
          return { bytesRead: first.byteLength, buffer };
        },
        close: async () => {
          state.closed = true;
        },
      } as unknown as FileHandle;
    },
  };
});

describe('a read error mid-way', () => {
  afterEach(() => {
    opened.handles.length = 0;
  });

  test.each([
    ['read, sniffed', { contentType: undefined }],
    ['read, --content-type text/event-stream', { contentType: 'text/event-stream' }],
  ])('%s: the error is an unreadable input, and the file is closed', async (_, given) => {
    const { read } = await import('../src/cli/read.js');
    const { inputFailure } = await import('../src/cli/input-failed.js');
    const error: unknown = await read({ file: join(dir, 'fails-midway.sse'), requestId: undefined, maxBytes: undefined, ...given }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(inputFailure(error)?.message).toBe(`cannot read ${join(dir, 'fails-midway.sse')}: EIO`);
    expect(opened.handles.map((handle) => handle.closed)).toEqual([true]);
  });

  test('events: the error is an unreadable input, and the file is closed', async () => {
    const { events } = await import('../src/cli/events.js');
    const { inputFailure } = await import('../src/cli/input-failed.js');
    const error: unknown = await events(join(dir, 'fails-midway.sse')).then(() => undefined, (caught: unknown) => caught);
    expect(inputFailure(error)?.message).toBe(`cannot read ${join(dir, 'fails-midway.sse')}: EIO`);
    expect(opened.handles.map((handle) => handle.closed)).toEqual([true]);
  });
});
