/**
 * The interaction of a condition with two agents: the difference of the two differences and
 * its MOVER interval, held to test/support/interaction-check.ts (Wilson's bounds as a
 * quadratic's roots, another code path) and to hand-checked figures.
 */
import { expect } from 'chai';
import { effectOf, excludesZero, interaction } from '../../../src/report/interaction.js';
import { differenceOfDifferences } from '../../support/interaction-check.js';

describe('report: interaction (difference of differences)', () => {
  it('matches the independent computation over a grid of counts', () => {
    const cases: Array<[[number, number], [number, number], [number, number], [number, number]]> =
      [];
    for (const n of [1, 3, 7, 20]) {
      for (const x of [0, 1, Math.floor(n / 2), n]) {
        cases.push([
          [x, n],
          [n - x, n],
          [Math.min(n, x + 1), n + 2],
          [0, n + 1],
        ]);
        cases.push([
          [n, n],
          [0, n],
          [x, n],
          [x, n],
        ]);
      }
    }
    for (const [ac, ab, bc, bb] of cases) {
      const got = interaction(
        { successes: ac[0], n: ac[1] },
        { successes: ab[0], n: ab[1] },
        { successes: bc[0], n: bc[1] },
        { successes: bb[0], n: bb[1] },
      )!;
      const [d, lower, upper] = differenceOfDifferences(
        { with: ac, without: ab },
        { with: bc, without: bb },
      );
      const at = JSON.stringify([ac, ab, bc, bb]);
      expect(got.difference, at).to.be.closeTo(d, 1e-12);
      expect(got.ci95[0], at).to.be.closeTo(lower, 1e-9);
      expect(got.ci95[1], at).to.be.closeTo(upper, 1e-9);
    }
  });

  it('gives the figures of a skill that helps one agent 40 pts more than another', () => {
    // Checked by hand in Python from the formulas. A: 45/50 vs 20/50 (+50 pts); B: 30/50 vs 25/50 (+10 pts).
    const got = interaction(
      { successes: 45, n: 50 },
      { successes: 20, n: 50 },
      { successes: 30, n: 50 },
      { successes: 25, n: 50 },
    )!;
    expect(got.difference).to.be.closeTo(0.4, 1e-12);
    expect(got.ci95[0]).to.be.closeTo(0.1447, 1e-4);
    expect(got.ci95[1]).to.be.closeTo(0.6355, 1e-4);
    expect(excludesZero(got.ci95)).to.equal(true);
  });

  it('stays informative at 0% and 100%, bounded by ±2, and is null without runs', () => {
    const all = { successes: 4, n: 4 };
    const none = { successes: 0, n: 4 };
    const opposite = interaction(all, none, none, all)!;
    expect(opposite.difference).to.equal(2);
    expect(opposite.ci95[1]).to.equal(2);
    expect(opposite.ci95[0]).to.be.greaterThan(1);
    const same = interaction(all, all, all, all)!;
    expect(same.difference).to.equal(0);
    expect(excludesZero(same.ci95)).to.equal(false);
    expect(interaction(all, { successes: 0, n: 0 }, all, all)).to.equal(null);
    const effect = effectOf(all, none)!;
    expect(effect.difference).to.equal(1);
    expect(effect.ci95[0]).to.be.closeTo(0.3072, 1e-4);
    expect(effect.ci95[1]).to.equal(1);
  });
});
