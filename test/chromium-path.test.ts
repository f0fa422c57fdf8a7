// test/runtimes/hosts/chromium-path.mjs: every Chromium launch of the project (the browser page's
// test, the runtime suite, the benchmarks) runs the copy of the installed @sparticuz/chromium
// unpacked in this checkout, never what another user or version left in the shared temp folder:
// as another user, `/tmp/chromium` made the browser test fail with EACCES.
import { execFileSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test } from 'vitest';
import { chromiumFolder, chromiumPath } from './runtimes/hosts/chromium-path.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const helper = fileURLToPath(new URL('./runtimes/hosts/chromium-path.mjs', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'chromium-path-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

test("the folder is in this checkout's node_modules/.cache, named for the package's version", () => {
  const { version } = JSON.parse(readFileSync(join(root, 'node_modules/@sparticuz/chromium/package.json'), 'utf8')) as { version: string };
  expect(chromiumFolder()).toBe(join(root, 'node_modules', '.cache', `sparticuz-chromium-${version}`));
});

test('the binary is unpacked there, and runnable', async () => {
  const binary = await chromiumPath();
  expect(binary).toBe(join(chromiumFolder(), 'chromium'));
  expect(() => accessSync(binary, constants.X_OK)).not.toThrow();
});

test('a `chromium` left in the shared temp folder that nobody may run is not the one launched', async () => {
  await chromiumPath();
  // What sparticuz would launch: a file without an execute bit, which even root may not run.
  writeFileSync(join(scratch, 'chromium'), 'not a browser', { mode: 0o644 });
  const script = `import(${JSON.stringify(helper)}).then((m) => m.chromiumPath()).then((path) => process.stdout.write(path))`;
  const path = execFileSync(process.execPath, ['-e', script], { env: { ...process.env, TMPDIR: scratch }, encoding: 'utf8' });
  expect(path).toBe(join(chromiumFolder(), 'chromium'));
});
