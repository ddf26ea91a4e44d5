/**
 * One verdict line: a rate's difference between a condition and its baseline with its 95%
 * interval, p and the rates in plain words, tested within evals when the strata allow it, and
 * what the runs could have detected where they are too few.
 */
import type { DeepReadonly } from '../artifacts/index.js';
import type * as Benchmark from '../artifacts/schemas/benchmark.js';
import type { Comparison, RateDifference } from './benchmark.js';
import { fisherBelow, minimumDetectableDifference, type RateStats } from './stats.js';
import { withinEvals, type EvalStratum } from './stratify.js';
import { phraseOf } from './verdict-phrases.js';
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

/** The power every verdict and warning assume (at VERDICT_ALPHA). */
export const VERDICT_POWER = 0.8;
/** Above this many runs a side, the exact power search is skipped: differences of a few points are detectable there. */
export const MAX_POWER_RUNS = 200;

/** One line per rate that differs between a condition and the baseline (benchmark.json's `verdicts`). */
export type Verdict = NonNullable<BenchmarkFile['verdicts']>[number];

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

/**
 * The verdict line of one rate of a comparison, or null when it does not differ or is unknown
 * on a side. With `strata` (each eval's rates), the difference is tested within evals.
 */
export function verdictLine(
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
