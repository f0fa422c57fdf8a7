// `npm run test:newest-node`: the whole vitest suite once more, run by the newest pinned Node
// line (node-lines.mjs), as `npm test` runs it with the toolchain's Node. Extra arguments go to
// vitest. Where that line cannot be installed or run, it says so and passes: the suite has run
// with the toolchain's Node already.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NEWEST_LINE, nodeLine } from './node-lines.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
// vitest's executable, as its package names it (`bin`), which its `exports` do not list.
const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const node = nodeLine(NEWEST_LINE.line, { log: (message) => console.log(message) });
if (node.skipped !== undefined) {
  console.log(`vitest on Node ${NEWEST_LINE.version}: skipped, as it cannot run here: ${node.skipped}`);
} else {
  console.log(`vitest on Node ${NEWEST_LINE.version} (${node.binary})`);
  // The default reporter only: in CI, the JSON report CI reads stays the toolchain run's.
  const run = spawnSync(node.binary, [vitest, 'run', '--reporter=default', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
  process.exitCode = run.status ?? 1;
}
