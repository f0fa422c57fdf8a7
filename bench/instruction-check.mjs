// The verdict of bench/instructions.mjs: each figure (ours ÷ the peer's instructions) against the
// committed baseline. Pure, so that the rule is tested on its own (test/bench-instructions.test.ts).

/** How much a figure may grow over its baseline before the check fails. */
export const TOLERANCE = 0.02;

/**
 * Each figure of `figures` ({ id: { ratio } }) against `baseline.figures`: `rows` in order, each
 * `{ id, ratio, base, change, verdict }` with `verdict` 'grew' (more than TOLERANCE over its
 * baseline, or no baseline), 'less' (more than TOLERANCE under) or 'same'; `grown`, the ids that
 * fail the check.
 */
export function compare(figures, baseline) {
  const rows = Object.entries(figures).map(([id, { ratio }]) => {
    const base = baseline.figures[id]?.ratio;
    const change = base === undefined ? undefined : ratio / base - 1;
    const verdict = change === undefined || change > TOLERANCE ? 'grew' : change < -TOLERANCE ? 'less' : 'same';
    return { id, ratio, base, change, verdict };
  });
  return { rows, grown: rows.filter((row) => row.verdict === 'grew').map((row) => row.id) };
}
