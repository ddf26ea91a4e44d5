/** The standard normal distribution: density, distribution function and quantile. */

/** The density of N(0, 1) at x. */
export function normalDensity(x: number): number {
  return Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI);
}

/**
 * erfc(x) by a Chebyshev fit (fractional error below 1.2e-7 everywhere): the tails far out
 * (p of 1e-10) keep their relative precision, where 1 - erf(x) would round them away.
 */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 +
                            t *
                              (-1.13520398 +
                                t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/** P(Z <= x) for Z ~ N(0, 1). */
export function normalCdf(x: number): number {
  return 0.5 * erfc(-x / Math.SQRT2);
}

/** P(Z > x) for Z ~ N(0, 1), precise in the far tail. */
export function normalSurvival(x: number): number {
  return 0.5 * erfc(x / Math.SQRT2);
}

/** The x with P(Z > x) = p, by bisection (0 < p < 1). */
export function normalUpperQuantile(p: number): number {
  let [lo, hi] = [-40, 40];
  for (let i = 0; i < 200 && hi - lo > 1e-12; i++) {
    const mid = (lo + hi) / 2;
    if (normalSurvival(mid) > p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
