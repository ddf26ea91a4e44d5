// Generated from sequential.schema.json by scripts/generate-types.mjs: do not edit.
// Change the schema, then run `npm run build` (or node scripts/generate-types.mjs).

/**
 * evalrig sequential decision of a campaign played with --until-decided (sequential.json)
 */
export interface SequentialFile {
  schema: 'evalrig/sequential@1';
  design: Design;
  /**
   * Every look taken, in order: after a round, when it counted more runs than the look before.
   */
  looks: Look[];
  /**
   * What the last look decided: significant at the sequential boundary, futile at the futility bound, the cap (the planned maximum reached undecided), or go on (not decided yet: a resume plays the next round).
   */
  decision: 'significant' | 'futile' | 'cap' | 'go_on';
  /**
   * The decision in words, as the report says it.
   */
  text: string;
}
export interface Design {
  /**
   * Two-sided group-sequential test, O'Brien-Fleming-type alpha spending (Lan-DeMets), non-binding futility bound spending beta at the smallest effect, from half the runs on.
   */
  method: 'group_sequential_obf';
  primary_measure: string;
  condition: string;
  baseline: string;
  alpha: number;
  beta: number;
  min_effect: number;
  /**
   * The planned maximum of runs a condition, over every eval.
   */
  max_runs: number;
  max_runs_per_eval: number;
  evals: string[];
}
export interface Look {
  /**
   * Runs a condition measured (the fewer side's).
   */
  runs: number;
  /**
   * The within-evals statistic, its sign the condition's direction.
   */
  z: number;
  /**
   * The information fraction: runs of the planned maximum.
   */
  t: number;
  efficacy: number;
  futility: number;
  decision: 'significant' | 'futile' | 'cap' | 'go_on';
}
