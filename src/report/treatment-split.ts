import type { DeepReadonly, RunRecord } from '../artifacts/index.js';
import type * as Benchmark from '../artifacts/schemas/benchmark.js';
import { RATE_MEASURES } from '../measure/index.js';
import { MEASURE_LABELS } from './format.js';
import { messageCheckLabel } from './rate-families.js';
import { RateAccumulator, type RateStats } from './stats.js';
import { leftOut } from '../measure/index.js';

/** A condition's runs that used a staged skill against those that did not (benchmark.json's `treatment[].by_use`). */
export type UseSplit = DeepReadonly<NonNullable<Benchmark.TreatmentSummary['by_use']>>;

/**
 * The rates the split compares: checks first (what a reader asks of it), then the others in
 * the report's order. Reaching the model is not among them: a skill used was loaded.
 */
const SPLIT_MEASURES = [
  'checks_passed',
  ...RATE_MEASURES.filter((m) => m !== 'checks_passed' && m !== 'condition_reached'),
] as const;

type SplitMeasure = (typeof SPLIT_MEASURES)[number];

/** The runs of one side of a condition: those that used a skill, or those that did not. */
class Side {
  runs = 0;
  readonly measures = new Map<SplitMeasure, RateAccumulator>(
    SPLIT_MEASURES.map((m) => [m, new RateAccumulator()]),
  );
  readonly checks = new Map<string, RateAccumulator>();
}

/** A rate both sides have values of. */
interface Row {
  readonly family: 'measures' | 'message_checks';
  readonly name: string;
  readonly label: string;
  readonly used: RateAccumulator;
  readonly notUsed: RateAccumulator;
}

/** What the split reads of a run. */
export type SplitRun = Pick<RunRecord, 'condition' | 'status' | 'treatment'> &
  Partial<Pick<RunRecord, 'measures' | 'message_checks' | 'limit'>>;

/**
 * Each condition's runs split by whether the model used a staged skill, with the rates of
 * each side. The runs chose themselves (a model that uses the skill may be having an easier
 * session), so the split is observational, never a verdict.
 */
export class UseSplitAccumulator {
  private readonly byCondition = new Map<string, { used: Side; notUsed: Side }>();

  add(run: SplitRun): void {
    const used = run.treatment?.used;
    if (typeof used !== 'boolean' || !run.measures) return;
    // Harness failures and runs the campaign's budget cut say nothing of the agent, as elsewhere.
    if (leftOut(run)) return;
    let c = this.byCondition.get(run.condition);
    if (!c) this.byCondition.set(run.condition, (c = { used: new Side(), notUsed: new Side() }));
    const side = used ? c.used : c.notUsed;
    side.runs++;
    for (const m of SPLIT_MEASURES) side.measures.get(m)!.add(run.measures[m] ?? null);
    for (const check of run.message_checks ?? []) {
      let acc = side.checks.get(check.name);
      if (!acc && side.checks.size < 100)
        side.checks.set(check.name, (acc = new RateAccumulator()));
      acc?.add(check.passed);
    }
  }

  /**
   * The split of a condition when some of its runs used a skill and some did not, on the
   * rates both sides have values of; undefined when there is nothing to set side by side.
   */
  split(condition: string, skills: readonly string[]): UseSplit | undefined {
    const c = this.byCondition.get(condition);
    if (!c || c.used.runs === 0 || c.notUsed.runs === 0) return undefined;
    const rows = bothSides(c.used, c.notUsed);
    if (rows.length === 0) return undefined;
    const figures = rows
      .map((r) => `${r.label} ${count(r.used)} vs ${count(r.notUsed)}`)
      .join('; ');
    const which = skills.length === 1 ? skills[0]! : `a staged skill (${skills.join(', ')})`;
    return {
      skills: [...skills],
      used: sideOf(c.used.runs, rows, (r) => r.used),
      not_used: sideOf(c.notUsed.runs, rows, (r) => r.notUsed),
      text: `${condition}, runs that used ${which} vs runs that did not: ${figures} (observational: not randomized)`,
    };
  }
}

const count = (r: RateAccumulator): string => `${r.successes}/${r.n}`;

function bothSides(used: Side, notUsed: Side): Row[] {
  const rows: Row[] = [];
  for (const m of SPLIT_MEASURES) {
    const [a, b] = [used.measures.get(m)!, notUsed.measures.get(m)!];
    if (a.n > 0 && b.n > 0)
      rows.push({ family: 'measures', name: m, label: MEASURE_LABELS[m], used: a, notUsed: b });
  }
  for (const [name, a] of used.checks) {
    const b = notUsed.checks.get(name);
    if (b && a.n > 0 && b.n > 0)
      rows.push({
        family: 'message_checks',
        name,
        label: messageCheckLabel(name),
        used: a,
        notUsed: b,
      });
  }
  return rows;
}

function sideOf(
  runs: number,
  rows: readonly Row[],
  of: (r: Row) => RateAccumulator,
): UseSplit['used'] {
  const side = {
    runs,
    measures: {} as Record<string, RateStats>,
    message_checks: {} as Record<string, RateStats>,
  };
  for (const r of rows) side[r.family][r.name] = of(r).stats();
  return side;
}
