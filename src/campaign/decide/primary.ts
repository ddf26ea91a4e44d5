/**
 * The primary measure `--until-decided` tests after each round, and its value in a run's
 * record. Only what the host witnessed between rounds decides: a judged measure would need
 * the judge to grade each round before the look, so it is refused.
 */
import type { RunRecord } from '../../artifacts/index.js';
import type { EvalSet } from '../../config/index.js';
import { InputError } from '../../errors/index.js';
import { checkOutcome, RATE_MEASURES, type RateMeasure } from '../../measure/index.js';
import type { PlannedRun } from '../plan.js';

/** The named rates a primary measure may be, by prefix: each check, each message check. */
const NAMED = {
  'checks.': { what: 'check', of: (e: PlannedRun['eval']) => e.checks },
  'message_checks.': { what: 'message check', of: (e: PlannedRun['eval']) => e.message_checks },
} as const;

type NamedPrefix = keyof typeof NAMED;

/** What the refusals list as the measures the runs can decide on. */
const DECIDABLE = `${RATE_MEASURES.join(', ')}, checks.<name> or message_checks.<name>`;

/** The names of one kind of check that every planned eval has. */
function commonChecks(planned: readonly PlannedRun[], prefix: NamedPrefix): string[] {
  const evals = [...new Map(planned.map((p) => [p.eval.id, p.eval])).values()];
  const [first, ...rest] = evals;
  const names = (e: PlannedRun['eval']) => NAMED[prefix].of(e).map((c) => c.name);
  return (first ? names(first) : []).filter((name) => rest.every((e) => names(e).includes(name)));
}

/** The prefix of a named rate's measure, or undefined for a measure of another kind. */
function namedPrefix(measure: string): NamedPrefix | undefined {
  return (Object.keys(NAMED) as NamedPrefix[]).find((p) => measure.startsWith(p));
}

/** The default: the first of the verdicts' measures the planned evals measure. */
function defaultMeasure(evalSet: EvalSet, planned: readonly PlannedRun[]): string | undefined {
  if (evalSet.hand_over.length > 0) return 'pr_draft_at_hand_over';
  if (planned.every((p) => p.eval.checks.length > 0)) return 'checks_passed';
  const check = commonChecks(planned, 'message_checks.')[0];
  return check === undefined ? undefined : `message_checks.${check}`;
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
      `${where}: "${named}" is judged: --until-decided decides between rounds on what the host witnessed (${DECIDABLE}), not on the judge's grades`,
    );
  const prefix = namedPrefix(named);
  if (prefix) {
    const shared = commonChecks(planned, prefix);
    if (!shared.includes(named.slice(prefix.length)))
      throw new InputError(
        `${where}: "${named}" names a ${NAMED[prefix].what} not every eval of the campaign has (they share: ${shared.join(', ') || 'none'})`,
      );
    return named;
  }
  if (!(RATE_MEASURES as readonly string[]).includes(named))
    throw new InputError(
      `${where}: "${named}" is not a rate the runs measure (one of ${DECIDABLE})`,
    );
  return named;
}

/**
 * The run's value of the measure: true, false, or null when it tells nothing (a harness
 * failure, a run the budget cut, or nothing to measure), as the report counts it.
 */
export function valueIn(
  record: Pick<RunRecord, 'status' | 'limit' | 'measures' | 'message_checks'> &
    Partial<Pick<RunRecord, 'checks'>>,
  measure: string,
): boolean | null {
  if (record.status === 'failed' || record.limit === 'campaign_cost') return null;
  const prefix = namedPrefix(measure);
  const name = prefix ? measure.slice(prefix.length) : '';
  // A check as the report's checks.<name> counts it (src/measure/check-outcomes.ts).
  if (prefix === 'checks.') return checkOutcome(record, name);
  if (prefix === 'message_checks.') {
    return record.message_checks?.find((c) => c.name === name)?.passed ?? null;
  }
  return record.measures[measure as RateMeasure] ?? null;
}
