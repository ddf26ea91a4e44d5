import { expect } from 'chai';
import { costPerSuccess } from '../../../src/report/cost-per-success.js';

type Condition = Parameters<typeof costPerSuccess>[0];

const condition = (mean: number | null, n: number, successes: number, of: number): Condition =>
  ({
    agent: { cost_usd: { mean, stddev: null, min: null, max: null, n } },
    measures: { checks_passed: { rate: of ? successes / of : null, successes, n: of, ci95: null } },
  }) as unknown as Condition;

describe('report/cost-per-success', () => {
  it("is the runs' cost over the runs that passed their checks", () => {
    // 10 runs at 0.20 USD, 4 passed: 2.00 USD for 4 successes.
    expect(costPerSuccess(condition(0.2, 10, 4, 10))).to.be.closeTo(0.5, 1e-12);
    // A cheaper condition that passes less costs more a success: 10 x 0.12 for 2.
    expect(costPerSuccess(condition(0.12, 10, 2, 10))).to.be.closeTo(0.6, 1e-12);
  });

  it('is null with nothing priced, no checks or no success', () => {
    expect(costPerSuccess(condition(null, 0, 4, 10))).to.equal(null);
    expect(costPerSuccess(condition(0.2, 10, 0, 0))).to.equal(null);
    expect(costPerSuccess(condition(0.2, 10, 0, 10))).to.equal(null);
  });
});
