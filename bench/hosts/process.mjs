// A measuring module of bench/ (portable-core.mjs, ab-core.mjs) in a runtime started as a
// process: Node, Deno, Bun. Arguments: the module's path under bench/ and its settings as JSON;
// prints one JSON line, { runtime, figures }, or one line on stderr saying why not.
const [entry, settings] = globalThis.Deno?.args ?? globalThis.process.argv.slice(2);
const runtime = globalThis.Bun ? `bun ${globalThis.Bun.version}` : globalThis.Deno ? `deno ${globalThis.Deno.version.deno}` : `node ${globalThis.process.versions.node}`;
try {
  const { measure } = await import(new URL(`../${entry}`, import.meta.url).href);
  console.log(JSON.stringify({ runtime, ...measure(JSON.parse(settings)) }));
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  (globalThis.Deno?.exit ?? globalThis.process.exit)(1);
}
