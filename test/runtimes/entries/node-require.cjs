// Node, CommonJS: the package by its name, resolved through package.json "exports" to dist/index.cjs.
const pkg = require('sse-answer');

import('../suite.mjs').then(async ({ runSuite }) => {
  if (!require.resolve('sse-answer').endsWith('index.cjs')) throw new Error(`require resolved ${require.resolve('sse-answer')}`);
  const result = await runSuite(pkg);
  console.log(JSON.stringify({ runtime: `node ${process.versions.node} (require)`, ...result }));
});
