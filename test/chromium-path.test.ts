// test/runtimes/hosts/chromium-path.mjs: every Chromium launch of the project (the browser page's
// test, the runtime suite, the benchmarks) runs this user's own unpacked copy of the installed
// @sparticuz/chromium, never what another user or version left in the shared temp folder: as
// another user, `/tmp/chromium` made the browser test fail with EACCES.
import { execFileSync } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test } from 'vitest';
import { chromiumFolder, chromiumPath } from './runtimes/hosts/chromium-path.mjs';

const helper = fileURLToPath(new URL('./runtimes/hosts/chromium-path.mjs', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'chromium-path-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

test("the folder is in the temp folder, named for the package's version and this user", () => {
  const folder = chromiumFolder();
  expect(dirname(folder)).toBe(tmpdir());
  const { version } = JSON.parse(readFileSync(new URL('../node_modules/@sparticuz/chromium/package.json', import.meta.url), 'utf8')) as { version: string };
  expect(basename(folder)).toBe(`sse-answer-chromium-${version}-${process.getuid!()}`);
});

test('the binary is unpacked there, runnable, in a folder only this user may enter', async () => {
  const binary = await chromiumPath();
  expect(binary).toBe(join(chromiumFolder(), 'chromium'));
  expect(() => accessSync(binary, constants.X_OK)).not.toThrow();
  expect(statSync(chromiumFolder()).mode & 0o777).toBe(0o700);
});

test("a `chromium` left in the shared temp folder that nobody may run is not the one launched", async () => {
  // What sparticuz would launch: a file without an execute bit, which even root may not run.
  writeFileSync(join(scratch, 'chromium'), 'not a browser', { mode: 0o644 });
  const own = join(scratch, basename(chromiumFolder()));
  mkdirSync(own, { mode: 0o700 });
  symlinkSync(await chromiumPath(), join(own, 'chromium'));
  const script = `import(${JSON.stringify(helper)}).then((m) => m.chromiumPath()).then((path) => process.stdout.write(path))`;
  const path = execFileSync(process.execPath, ['-e', script], { env: { ...process.env, TMPDIR: scratch }, encoding: 'utf8' });
  expect(path).toBe(join(own, 'chromium'));
});
