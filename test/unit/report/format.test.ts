import { expect } from 'chai';
import {
  formatDifference,
  formatP,
  formatRateDifference,
  points,
} from '../../../src/report/format.js';

describe('report formats: numbers that read truly', () => {
  it('never prints "−0": a bound that rounds to 0 keeps the decimals that show its sign', () => {
    expect(points(-0.004, 0)).to.equal('−0.4');
    expect(points(-0.00058, 1)).to.equal('−0.1');
    expect(points(-0.00004, 1)).to.equal('−0.004');
    expect(points(-1e-9, 1)).to.equal('−<0.0001');
    expect(points(0, 1)).to.equal('0.0');
    expect(points(-0, 0)).to.equal('0');
    expect(points(0.125, 1, true)).to.equal('+12.5');
    expect(formatRateDifference({ difference: 0.1905, ci95: [-0.00058, 0.333] })).to.equal(
      '+19.1 pts [−0.1, 33.3]',
    );
    expect(formatDifference(-0.0004, 'number')).to.equal('−0.0004');
    expect(formatDifference(0, 'rate')).to.equal('±0.0 pts');
  });

  it('prints p to four places, more where four would carry it up to 0.05', () => {
    expect(formatP(0.00953)).to.equal('0.0095');
    expect(formatP(0.049996)).to.equal('0.049996');
    expect(formatP(0.05)).to.equal('0.0500');
    expect(formatP(0.00001)).to.equal('<0.0001');
    expect(formatP(null)).to.equal('n/a');
  });
});
