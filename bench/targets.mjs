// The targets of bench/targets.json, and how a figure is judged and printed against them.
import { readFileSync } from 'node:fs';

/** The targets by figure id: { atLeast } or { atMost }, and why. */
export function loadTargets() {
  const all = JSON.parse(readFileSync(new URL('./targets.json', import.meta.url), 'utf8'));
  delete all.$comment;
  return all;
}

/**
 * Whether a figure meets its target: true, false, or undefined (no target, or no figure). A target
 * with `everyRound` judges the worst round, not the median: a bound that must hold every time.
 */
export function meets(figure, target) {
  if (target === undefined || figure.value === null || figure.value === undefined) return undefined;
  const judged = target.everyRound && figure.rounds?.length > 0 ? worstRound(figure, target) : figure.value;
  return target.atLeast !== undefined ? judged >= target.atLeast : judged <= target.atMost;
}

/** The round furthest from a target's bound. */
const worstRound = (figure, target) => (target.atLeast !== undefined ? Math.min(...figure.rounds) : Math.max(...figure.rounds));

/** The bound as written: ">= 0.95x". */
export const bound = (target) => `${target.atLeast !== undefined ? `>= ${target.atLeast}x` : `<= ${target.atMost}x`}${target.everyRound ? ' every round' : ''}`;

/** One console line for a figure: met / MISS / blank (a diagnostic), value, bound and rounds. */
export function line(figure, target) {
  const met = meets(figure, target);
  const mark = met === undefined ? (target && figure.value === null ? 'n/a ' : '    ') : met ? 'met ' : 'MISS';
  const value = figure.value === null ? '—' : `${figure.value.toFixed(2)}x`;
  const rounds = figure.rounds?.length > 1 ? `rounds ${figure.rounds.map((x) => x.toFixed(2)).join(' ')}` : '';
  const extra = [target ? `target ${bound(target)}` : '', rounds, figure.note ?? '', figure.remeasured ? `first measure ${figure.remeasured.toFixed(2)}x` : '']
    .filter(Boolean)
    .join('; ');
  return `${mark}  ${figure.id.padEnd(42)} ${value.padStart(7)}${extra ? `  (${extra})` : ''}`;
}
