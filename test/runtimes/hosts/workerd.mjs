// workerd, through Miniflare: a module worker that runs the suite when fetched.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';

const require = createRequire(import.meta.url);

/** Runs the suite in workerd (Miniflare collects the worker's modules from its imports). */
export async function runWorkerd({ root, timeoutMs }) {
  const workerd = JSON.parse(readFileSync(require.resolve('workerd/package.json'), 'utf8'));
  const miniflare = new Miniflare({
    modules: true,
    modulesRoot: root,
    scriptPath: join(root, 'test/runtimes/entries/worker.mjs'),
    // dist/index.js is an ES module; Miniflare's default rule would take a .js file for CommonJS.
    modulesRules: [{ type: 'ESModule', include: ['**/*.js', '**/*.mjs'] }],
    compatibilityDate: '2026-04-26',
    // Miniflare would otherwise fetch Request.cf data over the network; the suite does not read it.
    cf: false,
  });
  try {
    const response = await miniflare.dispatchFetch('http://localhost/', { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) throw new Error(`the worker answered ${response.status}: ${await response.text()}`);
    return { runtime: `workerd ${workerd.version}`, ...(await response.json()) };
  } finally {
    await miniflare.dispose();
  }
}
