import { expect } from 'chai';
import {
  fixedPower,
  fixedRunsFor,
  simulateCampaigns,
  type SequentialDesign,
} from '../../../src/sequential/index.js';

const DESIGN: SequentialDesign = { alpha: 0.05, beta: 0.2, minEffect: 0.2, maxRuns: 20 };

describe('sequential/simulate', () => {
  it('keeps the false-positive rate at no effect at most 5% over 2,000 campaigns', () => {
    for (const rate of [0.5, 0.2]) {
      const s = simulateCampaigns(DESIGN, [{ condition: rate, baseline: rate }], {
        campaigns: 2000,
        round: 1,
        seed: 32,
      });
      expect(s.significant + s.futile + s.cap).to.equal(2000);
      // A seeded figure; 5% is the bound it must stay under.
      expect(s.significant / s.campaigns).to.be.at.most(0.05);
      expect(s.meanRuns).to.be.below(20);
    }
  });

  it('stops a large effect early', () => {
    const s = simulateCampaigns(DESIGN, [{ condition: 1, baseline: 0 }], {
      campaigns: 200,
      round: 1,
      seed: 1,
    });
    expect(s.significant).to.equal(200);
    expect(s.meanRuns).to.be.at.most(12);
  });

  it('splits the maximum over evals, each played alike', () => {
    const s = simulateCampaigns(
      DESIGN,
      [
        { condition: 0.9, baseline: 0.1 },
        { condition: 0.9, baseline: 0.1 },
      ],
      { campaigns: 200, round: 1, seed: 3 },
    );
    // Every campaign stops after whole rounds: an even count a condition, summed.
    expect(Math.round(s.meanRuns * 200) % 2).to.equal(0);
    expect(() =>
      simulateCampaigns(
        { ...DESIGN, maxRuns: 21 },
        [
          { condition: 0, baseline: 0 },
          { condition: 0, baseline: 0 },
        ],
        {
          campaigns: 1,
          round: 1,
          seed: 1,
        },
      ),
    ).to.throw(RangeError, /split/u);
  });

  it("gives the fixed design's exact power and the runs it needs", () => {
    // At no effect the power is the test's size: under alpha with the continuity correction.
    expect(fixedPower(20, { condition: 0.5, baseline: 0.5 }, 0.05)).to.be.below(0.05);
    expect(fixedPower(20, { condition: 1, baseline: 0 }, 0.05)).to.be.closeTo(1, 1e-12);
    const n = fixedRunsFor(0.8, { condition: 0.8, baseline: 0.5 }, 0.05)!;
    expect(fixedPower(n, { condition: 0.8, baseline: 0.5 }, 0.05)).to.be.at.least(0.8);
    expect(fixedPower(n - 1, { condition: 0.8, baseline: 0.5 }, 0.05)).to.be.below(0.8);
  });
});
