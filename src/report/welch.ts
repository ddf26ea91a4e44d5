/**
 * Welch's interval on the difference of two means: no assumption that the two
 * campaigns' runs spread alike, and the t quantile at the Welch–Satterthwaite
 * degrees of freedom, computed here (Student's t through the regularized
 * incomplete beta function) rather than taken from a table.
 */

/** Summary of a number over runs, as benchmark.json holds it. */
export interface Spread {
  readonly mean: number | null;
  readonly stddev: number | null;
  readonly n: number;
}

/** A difference of means with its Welch 95% interval. */
export interface WelchDifference {
  /** b.mean − a.mean; null when a side has no value. */
  readonly difference: number | null;
  /** null below two runs on a side (no spread to speak of). */
  readonly ci95: [number, number] | null;
  /** Welch–Satterthwaite degrees of freedom; null when there is no interval or no spread at all. */
  readonly df: number | null;
}

// Lanczos approximation (g 7, 9 terms): log Γ to about 15 digits for x > 0.
const LANCZOS = [
  0.9999999999998099, 676.5203681218851, -1259.1392167224028, 771.3234287776531, -176.6150291621406,
  12.507343278686905, -0.13857109526572012, 9.984369578019572e-6, 1.5056327351493116e-7,
];

function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const y = x - 1;
  let sum = LANCZOS[0]!;
  for (let i = 1; i < LANCZOS.length; i++) sum += LANCZOS[i]! / (y + i);
  const t = y + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** Continued fraction of the incomplete beta function (modified Lentz). */
function betaFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 500; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-15) break;
  }
  return h;
}

/** The regularized incomplete beta function I_x(a, b). */
function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(
    logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x),
  );
  // The fraction converges fast on this side of the mean; the other side by symmetry.
  return x < (a + 1) / (a + b + 2)
    ? (front * betaFraction(a, b, x)) / a
    : 1 - (front * betaFraction(b, a, 1 - x)) / b;
}

/** P(T <= t) for Student's t with `df` degrees of freedom (df > 0, fractions allowed). */
export function studentTCdf(t: number, df: number): number {
  const tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

/**
 * The t quantile of a two-sided interval of `level` (0.95: the 97.5th
 * percentile), by bisection on the CDF to 1e-12.
 *
 * @example
 * tQuantile(1); // 12.7062 (rounded)
 * tQuantile(10); // 2.2281 (rounded)
 */
export function tQuantile(df: number, level = 0.95): number {
  const target = 1 - (1 - level) / 2;
  let lo = 0;
  let hi = 1;
  while (studentTCdf(hi, df) < target) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-12; i++) {
    const mid = (lo + hi) / 2;
    if (studentTCdf(mid, df) < target) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * The difference of means b − a with Welch's 95% interval:
 * d ± t(0.975, ν) · √(s_a²/n_a + s_b²/n_b), ν the Welch–Satterthwaite degrees
 * of freedom. Below two runs on a side there is no spread: the interval is
 * null. When neither side varies at all (every run the same number) the
 * interval is the difference itself and df null: the runs give no sign of
 * noise, which is not a proof there is none.
 *
 * @example
 * welchDifference({ mean: 2, stddev: 1, n: 5 }, { mean: 4, stddev: 1, n: 5 });
 * // { difference: 2, ci95: [0.5415, 3.4585], df: 8 } (rounded)
 */
export function welchDifference(a: Spread, b: Spread): WelchDifference {
  if (a.mean === null || b.mean === null) return { difference: null, ci95: null, df: null };
  const difference = b.mean - a.mean;
  if (a.n < 2 || b.n < 2 || a.stddev === null || b.stddev === null)
    return { difference, ci95: null, df: null };
  const va = (a.stddev * a.stddev) / a.n;
  const vb = (b.stddev * b.stddev) / b.n;
  const se2 = va + vb;
  if (se2 === 0) return { difference, ci95: [difference, difference], df: null };
  const df = (se2 * se2) / ((va * va) / (a.n - 1) + (vb * vb) / (b.n - 1));
  const half = tQuantile(df) * Math.sqrt(se2);
  return { difference, ci95: [difference - half, difference + half], df };
}
