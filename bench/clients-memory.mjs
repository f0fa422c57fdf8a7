// One client's memory, in a fresh process of its own (clients.bench.mjs starts one per side, era
// and server): it imports only that client's modules, connects, makes the calls, and prints one
// JSON line: the process's peak resident set (`maxRSS`, what the machine must give it, Node's
// own included) and the heap the connected client keeps after a collection, its modules
// included, over the heap before anything was imported. Side `none` imports nothing and makes
// no call: Node's own figures, which the page shows beside the clients'.
//   node --expose-gc bench/clients-memory.mjs SIDE URL ERA CALLS
import { ERAS, sideNamed, textOf } from './clients-sides.mjs';

if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
const [id, url, eraId, count] = process.argv.slice(2);

function heapUsed() {
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed;
}

const before = heapUsed();
let kept = 0;
if (id !== 'none') {
  const era = ERAS.find((e) => e.id === eraId);
  const connect = await sideNamed(id).load();
  const client = await connect(url, era);
  for (let i = 0; i < Number(count); i++) {
    const answer = await client.call();
    if (textOf(answer) !== 'hi') throw new Error(`${id}: the call's answer was ${JSON.stringify(answer).slice(0, 200)}`);
  }
  kept = heapUsed() - before;
  await client.close();
}
console.log(JSON.stringify({ rss: process.resourceUsage().maxRSS * 1024, heap: kept }));
