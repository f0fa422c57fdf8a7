// Everything reachable from the package's main entry uses web-platform globals only: no Node
// built-ins, no Buffer, no process. Checked two ways: the source is bundled for a neutral
// platform with nothing external (an import of a built-in fails the build), and the bundle is run
// in a bare JavaScript context given only web globals, where it reads an answer end to end.
import { build } from 'esbuild';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { expect, test } from 'vitest';

const src = fileURLToPath(new URL('../src/', import.meta.url));

async function bundle(): Promise<string> {
  const result = await build({
    entryPoints: [`${src}index.ts`],
    bundle: true,
    write: false,
    platform: 'neutral',
    format: 'iife',
    globalName: 'sseAnswer',
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

test('no source file names a Node built-in, Buffer or process', () => {
  // src/cli/ is the command's own entry, for Node; nothing in the main entry imports it.
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts') && !file.startsWith('cli/'));
  expect(files).toEqual(expect.arrayContaining(['index.ts', 'reducers/scanner.ts', 'drivers/read-answer.ts', 'client/post-json-rpc.ts']));
  for (const file of files) {
    const text = readFileSync(`${src}${file}`, 'utf8');
    expect(text, file).not.toMatch(/from ['"]node:|require\(|\bBuffer\b|\bprocess\./);
  }
});

test('the bundle reads an answer in a context that has web globals only', async () => {
  const code = await bundle();
  const web = { TextDecoder, TextEncoder, ReadableStream, Response, Headers, AbortSignal, AbortController, DOMException, Promise, Symbol, Uint8Array, Object, Array, JSON, Error, TypeError, RangeError, Number, String, Math };
  const context: Record<string, unknown> = { ...web };
  const run = `${code}; (async () => {
    const body = 'id: 1\\ndata:\\n\\nevent: message\\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{}}\\n\\ndata: {"jsonrpc":"2.0","id":7,"result":{"ok":true}}\\n\\n';
    const seen = [];
    const answer = await sseAnswer.readAnswer(new Response(body, { headers: { 'content-type': 'text/event-stream' } }), { requestId: 7, onMessage: (m) => seen.push(m.method) });
    return { answer, seen, hasProcess: typeof process, hasBuffer: typeof Buffer, hasRequire: typeof require };
  })()`;
  const result = await (runInNewContext(run, context) as Promise<unknown>);
  expect(JSON.parse(JSON.stringify(result))).toEqual({
    answer: { jsonrpc: '2.0', id: 7, result: { ok: true } },
    seen: ['notifications/message'],
    hasProcess: 'undefined',
    hasBuffer: 'undefined',
    hasRequire: 'undefined',
  });
});
