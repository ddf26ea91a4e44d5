import { expect } from 'chai';
import {
  BASELINE_GRID,
  fisherBelow,
  fisherExact,
  fisherExactFraction,
  minimumDetectableDifference,
  worstDetectableDifference,
  newcombeDifference,
  NumberAccumulator,
  RateAccumulator,
  wilson,
} from '../../../src/report/index.js';

describe('report statistics', () => {
  describe('wilson', () => {
    it('gives the published interval for 8 of 10', () => {
      const [lo, hi] = wilson(8, 10)!;
      expect(lo).to.be.closeTo(0.4902, 1e-4);
      expect(hi).to.be.closeTo(0.9433, 1e-4);
    });

    it('stays inside [0, 1] at the edges', () => {
      const [lo0, hi0] = wilson(0, 10)!;
      expect(lo0).to.equal(0);
      expect(hi0).to.be.closeTo(0.2775, 1e-4);
      const [lo1, hi1] = wilson(10, 10)!;
      expect(lo1).to.be.closeTo(0.7225, 1e-4);
      expect(hi1).to.equal(1);
    });

    it('is unavailable with n 0', () => {
      expect(wilson(0, 0)).to.equal(null);
    });
  });

  describe('fisherExact (two-sided)', () => {
    it('gives 0.4857 for [[3, 1], [1, 3]]', () => {
      expect(fisherExact(3, 1, 1, 3)).to.be.closeTo(0.4857, 1e-4);
    });

    it("gives 0.4857 too for Fisher's tea tasting the other way round", () => {
      expect(fisherExact(1, 3, 3, 1)).to.be.closeTo(0.4857, 1e-4);
    });

    it('matches known values of larger tables', () => {
      // R: fisher.test(matrix(c(10, 0, 0, 10), 2))$p.value = 1.082509e-05
      expect(fisherExact(10, 0, 0, 10)).to.be.closeTo(1.0825e-5, 1e-8);
      // R: fisher.test(matrix(c(1, 9, 11, 3), 2))$p.value = 0.002759456
      expect(fisherExact(1, 9, 11, 3)).to.be.closeTo(0.002759, 1e-6);
    });

    it('is 1 when both sides are the same', () => {
      expect(fisherExact(5, 5, 5, 5)).to.be.closeTo(1, 1e-12);
    });

    it('is unavailable when a side has no runs', () => {
      expect(fisherExact(0, 0, 3, 1)).to.equal(null);
    });

    it('decides p < 0.05 exactly: 2 of 4 vs 0 of 12 gives 1/20, not below it', () => {
      // Weights C(4, x) C(12, 2 - x) of x = 0, 1, 2: 66, 48, 6 of 120; the observed x = 2 is the rarest.
      expect(fisherExactFraction(2, 2, 0, 12)).to.deep.equal({ num: 6n, den: 120n });
      expect(fisherExact(2, 2, 0, 12)).to.equal(0.05);
      expect(fisherBelow(2, 2, 0, 12, 0.05)).to.equal(false);
      expect(fisherBelow(2, 2, 0, 13, 0.05)).to.equal(true);
      expect(fisherBelow(0, 0, 3, 1)).to.equal(null);
    });

    it('counts tables exactly as likely as the observed one, however large', () => {
      // Symmetric margins: the mirror table ties the observed one exactly.
      expect(fisherExactFraction(7, 3, 3, 7)).to.deep.equal(
        (() => {
          const w = [1, 100, 2025, 14400, 44100, 63504, 44100, 14400, 2025, 100, 1].map(BigInt);
          const den = w.reduce((a, b) => a + b);
          const num = w.filter((x) => x <= 14400n).reduce((a, b) => a + b);
          return { num, den };
        })(),
      );
    });

    it('stays finite for thousands of runs', () => {
      const p = fisherExact(2400, 100, 2300, 200)!;
      expect(p).to.be.greaterThan(0).and.lessThan(1e-6);
    });
  });

  describe('newcombeDifference (hybrid score, method 10 of Newcombe 1998)', () => {
    const expectInterval = (got: [number, number] | null, lo: number, hi: number): void => {
      expect(got).to.not.equal(null);
      expect(got![0]).to.be.closeTo(lo, 5e-5);
      expect(got![1]).to.be.closeTo(hi, 5e-5);
    };

    it("gives the paper's worked examples (table II)", () => {
      expectInterval(newcombeDifference(56, 70, 48, 80), 0.0524, 0.3339);
      expectInterval(newcombeDifference(9, 10, 3, 10), 0.1705, 0.809);
      expectInterval(newcombeDifference(6, 7, 2, 7), 0.0582, 0.8062);
      expectInterval(newcombeDifference(5, 56, 0, 29), -0.0381, 0.1926);
      expectInterval(newcombeDifference(0, 10, 0, 20), -0.1611, 0.2775);
      expectInterval(newcombeDifference(10, 10, 0, 20), 0.6791, 1);
    });

    it('stays inside [-1, 1] at all against none, either way round', () => {
      expectInterval(newcombeDifference(10, 10, 0, 10), 0.6075, 1);
      expectInterval(newcombeDifference(0, 10, 10, 10), -1, -0.6075);
      expectInterval(newcombeDifference(5, 5, 0, 5), 0.3855, 1);
      expect(newcombeDifference(10, 10, 0, 10)![1]).to.equal(1);
    });

    it('is symmetric: swapping the sides negates the interval', () => {
      const [lo, hi] = newcombeDifference(56, 70, 48, 80)!;
      const [lo2, hi2] = newcombeDifference(48, 80, 56, 70)!;
      expect(lo2).to.be.closeTo(-hi, 1e-12);
      expect(hi2).to.be.closeTo(-lo, 1e-12);
    });

    it('is unavailable when a side has no runs', () => {
      expect(newcombeDifference(0, 0, 3, 10)).to.equal(null);
      expect(newcombeDifference(3, 10, 0, 0)).to.equal(null);
    });
  });

  describe('minimumDetectableDifference (Fisher, two-sided p < 0.05, 80% power, exact)', () => {
    it('finds nothing detectable with 5 or 10 runs against a baseline of 50%', () => {
      // 10 against 10: even 100% against 50% rejects only when the baseline
      // shows at most 5 of 10, which happens 62% of the time.
      expect(minimumDetectableDifference(5, 5)).to.equal(null);
      expect(minimumDetectableDifference(10, 10)).to.equal(null);
    });

    it('gives 35.7 pts with 30 runs against a baseline of 50%', () => {
      // Checked independently by enumeration with another Fisher implementation.
      expect(minimumDetectableDifference(30, 30)).to.be.closeTo(0.357, 5e-4);
    });

    it('gives 83, 58 and 25 pts against a baseline that never shows the behaviour', () => {
      // 5 runs: only 4 or 5 of 5 against 0 of 5 rejects, so p^5 + 5p^4(1-p) = 0.8.
      const five = minimumDetectableDifference(5, 5, { baseline: 0 })!;
      expect(five ** 5 + 5 * five ** 4 * (1 - five)).to.be.closeTo(0.8, 1e-6);
      expect(five).to.be.closeTo(0.8314, 1e-4);
      expect(minimumDetectableDifference(10, 10, { baseline: 0 })).to.be.closeTo(0.5809, 1e-4);
      expect(minimumDetectableDifference(30, 30, { baseline: 0 })).to.be.closeTo(0.2507, 1e-4);
    });

    it('looks both ways from the baseline: 100% is the mirror of 0%', () => {
      expect(minimumDetectableDifference(10, 10, { baseline: 1 })).to.be.closeTo(
        minimumDetectableDifference(10, 10, { baseline: 0 })!,
        1e-9,
      );
    });

    it('asks less of more runs and of a lower power', () => {
      const at20 = minimumDetectableDifference(20, 20, { baseline: 0.2 })!;
      expect(minimumDetectableDifference(40, 40, { baseline: 0.2 })).to.be.lessThan(at20);
      expect(minimumDetectableDifference(20, 20, { baseline: 0.2, power: 0.5 })).to.be.lessThan(
        at20,
      );
    });

    it('is unavailable when a side has no runs, and refuses a rate outside [0, 1]', () => {
      expect(minimumDetectableDifference(0, 10)).to.equal(null);
      expect(() => minimumDetectableDifference(5, 5, { baseline: 1.5 })).to.throw(RangeError);
    });
  });

  describe('worstDetectableDifference (the hardest baseline of the grid)', () => {
    it('is not always 50%: at 20 runs a side a baseline of 25% is harder', () => {
      const worst = worstDetectableDifference(20, 20)!;
      expect(worst.baseline).to.equal(0.25);
      expect(worst.difference).to.be.closeTo(0.4824, 1e-3);
      expect(worst.difference).to.be.greaterThan(minimumDetectableDifference(20, 20)!);
      for (const b of BASELINE_GRID) {
        expect(minimumDetectableDifference(20, 20, { baseline: b })).to.be.at.most(
          worst.difference!,
        );
      }
    });

    it('is the nearest baseline to 50% from which nothing is detectable, when there is one', () => {
      expect(worstDetectableDifference(10, 10)).to.deep.equal({ baseline: 0.5, difference: null });
      expect(worstDetectableDifference(0, 10)).to.equal(null);
    });
  });

  describe('RateAccumulator', () => {
    it('counts known values only: null is not a run of the measure', () => {
      const acc = new RateAccumulator();
      for (const v of [true, null, false, true, null]) acc.add(v);
      const s = acc.stats();
      expect(s).to.include({ successes: 2, n: 3 });
      expect(s.rate).to.be.closeTo(2 / 3, 1e-12);
      expect(s.ci95).to.have.length(2);
    });

    it('is unavailable with no known value', () => {
      const acc = new RateAccumulator();
      acc.add(null);
      expect(acc.stats()).to.deep.equal({ rate: null, successes: 0, n: 0, ci95: null });
    });
  });

  describe('NumberAccumulator', () => {
    it('gives mean, sample stddev, min and max in one pass', () => {
      const acc = new NumberAccumulator();
      for (const v of [2, 4, 4, 4, 5, 5, 7, 9]) acc.add(v);
      const s = acc.stats();
      expect(s.mean).to.equal(5);
      expect(s.stddev).to.be.closeTo(2.1381, 1e-4);
      expect(s).to.include({ min: 2, max: 9, n: 8 });
    });

    it('stays exact on large offsets (no catastrophic cancellation)', () => {
      const acc = new NumberAccumulator();
      for (const v of [1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16]) acc.add(v);
      expect(acc.stats().stddev).to.be.closeTo(Math.sqrt(30), 1e-6);
    });

    it('has no stddev below two values and nothing with none', () => {
      const one = new NumberAccumulator();
      one.add(3);
      expect(one.stats()).to.deep.equal({ mean: 3, stddev: null, min: 3, max: 3, n: 1 });
      expect(new NumberAccumulator().stats()).to.deep.equal({
        mean: null,
        stddev: null,
        min: null,
        max: null,
        n: 0,
      });
    });
  });
});
