import { defineConfig } from 'tsup';

export default defineConfig([
  {
    // The library: web-platform globals only, for any runtime.
    entry: { index: 'src/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    // Both builds run at once: the library's clean leaves the CLI's output alone.
    clean: ['!cli.js', '!cli.js.map'],
    target: 'es2022',
    platform: 'neutral',
    treeshake: true,
  },
  {
    // The `sse-answer` command: its own entry, the one place that uses Node APIs.
    entry: { cli: 'src/cli/main.ts' },
    format: ['esm'],
    dts: false,
    sourcemap: true,
    clean: false,
    target: 'node18',
    platform: 'node',
  },
]);
