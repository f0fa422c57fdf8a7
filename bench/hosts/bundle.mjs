// A measuring module of bench/ with everything it imports (the built package, eventsource-parser)
// in one ES module, for the runtimes that load a page or a worker rather than files: Chromium,
// workerd.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

/** The source text of `bench/<entry>` bundled; it exports `measure(settings)`. */
export async function portableBundle(entry) {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(`../${entry}`, import.meta.url))],
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
