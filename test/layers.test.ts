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

/** Every import or re-export of a file: its module specifier, and whether it is of types alone (`import type`). */
function importStatementsOf(file: string): { readonly specifier: string; readonly typesOnly: boolean }[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^(?:import|export)(\s+type\b)?\b[^;]*?\bfrom\s+'([^']+)'/gms)].map((match) => ({ specifier: match[2]!, typesOnly: match[1] !== undefined }));
}

/** Every module specifier a file imports or re-exports from. */
function importsOf(file: string): string[] {
  return importStatementsOf(file).map((statement) => statement.specifier);
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

/** The rows of the architecture guide's table of files: the files each row names, and its "depends on" cell. */
function architectureRows(): { readonly files: readonly string[]; readonly dependsOn: string }[] {
  const guide = readFileSync(fileURLToPath(new URL('../docs/guides/architecture.md', import.meta.url)), 'utf8');
  return guide
    .split('\n')
    .filter((line) => line.startsWith('| `src/'))
    .map((line) => {
      const [named = '', , dependsOn = ''] = line.slice(1).split(' | ');
      // `src/cli/read.ts`, `events.ts`: the later names are in the first one's folder.
      const names = [...named.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
      const folder = names[0]!.slice(0, names[0]!.lastIndexOf('/') + 1);
      return { files: names.map((name) => (name.startsWith('src/') ? name : folder + name)), dependsOn };
    });
}

test("the architecture guide's table names every source file, and no file that is gone", () => {
  const named = architectureRows().flatMap((row) => row.files);
  const files = sources(src).map((file) => `src/${relative(src, file)}`);
  expect(files.filter((file) => !named.includes(file))).toEqual([]);
  expect(named.filter((file) => !files.includes(file))).toEqual([]);
});

test("each row of the architecture guide's table for one file of the four layers names exactly what that file imports", () => {
  const wrong: string[] = [];
  for (const { files, dependsOn } of architectureRows()) {
    const [file] = files;
    if (files.length !== 1 || !LAYERS.includes(file!.split('/')[1]!)) continue;
    // Each module imported, marked "(types)" when every import of it is `import type`.
    const imported = new Map<string, boolean>();
    for (const { specifier, typesOnly } of importStatementsOf(join(src, '..', file!))) {
      const name = specifier.slice(specifier.lastIndexOf('/') + 1).replace(/\.js$/, '');
      imported.set(name, (imported.get(name) ?? true) && typesOnly);
    }
    const importedNames = [...imported].map(([name, typesOnly]) => (typesOnly ? `${name} (types)` : name));
    const stated = [...dependsOn.matchAll(/`([^`]+)`( \(types\))?/g)].map((match) => match[1]! + (match[2] ?? ''));
    const unstated = importedNames.filter((name) => !stated.includes(name));
    const stale = stated.filter((name) => !importedNames.includes(name));
    if (unstated.length + stale.length > 0) wrong.push(`${file}: imports but does not name ${unstated.join(', ') || '-'}; names but does not import ${stale.join(', ') || '-'}`);
  }
  expect(wrong).toEqual([]);
});
