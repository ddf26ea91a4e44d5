/**
 * Each check's outcome in one run, by name: what the report's `checks.<name>` rates and
 * `--until-decided` count. A check with a result is what it says. A check the eval declares
 * that has no result (the run ended before its checks ran) did not pass when the run counts
 * against its condition, as `checks_passed` already says of it; otherwise it is unknown.
 */
import type { RunRecord } from '../artifacts/index.js';

/** What a run's check outcomes are read from (a run.json of an older version may lack checks). */
export type CheckedRun = Pick<RunRecord, 'measures'> & Partial<Pick<RunRecord, 'checks'>>;

/** One check's outcome: true, false, or null when the run tells nothing of it. */
export function checkOutcome(run: CheckedRun, name: string): boolean | null {
  const result = (run.checks ?? []).find((c) => c.name === name);
  if (result) return result.passed;
  return run.measures.checks_passed === false ? false : null;
}

/**
 * Every check of the run: the ones it has results of, in their order, then each declared one
 * it has none of. `declared` is the eval's check names (conditions.json; absent in older ones).
 */
export function checkOutcomes(
  run: CheckedRun,
  declared: readonly string[] = [],
): Array<{ readonly name: string; readonly passed: boolean | null }> {
  const names = new Set([...(run.checks ?? []).map((c) => c.name), ...declared]);
  return [...names].map((name) => ({ name, passed: checkOutcome(run, name) }));
}
