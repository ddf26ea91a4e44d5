/**
 * The sequential design of a campaign played with `--until-decided`, as sequential.json
 * records it: which two conditions, which measure, how many runs at most. Checked before
 * anything starts; a resume must ask for the same design as the folder's.
 */
import type { SequentialFile } from '../../artifacts/index.js';
import type { EvalSet } from '../../config/index.js';
import { InputError } from '../../errors/index.js';
import { DEFAULT_ALPHA, DEFAULT_BETA, type SequentialDesign } from '../../sequential/index.js';
import type { PlannedRun } from '../plan.js';
import { primaryMeasureOf } from './primary.js';

export type DesignRecord = SequentialFile['design'];

/** The design of these planned runs (the --max-runs of each (eval, condition) planned). */
export function designOf(evalSet: EvalSet, planned: readonly PlannedRun[]): DesignRecord {
  const conditions = [...new Set(planned.map((p) => p.condition.name))];
  const baseline = evalSet.baseline_condition;
  const condition = conditions.find((c) => c !== baseline);
  if (conditions.length !== 2 || !conditions.includes(baseline) || condition === undefined)
    throw new InputError(
      `--until-decided tests one condition against the baseline "${baseline}": the campaign plays ${conditions.length} condition(s) (${conditions.join(', ')}); choose the baseline and one other with --condition`,
    );
  const ofCondition = planned.filter((p) => p.condition.name === condition);
  const evals = [...new Set(ofCondition.map((p) => p.eval.id))];
  return {
    method: 'group_sequential_obf',
    primary_measure: primaryMeasureOf(evalSet, planned),
    condition,
    baseline,
    alpha: DEFAULT_ALPHA,
    beta: DEFAULT_BETA,
    min_effect: evalSet.min_effect,
    max_runs: ofCondition.length,
    max_runs_per_eval: Math.max(...ofCondition.map((p) => p.run)),
    evals,
  };
}

/** The statistics' design of a record. */
export function statisticsOf(d: DesignRecord): SequentialDesign {
  return { alpha: d.alpha, beta: d.beta, minEffect: d.min_effect, maxRuns: d.max_runs };
}

/** Refuses a resume that asks for another design than the one the folder's looks were taken under. */
export function sameDesign(outDir: string, recorded: DesignRecord, asked: DesignRecord): void {
  const differs = (Object.keys(asked) as Array<keyof DesignRecord>).filter(
    (k) => JSON.stringify(recorded[k]) !== JSON.stringify(asked[k]),
  );
  if (differs.length > 0)
    throw new InputError(
      `${outDir}/sequential.json was played under another design (${differs.map((k) => `${k} ${JSON.stringify(recorded[k])}, asked ${JSON.stringify(asked[k])}`).join('; ')}): its looks hold only for that design; resume with the same flags, or choose another --out`,
    );
}
