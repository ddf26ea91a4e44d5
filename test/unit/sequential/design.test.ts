import { expect } from 'chai';
import {
  decide,
  designWords,
  plannedLooks,
  type SequentialDesign,
} from '../../../src/sequential/index.js';

const DESIGN: SequentialDesign = { alpha: 0.05, beta: 0.2, minEffect: 0.2, maxRuns: 10 };

describe('sequential/design', () => {
  it('plans a look after every round, the last at the maximum', () => {
    expect(plannedLooks(DESIGN, 3)).to.deep.equal([3, 6, 9, 10]);
    expect(plannedLooks(DESIGN, 5)).to.deep.equal([5, 10]);
  });

  it('stops significant at the first look past its bound, and takes no look after', () => {
    const looks = decide(DESIGN, [
      { runs: 2, z: 1 },
      { runs: 4, z: 5 },
      { runs: 6, z: 5 },
    ]);
    expect(looks.map((l) => l.decision)).to.deep.equal(['go_on', 'significant']);
    expect(looks[1]!.efficacy).to.be.below(5);
  });

  it('stops futile from half the runs on when Z stays near 0, and ends at the cap', () => {
    const futile = decide(DESIGN, [
      { runs: 2, z: 0 },
      { runs: 6, z: 0 },
    ]);
    expect(futile.map((l) => l.decision)).to.deep.equal(['go_on', 'futile']);
    const capped = decide(DESIGN, [{ runs: 10, z: 1.5 }]);
    expect(capped[0]!.decision).to.equal('cap');
  });

  it('says the design in words', () => {
    expect(designWords(DESIGN)).to.match(/O'Brien-Fleming-type .* at most 10 runs a condition/u);
  });
});
