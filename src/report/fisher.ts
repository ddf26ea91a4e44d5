/**
 * Exact tests of rates with the margins fixed, in whole numbers: the hypergeometric weights
 * of a 2x2 table, Fisher's exact test as a fraction, and fractions compared with a decimal
 * threshold as its text says. A p exactly at 1/20 is never below 0.05.
 */

/** An exact fraction: `num / den`, both non-negative, den > 0. */
export interface Fraction {
  readonly num: bigint;
  readonly den: bigint;
}

/** C(n, k) as a BigInt. */
function binomial(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let out = 1n;
  for (let i = 1; i <= Math.min(k, n - k); i++) out = (out * BigInt(n - i + 1)) / BigInt(i);
  return out;
}

/**
 * The weights of the tables with fixed margins: x successes in the first row of row1 runs,
 * col1 - x in the second of row2, weight C(row1, x) C(row2, col1 - x), for x from `lo` up.
 * Their sum is C(row1 + row2, col1): each weight over it is the table's hypergeometric chance.
 *
 * @example
 * hypergeometricWeights(2, 2, 2); // { lo: 0, weights: [1n, 4n, 1n] }
 */
export function hypergeometricWeights(
  row1: number,
  row2: number,
  col1: number,
): { lo: number; weights: bigint[] } {
  const lo = Math.max(0, col1 - row2);
  const hi = Math.min(row1, col1);
  // Weights by x, each from the last: C(row1, x + 1) = C(row1, x)(row1 - x)/(x + 1), and
  // C(row2, k - 1) = C(row2, k) k/(row2 - k + 1) with k = col1 - x.
  const weights: bigint[] = [];
  let left = binomial(row1, lo);
  let right = binomial(row2, col1 - lo);
  for (let x = lo; x <= hi; x++) {
    weights.push(left * right);
    const k = col1 - x;
    left = (left * BigInt(row1 - x)) / BigInt(x + 1);
    right = k > 0 ? (right * BigInt(k)) / BigInt(row2 - k + 1) : 0n;
  }
  return { lo, weights };
}

/**
 * The two-sided p of an exact conditional test as a fraction: of the outcomes' weights, the
 * sum of those at most the observed one's over the sum of all (ties count, decided exactly).
 */
export function tailFraction(weights: readonly bigint[], observed: number): Fraction {
  const at = weights[observed]!;
  let num = 0n;
  let den = 0n;
  for (const w of weights) {
    den += w;
    if (w <= at) num += w;
  }
  return { num, den };
}

/**
 * Fisher's exact two-sided p of [[a, b], [c, d]] as an exact fraction: with the margins fixed,
 * table x (x successes in the first row) has weight C(row1, x) C(row2, col1 - x) out of their
 * sum C(n, col1); p sums the weights at most the observed one. Exact, so a table exactly as
 * likely as the observed counts, and a p exactly at 1/20 is never below 0.05. null when a row
 * is empty.
 *
 * @example
 * fisherExactFraction(2, 2, 0, 12); // { num: 6n, den: 120n }: 1/20 exactly
 */
export function fisherExactFraction(a: number, b: number, c: number, d: number): Fraction | null {
  const row1 = a + b;
  const row2 = c + d;
  if (row1 === 0 || row2 === 0) return null;
  const { lo, weights } = hypergeometricWeights(row1, row2, a + c);
  return tailFraction(weights, a - lo);
}

const bits = (v: bigint): number => (v === 0n ? 0 : v.toString(2).length);

/** A fraction as the nearest double (one rounding; 0 only below the doubles' range). */
export function fractionValue(f: Fraction): number {
  if (f.num === 0n) return 0;
  const shift = Math.max(0, 64 - (bits(f.num) - bits(f.den)));
  let value = Number((f.num << BigInt(shift)) / f.den);
  let left = shift;
  for (; left > 1000; left -= 1000) value /= 2 ** 1000;
  return value / 2 ** left;
}

/** A decimal threshold (0.05) as the exact fraction its text says (5/100), not its double. */
function decimalFraction(value: number): Fraction {
  const [whole, part = ''] = String(value).split('.');
  if (!/^\d+$/u.test(whole ?? '') || !/^\d*$/u.test(part)) {
    throw new RangeError(`a threshold must be a plain decimal, got ${value}`);
  }
  return { num: BigInt(`${whole}${part}`), den: 10n ** BigInt(part.length) };
}

/**
 * Two-sided p-value of Fisher's exact test on the 2x2 table [[a, b], [c, d]]: the
 * probability, with the margins fixed, of a table at most as likely as the one seen, computed
 * exactly (see fisherExactFraction) and rounded once. null when a row or column is empty of
 * runs on one side (a condition with n 0). Decide significance with fisherBelow, not by
 * comparing this double.
 *
 * @example
 * fisherExact(3, 1, 1, 3); // 0.4857 (rounded)
 * fisherExact(2, 2, 0, 12); // 0.05 (1/20 exactly)
 */
export function fisherExact(a: number, b: number, c: number, d: number): number | null {
  const p = fisherExactFraction(a, b, c, d);
  return p === null ? null : fractionValue(p);
}

/**
 * Whether Fisher's two-sided p of [[a, b], [c, d]] is below `alpha`, decided exactly: p and
 * alpha (as its decimal text says) are compared as fractions. null when a row is empty.
 *
 * @example
 * fisherBelow(2, 2, 0, 12, 0.05); // false: p is 1/20, not below it
 * fisherBelow(3, 1, 0, 12, 0.05); // true
 */
export function fisherBelow(
  a: number,
  b: number,
  c: number,
  d: number,
  alpha = 0.05,
): boolean | null {
  const p = fisherExactFraction(a, b, c, d);
  return p === null ? null : fractionBelow(p, alpha);
}

/** Whether the fraction p is below `alpha`, as its decimal text says (0.05 is 5/100), exactly. */
export function fractionBelow(p: Fraction, alpha: number): boolean {
  const t = decimalFraction(alpha);
  return p.num * t.den < t.num * p.den;
}
