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
import { RATE_MEASURES, type RateMeasure } from '../measure/index.js';
import {
  messageCheckNames,
  type Comparison,
  type GroupStats,
  type RateDifference,
} from './benchmark.js';
import {
  detectableGrid,
  fisherBelow,
  hardestOf,
  minimumDetectableDifference,
  type RateStats,
  type WorstDetectable,
} from './stats.js';
import type { GradingSection } from './grading.js';
import { strataOf, withinEvals, type EvalRate, type EvalStratum } from './stratify.js';
import {
  formatVerdictP,
  intervalWords,
  methodClause,
  pct,
  pooledClause,
  pts,
  runsWords,
  VERDICT_ALPHA,
} from './verdict-words.js';

export { formatVerdictP, VERDICT_ALPHA } from './verdict-words.js';

/**
 * What each rate says a condition does, in a few plain words: "<condition>
 * <phrase> in 80% vs 20% of runs". One table, so that every line reads alike.
 */
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

/** Phrases of the built-in message checks; a user's check reads "passes message check <name>". */
export const MESSAGE_CHECK_PHRASES: Readonly<Record<string, string>> = {
  no_missing_gh: 'never says gh is missing or unauthenticated',
};

/** The judge's rates that get verdict lines (rates over runs; `grading.<name>` in benchmark.json). */
export const GRADING_PHRASES: Readonly<Record<string, string>> = {
  all_passed: 'meets every expectation (as the judge graded it)',
};

/** The phrase of a measure name as benchmark.json spells it (`message_checks.<name>` for a check). */
export function phraseOf(measure: string): string {
  if (measure.startsWith('grading.')) {
    return GRADING_PHRASES[measure.slice('grading.'.length)] ?? measure;
  }
  if (measure.startsWith('message_checks.')) {
    const name = measure.slice('message_checks.'.length);
    return MESSAGE_CHECK_PHRASES[name] ?? `passes message check ${name}`;
  }
  return MEASURE_PHRASES[measure as RateMeasure] ?? measure;
}

/** The power every verdict and warning assume (at VERDICT_ALPHA). */
export const VERDICT_POWER = 0.8;
/** Above this many runs a side, the exact power search is skipped: differences of a few points are detectable there. */
export const MAX_POWER_RUNS = 200;

/** One line per rate that differs between a condition and the baseline (benchmark.json's `verdicts`). */
export type Verdict = NonNullable<BenchmarkFile['verdicts']>[number];

/** How few runs a comparison has, and what they can detect (benchmark.json's `power_warnings`). */
export type PowerWarning = NonNullable<BenchmarkFile['power_warnings']>[number];

type BenchmarkFile = DeepReadonly<Benchmark.BenchmarkFile>;

const cache = new Map<string, number | null>();

/** minimumDetectableDifference at the verdicts' alpha and power, remembered (a report asks the same often). */
export function detectable(n1: number, n2: number, baseline: number): number | null {
  if (n1 <= 0 || n2 <= 0 || n1 > MAX_POWER_RUNS || n2 > MAX_POWER_RUNS) return null;
  const key = `${n1}/${n2}/${baseline}`;
  if (!cache.has(key)) {
    cache.set(
      key,
      minimumDetectableDifference(n1, n2, { alpha: VERDICT_ALPHA, power: VERDICT_POWER, baseline }),
    );
  }
  return cache.get(key)!;
}

function verdictOf(
  cmp: Comparison,
  measure: string,
  d: RateDifference,
  other: RateStats,
  base: RateStats,
  strata: readonly EvalStratum[] = [],
): Verdict | null {
  if (d.difference === null || other.rate === null || base.rate === null) return null;
  const within = withinEvals(strata, d, VERDICT_ALPHA);
  const difference = within?.difference ?? d.difference;
  if (difference === 0 && d.difference === 0) return null;
  const ci = within?.ci95 ?? d.ci95 ?? null;
  const p = within?.p_value ?? d.p_value;
  // Decided exactly from the counts: p at exactly 1/20 is not below 0.05, whatever its double.
  const below =
    within?.below ??
    fisherBelow(
      other.successes,
      other.n - other.successes,
      base.successes,
      base.n - base.successes,
      VERDICT_ALPHA,
    ) === true;
  const excludesZero = ci !== null && (ci[0] > 0 || ci[1] < 0);
  // Stated as a difference only when the test and the interval both say so.
  const significant = below && excludesZero;
  const mdd = detectable(other.n, base.n, base.rate);
  const beyond = other.n > MAX_POWER_RUNS || base.n > MAX_POWER_RUNS;
  // Only a difference that could be chance needs the warning: a detected one was detected.
  const underpowered = !significant && !beyond && (mdd === null || Math.abs(difference) < mdd);
  const how = within ? ` within evals ${pts(difference)}` : ` ${pts(difference)}`;
  let text = `${cmp.condition} ${phraseOf(measure)} in ${pct(other.rate)} vs ${pct(base.rate)} of runs,${how}${intervalWords(ci)}, ${formatVerdictP(p, below)}`;
  if (!significant)
    text += below ? ' (could be chance: its interval reaches 0)' : ' (could be chance)';
  if (within) text += pooledClause(within.record, difference);
  if (underpowered) {
    // The power is Fisher's over the pooled runs: a guide to how few they are, within evals too.
    const test = `80% power, p < 0.05${within ? ", Fisher's test over the pooled runs" : ''}`;
    text +=
      mdd === null
        ? `; with ${runsWords(other.n, base.n)} no difference from a baseline at ${pct(base.rate)} can be detected (${test})`
        : `; with ${runsWords(other.n, base.n)} only differences of ≥ ${Math.ceil(mdd * 100)} pts from a baseline at ${pct(base.rate)} can be detected (${test})`;
  }
  if (within) text += methodClause(within.record, within.test);
  return {
    condition: cmp.condition,
    baseline: cmp.baseline,
    measure,
    condition_rate: other.rate,
    baseline_rate: base.rate,
    condition_n: other.n,
    baseline_n: base.n,
    difference,
    ci95: ci,
    p_value: p,
    significant,
    detectable: mdd,
    underpowered,
    test: within?.test ?? 'fisher_exact',
    ...(within ? { stratified: within.record } : {}),
    text,
  };
}

const NO_RUNS: RateStats = { rate: null, successes: 0, n: 0, ci95: null };

/** A group of one (eval, condition), as benchmark.json's `evals` holds it. */
export type EvalGroup = Pick<
  BenchmarkFile['evals'][number],
  'eval' | 'condition' | 'measures' | 'message_checks'
>;

/** Each (eval, condition)'s rate of one measure (`evals` of benchmark.json). */
function evalRates(evals: readonly EvalGroup[], rate: (g: EvalGroup) => RateStats): EvalRate[] {
  return evals.map((g) => ({ eval: g.eval, condition: g.condition, rate: rate(g) }));
}

/**
 * One verdict per rate that differs between a condition and its baseline,
 * the clearest first (smallest p). Rates equal on both sides, or unknown on
 * one, say nothing and get no line. With `evals` (benchmark.json's per (eval,
 * condition) groups) holding several evals with runs of both conditions, a
 * line is tested within evals.
 *
 * @example
 * verdicts(comparisons, stats)[0].text;
 * // 'with_skill opens a draft PR at hand over in 100% vs 0% of runs, +100 pts [61, 100], p < 0.001'
 */
export function verdicts(
  comparisons: readonly Comparison[],
  groups: ReadonlyMap<string, Pick<GroupStats, 'measures' | 'message_checks'>>,
  grading?: GradingSection,
  evals: readonly EvalGroup[] = [],
): Verdict[] {
  const out: Verdict[] = [];
  for (const cmp of comparisons) {
    const base = groups.get(cmp.baseline);
    const other = groups.get(cmp.condition);
    if (!base || !other) continue;
    const strata = (rates: EvalRate[]) => strataOf(rates, cmp.condition, cmp.baseline);
    for (const m of RATE_MEASURES) {
      const within = strata(evalRates(evals, (g) => g.measures[m]));
      const v = verdictOf(cmp, m, cmp.measures[m], other.measures[m], base.measures[m], within);
      if (v) out.push(v);
    }
    for (const name of messageCheckNames([base, other])) {
      const d = cmp.message_checks?.[name];
      if (!d) continue;
      const v = verdictOf(
        cmp,
        `message_checks.${name}`,
        d,
        other.message_checks?.[name] ?? NO_RUNS,
        base.message_checks?.[name] ?? NO_RUNS,
        strata(evalRates(evals, (g) => g.message_checks?.[name] ?? NO_RUNS)),
      );
      if (v) out.push(v);
    }
    out.push(...gradingVerdicts(cmp, grading));
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
  const v = verdictOf(
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
