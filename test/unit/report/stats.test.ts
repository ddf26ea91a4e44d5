import { expect } from 'chai';
import {
  fisherExact,
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

    it('stays finite for thousands of runs', () => {
      const p = fisherExact(2400, 100, 2300, 200)!;
      expect(p).to.be.greaterThan(0).and.lessThan(1e-6);
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
