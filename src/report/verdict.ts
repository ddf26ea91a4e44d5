/**
 * The verdict lines at the top of the report: for each rate that differs
 * between a condition and the baseline, the difference with its 95% interval
 * (Newcombe), Fisher's p and the rates in plain words; and a warning where the
 * runs are too few to detect the differences asked about. With several evals
 * holding runs of both conditions, the difference is tested within evals
 * (./stratify.ts) and the line says so.
 */
import type { DeepReadonly } from '../artifacts/index.js';
import type * as Benchmark from '../artifacts/schemas/benchmark.js';
import { RATE_MEASURES } from '../measure/index.js';
import type { BehaviourSection } from './behaviour.js';
import type { Comparison, GroupStats } from './benchmark.js';
import type { GradingSection } from './grading.js';
import { namedRates, rateOf, type FamilyRates } from './rate-families.js';
import { detectableGrid, hardestOf, type RateStats, type WorstDetectable } from './stats.js';
import { strataOf, type EvalRate } from './stratify.js';
import { MAX_POWER_RUNS, VERDICT_POWER, verdictLine, type Verdict } from './verdict-line.js';
import { stepCheckVerdicts } from './verdict-steps.js';
import { pct, runsWords, VERDICT_ALPHA } from './verdict-words.js';

export { formatVerdictP, VERDICT_ALPHA } from './verdict-words.js';
export {
  GRADING_PHRASES,
  MEASURE_PHRASES,
  phraseOf,
  STEP_CHECK_PREFIX,
} from './verdict-phrases.js';
export { MESSAGE_CHECK_PHRASES } from './rate-families.js';
export { detectable, MAX_POWER_RUNS, VERDICT_POWER, type Verdict } from './verdict-line.js';

/** How few runs a comparison has, and what they can detect (benchmark.json's `power_warnings`). */
export type PowerWarning = NonNullable<BenchmarkFile['power_warnings']>[number];

type BenchmarkFile = DeepReadonly<Benchmark.BenchmarkFile>;

/** A group of one (eval, condition), as benchmark.json's `evals` holds it. */
export type EvalGroup = Pick<BenchmarkFile['evals'][number], 'eval' | 'condition' | 'measures'> &
  FamilyRates;

/** Each (eval, condition)'s rate of one measure (`evals` of benchmark.json). */
function evalRates(evals: readonly EvalGroup[], rate: (g: EvalGroup) => RateStats): EvalRate[] {
  return evals.map((g) => ({ eval: g.eval, condition: g.condition, rate: rate(g) }));
}

/**
 * A check's line that says what the checks_passed line says (an eval set of one check): the
 * same figures twice would read as two findings.
 */
function repeatsChecksPassed(v: Verdict, lines: readonly Verdict[]): boolean {
  if (!v.measure.startsWith('checks.')) return false;
  const all = lines.find((l) => l.measure === 'checks_passed');
  const keys = ['condition_rate', 'baseline_rate', 'condition_n', 'baseline_n'] as const;
  return (
    all !== undefined &&
    keys.every((k) => all[k] === v[k]) &&
    all.difference === v.difference &&
    all.p_value === v.p_value
  );
}

/**
 * One verdict per rate that differs between a condition and its baseline,
 * the clearest first (smallest p). Rates equal on both sides, or unknown on
 * one, say nothing and get no line. With `evals` (benchmark.json's per (eval,
 * condition) groups) holding several evals with runs of both conditions, a
 * line is tested within evals. Each check (`checks.<name>`) and message check
 * gets its line; each step check too, from `behaviour`'s rates.
 *
 * @example
 * verdicts(comparisons, stats)[0].text;
 * // 'with_skill opens a draft PR at hand over in 100% vs 0% of runs, +100 pts [61, 100], p < 0.001'
 */
export function verdicts(
  comparisons: readonly Comparison[],
  groups: ReadonlyMap<string, Pick<GroupStats, 'measures'> & FamilyRates>,
  grading?: GradingSection,
  evals: readonly EvalGroup[] = [],
  behaviour?: BehaviourSection,
): Verdict[] {
  const out: Verdict[] = [];
  for (const cmp of comparisons) {
    const base = groups.get(cmp.baseline);
    const other = groups.get(cmp.condition);
    if (!base || !other) continue;
    const strata = (rates: EvalRate[]) => strataOf(rates, cmp.condition, cmp.baseline);
    const lines: Verdict[] = [];
    for (const m of RATE_MEASURES) {
      const within = strata(evalRates(evals, (g) => g.measures[m]));
      const v = verdictLine(cmp, m, cmp.measures[m], other.measures[m], base.measures[m], within);
      if (v) lines.push(v);
    }
    for (const r of namedRates([base, other])) {
      const d = cmp[r.family]?.[r.name];
      if (!d) continue;
      const within = strata(evalRates(evals, (g) => rateOf(g, r)));
      const v = verdictLine(cmp, r.measure, d, rateOf(other, r), rateOf(base, r), within);
      if (v && !repeatsChecksPassed(v, lines)) lines.push(v);
    }
    out.push(...lines, ...stepCheckVerdicts(cmp, behaviour), ...gradingVerdicts(cmp, grading));
  }
  // Stable: equal p keep the measures' order.
  return out
    .map((v, i) => ({ v, i }))
    .sort((a, b) => (a.v.p_value ?? 1) - (b.v.p_value ?? 1) || a.i - b.i)
    .map((x) => x.v);
}

/** The judge's verdicts of one comparison: runs meeting every expectation. */
function gradingVerdicts(cmp: Comparison, grading: GradingSection | undefined): Verdict[] {
  const d = grading?.comparisons.find(
    (c) => c.baseline === cmp.baseline && c.condition === cmp.condition,
  );
  const of = (name: string) => grading?.conditions.find((c) => c.condition === name);
  const base = of(cmp.baseline);
  const other = of(cmp.condition);
  if (!d || !base || !other) return [];
  const rates = (grading?.evals ?? []).map((e) => ({ ...e, rate: e.all_passed }));
  const strata = strataOf(rates, cmp.condition, cmp.baseline);
  const v = verdictLine(
    cmp,
    'grading.all_passed',
    d.all_passed,
    other.all_passed,
    base.all_passed,
    strata,
  );
  return v ? [v] : [];
}

/** Differences below this many points are worth a warning when the runs cannot detect them. */
const WARN_ABOVE = 0.2;

const gridCache = new Map<string, WorstDetectable[]>();

/** detectableGrid at the verdicts' alpha and power, remembered (both sides have runs). */
function gridOf(n1: number, n2: number): WorstDetectable[] {
  const key = `${n1}/${n2}`;
  if (!gridCache.has(key)) {
    gridCache.set(key, detectableGrid(n1, n2, { alpha: VERDICT_ALPHA, power: VERDICT_POWER })!);
  }
  return gridCache.get(key)!;
}

/** "25% or 75%", "50%": a baseline of the grid and its mirror. */
function baselineWords(b: number): string {
  return b === 0.5 ? pct(b) : `${pct(b)} or ${pct(1 - b)}`;
}

/**
 * A warning per comparison whose runs are too few: when, at the hardest baseline rate of the
 * grid (0% to 100% by 5 points: 50% is not always the hardest, 25% is at 20 to 30 runs), no
 * difference or only one above 20 pts can be detected with 80% power at p < 0.05. The best
 * case (a baseline that never, or always, shows the behaviour) is given beside it.
 *
 * @example
 * powerWarnings([{ condition: 'with_skill', baseline: 'without_skill', ... }], runs)[0].text;
 * // 'with 20 runs per condition only differences of ≥ 32 pts can be detected (80% power,
 * //  p < 0.05) when the baseline rate is 0% or 100%, and ≥ 49 pts when it is 25% or 75%
 * //  (the hardest)'
 */
export function powerWarnings(
  comparisons: readonly Comparison[],
  runs: ReadonlyMap<string, number>,
): PowerWarning[] {
  const out: PowerWarning[] = [];
  for (const cmp of comparisons) {
    const n1 = runs.get(cmp.condition) ?? 0;
    const n2 = runs.get(cmp.baseline) ?? 0;
    if (n1 === 0 || n2 === 0 || n1 > MAX_POWER_RUNS || n2 > MAX_POWER_RUNS) continue;
    const grid = gridOf(n1, n2);
    const worst = hardestOf(grid);
    if (worst.difference !== null && worst.difference <= WARN_ABOVE) continue;
    const at0 = grid[0]!.difference;
    const words = (d: number | null): string =>
      d === null ? 'none' : `only differences of ≥ ${Math.ceil(d * 100)} pts`;
    const hardest = `${worst.difference === null ? 'none' : `≥ ${Math.ceil(worst.difference * 100)} pts`} when it is ${baselineWords(worst.baseline)} (the hardest)`;
    const text =
      at0 === null
        ? `with ${runsWords(n1, n2)} no difference can be detected (80% power, p < 0.05), whatever the baseline rate`
        : `with ${runsWords(n1, n2)} ${words(at0)} can be detected (80% power, p < 0.05) when the baseline rate is 0% or 100%, and ${hardest}`;
    out.push({
      condition: cmp.condition,
      baseline: cmp.baseline,
      condition_runs: n1,
      baseline_runs: n2,
      detectable_at_0: at0,
      detectable_at_50: grid[grid.length - 1]!.difference,
      worst_baseline: worst.baseline,
      detectable_at_worst: worst.difference,
      text,
    });
  }
  return out;
}
