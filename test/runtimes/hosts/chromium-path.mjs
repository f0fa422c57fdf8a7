// Where the Chromium inside @sparticuz/chromium is unpacked: this checkout's node_modules/.cache,
// one folder a version of the package. Left to itself the package unpacks into the shared temp
// folder (`/tmp/chromium`) and launches whatever it finds there, even another user's copy that
// this one may not run (EACCES), or an older version's. Every launch in the project takes its path here.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const entry = require.resolve('@sparticuz/chromium');
const root = fileURLToPath(new URL('../../..', import.meta.url));

/** The folder the installed version is unpacked into. */
export function chromiumFolder() {
  const { version } = JSON.parse(readFileSync(join(dirname(entry), '..', '..', 'package.json'), 'utf8'));
  return join(root, 'node_modules', '.cache', `sparticuz-chromium-${version}`);
}

/** The path of the Chromium binary, unpacked first where it is not yet. */
export async function chromiumPath() {
  const folder = chromiumFolder();
  const binary = join(folder, 'chromium');
  if (existsSync(binary)) return binary;
  mkdirSync(folder, { recursive: true });
  // The package unpacks into os.tmpdir(): a child whose TMPDIR is the folder, so that this
  // process's environment, which other work may read meanwhile, is left as it is.
  const script = `require(${JSON.stringify(entry)}).executablePath().then((path) => process.stdout.write(path))`;
  const path = execFileSync(process.execPath, ['-e', script], { env: { ...process.env, TMPDIR: folder }, encoding: 'utf8' });
  if (path !== binary) throw new Error(`@sparticuz/chromium unpacked Chromium to ${path}, not ${binary}`);
  return binary;
}
