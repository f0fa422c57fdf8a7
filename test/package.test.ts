// The built package, as users get it: both builds load, export the same names, and an error from
// one copy is recognised by the other. `npm test` builds dist/ before it runs the tests.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const pkg = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as {
  dependencies?: Record<string, string>;
  sideEffects: boolean;
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

describe('examples', () => {
  test('examples/scan.mjs prints the events the README shows', () => {
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
