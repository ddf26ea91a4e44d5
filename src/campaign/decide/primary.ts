/**
 * The primary measure `--until-decided` tests after each round, and its value in a run's
 * record. Only what the host witnessed between rounds decides: a judged measure would need
 * the judge to grade each round before the look, so it is refused.
 */
import type { RunRecord } from '../../artifacts/index.js';
import type { EvalSet } from '../../config/index.js';
import { InputError } from '../../errors/index.js';
import { RATE_MEASURES, type RateMeasure } from '../../measure/index.js';
import type { PlannedRun } from '../plan.js';

const CHECK = 'message_checks.';

/** The message check names every planned eval has. */
function commonChecks(planned: readonly PlannedRun[]): string[] {
  const evals = [...new Map(planned.map((p) => [p.eval.id, p.eval])).values()];
  const [first, ...rest] = evals;
  return (first?.message_checks ?? [])
    .map((c) => c.name)
    .filter((name) => rest.every((e) => e.message_checks.some((c) => c.name === name)));
}

/** The default: the first of the verdicts' measures the planned evals measure. */
function defaultMeasure(evalSet: EvalSet, planned: readonly PlannedRun[]): string | undefined {
  if (evalSet.hand_over.length > 0) return 'pr_draft_at_hand_over';
  if (planned.every((p) => p.eval.checks.length > 0)) return 'checks_passed';
  const check = commonChecks(planned)[0];
  return check === undefined ? undefined : `${CHECK}${check}`;
}

/** The primary measure of the campaign, checked; a wrong one is refused naming the field. */
export function primaryMeasureOf(evalSet: EvalSet, planned: readonly PlannedRun[]): string {
  const where = `${evalSet.file}#/primary_measure`;
  const named = evalSet.primary_measure;
  if (named === undefined) {
    const chosen = defaultMeasure(evalSet, planned);
    if (chosen === undefined)
      throw new InputError(
        `--until-decided needs a primary measure and ${evalSet.file} gives no default (no hand_over stops, an eval without checks, no message check every eval has): set primary_measure, e.g. "checks_passed"`,
      );
    return chosen;
  }
  if (named.startsWith('grading.'))
    throw new InputError(
      `${where}: "${named}" is judged: --until-decided decides between rounds on what the host witnessed (${RATE_MEASURES.join(', ')}, or message_checks.<name>), not on the judge's grades`,
    );
  if (named.startsWith(CHECK)) {
    const name = named.slice(CHECK.length);
    if (!commonChecks(planned).includes(name))
      throw new InputError(
        `${where}: "${named}" names a message check not every eval of the campaign has (they share: ${commonChecks(planned).join(', ') || 'none'})`,
      );
    return named;
  }
  if (!(RATE_MEASURES as readonly string[]).includes(named))
    throw new InputError(
      `${where}: "${named}" is not a rate the runs measure (one of ${RATE_MEASURES.join(', ')}, or message_checks.<name>)`,
    );
  return named;
}

/**
 * The run's value of the measure: true, false, or null when it tells nothing (a harness
 * failure, a run the budget cut, or nothing to measure), as the report counts it.
 */
export function valueIn(
  record: Pick<RunRecord, 'status' | 'limit' | 'measures' | 'message_checks'>,
  measure: string,
): boolean | null {
  if (record.status === 'failed' || record.limit === 'campaign_cost') return null;
  if (measure.startsWith(CHECK)) {
    const name = measure.slice(CHECK.length);
    return record.message_checks?.find((c) => c.name === name)?.passed ?? null;
  }
  return record.measures[measure as RateMeasure] ?? null;
}
