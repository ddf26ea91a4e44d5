/**
 * A verdict's difference tested within evals: with several evals holding runs of both
 * conditions, each eval is a stratum, and the difference is estimated and tested eval by eval
 * and combined (Mantel-Haenszel's difference, the exact conditional test or CMH's chi-square),
 * never over the runs pooled, which the evals' mix can turn over (Simpson's paradox).
 */
import type { DeepReadonly } from '../artifacts/index.js';
import type * as Benchmark from '../artifacts/schemas/benchmark.js';
import { cmhTest, informative, type Stratum, type StratifiedTest } from './cmh.js';
import { fisherExact } from './fisher.js';
import { mantelHaenszelDifference, mantelHaenszelSign } from './mh-difference.js';
import { newcombeDifference, type RateStats } from './stats.js';
import { perEvalText } from './verdict-words.js';

/** One eval's counts of a measure, condition against baseline. */
export interface EvalStratum extends Stratum {
  readonly eval: string;
}

/** A rate of one (eval, condition). */
export interface EvalRate {
  readonly eval: string;
  readonly condition: string;
  readonly rate: RateStats;
}

/** benchmark.json's verdict `stratified`: what the line says beside its figures. */
export type StratifiedRecord = DeepReadonly<Benchmark.StratifiedDifference>;

/** A difference within evals: the verdict's figures, and the record beside them. */
export interface WithinEvals {
  readonly test: StratifiedTest;
  readonly difference: number;
  readonly ci95: [number, number];
  readonly p_value: number;
  /** p below alpha: decided exactly for the exact test. */
  readonly below: boolean;
  readonly record: StratifiedRecord;
}

/**
 * The strata of a comparison: each eval with runs of the measure, the condition's counts
 * against the baseline's, in the order the evals first come. A side without runs there is n 0.
 */
export function strataOf(
  rates: readonly EvalRate[],
  condition: string,
  baseline: string,
): EvalStratum[] {
  const byEval = new Map<string, { x1: number; n1: number; x2: number; n2: number }>();
  for (const r of rates) {
    if (r.condition !== condition && r.condition !== baseline) continue;
    if (r.rate.n === 0) continue;
    let s = byEval.get(r.eval);
    if (!s) byEval.set(r.eval, (s = { x1: 0, n1: 0, x2: 0, n2: 0 }));
    if (r.condition === condition) {
      s.x1 = r.rate.successes;
      s.n1 = r.rate.n;
    } else {
      s.x2 = r.rate.successes;
      s.n2 = r.rate.n;
    }
  }
  return [...byEval].map(([evalId, s]) => ({ eval: evalId, ...s }));
}

/** One eval's own difference: its rates, Newcombe's interval and Fisher's p. */
function perEval(s: EvalStratum): StratifiedRecord['per_eval'][number] {
  const line = {
    eval: s.eval,
    condition_successes: s.x1,
    condition_n: s.n1,
    baseline_successes: s.x2,
    baseline_n: s.n2,
    difference: s.x1 / s.n1 - s.x2 / s.n2,
    ci95: newcombeDifference(s.x1, s.n1, s.x2, s.n2),
    p_value: fisherExact(s.x1, s.n1 - s.x1, s.x2, s.n2 - s.x2),
  };
  return { ...line, text: perEvalText(line) };
}

/** The pooled difference's sign, in whole numbers: x1/n1 against x2/n2. */
function pooledSign(strata: readonly Stratum[]): -1 | 0 | 1 {
  const sum = (f: (s: Stratum) => number): number => strata.reduce((a, s) => a + f(s), 0);
  const cross = sum((s) => s.x1) * sum((s) => s.n2) - sum((s) => s.x2) * sum((s) => s.n1);
  return cross > 0 ? 1 : cross < 0 ? -1 : 0;
}

/**
 * The difference within evals, or null when fewer than two evals have runs of both
 * conditions: one eval is tested as before, by Fisher's test and Newcombe's interval.
 * `pooled` is the comparison's difference over every run (the evals a side lacks included).
 */
export function withinEvals(
  strata: readonly EvalStratum[],
  pooled: DeepReadonly<Benchmark.RateDifference>,
  alpha: number,
): WithinEvals | null {
  const used = strata.filter(informative);
  if (used.length < 2 || pooled.difference === null) return null;
  const test = cmhTest(used, alpha)!;
  const mh = mantelHaenszelDifference(used)!;
  const within = mantelHaenszelSign(used);
  const over = pooledSign(strata);
  return {
    test: test.test,
    difference: mh.difference,
    ci95: mh.ci95,
    p_value: test.p_value,
    below: test.below,
    record: {
      evals: used.length,
      left_out: strata.filter((s) => !informative(s)).map((s) => s.eval),
      pooled: { difference: pooled.difference, ci95: pooled.ci95, p_value: pooled.p_value },
      simpson: within !== 0 && over !== 0 && within !== over,
      per_eval: used.map(perEval),
    },
  };
}
