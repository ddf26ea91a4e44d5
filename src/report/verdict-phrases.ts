/**
 * What each rate says a condition does, in a few plain words: "<condition> <phrase> in 80% vs
 * 20% of runs". One table per kind of rate, so that every verdict line reads alike.
 */
import type { RateMeasure } from '../measure/index.js';
import { familyPhrase } from './rate-families.js';

export const MEASURE_PHRASES: Record<RateMeasure, string> = {
  pr_draft_at_hand_over: 'opens a draft PR at hand over',
  pr_described: 'describes the PR at the planning hand over',
  pr_refreshed: 'refreshes the PR description in execution',
  pr_marked_ready: 'marks the PR ready (it must not)',
  checks_passed: 'passes the checks',
  environment_broken: 'breaks its environment',
  record_tampered: 'tampers with its record (the gh record or its stream)',
  condition_reached: 'gets its staged instructions to the model',
};

/** The judge's rates that get verdict lines (rates over runs; `grading.<name>` in benchmark.json). */
export const GRADING_PHRASES: Readonly<Record<string, string>> = {
  all_passed: 'meets every expectation (as the judge graded it)',
};

/** A step check's verdict measure: `step_checks.<name>` (the behaviour section's `step.<name>`). */
export const STEP_CHECK_PREFIX = 'step_checks.';

/**
 * The phrase of a measure name as benchmark.json spells it: `checks.<name>`,
 * `message_checks.<name>`, `step_checks.<name>`, `grading.<name>` or a rate measure.
 */
export function phraseOf(measure: string): string {
  if (measure.startsWith('grading.')) {
    return GRADING_PHRASES[measure.slice('grading.'.length)] ?? measure;
  }
  if (measure.startsWith(STEP_CHECK_PREFIX)) {
    return `passes step check ${measure.slice(STEP_CHECK_PREFIX.length)}`;
  }
  return familyPhrase(measure) ?? MEASURE_PHRASES[measure as RateMeasure] ?? measure;
}
