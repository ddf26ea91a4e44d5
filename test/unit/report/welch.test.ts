import { expect } from 'chai';
import { studentTCdf, tQuantile, welchDifference } from '../../../src/report/welch.js';

describe("compare: Welch's interval on a difference of means", () => {
  it("gives Student's t quantiles of the tables, fractional degrees of freedom too", () => {
    // 97.5th percentiles: the t table (integers) and scipy.stats.t.ppf(0.975, 3.5).
    const table: Array<[number, number]> = [
      [1, 12.7062],
      [2, 4.3027],
      [8, 2.306],
      [10, 2.2281],
      [30, 2.0423],
      [3.5, 2.9401],
    ];
    for (const [df, t] of table) expect(tQuantile(df), `df ${df}`).to.be.closeTo(t, 1e-4);
    expect(tQuantile(1e6)).to.be.closeTo(1.96, 1e-4);
    expect(studentTCdf(-2, 3)).to.be.closeTo(0.069663, 1e-6);
  });

  it('with equal spreads and runs is the pooled t interval: df 2(n − 1)', () => {
    const w = welchDifference({ mean: 2, stddev: 1, n: 5 }, { mean: 4, stddev: 1, n: 5 });
    expect(w.difference).to.equal(2);
    expect(w.df).to.be.closeTo(8, 1e-12);
    const half = 2.306004 * Math.sqrt(2 / 5);
    expect(w.ci95![0]).to.be.closeTo(2 - half, 1e-5);
    expect(w.ci95![1]).to.be.closeTo(2 + half, 1e-5);
  });

  it('with unequal spreads uses the Welch–Satterthwaite degrees of freedom', () => {
    // scipy: va = 9/4, vb = 0.25/7, df = 3.0956, t.ppf(0.975, df) * sqrt(va + vb) = 4.7284.
    const w = welchDifference({ mean: 10, stddev: 3, n: 4 }, { mean: 12.5, stddev: 0.5, n: 7 });
    expect(w.difference).to.equal(2.5);
    expect(w.df).to.be.closeTo(3.09560398, 1e-6);
    expect(w.ci95![0]).to.be.closeTo(-2.22842618, 1e-6);
    expect(w.ci95![1]).to.be.closeTo(7.22842618, 1e-6);
  });

  it('gives the difference with no interval below two runs a side, and nothing at n 0', () => {
    expect(
      welchDifference({ mean: 1, stddev: null, n: 1 }, { mean: 3, stddev: 1, n: 4 }),
    ).to.deep.equal({
      difference: 2,
      ci95: null,
      df: null,
    });
    expect(
      welchDifference({ mean: null, stddev: null, n: 0 }, { mean: 3, stddev: 1, n: 4 }),
    ).to.deep.equal({
      difference: null,
      ci95: null,
      df: null,
    });
  });

  it('with no spread on either side is the difference itself', () => {
    expect(
      welchDifference({ mean: 2, stddev: 0, n: 3 }, { mean: 2, stddev: 0, n: 3 }),
    ).to.deep.equal({
      difference: 0,
      ci95: [0, 0],
      df: null,
    });
  });
});
