// A measuring module of bench/ (portable-core.mjs, ab-core.mjs) in a runtime started as a
// process: Node, Deno, Bun. Arguments: the module's path under bench/ and its settings as JSON;
// prints one JSON line, { runtime, figures }.
const [entry, settings] = globalThis.Deno?.args ?? globalThis.process.argv.slice(2);
const { measure } = await import(new URL(`../${entry}`, import.meta.url).href);
const runtime = globalThis.Bun ? `bun ${globalThis.Bun.version}` : globalThis.Deno ? `deno ${globalThis.Deno.version.deno}` : `node ${globalThis.process.version}`;
console.log(JSON.stringify({ runtime, ...measure(JSON.parse(settings)) }));
