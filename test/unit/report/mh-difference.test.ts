import { expect } from 'chai';
import type { Stratum } from '../../../src/report/cmh.js';
import { mantelHaenszelDifference, mantelHaenszelSign } from '../../../src/report/mh-difference.js';
import { newcombeDifference } from '../../../src/report/stats.js';

const Z = 1.959963984540054;

/**
 * Wilson's bounds from their definition, not their closed form: the rates p whose score
 * |p̂ − p| / √(p(1 − p)/n) is at most z, found by bisection on each side of p̂.
 */
function wilsonByBisection(x: number, n: number): [number, number] {
  const hat = x / n;
  const inside = (p: number): boolean => Math.abs(hat - p) <= Z * Math.sqrt((p * (1 - p)) / n);
  const edge = (from: number, to: number): number => {
    let a = from; // inside
    let b = to; // outside, or the end of [0, 1]
    if (inside(b)) return b;
    for (let i = 0; i < 200; i++) {
      const mid = (a + b) / 2;
      if (inside(mid)) a = mid;
      else b = mid;
    }
    return a;
  };
  return [edge(hat, 0), edge(hat, 1)];
}

/** The interval of Zou, Huang and Zhang (2009) for Σ v (p1 − p2), written out from the paper. */
function moverReference(strata: readonly Stratum[]): { d: number; lo: number; hi: number } {
  const w = strata.map((s) => (s.n1 * s.n2) / (s.n1 + s.n2));
  const total = w.reduce((a, b) => a + b);
  let d = 0;
  let low = 0;
  let high = 0;
  strata.forEach((s, k) => {
    const v = w[k]! / total;
    const p1 = s.x1 / s.n1;
    const p2 = s.x2 / s.n2;
    const [l1, u1] = wilsonByBisection(s.x1, s.n1);
    const [l2, u2] = wilsonByBisection(s.x2, s.n2);
    d += v * (p1 - p2);
    low += v * v * ((p1 - l1) ** 2 + (u2 - p2) ** 2);
    high += v * v * ((u1 - p1) ** 2 + (p2 - l2) ** 2);
  });
  return { d, lo: Math.max(-1, d - Math.sqrt(low)), hi: Math.min(1, d + Math.sqrt(high)) };
}

describe("Mantel-Haenszel's difference within strata", () => {
  it("is Newcombe's published interval with one stratum (Newcombe 1998, table II, method 10)", () => {
    for (const [x1, n1, x2, n2, lo, hi] of [
      [56, 70, 48, 80, 0.0524, 0.3339],
      [9, 10, 3, 10, 0.1705, 0.809],
      [5, 56, 0, 29, -0.0381, 0.1926],
      [0, 10, 0, 20, -0.1611, 0.2775],
      [10, 10, 0, 20, 0.6791, 1],
    ] as const) {
      const one = mantelHaenszelDifference([{ x1, n1, x2, n2 }])!;
      expect(one.difference).to.equal(x1 / n1 - x2 / n2);
      expect(one.ci95[0]).to.be.closeTo(lo, 1e-4);
      expect(one.ci95[1]).to.be.closeTo(hi, 1e-4);
      expect(one.ci95).to.deep.equal(newcombeDifference(x1, n1, x2, n2));
    }
  });

  it('weights each stratum by n1 n2 / (n1 + n2): the tolbutamide trial by age, by hand', () => {
    // Deaths under tolbutamide against placebo, under 55 and from 55 (the UGDP trial).
    const strata = [
      { x1: 8, n1: 106, x2: 5, n2: 120 },
      { x1: 22, n1: 98, x2: 16, n2: 85 },
    ];
    const w1 = (106 * 120) / 226;
    const w2 = (98 * 85) / 183;
    const byHand = (w1 * (8 / 106 - 5 / 120) + w2 * (22 / 98 - 16 / 85)) / (w1 + w2);
    expect(byHand).to.be.closeTo(0.0349, 1e-4);
    expect(mantelHaenszelDifference(strata)!.difference).to.be.closeTo(byHand, 1e-15);
  });

  it('gives the interval of the method of variance estimates recovery, each stratum its own Wilson bounds', () => {
    for (const strata of [
      [
        { x1: 9, n1: 10, x2: 2, n2: 2 },
        { x1: 0, n1: 2, x2: 1, n2: 10 },
      ],
      [
        { x1: 8, n1: 106, x2: 5, n2: 120 },
        { x1: 22, n1: 98, x2: 16, n2: 85 },
      ],
      [
        { x1: 3, n1: 5, x2: 1, n2: 5 },
        { x1: 5, n1: 5, x2: 4, n2: 6 },
        { x1: 0, n1: 4, x2: 0, n2: 3 },
      ],
    ]) {
      const got = mantelHaenszelDifference(strata)!;
      const ref = moverReference(strata);
      expect(got.difference).to.be.closeTo(ref.d, 1e-15);
      expect(got.ci95[0]).to.be.closeTo(ref.lo, 1e-9);
      expect(got.ci95[1]).to.be.closeTo(ref.hi, 1e-9);
    }
  });

  it('is the pooled difference when each eval gives both conditions the same runs', () => {
    const strata = [
      { x1: 5, n1: 5, x2: 1, n2: 5 },
      { x1: 1, n1: 10, x2: 4, n2: 10 },
      { x1: 3, n1: 4, x2: 2, n2: 4 },
    ];
    const pooled = (5 + 1 + 3) / 19 - (1 + 4 + 2) / 19;
    expect(mantelHaenszelDifference(strata)!.difference).to.be.closeTo(pooled, 1e-15);
  });

  it('keeps a width at 100% against 0% in every eval, where a Wald interval closes', () => {
    const all = { x1: 5, n1: 5, x2: 0, n2: 5 };
    const got = mantelHaenszelDifference([all, all])!;
    expect(got.difference).to.equal(1);
    expect(got.ci95[1]).to.equal(1);
    // Each 5 of 5 has Wilson's lower bound 0.5655; two strata of weight 1/2: 1 − √(2 × 2 × (0.4345/2)²).
    const [l] = wilsonByBisection(5, 5);
    expect(got.ci95[0]).to.be.closeTo(1 - Math.sqrt(4 * ((1 - l) / 2) ** 2), 1e-9);
    expect(got.ci95[0]).to.be.closeTo(0.5655, 1e-4);
  });

  it('decides the sign in whole numbers: differences that cancel are 0, not a rounding', () => {
    // 1 of 1 against 0 of 1, and 0 of 1 against 2 of 3: weights 1/2 and 3/4, differences +1 and −2/3.
    const strata = [
      { x1: 1, n1: 1, x2: 0, n2: 1 },
      { x1: 0, n1: 1, x2: 2, n2: 3 },
    ];
    const naive = (0.5 / 1.25) * (1 - 0) + (0.75 / 1.25) * (0 - 2 / 3);
    expect(naive).not.to.equal(0);
    expect(mantelHaenszelSign(strata)).to.equal(0);
    expect(mantelHaenszelDifference(strata)!.difference).to.equal(0);
    expect(mantelHaenszelSign([{ x1: 2, n1: 3, x2: 1, n2: 3 }])).to.equal(1);
    expect(mantelHaenszelSign([{ x1: 0, n1: 3, x2: 1, n2: 3 }])).to.equal(-1);
  });

  it('weighs nothing a stratum with runs of one condition only', () => {
    const both = { x1: 3, n1: 5, x2: 1, n2: 5 };
    expect(mantelHaenszelDifference([both, { x1: 4, n1: 4, x2: 0, n2: 0 }])).to.deep.equal(
      mantelHaenszelDifference([both]),
    );
    expect(mantelHaenszelDifference([{ x1: 4, n1: 4, x2: 0, n2: 0 }])).to.equal(null);
  });
});
