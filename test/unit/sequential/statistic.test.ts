import { expect } from 'chai';
import { runsOf, stratifiedZ } from '../../../src/sequential/index.js';

describe('sequential/statistic', () => {
  it('is the corrected two-proportion Z with the hypergeometric variance for one eval', () => {
    // 15 of 20 against 5 of 20: score 15 - 10 = 5, variance 20·20·20·20/(40²·39) = 100/39.
    const z = stratifiedZ([{ x1: 15, n1: 20, x2: 5, n2: 20 }]);
    expect(z).to.be.closeTo(4.5 / Math.sqrt(100 / 39), 1e-12);
  });

  it('carries the direction of the condition in its sign', () => {
    expect(stratifiedZ([{ x1: 5, n1: 20, x2: 15, n2: 20 }])).to.be.below(0);
  });

  it('sums within evals: opposite evals with no difference inside say nothing', () => {
    // Pooled, 10/20 vs 10/20 either way; each eval alike inside.
    const z = stratifiedZ([
      { x1: 9, n1: 10, x2: 9, n2: 10 },
      { x1: 1, n1: 10, x2: 1, n2: 10 },
    ]);
    expect(z).to.equal(0);
  });

  it('is 0 when every run is alike, and counts the fewer side', () => {
    expect(stratifiedZ([{ x1: 4, n1: 4, x2: 4, n2: 4 }])).to.equal(0);
    expect(
      runsOf([
        { x1: 1, n1: 4, x2: 1, n2: 3 },
        { x1: 1, n1: 2, x2: 1, n2: 2 },
      ]),
    ).to.equal(5);
  });
});
