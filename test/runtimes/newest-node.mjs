// `npm run test:newest-node`: the whole vitest suite (unit and property), run once by the newest
// pinned Node line (node-lines.mjs), the Active LTS line users run. The toolchain's Node builds,
// type-checks and runs the runtime fixtures; running the suite a second time on it would double
// the longest step of `npm test` for a line that proves less. Where the newest line cannot be
// installed or run, it says so and the suite runs on the toolchain's Node instead, so that
// `npm test` never skips it. Extra arguments go to vitest.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NEWEST_LINE, nodeLine } from './node-lines.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
// vitest's executable, as its package names it (`bin`), which its `exports` do not list.
const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const node = nodeLine(NEWEST_LINE.line, { log: (message) => console.log(message) });
let binary = node.binary;
if (node.skipped !== undefined) {
  binary = process.execPath;
  console.log(`vitest on Node ${NEWEST_LINE.version}: skipped, as it cannot run here: ${node.skipped}; on this Node (${process.version}) instead`);
} else {
  console.log(`vitest on Node ${NEWEST_LINE.version} (${binary})`);
}
// The reporters are the config's: in CI, that includes the JSON report .ci/run reads.
const run = spawnSync(binary, [vitest, 'run', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
process.exitCode = run.status ?? 1;
