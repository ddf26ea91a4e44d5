import { expect } from 'chai';
import {
  crossingProbability,
  efficacyBounds,
  lookBounds,
  obrienFlemingBounds,
  operating,
  seededUniform,
} from '../../../src/sequential/index.js';
import { normalSurvival, normalUpperQuantile } from '../../../src/sequential/normal.js';

const FIVE = [0.2, 0.4, 0.6, 0.8, 1];

/** A standard normal draw (Box-Muller) from a seeded uniform. */
function gaussian(random: () => number): () => number {
  return () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/**
 * The share of Brownian paths (drift theta) crossing |Z_k| >= bounds_k by each look, by
 * simulation: a reference that shares nothing with the numerical integration.
 */
function simulatedCrossing(ts: number[], bounds: number[], theta: number, paths: number): number[] {
  const draw = gaussian(seededUniform(7));
  const crossed = ts.map(() => 0);
  for (let p = 0; p < paths; p++) {
    let s = 0;
    let prev = 0;
    for (const [k, t] of ts.entries()) {
      s += theta * (t - prev) + Math.sqrt(t - prev) * draw();
      prev = t;
      if (Math.abs(s / Math.sqrt(t)) >= bounds[k]!) {
        for (let j = k; j < ts.length; j++) crossed[j]!++;
        break;
      }
    }
  }
  return crossed.map((c) => c / paths);
}

describe('sequential/bounds', () => {
  it("gives O'Brien and Fleming's bounds for 5 looks at alpha 0.05 two-sided (4.56, 3.23, 2.63, 2.28, 2.04)", () => {
    const bounds = obrienFlemingBounds(FIVE, 0.05);
    [4.562, 3.226, 2.634, 2.281, 2.04].forEach((b, k) => expect(bounds[k]).to.be.closeTo(b, 0.005));
    // Checked by simulation of 200,000 paths: they cross at 5% overall.
    const crossed = simulatedCrossing(FIVE, bounds, 0, 200_000);
    expect(crossed[4]).to.be.closeTo(0.05, 0.0025);
  });

  it("matches the published Lan-DeMets O'Brien-Fleming bounds of one-sided alpha 0.025 per side (4.877, 3.357, 2.680, 2.290, 2.031)", () => {
    // Each side spends 2 - 2Φ(z_{1-0.025/2}/√t); the two sides together twice that.
    const z = normalUpperQuantile(0.025 / 2);
    const perSide = (t: number) => (t >= 1 ? 0.025 : 2 * normalSurvival(z / Math.sqrt(t)));
    const bounds = efficacyBounds(FIVE, 0.05, (t) => 2 * perSide(t));
    [4.877, 3.357, 2.68, 2.29, 2.031].forEach((b, k) => expect(bounds[k]).to.be.closeTo(b, 0.003));
  });

  it('spends alpha by the spending function at every look, as simulated paths cross', () => {
    const bounds = efficacyBounds(FIVE, 0.05);
    // The first look spends 2 - 2Φ(1.96/√0.2) alone: its bound is 1.96/√0.2 exactly.
    expect(bounds[0]).to.be.closeTo(1.95996 / Math.sqrt(0.2), 1e-3);
    const crossed = simulatedCrossing(FIVE, bounds, 0, 200_000);
    const spent = FIVE.map((t) => 2 * normalSurvival(1.95996 / Math.sqrt(t)));
    spent[4] = 0.05;
    crossed.forEach((c, k) => expect(c).to.be.closeTo(spent[k]!, 0.0025));
    expect(crossingProbability(FIVE, bounds, 0)).to.be.closeTo(0.05, 1e-4);
  });

  it('gives power as simulated paths under a drift find it', () => {
    const bounds = efficacyBounds(FIVE, 0.05);
    const theta = 2.8; // about 80% power for a single test at the end
    const crossed = simulatedCrossing(FIVE, bounds, theta, 100_000);
    expect(crossingProbability(FIVE, bounds, theta)).to.be.closeTo(crossed[4]!, 0.006);
  });

  it('puts non-binding futility bounds inside the efficacy bounds, the last one equal to it', () => {
    const looks = lookBounds(FIVE, 0.05, 2.8, 0.2);
    for (const l of looks) expect(l.futility).to.be.at.most(l.efficacy);
    expect(looks[4]!.futility).to.equal(looks[4]!.efficacy);
    expect(looks[1]!.futility).to.be.above(0);
    // Obeyed, futility can only lower the false-positive rate; under the drift it costs
    // power, never more than the beta it spends before the last look.
    expect(operating(looks, 0).power).to.be.at.most(0.05);
    const under = operating(looks, 2.8);
    expect(under.stops.reduce((a, b) => a + b, 0)).to.be.closeTo(1, 1e-4);
    const without = crossingProbability(FIVE, efficacyBounds(FIVE, 0.05), 2.8);
    expect(under.power).to.be.below(without);
    expect(under.power).to.be.at.least(without - 0.2);
  });

  it('takes no futility stop before the fraction it is given', () => {
    const looks = lookBounds(FIVE, 0.05, 2.8, 0.2, 0.5);
    expect(looks.slice(0, 2).map((l) => l.futility)).to.deep.equal([0, 0]);
    expect(looks[2]!.futility).to.be.above(0);
  });

  it('refuses fractions that do not rise within (0, 1]', () => {
    expect(() => efficacyBounds([0.5, 0.5], 0.05)).to.throw(RangeError, /rise within/u);
    expect(() => efficacyBounds([0.5, 1.2], 0.05)).to.throw(RangeError, /rise within/u);
  });
});
