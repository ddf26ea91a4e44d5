import { expect } from 'chai';
import {
  fixedPower,
  sequentialPlan,
  simulateCampaigns,
  type SequentialDesign,
} from '../../../src/sequential/index.js';

const DESIGN: SequentialDesign = { alpha: 0.05, beta: 0.2, minEffect: 0.3, maxRuns: 30 };

describe('sequential/plan', () => {
  it('gives the expected runs below the worst case, and the fixed design of the same power', () => {
    const plan = sequentialPlan(DESIGN, 1, 2000);
    expect(plan.worstRuns).to.equal(30);
    expect(plan.expectedRuns.none).to.be.below(30).and.above(10);
    expect(plan.expectedRuns.minEffect).to.be.below(30).and.above(10);
    const effect = { condition: 0.65, baseline: 0.35 };
    expect(fixedPower(plan.fixedRuns!, effect, 0.05)).to.be.at.least(plan.power);
    expect(fixedPower(plan.fixedRuns! - 1, effect, 0.05)).to.be.below(plan.power);
  });

  it("is the simulation's figure of the campaign at the smallest effect around 50%", () => {
    const plan = sequentialPlan(DESIGN, 1, 2000);
    const s = simulateCampaigns(DESIGN, [{ condition: 0.65, baseline: 0.35 }], {
      campaigns: 2000,
      round: 1,
      seed: 32,
    });
    expect(plan.power).to.equal(s.significant / 2000);
    expect(plan.expectedRuns.minEffect).to.equal(s.meanRuns);
  });
});
