import { expect } from 'chai';
import { rateDifference } from '../../../src/report/benchmark.js';
import { RateAccumulator, type RateStats } from '../../../src/report/stats.js';
import { strataOf, withinEvals, type EvalStratum } from '../../../src/report/stratify.js';
import { perEvalText } from '../../../src/report/verdict-words.js';

function rate(successes: number, n: number): RateStats {
  const acc = new RateAccumulator();
  acc.successes = successes;
  acc.n = n;
  return acc.stats();
}

/** The strata's pooled comparison: every eval's runs summed, condition against baseline. */
function pooledOf(strata: readonly EvalStratum[]) {
  const sum = (f: (s: EvalStratum) => number): number => strata.reduce((a, s) => a + f(s), 0);
  return rateDifference(
    rate(
      sum((s) => s.x2),
      sum((s) => s.n2),
    ),
    rate(
      sum((s) => s.x1),
      sum((s) => s.n1),
    ),
  );
}

/**
 * Whickham, 1972-74 and 20 years on (Appleton, French and Vanderpump 1996): women alive at
 * follow-up by age at the survey, smokers against non-smokers. Published: 76.1% of smokers
 * alive against 68.6% of non-smokers (+7.54 pts), while within most age groups smokers fared
 * worse: the textbook Simpson's paradox.
 */
const WHICKHAM: EvalStratum[] = [
  ['18-24', 53, 55, 61, 62],
  ['25-34', 121, 124, 152, 157],
  ['35-44', 95, 109, 114, 121],
  ['45-54', 103, 130, 66, 78],
  ['55-64', 64, 115, 81, 121],
  ['65-74', 7, 36, 28, 129],
  ['75+', 0, 13, 0, 64],
].map(([evalId, x1, n1, x2, n2]) => ({
  eval: evalId as string,
  x1: x1 as number,
  n1: n1 as number,
  x2: x2 as number,
  n2: n2 as number,
}));

describe('verdicts tested within evals', () => {
  it("flags Simpson's paradox in Whickham's smokers: pooled +7.5 pts, within age groups below 0", () => {
    const pooled = pooledOf(WHICKHAM);
    expect(pooled.other).to.be.closeTo(443 / 582, 1e-12);
    expect(pooled.difference).to.be.closeTo(0.0754, 1e-4);
    const within = withinEvals(WHICKHAM, pooled, 0.05)!;
    expect(within.difference).to.be.lessThan(0);
    expect(within.record.simpson).to.equal(true);
    expect(within.record.pooled.difference).to.equal(pooled.difference);
    expect(within.record.evals).to.equal(7);
    expect(within.record.per_eval.map((e) => e.eval)).to.deep.equal(WHICKHAM.map((s) => s.eval));
    expect(within.test).to.equal('cmh_exact');
  });

  it('takes no side when the pooled runs and the evals agree', () => {
    const strata: EvalStratum[] = [
      { eval: 'a', x1: 4, n1: 4, x2: 1, n2: 5 },
      { eval: 'b', x1: 5, n1: 5, x2: 1, n2: 4 },
    ];
    const within = withinEvals(strata, pooledOf(strata), 0.05)!;
    expect(within.record.simpson).to.equal(false);
    expect(within.difference).to.be.greaterThan(0);
  });

  it('says each eval alone: its rates and counts, Newcombe interval and Fisher p', () => {
    // 4 of 4 against 1 of 5: Fisher's weights of x = 0..4 are 1, 20, 60, 40, 5 of 126; p = 6/126.
    const text = perEvalText({
      eval: 'add-feature',
      condition_successes: 4,
      condition_n: 4,
      baseline_successes: 1,
      baseline_n: 5,
      difference: 0.8,
      ci95: [0.1518, 0.9638],
      p_value: 6 / 126,
    });
    expect(text).to.equal(
      'add-feature: 100% vs 20% of runs (4/4 vs 1/5), +80 pts [15, 96], p 0.048',
    );
    const strata: EvalStratum[] = [
      { eval: 'add-feature', x1: 4, n1: 4, x2: 1, n2: 5 },
      { eval: 'fix-bug', x1: 5, n1: 5, x2: 1, n2: 4 },
    ];
    const line = withinEvals(strata, pooledOf(strata), 0.05)!.record.per_eval[0]!;
    expect(line).to.deep.include({ eval: 'add-feature', difference: 0.8, text });
    expect(line.p_value).to.be.closeTo(6 / 126, 1e-15);
  });

  it('stays out with fewer than two evals holding runs of both conditions', () => {
    const one: EvalStratum[] = [
      { eval: 'a', x1: 4, n1: 4, x2: 1, n2: 5 },
      { eval: 'b', x1: 5, n1: 5, x2: 0, n2: 0 },
    ];
    expect(withinEvals(one, pooledOf(one), 0.05)).to.equal(null);
  });

  it('names the evals left out, with runs of one condition only', () => {
    const strata: EvalStratum[] = [
      { eval: 'a', x1: 4, n1: 4, x2: 1, n2: 5 },
      { eval: 'b', x1: 5, n1: 5, x2: 0, n2: 0 },
      { eval: 'c', x1: 3, n1: 3, x2: 0, n2: 3 },
    ];
    const within = withinEvals(strata, pooledOf(strata), 0.05)!;
    expect(within.record.evals).to.equal(2);
    expect(within.record.left_out).to.deep.equal(['b']);
  });

  it("builds the strata from each (eval, condition)'s rate, in the evals' order", () => {
    const rates = [
      { eval: 'b', condition: 'with', rate: rate(3, 4) },
      { eval: 'a', condition: 'without', rate: rate(1, 5) },
      { eval: 'b', condition: 'without', rate: rate(2, 4) },
      { eval: 'a', condition: 'with', rate: rate(5, 5) },
      { eval: 'a', condition: 'other', rate: rate(0, 5) },
      { eval: 'c', condition: 'with', rate: rate(0, 0) },
    ];
    expect(strataOf(rates, 'with', 'without')).to.deep.equal([
      { eval: 'b', x1: 3, n1: 4, x2: 2, n2: 4 },
      { eval: 'a', x1: 5, n1: 5, x2: 1, n2: 5 },
    ]);
  });
});
