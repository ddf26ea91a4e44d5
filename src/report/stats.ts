/**
 * The statistics of the report, small and exact enough to check against
 * published values: Wilson score intervals for rates, Fisher's exact test for
 * two rates, Welford's running mean and variance for numbers.
 */

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
 * Two-sided p-value of Fisher's exact test on the 2x2 table
 * [[a, b], [c, d]]: the probability, with the margins fixed, of a table at
 * most as likely as the one seen. null when a row or column is empty of runs
 * on one side (a condition with n 0).
 *
 * @example
 * fisherExact(3, 1, 1, 3); // 0.4857 (rounded)
 */
export function fisherExact(a: number, b: number, c: number, d: number): number | null {
  const row1 = a + b;
  const row2 = c + d;
  if (row1 === 0 || row2 === 0) return null;
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
  const lo = Math.max(0, col1 - row2);
  const hi = Math.min(row1, col1);
  // Tables as likely as the observed one, up to rounding, count as at most as likely.
  const tolerance = 1e-7;
  let p = 0;
  for (let x = lo; x <= hi; x++) {
    const lp = logP(x);
    if (lp <= observed + tolerance) p += Math.exp(lp);
  }
  return Math.min(1, p);
}

/** A rate over runs: how many of the runs where the measure is known held it. */
export interface RateStats {
  readonly rate: number | null;
  readonly successes: number;
  readonly n: number;
  readonly ci95: [number, number] | null;
}

/** A number over runs. stddev is the sample one (n - 1); null below two values. */
export interface NumberStats {
  readonly mean: number | null;
  readonly stddev: number | null;
  readonly min: number | null;
  readonly max: number | null;
  readonly n: number;
}

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
