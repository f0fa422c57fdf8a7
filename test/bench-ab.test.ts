// The A/B tool of the benchmark suite (bench/ab.mjs) runs: it builds this checkout's source and a
// commit's, and measures both in a runtime. Its figures are not judged here (no timed unit tests);
// that it runs, and says what it compared, is.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

test('bench/ab.mjs compares this checkout with a commit, case by case, in a runtime', () => {
  const out = execFileSync(process.execPath, ['bench/ab.mjs', 'HEAD', '--only', 'node:tokens,answer-drip', '--rounds', '1', '--seconds', '0.01'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(out).toMatch(/^A\/B: this checkout \([0-9a-f]+.*\) over HEAD; above 1, this checkout is faster$/m);
  expect(out).toMatch(/^node:tokens\.head\/base +\d+\.\d\dx {2}\(rounds \d+\.\d\d\)$/m);
  expect(out).toMatch(/^node:answer-drip\.head\/base +\d+\.\d\dx {2}\(rounds \d+\.\d\d\)$/m);
});

test('bench/ab.mjs refuses a call without a commit, and a commit git does not know', () => {
  expect(() => execFileSync(process.execPath, ['bench/ab.mjs'], { cwd: root, encoding: 'utf8', stdio: 'pipe' })).toThrow(/usage: node bench\/ab\.mjs REF/);
  expect(() => execFileSync(process.execPath, ['bench/ab.mjs', 'no-such-ref-0000'], { cwd: root, encoding: 'utf8', stdio: 'pipe' })).toThrow(/git archive no-such-ref-0000/);
});
