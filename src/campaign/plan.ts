import type { Condition, Eval, EvalSet } from '../config/index.js';
import { InputError } from '../errors/index.js';
import { runKey } from '../campaign-folder/index.js';

/** One (eval, condition, run) of a campaign. */
export interface PlannedRun {
  readonly eval: Eval;
  readonly condition: Condition;
  /** 1-based. */
  readonly run: number;
  /** `<eval>/<condition>/run-NN`: its folder under runs/ and its label. */
  readonly key: string;
}

export interface PlanFilters {
  /** Eval ids to keep (--only). */
  readonly only?: readonly string[];
  /** Condition names to keep (--condition). */
  readonly conditions?: readonly string[];
  /** Runs per (eval, condition), overriding the eval set (--runs). */
  readonly runs?: number;
}

/** A run's key (its path under runs/), as the campaign folder's layout names it. */
export { runKey };

/**
 * Every (eval, condition, run) the campaign plays, in a stable order. Filters
 * naming something the eval set does not have are refused, naming the flag.
 */
export function planRuns(evalSet: EvalSet, filters: PlanFilters = {}): PlannedRun[] {
  const unknownEval = filters.only?.filter((id) => !evalSet.evals.some((e) => e.id === id));
  if (unknownEval?.length) {
    throw new InputError(
      `--only names eval(s) the eval set does not have: ${unknownEval.join(', ')} (it has: ${evalSet.evals.map((e) => e.id).join(', ')})`,
    );
  }
  const unknownCond = filters.conditions?.filter(
    (name) => !evalSet.conditions.some((c) => c.name === name),
  );
  if (unknownCond?.length) {
    throw new InputError(
      `--condition names condition(s) the eval set does not have: ${unknownCond.join(', ')} (it has: ${evalSet.conditions.map((c) => c.name).join(', ')})`,
    );
  }
  const evals = evalSet.evals.filter((e) => !filters.only || filters.only.includes(e.id));
  const conditions = evalSet.conditions.filter(
    (c) => !filters.conditions || filters.conditions.includes(c.name),
  );
  const planned: PlannedRun[] = [];
  for (const e of evals) {
    const runs = filters.runs ?? e.runs;
    for (const c of conditions) {
      for (let run = 1; run <= runs; run++) {
        planned.push({ eval: e, condition: c, run, key: runKey(e.id, c.name, run) });
      }
    }
  }
  return planned;
}
