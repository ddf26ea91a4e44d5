/**
 * What the sequential design will take, before anything starts (`evalrig plan
 * --until-decided`): its power at the smallest effect, the runs a condition it is expected to
 * play with no effect and at that effect, and the worst case. From campaigns simulated with
 * the statistic the campaign takes (rates around 50%, where a difference is hardest to see):
 * the normal approximation of the bounds' integration overstates the power of a test of few
 * runs by ten points and more.
 */
import type { SequentialDesign } from './design.js';
import { fixedRunsFor, simulateCampaigns } from './simulate.js';

export interface SequentialPlan {
  /** P(significant) at the smallest effect. */
  readonly power: number;
  /** Expected runs a condition with no effect, and at the smallest effect. */
  readonly expectedRuns: { readonly none: number; readonly minEffect: number };
  readonly worstRuns: number;
  /** Runs a condition a fixed design of the same power needs (one test at the end); null past 400. */
  readonly fixedRuns: number | null;
  /** Campaigns simulated for each figure. */
  readonly campaigns: number;
}

/** The plan of a design over `evals` evals played in rounds of one run per (eval, condition). */
export function sequentialPlan(
  design: SequentialDesign,
  evals: number,
  campaigns = 10_000,
): SequentialPlan {
  const half = design.minEffect / 2;
  const effect = { condition: 0.5 + half, baseline: 0.5 - half };
  const options = { campaigns, round: 1, seed: 32 };
  const each = <T>(rates: T) => Array.from({ length: evals }, () => rates);
  const atEffect = simulateCampaigns(design, each(effect), options);
  const none = simulateCampaigns(design, each({ condition: 0.5, baseline: 0.5 }), options);
  const power = atEffect.significant / campaigns;
  return {
    power,
    expectedRuns: { none: none.meanRuns, minEffect: atEffect.meanRuns },
    worstRuns: design.maxRuns,
    fixedRuns: fixedRunsFor(power, effect, design.alpha),
    campaigns,
  };
}
