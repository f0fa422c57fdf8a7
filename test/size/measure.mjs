// What the package costs a user's bundle: each import below bundled from the built package
// (dist/index.js) as a bundler would, minified, and gzipped. `npm run size` prints the table;
// test/package.test.ts holds the figures to the limits in limits.json.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Each measured import, as the statement a user's module would write. */
export const IMPORTS = {
  scanner: "export { scan, scanEnd, scanStart } from './dist/index.js';",
  readAnswer: "export { readAnswer } from './dist/index.js';",
  AnswerTransport: "export { AnswerTransport } from './dist/index.js';",
  AnswerClient: "export { AnswerClient } from './dist/index.js';",
  root: "export * from './dist/index.js';",
};

/** What the same work costs with a peer: the v2 MCP SDK's client and its HTTP transport (no limit; printed for comparison). */
export const PEERS = {
  'v2 SDK Client': "export { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';",
};

/** The limits in bytes, minified and gzipped, by import name. */
export const LIMITS = JSON.parse(readFileSync(new URL('limits.json', import.meta.url), 'utf8')).limits;

/** The minified and gzipped size in bytes of each import in {@link IMPORTS}. */
export async function measure(imports = IMPORTS) {
  const sizes = {};
  for (const [name, contents] of Object.entries(imports)) {
    const result = await build({
      stdin: { contents, resolveDir: root, loader: 'js' },
      bundle: true,
      minify: true,
      write: false,
      format: 'esm',
      platform: 'neutral',
      target: 'es2022',
      // A browser's view of a package that has one (the SDK's dependencies export only for it).
      conditions: ['browser'],
      logLevel: 'silent',
    });
    const code = result.outputFiles[0].contents;
    sizes[name] = { minified: code.length, gzipped: gzipSync(code, { level: 9 }).length };
  }
  return sizes;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const sizes = await measure();
  console.log('import'.padEnd(16), 'minified'.padStart(9), 'gzipped'.padStart(9), 'limit'.padStart(7));
  for (const [name, size] of Object.entries(sizes)) {
    console.log(name.padEnd(16), String(size.minified).padStart(9), String(size.gzipped).padStart(9), String(LIMITS[name]).padStart(7));
  }
  for (const [name, size] of Object.entries(await measure(PEERS))) {
    console.log(name.padEnd(16), String(size.minified).padStart(9), String(size.gzipped).padStart(9), '(peer)'.padStart(7));
  }
}
