/**
 * Tests of a difference between two conditions within strata (evals), not over their runs
 * pooled: each stratum is a 2x2 table, condition against baseline, successes against failures.
 * Under no difference in any stratum, and with every stratum's margins fixed, the condition's
 * successes in each stratum are hypergeometric and independent; their sum S is the test's
 * statistic (Cochran, Mantel and Haenszel's).
 *
 * - exact: S's distribution is the convolution of the strata's hypergeometric weights, summed
 *   in whole numbers; p sums the outcomes at most as likely as the one seen (the two-sided rule
 *   of Fisher's test, which this is with one stratum: the exact conditional test of a common
 *   odds ratio of 1, Mehta, Patel and Gray 1985).
 * - corrected: past the exact test's reach, Mantel and Haenszel's chi-square with the
 *   continuity correction, (|S − E(S)| − 1/2)² / Var(S), one degree of freedom.
 */
import { chiSquare1Survival } from './chi-square.js';
import {
  fractionBelow,
  fractionValue,
  hypergeometricWeights,
  tailFraction,
  type Fraction,
} from './fisher.js';

/** One stratum: x1 successes of n1 runs of the condition, x2 of n2 of the baseline. */
export interface Stratum {
  readonly x1: number;
  readonly n1: number;
  readonly x2: number;
  readonly n2: number;
}

/** Whether a stratum tells of the difference: it has runs of both conditions. */
export function informative(s: Stratum): boolean {
  return s.n1 > 0 && s.n2 > 0;
}

/** The products of whole numbers the exact test may take: tens of milliseconds at most. */
export const EXACT_CMH_MAX_COST = 50_000;

/** How many products of whole numbers the exact test's convolution takes. */
export function exactCmhCost(strata: readonly Stratum[]): number {
  let length = 1;
  let cost = 0;
  for (const s of strata.filter(informative)) {
    const t = s.x1 + s.x2;
    const support = Math.min(s.n1, t) - Math.max(0, t - s.n2) + 1;
    cost += length * support;
    length += support - 1;
  }
  return cost;
}

function convolve(a: readonly bigint[], b: readonly bigint[]): bigint[] {
  const out = new Array<bigint>(a.length + b.length - 1).fill(0n);
  for (let i = 0; i < a.length; i++) {
    const ai = a[i]!;
    if (ai === 0n) continue;
    for (let j = 0; j < b.length; j++) out[i + j]! += ai * b[j]!;
  }
  return out;
}

/**
 * The exact conditional test's two-sided p as a fraction. null when no stratum has runs of
 * both conditions.
 *
 * @example
 * exactCmhFraction([{ x1: 2, n1: 4, x2: 0, n2: 12 }]); // 6/120: Fisher's p of that table
 */
export function exactCmhFraction(strata: readonly Stratum[]): Fraction | null {
  const used = strata.filter(informative);
  if (used.length === 0) return null;
  let distribution: bigint[] = [1n];
  let lo = 0;
  let observed = 0;
  for (const s of used) {
    const table = hypergeometricWeights(s.n1, s.n2, s.x1 + s.x2);
    distribution = convolve(distribution, table.weights);
    lo += table.lo;
    observed += s.x1;
  }
  return tailFraction(distribution, observed - lo);
}

/** Mantel and Haenszel's statistic with the continuity correction, and its chi-square p. */
export function cmhChiSquare(
  strata: readonly Stratum[],
): { statistic: number; p_value: number } | null {
  const used = strata.filter(informative);
  if (used.length === 0) return null;
  let delta = 0;
  let variance = 0;
  for (const s of used) {
    const n = s.n1 + s.n2;
    const t = s.x1 + s.x2;
    delta += s.x1 - (s.n1 * t) / n;
    variance += (s.n1 * s.n2 * t * (n - t)) / (n * n * (n - 1));
  }
  // Every stratum's outcome fixed by its margins (all successes, or none): nothing to test.
  if (variance === 0) return { statistic: 0, p_value: 1 };
  // The half is taken off only where it does not carry |S − E(S)| across 0, as is usual.
  const correction = Math.abs(delta) >= 0.5 ? 0.5 : 0;
  const statistic = (Math.abs(delta) - correction) ** 2 / variance;
  return { statistic, p_value: chiSquare1Survival(statistic) };
}

/** The test a stratified p comes from. */
export type StratifiedTest = 'cmh_exact' | 'cmh_corrected';

/** A stratified p, with whether it is below alpha (decided exactly for the exact test). */
export interface StratifiedP {
  readonly test: StratifiedTest;
  readonly p_value: number;
  readonly below: boolean;
}

/**
 * The test of no difference within strata: exact when its convolution costs at most
 * EXACT_CMH_MAX_COST products (a few hundred runs; more when the rates are near 0 or 1),
 * else the corrected chi-square, whose approximation such counts make good. null when no
 * stratum has runs of both conditions.
 */
export function cmhTest(strata: readonly Stratum[], alpha: number): StratifiedP | null {
  if (exactCmhCost(strata) <= EXACT_CMH_MAX_COST) {
    const p = exactCmhFraction(strata);
    if (p === null) return null;
    return { test: 'cmh_exact', p_value: fractionValue(p), below: fractionBelow(p, alpha) };
  }
  const chi = cmhChiSquare(strata);
  if (chi === null) return null;
  return { test: 'cmh_corrected', p_value: chi.p_value, below: chi.p_value < alpha };
}
