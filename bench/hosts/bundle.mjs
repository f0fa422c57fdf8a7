// portable-core.mjs with everything it imports (the built package, eventsource-parser) in one
// ES module, for the runtimes that load a page or a worker rather than files: Chromium, workerd.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

/** The bundle's source text; it exports measurePortable. */
export async function portableBundle() {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('../portable-core.mjs', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    // As the package is built: minifying would measure other code than users run.
    minify: false,
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}
