/**
 * The byte budget's exact boundary: over chunks of any sizes (empty ones included), from a start
 * or from a state already near a large cap, exactly the first `maxBytes` bytes pass, as views of
 * the caller's chunks; `exceeded` turns on with the first byte past the cap and stays on; the
 * count is every byte delivered. States are frozen, so a write to one throws.
 */
import fc from 'fast-check';
import { budget, budgetStart, type BudgetState } from '../../../src/index.js';
import { deepFreeze } from '../json-values.js';
import { defineTarget, ensure } from '../target.js';

interface BudgetInput {
  readonly maxBytes: number;
  /** Bytes already counted when the chunks come (a state near a large cap). */
  readonly already: number;
  readonly lengths: number[];
}

const MAX = Number.MAX_SAFE_INTEGER;

const inputArb: fc.Arbitrary<BudgetInput> = fc
  .record({
    lengths: fc.array(fc.oneof(fc.constant(0), fc.nat({ max: 8 }), fc.nat({ max: 70_000 })), { maxLength: 12 }),
    kind: fc.constantFrom('small', 'sum', 'large', 'infinite'),
    delta: fc.integer({ min: -2, max: 2 }),
    pick: fc.nat(),
  })
  .map(({ lengths, kind, delta, pick }) => {
    const total = lengths.reduce((a, b) => a + b, 0);
    // A prefix sum: a cap at a chunk's edge, ±2 bytes.
    const prefix = lengths.slice(0, pick % (lengths.length + 1)).reduce((a, b) => a + b, 0);
    if (kind === 'infinite') return { maxBytes: Infinity, already: pick % 2 === 0 ? 0 : MAX - total, lengths };
    if (kind === 'large') {
      const maxBytes = MAX - (pick % 3);
      return { maxBytes, already: Math.max(0, maxBytes - prefix - delta), lengths };
    }
    const maxBytes = Math.max(0, kind === 'sum' ? prefix + delta : pick % (total + 3));
    return { maxBytes, already: 0, lengths };
  })
  .filter(({ already, lengths }) => already + lengths.reduce((a, b) => a + b, 0) <= MAX);

export const budgetTarget = defineTarget<BudgetInput>({
  name: 'budget',
  summary: 'budget/budgetStart: exactly the first maxBytes bytes pass, as views of the chunks; every byte counted',
  async: false,
  arbitrary: inputArb,
  check({ maxBytes, already, lengths }) {
    const start = budgetStart(maxBytes);
    ensure(start.maxBytes === maxBytes && start.bytes === 0, 'budgetStart did not begin at 0 with the cap');
    let state: BudgetState = deepFreeze({ maxBytes, bytes: already });
    let passed = 0;
    let exceeded = false;
    lengths.forEach((length, i) => {
      const chunk = new Uint8Array(length + 4).fill(i & 0xff).subarray(2, 2 + length);
      const before = state.bytes;
      const result = budget(state, chunk);
      const room = Math.max(0, Math.min(length, maxBytes - before));
      ensure(result.state.bytes === before + length, () => `chunk ${i}: counted ${result.state.bytes}, expected ${before + length}`);
      ensure(result.state.maxBytes === maxBytes, 'the cap changed');
      ensure(result.exceeded === before + length > maxBytes, () => `chunk ${i}: exceeded is ${result.exceeded} at ${before + length} of ${maxBytes} bytes`);
      ensure(result.chunk.length === room, () => `chunk ${i}: passed ${result.chunk.length} bytes, room was ${room}`);
      ensure(result.chunk.buffer === chunk.buffer && result.chunk.byteOffset === chunk.byteOffset, () => `chunk ${i}: what passed is not a view of the chunk's first bytes`);
      if (!result.exceeded) ensure(result.chunk === chunk, () => `chunk ${i}: a chunk within the cap was not passed as it is`);
      if (exceeded) ensure(result.exceeded && result.chunk.length === 0, () => `chunk ${i}: bytes passed after the cap was exceeded`);
      exceeded = result.exceeded;
      passed += result.chunk.length;
      state = deepFreeze(result.state);
    });
    const total = lengths.reduce((a, b) => a + b, 0);
    ensure(passed === Math.max(0, Math.min(total, maxBytes - already)), () => `${passed} bytes passed in all, the first ${maxBytes - already} of ${total} should have`);
  },
});
