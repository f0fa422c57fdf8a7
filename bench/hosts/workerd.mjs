// A measuring module of bench/ (portable-core.mjs, ab-core.mjs) in workerd, through Miniflare: a
// module worker that measures when fetched.
// Local workerd advances performance.now() during synchronous work (the deployed runtime stops
// it between I/O), so the same paired timing runs there unchanged.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Miniflare } from 'miniflare';
import { portableBundle } from './bundle.mjs';

const require = createRequire(import.meta.url);

const WORKER = `import { measure } from './portable.js';
export default {
  async fetch(request) {
    return Response.json(measure(await request.json()));
  },
};`;

/** `measure(settings)` of `bench/<entry>` in a fresh workerd; resolves with { runtime, figures }. */
export async function measureInWorkerd(entry, settings, timeoutMs) {
  const version = JSON.parse(readFileSync(require.resolve('workerd/package.json'), 'utf8')).version;
  const miniflare = new Miniflare({
    modules: [
      { type: 'ESModule', path: 'worker.js', contents: WORKER },
      { type: 'ESModule', path: 'portable.js', contents: await portableBundle(entry) },
    ],
    compatibilityDate: '2026-04-26',
    cf: false,
  });
  try {
    const response = await miniflare.dispatchFetch('http://localhost/', {
      method: 'POST',
      body: JSON.stringify(settings),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) throw new Error(`the worker answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
    return { runtime: `workerd ${version}`, ...(await response.json()) };
  } finally {
    await miniflare.dispose();
  }
}
