import { expect } from 'chai';
import { chiSquare1Survival } from '../../../src/report/chi-square.js';
import {
  cmhChiSquare,
  cmhTest,
  EXACT_CMH_MAX_COST,
  exactCmhCost,
  exactCmhFraction,
  type Stratum,
} from '../../../src/report/cmh.js';
import { fisherExactFraction, fractionValue } from '../../../src/report/fisher.js';

/**
 * Agresti (Categorical Data Analysis, 1990, pp. 231-237): penicillin injected at once or 1.5
 * hours late, rabbits cured or dead, at five penicillin levels. Published: Mantel-Haenszel's
 * statistic 3.93 with its continuity correction, p 0.047; the exact conditional test's p 0.040,
 * one-sided (a higher cure rate at once) 0.020.
 */
const RABBITS: Stratum[] = [
  [0, 6, 0, 5],
  [3, 3, 0, 6],
  [6, 0, 2, 4],
  [5, 1, 6, 0],
  [2, 0, 5, 0],
].map(([cured, died, curedLate, diedLate]) => ({
  x1: cured!,
  n1: cured! + died!,
  x2: curedLate!,
  n2: curedLate! + diedLate!,
}));

/** C(n, k) from its definition, as a BigInt: n! / (k! (n − k)!). */
function choose(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  const factorial = (m: number): bigint => {
    let out = 1n;
    for (let i = 2; i <= m; i++) out *= BigInt(i);
    return out;
  };
  return factorial(n) / (factorial(k) * factorial(n - k));
}

/**
 * The exact test by brute force: every table of every stratum with its margins, each
 * combination's weight the product of C(n1, x) C(n2, t − x), binned by the sum of the x; p sums
 * the bins at most as heavy as the observed sum's (two-sided), or those at or above it (greater).
 */
function bruteForce(strata: readonly Stratum[]): { two: number; greater: number } {
  const used = strata.filter((s) => s.n1 > 0 && s.n2 > 0);
  const bins = new Map<number, bigint>();
  const walk = (k: number, sum: number, weight: bigint): void => {
    if (k === used.length) {
      bins.set(sum, (bins.get(sum) ?? 0n) + weight);
      return;
    }
    const s = used[k]!;
    const t = s.x1 + s.x2;
    for (let x = 0; x <= s.n1; x++) {
      const w = choose(s.n1, x) * choose(s.n2, t - x);
      if (w > 0n) walk(k + 1, sum + x, weight * w);
    }
  };
  walk(0, 0, 1n);
  const observed = used.reduce((a, s) => a + s.x1, 0);
  const at = bins.get(observed)!;
  let all = 0n;
  let two = 0n;
  let greater = 0n;
  for (const [sum, w] of bins) {
    all += w;
    if (w <= at) two += w;
    if (sum >= observed) greater += w;
  }
  return {
    two: fractionValue({ num: two, den: all }),
    greater: fractionValue({ num: greater, den: all }),
  };
}

/** A small, fixed pseudo-random sequence (a linear congruential generator), so runs agree. */
function numbers(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('stratified tests (Cochran-Mantel-Haenszel)', () => {
  it("chiSquare1Survival gives the chi-square's known tails", () => {
    expect(chiSquare1Survival(3.841458820694124)).to.be.closeTo(0.05, 1e-14);
    expect(chiSquare1Survival(6.634896601021214)).to.be.closeTo(0.01, 1e-14);
    // 2(1 − Φ(1)) and 2(1 − Φ(√10)).
    expect(chiSquare1Survival(1)).to.be.closeTo(0.31731050786291415, 1e-14);
    expect(chiSquare1Survival(10)).to.be.closeTo(0.0015654022580025495, 1e-16);
    expect(chiSquare1Survival(0)).to.equal(1);
  });

  it("gives the published figures of Agresti's penicillin and rabbits", () => {
    const chi = cmhChiSquare(RABBITS)!;
    expect(chi.statistic).to.be.closeTo(3.93, 0.005);
    expect(chi.p_value).to.be.closeTo(0.047, 0.0005);
    const exact = fractionValue(exactCmhFraction(RABBITS)!);
    expect(exact).to.be.closeTo(0.04, 0.0005);
    // The brute force gives them too, one-sided as well: it is a reference for the rest.
    const brute = bruteForce(RABBITS);
    expect(brute.two).to.be.closeTo(0.04, 0.0005);
    expect(brute.greater).to.be.closeTo(0.02, 0.0005);
    expect(exact).to.equal(brute.two);
    expect(cmhTest(RABBITS, 0.05)).to.deep.equal({
      test: 'cmh_exact',
      p_value: exact,
      below: true,
    });
  });

  it('computes the statistic as its definition says: (|S − E| − 1/2)² / Var', () => {
    // Hand-computed from the five tables: S = 16, E(S) = Σ n1 t / N, Var = Σ n1 n2 t (N − t) / (N² (N − 1)).
    let e = 0;
    let v = 0;
    for (const s of RABBITS) {
      const n = s.n1 + s.n2;
      const t = s.x1 + s.x2;
      e += (s.n1 * t) / n;
      v += (s.n1 * s.n2 * t * (n - t)) / (n * n * (n - 1));
    }
    expect(cmhChiSquare(RABBITS)!.statistic).to.be.closeTo(
      (Math.abs(16 - e) - 0.5) ** 2 / v,
      1e-12,
    );
  });

  it('is exactly Fisher’s test with one stratum', () => {
    for (const [x1, n1, x2, n2] of [
      [2, 4, 0, 12],
      [7, 10, 3, 10],
      [5, 5, 0, 5],
      [0, 3, 3, 3],
    ] as const) {
      expect(exactCmhFraction([{ x1, n1, x2, n2 }])).to.deep.equal(
        fisherExactFraction(x1, n1 - x1, x2, n2 - x2),
      );
    }
  });

  it('agrees with brute-force enumeration on 300 small sets of tables', () => {
    const next = numbers(20240611);
    const int = (max: number): number => Math.floor(next() * (max + 1));
    for (let i = 0; i < 300; i++) {
      const strata: Stratum[] = Array.from({ length: 2 + int(2) }, () => {
        const n1 = int(5);
        const n2 = int(5);
        return { x1: int(n1), n1, x2: int(n2), n2 };
      });
      if (!strata.some((s) => s.n1 > 0 && s.n2 > 0)) continue;
      expect(fractionValue(exactCmhFraction(strata)!), JSON.stringify(strata)).to.be.closeTo(
        bruteForce(strata).two,
        1e-15,
      );
    }
  });

  it('counts outcomes exactly as likely as the observed one: two mirrored strata give p 1', () => {
    // 1 of 2 against 1 of 2 twice: each table's weights 1, 4, 1; S's 1, 8, 18, 8, 1 (of 36).
    const even = { x1: 1, n1: 2, x2: 1, n2: 2 };
    expect(exactCmhFraction([even, even])).to.deep.equal({ num: 36n, den: 36n });
    // 2 of 2 against 0 of 2, twice: S = 4 weighs 1 of 36, as does S = 0 (its mirror).
    const all = { x1: 2, n1: 2, x2: 0, n2: 2 };
    expect(exactCmhFraction([all, all])).to.deep.equal({ num: 2n, den: 36n });
    expect(cmhTest([all, all], 0.05)!.below).to.equal(false);
  });

  it('leaves out strata with runs of one condition only, and says nothing without any', () => {
    const one = { x1: 3, n1: 4, x2: 0, n2: 0 };
    expect(exactCmhFraction([one, RABBITS[1]!])).to.deep.equal(exactCmhFraction([RABBITS[1]!]));
    expect(exactCmhFraction([one])).to.equal(null);
    expect(cmhTest([one], 0.05)).to.equal(null);
    expect(cmhChiSquare([one])).to.equal(null);
  });

  it('gives p 1 when every stratum’s outcome is fixed by its margins', () => {
    const none = { x1: 0, n1: 4, x2: 0, n2: 3 };
    expect(cmhChiSquare([none, none])).to.deep.equal({ statistic: 0, p_value: 1 });
    expect(fractionValue(exactCmhFraction([none, none])!)).to.equal(1);
  });

  it('turns to the corrected chi-square past its reach, which agrees with it there', () => {
    // Two evals of 400 runs a condition: 320 against 290, and 200 against 170, successes.
    const big: Stratum[] = [
      { x1: 320, n1: 400, x2: 290, n2: 400 },
      { x1: 200, n1: 400, x2: 170, n2: 400 },
    ];
    expect(exactCmhCost(big)).to.be.greaterThan(EXACT_CMH_MAX_COST);
    const test = cmhTest(big, 0.05)!;
    expect(test.test).to.equal('cmh_corrected');
    expect(test.p_value).to.equal(cmhChiSquare(big)!.p_value);
    const exact = fractionValue(exactCmhFraction(big)!);
    expect(test.p_value).to.be.closeTo(exact, exact * 0.1);
    expect(test.below).to.equal(true);
  });

  it('costs what its convolution multiplies', () => {
    // Supports of 3 and 4 outcomes: 1 × 3, then 3 × 4.
    expect(
      exactCmhCost([
        { x1: 1, n1: 2, x2: 1, n2: 2 },
        { x1: 1, n1: 3, x2: 2, n2: 3 },
      ]),
    ).to.equal(15);
  });
});
