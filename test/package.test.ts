// The built package, as users get it: both builds load, export the same names, and an error from
// one copy is recognised by the other; the packed tarball passes publint and arethetypeswrong, and
// the bundles users make from it stay within the size budget. `npm test` builds dist/ first.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { NODE_LINES } from './runtimes/node-lines.mjs';
import { LIMITS, measure } from './size/measure.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const pkg = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as {
  dependencies?: Record<string, string>;
  sideEffects: boolean;
  engines: { node: string };
  license: string;
  devDependencies: Record<string, string>;
};

type Package = typeof import('sse-answer');

test('dist/ is built (npm test builds it first; run `npm run build` before vitest alone)', () => {
  expect(existsSync(`${root}/dist/index.js`) && existsSync(`${root}/dist/index.cjs`)).toBe(true);
});

describe('the built package (dist/)', () => {
  test('the ESM and CJS builds export the same names, resolved through package.json "exports"', async () => {
    const esm = (await import('sse-answer')) as Package;
    const cjs = require('sse-answer') as Package;
    expect(Object.keys(cjs).sort()).toEqual(Object.keys(esm).sort());
    expect(Object.keys(esm).sort()).toEqual(Object.keys(await import('../src/index.js')).sort());
    expect(esm.ACCEPT).toBe('application/json, text/event-stream');
    expect(cjs.ACCEPT).toBe(esm.ACCEPT);
  });

  test('isAnswerError recognises an AnswerError from the other copy; instanceof does not', async () => {
    const esm = (await import('sse-answer')) as Package;
    const cjs = require('sse-answer') as Package;
    expect(esm.AnswerError).not.toBe(cjs.AnswerError);
    const response = new Response('<p>hi</p>', { headers: { 'content-type': 'text/html' } });
    const fromCjs = await cjs.readAnswer(response).catch((error: unknown) => error);
    expect(fromCjs).not.toBeInstanceOf(esm.AnswerError);
    expect(esm.isAnswerError(fromCjs)).toBe(true);
    expect(cjs.isAnswerError(new esm.AnswerError('aborted', 'x', detail()))).toBe(true);
    expect(esm.isAnswerError(new Error('AnswerError'))).toBe(false);
  });

  test('the scanner from either build gives the same events', async () => {
    const esm = (await import('sse-answer')) as Package;
    const cjs = require('sse-answer') as Package;
    const bytes = new TextEncoder().encode('id: 1\ndata: a\n\ndata: b\r\n\r\n');
    expect(cjs.scan(cjs.scanStart(), bytes)).toEqual(esm.scan(esm.scanStart(), bytes));
  });
});

test('the package has no runtime dependencies and declares itself free of side effects', () => {
  expect(pkg.dependencies ?? {}).toEqual({});
  expect(pkg.sideEffects).toBe(false);
});

test('engines states exactly the Node lines the runtime suite proves (test/runtimes/node-lines), and the license is MIT', () => {
  expect(pkg.engines).toEqual({ node: NODE_LINES.map((line) => `^${line.version}`).join(' || ') });
  expect(pkg.license).toBe('MIT');
  expect(readFileSync(`${root}/LICENSE`, 'utf8')).toMatch(/^MIT License\n\nCopyright \(c\) 2026 sse-answer contributors\n/);
});

describe('the packed tarball', () => {
  let directory: string;
  let tarball: string;
  let packed: string[];

  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'sse-answer-pack-'));
    const out = execFileSync('npm', ['pack', '--pack-destination', directory, '--json'], { cwd: root, encoding: 'utf8' });
    const [info] = JSON.parse(out) as [{ filename: string; files: { path: string }[] }];
    tarball = join(directory, info.filename);
    packed = info.files.map((file) => file.path);
  }, 60_000);

  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  test('holds the builds, their types and maps, the sources the maps point to, and the documents; no tests', () => {
    for (const file of ['dist/index.js', 'dist/index.cjs', 'dist/index.d.ts', 'dist/index.d.cts', 'dist/index.js.map', 'src/index.ts', 'README.md', 'LICENSE', 'CHANGELOG.md', 'package.json']) {
      expect(packed, file).toContain(file);
    }
    expect(packed.filter((file) => !/^(dist|src)\/|^(README\.md|LICENSE|CHANGELOG\.md|package\.json)$/.test(file))).toEqual([]);
  });

  test('publint finds nothing, suggestions included', async () => {
    const data = readFileSync(tarball);
    const tarballBytes = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer;
    const { messages, pkg: packedPkg } = await publint({ pack: { tarball: tarballBytes }, level: 'suggestion', strict: true });
    expect(messages.map((message) => formatMessage(message, packedPkg))).toEqual([]);
  });

  test('arethetypeswrong: ESM and CJS consumers get types and code, under node16 and bundler resolution', () => {
    const attw = join(root, 'node_modules/.bin/attw');
    // Exits non-zero on any problem under the profile (node16 from CJS and ESM, bundler).
    const out = execFileSync(attw, [tarball, '--profile', 'node16', '--format', 'json'], { encoding: 'utf8' });
    const report = JSON.parse(out) as {
      problems: unknown;
      analysis: { entrypoints: Record<string, { resolutions: Record<string, Resolution> }> };
    };
    const resolutions = report.analysis.entrypoints['.']!.resolutions;
    const files = (kind: string) => [resolutions[kind]?.resolution?.fileName, resolutions[kind]?.implementationResolution?.fileName];
    expect(files('node16-cjs')).toEqual(['/node_modules/sse-answer/dist/index.d.cts', '/node_modules/sse-answer/dist/index.cjs']);
    expect(files('node16-esm')).toEqual(['/node_modules/sse-answer/dist/index.d.ts', '/node_modules/sse-answer/dist/index.js']);
    expect(files('bundler')[0]).toBe('/node_modules/sse-answer/dist/index.d.ts');
    expect(Object.values(report.problems as Record<string, unknown[]>).flat()).toEqual([]);
  }, 60_000); // attw loads a TypeScript compiler of its own
});

test("the runtimes guide's table names the pinned Node lines and the runtime versions that npm ci installs", () => {
  const guide = readFileSync(`${root}/docs/guides/runtimes.md`, 'utf8');
  const table = guide.slice(guide.indexOf('## The runtimes'), guide.indexOf('## What each runtime must get right'));
  const installed = (name: string) => (JSON.parse(readFileSync(`${root}/node_modules/${name}/package.json`, 'utf8')) as { version: string }).version;
  // Each pinned Node line, as its row begins: `| Node.js 24 | 24.22.3`.
  for (const { line, version } of NODE_LINES) expect(table).toContain(`| Node.js ${line} | ${version}`);
  expect(table).toContain(`| Deno | ${installed('deno')} `);
  expect(table).toContain(`| Bun | ${installed('bun')} `);
  expect(table).toContain(`| workerd | ${installed('workerd')} (\`miniflare\` ${installed('miniflare')},`);
  expect(table).toContain(`(\`@sparticuz/chromium\` ${installed('@sparticuz/chromium')}, driven by \`playwright-core\` ${installed('playwright-core')})`);
});

type Resolution = { resolution?: { fileName: string }; implementationResolution?: { fileName: string } };

test('the size budget: the scanner alone, readAnswer and the whole root entry, minified and gzipped (test/size/limits.json)', async () => {
  const sizes = await measure();
  for (const [name, size] of Object.entries(sizes)) {
    expect(size.gzipped, `${name}: ${size.gzipped} bytes gzipped, limit ${LIMITS[name]}`).toBeLessThanOrEqual(LIMITS[name]!);
  }
  // Tree-shaking works: the scanner alone is well under half of the whole.
  expect(sizes.scanner.gzipped * 2).toBeLessThan(sizes.root.gzipped);
});

test("the README's size table states the limits, and figures within 3% of the measured ones", async () => {
  const readme = readFileSync(`${root}/README.md`, 'utf8');
  const section = readme.slice(readme.indexOf('## Package size'), readme.indexOf('## Developing'));
  // Rows in IMPORTS order: name, minified, gzipped, limit; numbers written with spaces as separators.
  const rows = [...section.matchAll(/^\|[^|]+\| ([\d ]+) B \| ([\d ]+) B \| ([\d ]+) B \|$/gm)].map((row) =>
    row.slice(1).map((figure) => Number(figure!.replaceAll(' ', ''))),
  );
  const sizes = Object.values(await measure());
  expect(rows).toHaveLength(sizes.length);
  const limits = Object.values(LIMITS);
  rows.forEach(([minified, gzipped, limit], i) => {
    expect(limit).toBe(limits[i]);
    expect(Math.abs(minified! - sizes[i]!.minified) / sizes[i]!.minified, `minified, row ${i + 1}`).toBeLessThan(0.03);
    expect(Math.abs(gzipped! - sizes[i]!.gzipped) / sizes[i]!.gzipped, `gzipped, row ${i + 1}`).toBeLessThan(0.03);
  });
});

describe('examples', () => {
  test('examples/scan.mjs prints the events the demo guide shows', () => {
    const out = execFileSync(process.execPath, [`${root}/examples/scan.mjs`], { encoding: 'utf8' });
    expect(out).toContain(`data: '{"jsonrpc":"2.0",\\n"id":1,"result":{"text":"héllo 🚀"}}'`);
    expect(out).toContain("{ lastEventId: '7', retry: 3000 }");
  });

  test('examples/read-answer.mjs gets the answer and the server sees the connection close', () => {
    const out = execFileSync(process.execPath, [`${root}/examples/read-answer.mjs`], { encoding: 'utf8', timeout: 20_000 });
    expect(out).toContain('passed over: notifications/progress');
    expect(out).toContain('answer: {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"42"}]}}');
    expect(out).toContain('server: the client closed the connection');
  });
});

function detail() {
  return { contentType: null, bytesRead: 0, maxBytes: 0, events: 0, messages: 0, ignored: 0, lastEventId: '', retry: undefined };
}
