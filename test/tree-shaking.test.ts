// The adapters stay out of a bundle that does not use them. Checked with esbuild over the
// source, ignoring the package's "sideEffects": false and any pure annotation: the code's shape
// alone must let a bundler drop them (a class extending TransformStream at module level would not).
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const index = fileURLToPath(new URL('../src/index.ts', import.meta.url));

/** The minified-free bundle of a module that imports `names` from the package and uses them. */
async function bundleOf(names: readonly string[]): Promise<string> {
  const result = await build({
    stdin: { contents: `import { ${names.join(', ')} } from ${JSON.stringify(index)};\nglobalThis.used = [${names.join(', ')}];`, resolveDir: '.', loader: 'ts' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    treeShaking: true,
    ignoreAnnotations: true,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/** What each adapter brings into a bundle: its name, and the platform members only it uses. */
const ADAPTER_MARKS = ['SseEventStream', 'TransformStream', 'scanEvents', 'readAnswerBody', 'getReader', 'asyncIterator', 'watchAbort', 'WeakMap'];

test('a bundle of the scanner alone carries none of the adapters', async () => {
  const code = await bundleOf(['scan', 'scanStart', 'scanEnd']);
  expect(code).toContain('function scan(');
  for (const mark of ADAPTER_MARKS) expect(code, mark).not.toContain(mark);
});

test('a bundle of the answer reducer alone carries none of the adapters', async () => {
  const code = await bundleOf(['answer', 'answerStart', 'answerEnd']);
  expect(code).toContain('function answer(');
  for (const mark of ADAPTER_MARKS) expect(code, mark).not.toContain(mark);
});

test.each([
  // Its signal is watched as every read's is, so it carries the watch (WeakMap its registry).
  ['SseEventStream', ['TransformStream', 'watchAbort', 'WeakMap'], ['getReader', 'readAnswerBody', 'scanEvents']],
  ['scanEvents', ['getReader', 'asyncIterator'], ['TransformStream', 'readAnswerBody']],
  ['readAnswerBody', ['getReader', 'asyncIterator', 'WeakMap'], ['TransformStream', 'scanEvents']],
  // A fetch body is a stream: readAnswer alone leaves the async-iterable puller out.
  ['readAnswer', ['getReader', 'WeakMap'], ['asyncIterator', 'IterablePuller', 'TransformStream', 'scanEvents']],
])('a bundle of %s carries what it uses and not the other adapters', async (name, carried, absent) => {
  const code = await bundleOf([name]);
  for (const mark of carried) expect(code, mark).toContain(mark);
  for (const mark of absent) expect(code, mark).not.toContain(mark);
});

// The same over the built package, as a user's bundler sees it (pure annotations honoured, the
// package's one file): nothing of the answer path's may stay behind in a bundle of the scanner.
test('a bundle of the built scanner alone carries no error class and no answer-path constant', async () => {
  const dist = fileURLToPath(new URL('../dist/index.js', import.meta.url));
  const result = await build({
    stdin: { contents: `export { scan, scanStart, scanEnd } from ${JSON.stringify(dist)};`, resolveDir: '.', loader: 'js' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.text;
  expect(code).toContain('function scan(');
  for (const mark of ['extends Error', 'sse-answer.AnswerError', 'DEFAULT_MAX_BYTES', 'MAX_ENVELOPE', 'LONG_STRING']) {
    expect(code, mark).not.toContain(mark);
  }
});

// The client's 2026-07-28 rules come only with the client: a bundle of the scanner or of
// readAnswer carries no request-header code and no era rule.
test.each([
  ['the scanner', ['scan', 'scanStart', 'scanEnd']],
  ['readAnswer', ['readAnswer']],
])('a bundle of %s carries none of the request headers or the era rules', async (_what, names) => {
  const code = await bundleOf(names);
  for (const mark of ['mcpRequestHeaders', 'checkMcpHeaderParams', 'x-mcp-header', '=?base64?', 'io.modelcontextprotocol/protocolVersion', 'Mcp-Method']) {
    expect(code, mark).not.toContain(mark);
  }
});

test('a bundle of postJsonRpc carries the era rules and the standard headers', async () => {
  const code = await bundleOf(['postJsonRpc']);
  for (const mark of ['io.modelcontextprotocol/protocolVersion', 'Mcp-Method', '=?base64?']) expect(code, mark).toContain(mark);
});
