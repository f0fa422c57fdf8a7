import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // In CI, also write a JSON report; .ci/run prints its plain "N passed, N failed" line.
    reporters: process.env['CI'] ? ['default', 'json'] : ['default'],
    outputFile: { json: '.ci/vitest-report.json' },
    projects: [
      { test: { name: 'unit', include: ['test/**/*.test.ts'] } },
      { test: { name: 'property', include: ['property/**/*.test.ts'], testTimeout: 120_000 } },
    ],
  },
});
