// The portable figures (portable-core.mjs) in a runtime started as a process: Node, Deno, Bun.
// Arguments: rounds, seconds a side, `limits` (1 or 0: measure the decode-only limits too), and
// optionally a figure id filter; prints one JSON line.
import { measurePortable } from './portable-core.mjs';

const args = globalThis.Deno?.args ?? globalThis.process.argv.slice(2);
const [rounds, seconds] = args.slice(0, 2).map(Number);
const runtime = globalThis.Bun ? `bun ${globalThis.Bun.version}` : globalThis.Deno ? `deno ${globalThis.Deno.version.deno}` : `node ${globalThis.process.version}`;
console.log(JSON.stringify({ runtime, ...measurePortable({ rounds, seconds, limits: args[2] === '1', only: args[3] }) }));
