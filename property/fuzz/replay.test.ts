/**
 * Every stored fuzz input replays here, on every test run: the findings `npm run fuzz` wrote
 * (property/fuzz/findings/, committed once the bug is fixed, as regression tests) and a corpus of
 * corner inputs that must keep passing (property/fuzz/corpus/), each exchange input ending as it
 * says. And the machinery itself: a campaign finds a planted bug and a planted hang, and what it
 * stores replays to the same failure.
 */
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { inputAt, runCampaign } from './campaign.js';
import { loadInput, storeInput } from './serialize.js';
import { defineTarget, ensure } from './target.js';
import { targetNamed, targets } from './targets.js';
import { checkExchange, type ExchangeInput } from './targets/exchange.js';

interface Stored {
  readonly target: string;
  readonly input: unknown;
  /** For an `exchange` input: how it must end (see `checkExchange`). */
  readonly outcome?: string;
}

function storedIn(folder: string): [string, Stored][] {
  const dir = join(dirname(fileURLToPath(import.meta.url)), folder);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  return names.sort().map((name) => [name, JSON.parse(readFileSync(join(dir, name), 'utf8')) as Stored]);
}

const corpus = storedIn('corpus');
const findings = storedIn('findings');

describe('stored inputs replay and pass', () => {
  test('the corpus covers every target', () => {
    expect(new Set(corpus.map(([, s]) => s.target))).toStrictEqual(new Set(targets.map((t) => t.name)));
  });

  test.each([...corpus, ...findings])('%s', async (_name, stored) => {
    const target = targetNamed(stored.target);
    await target.check(loadInput(JSON.stringify(stored.input)));
  });
});

describe('the exchange corpus ends as each input says', () => {
  const exchanges = corpus.filter(([, s]) => s.target === 'exchange');

  test('every exchange input of the corpus says how it ends', () => {
    expect(exchanges.filter(([, s]) => s.outcome === undefined).map(([name]) => name)).toStrictEqual([]);
  });

  test.each(exchanges)('%s', async (_name, stored) => {
    expect(await checkExchange(loadInput(JSON.stringify(stored.input)) as ExchangeInput)).toBe(stored.outcome);
  });
});

/** A planted bug: "no chunk boundary between a CR and its LF" is false, and the generators must find it. */
const plantedBug = defineTarget<{ bytes: Uint8Array; cut: number }>({
  name: 'planted-bug',
  summary: 'fails when a cut falls inside a CRLF',
  async: false,
  arbitrary: fc
    .uint8Array({ minLength: 2, maxLength: 40 })
    .map((b) => Uint8Array.from(b, (x) => (x % 2 === 0 ? 0x0d : 0x0a)))
    .chain((bytes) => fc.record({ bytes: fc.constant(bytes), cut: fc.integer({ min: 1, max: bytes.length - 1 }) }, { noNullPrototype: true })),
  check({ bytes, cut }) {
    ensure(!(bytes[cut - 1] === 0x0d && bytes[cut] === 0x0a), `a cut at ${cut} splits a CRLF`);
  },
});

/** A planted hang: a promise that never settles, for some inputs. */
const plantedHang = defineTarget<number>({
  name: 'planted-hang',
  summary: 'never settles for inputs over 50',
  async: true,
  arbitrary: fc.integer({ min: 0, max: 100 }),
  check(n) {
    return n > 50 ? new Promise<void>(() => {}) : Promise.resolve();
  },
});

describe('the campaign machinery', () => {
  test('finds a planted bug, shrinks it, and stores an input that replays to the same failure', async () => {
    const seed = 4242;
    const result = await runCampaign(plantedBug, { seed, ms: 10_000, shrinkMs: 5_000 });
    expect(result.failure).toBeDefined();
    const failure = result.failure!;
    expect(failure.error).toMatch(/splits a CRLF/);
    // Shrunk: the smallest input that splits a CRLF is two bytes.
    expect((failure.input as { bytes: Uint8Array }).bytes).toStrictEqual(Uint8Array.of(0x0d, 0x0a));
    const stored = loadInput(storeInput(failure.input));
    expect(stored).toStrictEqual(failure.input);
    expect(() => plantedBug.check(stored)).toThrow(failure.error.replace(/^Broken: /, ''));
    // The seed and the failing run's path alone give an input that fails (before shrinking).
    const run = failure.path.split(':')[0]!;
    expect(() => plantedBug.check(inputAt(plantedBug, seed, run) as never)).toThrow(/splits a CRLF/);
  });

  test('a check that never settles is a finding, not a hang', async () => {
    const result = await runCampaign(plantedHang, { seed: 7, ms: 10_000, shrinkMs: 2_000, runTimeoutMs: 50 });
    expect(result.failure?.error).toMatch(/timeout/i);
    expect(result.failure?.input).toBe(51); // shrunk to the smallest that hangs
  });

  test('stored inputs keep what JSON cannot hold', () => {
    const value = { bytes: Uint8Array.of(0, 255), nothing: undefined, negativeZero: -0, infinite: -Infinity, list: [NaN, '\u0000'] };
    const withProto = JSON.parse('{"__proto__": 1, "b": 2}') as unknown;
    expect(loadInput(storeInput(value))).toStrictEqual(value);
    const loaded = loadInput(storeInput(withProto)) as object;
    expect(Object.keys(loaded)).toStrictEqual(['__proto__', 'b']);
    expect(Object.getPrototypeOf(loaded)).toBe(Object.prototype);
  });
});
