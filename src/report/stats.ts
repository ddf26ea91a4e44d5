/**
 * The statistics of the report, small and exact enough to check against
 * published values: Wilson score intervals for rates, Newcombe's interval on
 * the difference of two rates, the exact minimum detectable difference of
 * Fisher's test (./fisher.ts) at a number of runs, and Welford's running mean
 * and variance for numbers.
 */
import type { DeepReadonly } from '../artifacts/readonly.js';
import type * as Benchmark from '../artifacts/schemas/benchmark.js';
import { fisherBelow } from './fisher.js';

export {
  fisherBelow,
  fisherExact,
  fisherExactFraction,
  fractionBelow,
  fractionValue,
  hypergeometricWeights,
  tailFraction,
  type Fraction,
} from './fisher.js';

/** The normal quantile of a two-sided 95% interval. */
const Z95 = 1.959963984540054;

/**
 * Wilson score interval of `successes` out of `n`, clamped to [0, 1]. null
 * when n is 0 (nothing to estimate).
 *
 * @example
 * wilson(8, 10); // [0.4902, 0.9433] (rounded)
 */
export function wilson(successes: number, n: number, z = Z95): [number, number] | null {
  if (n <= 0) return null;
  const p = successes / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  // At 0 and n the bound is exactly 0 or 1; rounding would leave 1e-16 off.
  return [
    successes === 0 ? 0 : Math.max(0, centre - half),
    successes === n ? 1 : Math.min(1, centre + half),
  ];
}

const logFactorials: number[] = [0];

function logFactorial(k: number): number {
  for (let i = logFactorials.length; i <= k; i++) {
    logFactorials.push(logFactorials[i - 1]! + Math.log(i));
  }
  return logFactorials[k]!;
}

/**
 * fisherBelow for the power search, which asks it of every table: Fisher's p in floating
 * point, with the tables whose likelihood ties the observed one up to rounding kept apart;
 * only when alpha falls within what rounding and those ties leave open is it decided exactly.
 */
function fisherRejects(a: number, b: number, c: number, d: number, alpha: number): boolean {
  const row1 = a + b;
  const row2 = c + d;
  const col1 = a + c;
  const n = row1 + row2;
  const base =
    logFactorial(row1) +
    logFactorial(row2) +
    logFactorial(col1) +
    logFactorial(n - col1) -
    logFactorial(n);
  const logP = (x: number): number =>
    base -
    logFactorial(x) -
    logFactorial(row1 - x) -
    logFactorial(col1 - x) -
    logFactorial(row2 - col1 + x);
  const observed = logP(a);
  const tolerance = 1e-7;
  let p = 0;
  let ties = 0;
  for (let x = Math.max(0, col1 - row2); x <= Math.min(row1, col1); x++) {
    const lp = logP(x);
    if (lp > observed + tolerance) continue;
    p += Math.exp(lp);
    if (x !== a && lp > observed - tolerance) ties += Math.exp(lp);
  }
  const slack = alpha * 1e-9;
  if (p + slack < alpha) return true;
  if (p - ties - slack >= alpha) return false;
  return fisherBelow(a, b, c, d, alpha)!;
}

/**
 * 95% interval on the difference of two rates p1 - p2 (x1 of n1 against x2
 * of n2) by Newcombe's hybrid score method (method 10 of Newcombe 1998,
 * "Interval estimation for the difference between independent proportions:
 * comparison of eleven methods", Stat Med 17:873-890), built from the two
 * Wilson intervals [l1, u1] and [l2, u2]:
 *
 *   lower = d - sqrt((p1 - l1)^2 + (u2 - p2)^2)
 *   upper = d + sqrt((u1 - p1)^2 + (p2 - l2)^2)
 *
 * It stays inside [-1, 1] and behaves at 0 and n, where the simple Wald
 * interval collapses. null when a side has n 0.
 *
 * @example
 * // The worked examples of Newcombe 1998, table II, method 10 (rounded):
 * newcombeDifference(56, 70, 48, 80); // [0.0524, 0.3339]
 * newcombeDifference(9, 10, 3, 10); // [0.1705, 0.8090]
 * newcombeDifference(5, 56, 0, 29); // [-0.0381, 0.1926]
 * newcombeDifference(0, 10, 0, 20); // [-0.1611, 0.2775]
 * newcombeDifference(10, 10, 0, 20); // [0.6791, 1]
 * // Edge cases: all against none, and none against all.
 * newcombeDifference(10, 10, 0, 10); // [0.6075, 1]
 * newcombeDifference(0, 10, 10, 10); // [-1, -0.6075]
 * newcombeDifference(5, 5, 0, 5); // [0.3855, 1]
 */
export function newcombeDifference(
  x1: number,
  n1: number,
  x2: number,
  n2: number,
  z = Z95,
): [number, number] | null {
  const w1 = wilson(x1, n1, z);
  const w2 = wilson(x2, n2, z);
  if (w1 === null || w2 === null) return null;
  const p1 = x1 / n1;
  const p2 = x2 / n2;
  const d = p1 - p2;
  const lower = d - Math.hypot(p1 - w1[0], w2[1] - p2);
  const upper = d + Math.hypot(w1[1] - p1, p2 - w2[0]);
  return [Math.max(-1, lower), Math.min(1, upper)];
}

/** What minimumDetectableDifference assumes. */
export interface DetectableOptions {
  /** Fisher's two-sided p below which a difference counts as detected. 0.05 unless given. */
  readonly alpha?: number;
  /** The chance of detecting it asked for. 0.8 unless given. */
  readonly power?: number;
  /**
   * The true rate of the baseline condition (the n2 side). 0.5 unless given:
   * the worst case, where a rate varies most from run to run. Pass the
   * baseline's observed rate to ask about this campaign.
   */
  readonly baseline?: number;
}

/** Binomial probabilities of 0..n successes at rate p, exact at p 0 and 1. */
function binomialPmf(n: number, p: number): number[] {
  const out: number[] = [];
  for (let k = 0; k <= n; k++) {
    if (p === 0 || p === 1) {
      out.push((p === 1 ? k === n : k === 0) ? 1 : 0);
      continue;
    }
    const logC = logFactorial(n) - logFactorial(k) - logFactorial(n - k);
    out.push(Math.exp(logC + k * Math.log(p) + (n - k) * Math.log(1 - p)));
  }
  return out;
}

/**
 * Power of Fisher's test against a baseline at rate p2, as a function of the condition's rate
 * p1. The baseline's side is summed once (for each x1, the chance that its row rejects), so
 * each p1 the search tries costs n1, not n1 × n2.
 */
function fisherPowerFrom(
  rejects: boolean[][],
  n1: number,
  n2: number,
  p2: number,
): (p1: number) => number {
  const b2 = binomialPmf(n2, p2);
  const rejectedGiven: number[] = [];
  for (let x1 = 0; x1 <= n1; x1++) {
    let sum = 0;
    for (let x2 = 0; x2 <= n2; x2++) if (rejects[x1]![x2]) sum += b2[x2]!;
    rejectedGiven.push(sum);
  }
  return (p1) => {
    const b1 = binomialPmf(n1, p1);
    let power = 0;
    for (let x1 = 0; x1 <= n1; x1++) power += b1[x1]! * rejectedGiven[x1]!;
    return power;
  };
}

/** The smallest step away from the baseline, in one direction, that reaches the power. */
function smallestStep(
  powerAt: (p1: number) => number,
  baseline: number,
  direction: 1 | -1,
  power: number,
): number | null {
  const room = direction === 1 ? 1 - baseline : baseline;
  const steps = 1000;
  let prev = 0;
  for (let i = 1; i <= steps; i++) {
    const d = (room * i) / steps;
    if (powerAt(baseline + direction * d) >= power) {
      // Bisect between the last step below the power and this one.
      let lo = prev;
      let hi = d;
      for (let j = 0; j < 40; j++) {
        const mid = (lo + hi) / 2;
        if (powerAt(baseline + direction * mid) >= power) hi = mid;
        else lo = mid;
      }
      return hi;
    }
    prev = d;
  }
  return null;
}

/**
 * The minimum detectable difference: the smallest difference in rates
 * |p1 - p2| that Fisher's exact test (two-sided, p < alpha) detects with the
 * given power when the condition has n1 runs and the baseline n2, the
 * baseline's true rate being `baseline`. Computed exactly: for each candidate
 * rate p1 the power is the sum, over every outcome (x1 of n1, x2 of n2), of
 * its binomial probability where the test on that table rejects; p1 moves away
 * from the baseline, up and down, in steps of 1/1000 of the room left and the
 * first step that reaches the power is bisected to 1e-9. The smaller of the
 * two directions is returned.
 *
 * null when a side has no runs, or when no rate in [0, 1] reaches the power:
 * with 5 runs per condition and a baseline of 0.5 not even 100% against 50%
 * is detected 80% of the time.
 *
 * @example
 * // Baseline 0.5, the worst case:
 * minimumDetectableDifference(5, 5); // null
 * minimumDetectableDifference(10, 10); // null (100% against 50% is detected 62% of the time)
 * minimumDetectableDifference(30, 30); // 0.3570 (rounded)
 * // Baseline 0, a behaviour the baseline never shows:
 * minimumDetectableDifference(5, 5, { baseline: 0 }); // 0.8314 (rounded)
 * minimumDetectableDifference(10, 10, { baseline: 0 }); // 0.5809 (rounded)
 * minimumDetectableDifference(30, 30, { baseline: 0 }); // 0.2507 (rounded)
 */
export function minimumDetectableDifference(
  n1: number,
  n2: number,
  options: DetectableOptions = {},
): number | null {
  const baseline = options.baseline ?? 0.5;
  if (n1 <= 0 || n2 <= 0) return null;
  if (!(baseline >= 0 && baseline <= 1)) {
    throw new RangeError(`baseline rate must be in [0, 1], got ${baseline}`);
  }
  return detectableAt(rejectTable(n1, n2, options.alpha ?? 0.05), baseline, options.power ?? 0.8);
}

/** Which tables (x1 of n1, x2 of n2) the test rejects: it does not depend on the rates. */
function rejectTable(n1: number, n2: number, alpha: number): boolean[][] {
  const rejects: boolean[][] = [];
  for (let x1 = 0; x1 <= n1; x1++) {
    const row: boolean[] = [];
    for (let x2 = 0; x2 <= n2; x2++) row.push(fisherRejects(x1, n1 - x1, x2, n2 - x2, alpha));
    rejects.push(row);
  }
  return rejects;
}

/** The minimum detectable difference from `baseline`, given the rejected tables. */
function detectableAt(rejects: boolean[][], baseline: number, power: number): number | null {
  const n1 = rejects.length - 1;
  const n2 = rejects[0]!.length - 1;
  const powerOf = fisherPowerFrom(rejects, n1, n2, baseline);
  const powerAt = (p1: number): number => powerOf(Math.min(1, Math.max(0, p1)));
  const steps = [
    smallestStep(powerAt, baseline, 1, power),
    smallestStep(powerAt, baseline, -1, power),
  ];
  const found = steps.filter((s): s is number => s !== null);
  return found.length === 0 ? null : Math.min(...found);
}

/**
 * The baseline rates the worst case is sought over: 0% to 50% by 5 points (a baseline b and
 * 1 − b detect alike). 50% is not the worst: at 20 to 30 runs a side, 25% is.
 */
export const BASELINE_GRID: readonly number[] = Array.from({ length: 11 }, (_, i) => i / 20);

/** A baseline rate, and the minimum detectable difference from it (null: nothing). */
export interface WorstDetectable {
  readonly baseline: number;
  readonly difference: number | null;
}

/**
 * The minimum detectable difference from each baseline of BASELINE_GRID, in its order (0% to
 * 50%), with one table of rejections for all. null when a side has no runs.
 */
export function detectableGrid(
  n1: number,
  n2: number,
  options: Omit<DetectableOptions, 'baseline'> = {},
): WorstDetectable[] | null {
  if (n1 <= 0 || n2 <= 0) return null;
  const rejects = rejectTable(n1, n2, options.alpha ?? 0.05);
  return BASELINE_GRID.map((baseline) => ({
    baseline,
    difference: detectableAt(rejects, baseline, options.power ?? 0.8),
  }));
}

/**
 * The hardest baseline of a grid's results: the largest difference, none detectable counting
 * as the largest; of equals, the baseline nearest 50%.
 */
export function hardestOf(grid: readonly WorstDetectable[]): WorstDetectable {
  let worst: WorstDetectable | undefined;
  for (const at of [...grid].reverse()) {
    if (at.difference === null) return at;
    if (worst === undefined || at.difference > worst.difference!) worst = at;
  }
  return worst!;
}

/**
 * The largest minimum detectable difference over BASELINE_GRID (see hardestOf): what these
 * runs can promise whatever the baseline's true rate. null when a side has no runs.
 *
 * @example
 * worstDetectableDifference(20, 20); // { baseline: 0.25, difference: 0.4824 } (rounded)
 * worstDetectableDifference(10, 10); // { baseline: 0.5, difference: null }
 */
export function worstDetectableDifference(
  n1: number,
  n2: number,
  options: Omit<DetectableOptions, 'baseline'> = {},
): WorstDetectable | null {
  const grid = detectableGrid(n1, n2, options);
  return grid === null ? null : hardestOf(grid);
}

/** A rate over runs: how many of the runs where the measure is known held it (benchmark.json's `rate`). */
export type RateStats = DeepReadonly<Benchmark.Rate>;

/** A number over runs. stddev is the sample one (n - 1); null below two values. */
export type NumberStats = DeepReadonly<Benchmark.Number>;

/** Counts successes over known values; nulls are not runs of the measure. */
export class RateAccumulator {
  successes = 0;
  n = 0;

  add(value: boolean | null): void {
    if (value === null) return;
    this.n++;
    if (value) this.successes++;
  }

  stats(): RateStats {
    return {
      rate: this.n === 0 ? null : this.successes / this.n,
      successes: this.successes,
      n: this.n,
      ci95: wilson(this.successes, this.n),
    };
  }
}

/** Welford's online mean and variance: one pass, constant memory, stable. */
export class NumberAccumulator {
  n = 0;
  private mean = 0;
  private m2 = 0;
  private min = Infinity;
  private max = -Infinity;

  add(value: number | null): void {
    if (value === null || !Number.isFinite(value)) return;
    this.n++;
    const delta = value - this.mean;
    this.mean += delta / this.n;
    this.m2 += delta * (value - this.mean);
    if (value < this.min) this.min = value;
    if (value > this.max) this.max = value;
  }

  stats(): NumberStats {
    if (this.n === 0) return { mean: null, stddev: null, min: null, max: null, n: 0 };
    return {
      mean: this.mean,
      stddev: this.n < 2 ? null : Math.sqrt(this.m2 / (this.n - 1)),
      min: this.min,
      max: this.max,
      n: this.n,
    };
  }
}
