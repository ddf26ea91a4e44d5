/**
 * The difference of two rates within strata (evals): Mantel and Haenszel's weighted average
 * of each stratum's difference, and its 95% interval by the method of variance estimates
 * recovery over the strata's Wilson intervals (Zou, Huang and Zhang 2009, "A note on
 * confidence interval estimation for a linear function of binomial proportions", Comput Stat
 * Data Anal 53:1080-1085). With one stratum both are exactly the difference of the two rates
 * and Newcombe's hybrid score interval (newcombeDifference): the same method, over strata.
 */
import { informative, type Stratum } from './cmh.js';
import { wilson } from './stats.js';

/** A difference within strata and its interval, clamped to [−1, 1]. */
export interface StratifiedDifference {
  readonly difference: number;
  readonly ci95: [number, number];
}

/**
 * Mantel and Haenszel's difference, condition minus baseline: Σ w d / Σ w, each stratum's
 * difference d = x1/n1 − x2/n2 weighted by w = n1 n2 / (n1 + n2). Its interval, from each
 * stratum's Wilson intervals [l1, u1] and [l2, u2] and the normalized weights v:
 *
 *   lower = D − √Σ v² ((p1 − l1)² + (u2 − p2)²)
 *   upper = D + √Σ v² ((u1 − p1)² + (p2 − l2)²)
 *
 * Each stratum keeps its own rates' spread (the evals differ in difficulty), and a stratum at
 * 0% or 100% still has a width, where a Wald interval would close to nothing. null when no
 * stratum has runs of both conditions; strata with runs of one condition weigh 0.
 *
 * @example
 * mantelHaenszelDifference([{ x1: 9, n1: 10, x2: 2, n2: 2 }, { x1: 0, n1: 2, x2: 1, n2: 10 }]);
 * // { difference: −0.1, ci95: [−0.3151, 0.3686] } (rounded)
 */
export function mantelHaenszelDifference(strata: readonly Stratum[]): StratifiedDifference | null {
  const used = strata.filter(informative);
  if (used.length === 0) return null;
  const weights = used.map((s) => (s.n1 * s.n2) / (s.n1 + s.n2));
  const total = weights.reduce((a, b) => a + b, 0);
  let difference = 0;
  const below: number[] = [];
  const above: number[] = [];
  used.forEach((s, k) => {
    const v = weights[k]! / total;
    const p1 = s.x1 / s.n1;
    const p2 = s.x2 / s.n2;
    const [l1, u1] = wilson(s.x1, s.n1)!;
    const [l2, u2] = wilson(s.x2, s.n2)!;
    difference += v * (p1 - p2);
    below.push(v * (p1 - l1), v * (u2 - p2));
    above.push(v * (u1 - p1), v * (p2 - l2));
  });
  if (mantelHaenszelSign(used) === 0) difference = 0;
  return {
    difference,
    ci95: [
      Math.max(-1, difference - Math.hypot(...below)),
      Math.min(1, difference + Math.hypot(...above)),
    ],
  };
}

/**
 * The sign of Mantel and Haenszel's difference, decided in whole numbers: Σ (x1 n2 − x2 n1) / N
 * over the strata, each term brought to the product of the N. Differences that cancel are 0,
 * never a rounding's 1e-17 of either sign.
 */
export function mantelHaenszelSign(strata: readonly Stratum[]): -1 | 0 | 1 {
  const used = strata.filter(informative);
  const sizes = used.map((s) => BigInt(s.n1 + s.n2));
  const product = sizes.reduce((a, b) => a * b, 1n);
  let sum = 0n;
  used.forEach((s, k) => {
    sum += (BigInt(s.x1 * s.n2 - s.x2 * s.n1) * product) / sizes[k]!;
  });
  return sum > 0n ? 1 : sum < 0n ? -1 : 0;
}
