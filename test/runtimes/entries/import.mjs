// Node, Deno and Bun, as ESM: the package by its name, resolved through package.json "exports"
// (to dist/index.js), as a user's import finds it. Prints the suite's result as one JSON line.
import * as pkg from 'sse-answer';
import { runSuite } from '../suite.mjs';

const resolved = import.meta.resolve('sse-answer');
if (!resolved.endsWith('/dist/index.js')) throw new Error(`'sse-answer' resolved to ${resolved}`);
const result = await runSuite(pkg);
console.log(JSON.stringify({ runtime: runtimeName(), ...result }));

function runtimeName() {
  if (typeof globalThis.Deno !== 'undefined') return `deno ${globalThis.Deno.version.deno}`;
  if (typeof globalThis.Bun !== 'undefined') return `bun ${globalThis.Bun.version}`;
  return `node ${process.versions.node} (import)`;
}
