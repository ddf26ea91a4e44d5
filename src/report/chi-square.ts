/**
 * The upper tail of the chi-square distribution with one degree of freedom, for the
 * Cochran-Mantel-Haenszel statistic: Q(1/2, x/2), the regularized upper incomplete gamma
 * function, by its series below x/2 = 1.5 and its continued fraction above (both to about
 * 1e-15), rather than from a table.
 */

/** log Γ(1/2) = log √π. */
const LOG_GAMMA_HALF = 0.5 * Math.log(Math.PI);
const EPSILON = 1e-16;
const TINY = 1e-300;

/** P(1/2, y) by its series: converges fast for y < 1.5. */
function lowerSeries(y: number): number {
  const a = 0.5;
  let term = 1 / a;
  let sum = term;
  for (let n = 1; n < 1000; n++) {
    term *= y / (a + n);
    sum += term;
    if (Math.abs(term) < Math.abs(sum) * EPSILON) break;
  }
  return sum * Math.exp(-y + a * Math.log(y) - LOG_GAMMA_HALF);
}

/** Q(1/2, y) by its continued fraction (modified Lentz): converges fast for y > 1.5. */
function upperFraction(y: number): number {
  const a = 0.5;
  let b = y + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 1000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPSILON) break;
  }
  return Math.exp(-y + a * Math.log(y) - LOG_GAMMA_HALF) * h;
}

/**
 * P(X > x) for X chi-square with one degree of freedom: the two-sided p of a normal statistic
 * z with z² = x.
 *
 * @example
 * chiSquare1Survival(3.841458820694124); // 0.05 (rounded)
 * chiSquare1Survival(1); // 0.3173 (rounded): 2(1 − Φ(1))
 */
export function chiSquare1Survival(x: number): number {
  if (!(x > 0)) return 1;
  const y = x / 2;
  return y < 1.5 ? Math.max(0, 1 - lowerSeries(y)) : upperFraction(y);
}
