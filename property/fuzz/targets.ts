/** The fuzz targets, in the order a campaign runs them. */
import type { FuzzTarget } from './target.js';
import { answerTarget } from './targets/answer.js';
import { budgetTarget } from './targets/budget.js';
import { exchangeTarget } from './targets/exchange.js';
import { parseJsonTarget } from './targets/parse-json.js';
import { quotingTarget } from './targets/quoting.js';
import { quotingSitesTarget } from './targets/quoting-sites.js';
import { readAnswerTarget } from './targets/read-answer.js';
import { scannerTarget } from './targets/scanner.js';
import { selectorTarget } from './targets/selector.js';

/** Every target. */
export const targets: readonly FuzzTarget[] = [scannerTarget, selectorTarget, answerTarget, budgetTarget, readAnswerTarget, parseJsonTarget, exchangeTarget, quotingTarget, quotingSitesTarget];

/** The target called `name`; throws with the list for an unknown name. */
export function targetNamed(name: string): FuzzTarget {
  const found = targets.find((t) => t.name === name);
  if (found === undefined) throw new Error(`no fuzz target ${JSON.stringify(name)}; there are ${targets.map((t) => t.name).join(', ')}`);
  return found;
}
