// `npm run demo` (examples/demo.mjs) against the built package: the official SDK server in-process,
// the SDK Client over AnswerTransport. It must print each step and exit 0.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const demo = fileURLToPath(new URL('../examples/demo.mjs', import.meta.url));

test('the demo lists the tools, streams progress, answers, releases the connection, ends the session, exits 0', async () => {
  const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) => {
    execFile(process.execPath, [demo], { encoding: 'utf8', timeout: 30_000 }, (error, out) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout: out });
    });
  });
  expect(code).toBe(0);
  expect(stdout).toMatch(/client: connected through AnswerTransport; protocol 2025-11-25, session [0-9a-f-]{36}/);
  expect(stdout).toContain('client: tools: countdown, echo');
  expect(stdout).toContain('passed over: notifications/message {"level":"info","data":"counting down from 3"}');
  expect(stdout.match(/passed over: notifications\/progress/g)).toHaveLength(3);
  expect(stdout).toContain('client: onprogress saw 1/3, 2/3, 3/3');
  expect(stdout).toContain('answer: {"content":[{"type":"text","text":"liftoff"}]}');
  expect(stdout).toMatch(/client: \d+ body bytes read in [\d.]+ ms/);
  expect(stdout).toContain('server: responses still open after the answer: 0');
  expect(stdout).toMatch(/server: DELETE ended session [0-9a-f-]{36}/);
});
