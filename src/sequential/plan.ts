/**
 * What the sequential design will take, before anything starts (`evalrig plan
 * --until-decided`): its power at the smallest effect, the runs a condition it is expected to
 * play with no effect and at that effect, and the worst case, from the same numerical
 * integration as its bounds (normal approximation, rates around 50%).
 */
import { operating } from './bounds.js';
import { boundsOf, driftOf, type SequentialDesign } from './design.js';
import { normalCdf, normalUpperQuantile } from './normal.js';

export interface SequentialPlan {
  /** P(significant) at the smallest effect. */
  readonly power: number;
  /** Expected runs a condition with no effect, and at the smallest effect. */
  readonly expectedRuns: { readonly none: number; readonly minEffect: number };
  readonly worstRuns: number;
  /** Runs a condition a fixed design of the same power needs (one test at the end). */
  readonly fixedRuns: number;
}

/** The fewest runs a condition for a fixed test at alpha to reach `power` at the drift's effect. */
function fixedRunsOf(design: SequentialDesign, power: number): number {
  const z = normalUpperQuantile(design.alpha / 2);
  for (let n = 1; n <= 100_000; n++) {
    const drift = design.minEffect * Math.sqrt(2 * n);
    if (normalCdf(drift - z) + normalCdf(-drift - z) >= power) return n;
  }
  return Infinity;
}

/** The plan of a design looked at after these runs a condition (rising, the last the maximum). */
export function sequentialPlan(design: SequentialDesign, looks: readonly number[]): SequentialPlan {
  const bounds = boundsOf(design, looks);
  const atEffect = operating(bounds, driftOf(design));
  const none = operating(bounds, 0);
  return {
    power: atEffect.power,
    expectedRuns: {
      none: none.expectedT * design.maxRuns,
      minEffect: atEffect.expectedT * design.maxRuns,
    },
    worstRuns: design.maxRuns,
    fixedRuns: fixedRunsOf(design, atEffect.power),
  };
}
