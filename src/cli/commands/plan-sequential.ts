/**
 * `evalrig plan --until-decided`: what the sequential design will take, in runs and cost,
 * beside the fixed design of the same power.
 */
import type { Forecast } from '../../campaign/forecast.js';
import type { PlannedRun } from '../../campaign/plan.js';
import type { EvalSet } from '../../config/index.js';
import { InputError } from '../../errors/index.js';
import {
  DEFAULT_ALPHA,
  DEFAULT_BETA,
  designWords,
  sequentialPlan,
  type SequentialDesign,
  type SequentialPlan,
} from '../../sequential/index.js';

export interface SequentialForecast extends SequentialPlan {
  readonly design: string;
  readonly max_runs: number;
  /** Expected and worst-case cost (USD), at the forecast's per-run figures. */
  readonly cost_usd: { readonly none: number; readonly min_effect: number; readonly worst: number };
}

/** The sequential design's figures for these planned runs and their forecast. */
export function sequentialForecast(
  set: EvalSet,
  planned: readonly PlannedRun[],
  f: Forecast,
): SequentialForecast {
  const conditions = [...new Set(planned.map((p) => p.condition.name))];
  if (conditions.length !== 2)
    throw new InputError(
      `--until-decided tests one condition against the baseline: the plan has ${conditions.length} condition(s) (${conditions.join(', ')}); choose two with --condition`,
    );
  const ofOne = planned.filter((p) => p.condition.name === conditions[0]);
  const evals = new Set(ofOne.map((p) => p.eval.id)).size;
  const design: SequentialDesign = {
    alpha: DEFAULT_ALPHA,
    beta: DEFAULT_BETA,
    minEffect: set.min_effect,
    maxRuns: ofOne.length,
  };
  if (ofOne.length % evals !== 0)
    throw new InputError(
      `--until-decided plans evals of equal runs: give --max-runs for all of them (the evals have ${ofOne.length} runs of ${conditions[0]} over ${evals} evals)`,
    );
  const plan = sequentialPlan(design, evals);
  const perRun = f.cost_usd.expected / f.runs;
  const cost = (runsACondition: number) => perRun * runsACondition * 2;
  return {
    ...plan,
    design: designWords(design),
    max_runs: design.maxRuns,
    cost_usd: {
      none: cost(plan.expectedRuns.none),
      min_effect: cost(plan.expectedRuns.minEffect),
      worst: cost(plan.worstRuns),
    },
  };
}

/** The plan's lines of the sequential design. */
export function sequentialForecastLines(s: SequentialForecast): string[] {
  const runs = (n: number) => n.toFixed(1);
  const usd = (n: number) => n.toFixed(2);
  return [
    `sequential (--until-decided): ${s.design}`,
    `runs a condition: expected ${runs(s.expectedRuns.none)} with no effect, ${runs(s.expectedRuns.minEffect)} at the smallest effect, ${s.worstRuns} at worst; about ${usd(s.cost_usd.none)}, ${usd(s.cost_usd.min_effect)} and ${usd(s.cost_usd.worst)} USD`,
    `power at the smallest effect: ${Math.round(s.power * 100)}% (${s.campaigns} campaigns simulated around 50%); a fixed design of that power plays ${s.fixedRuns === null ? 'more than 400' : s.fixedRuns} runs a condition`,
  ];
}
