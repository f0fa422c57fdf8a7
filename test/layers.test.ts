// The layers of src/ import downward only, and the command line stands on the public entry alone:
// the rule the architecture guide states, checked over every import of every source file.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const src = fileURLToPath(new URL('../src', import.meta.url));
/** The layers, bottom first: a file may import from its own layer and the ones before it. */
const LAYERS = ['vocabulary', 'reducers', 'drivers', 'client'];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** Every module specifier a file imports or re-exports from. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+'([^']+)'/gms)].map((match) => match[1]!);
}

test('each layer imports only from itself and the layers below it', () => {
  const upward: string[] = [];
  for (const file of sources(src)) {
    const layer = relative(src, file).split('/')[0]!;
    const rank = LAYERS.indexOf(layer);
    if (rank === -1) continue; // index.ts and the CLI, below
    for (const specifier of importsOf(file)) {
      const target = relative(src, join(file, '..', specifier)).split('/')[0]!;
      if (LAYERS.indexOf(target) > rank || !LAYERS.includes(target)) upward.push(`${relative(src, file)} imports ${specifier}`);
    }
  }
  expect(upward).toEqual([]);
});

test('the command line imports the package only through its public entry', () => {
  const around: string[] = [];
  for (const file of sources(join(src, 'cli'))) {
    for (const specifier of importsOf(file)) {
      if (specifier !== '../index.js' && !specifier.startsWith('./') && !specifier.startsWith('node:')) around.push(`${relative(src, file)} imports ${specifier}`);
    }
  }
  expect(around).toEqual([]);
  // And it does import it: the rule is not met by importing nothing.
  expect(sources(join(src, 'cli')).some((file) => importsOf(file).includes('../index.js'))).toBe(true);
});
