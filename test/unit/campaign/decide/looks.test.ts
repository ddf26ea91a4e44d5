import { expect } from 'chai';
import type { SequentialFile } from '../../../../src/artifacts/index.js';
import { decisionText, sequentialFile, withLook } from '../../../../src/campaign/decide/looks.js';
import type { DesignRecord } from '../../../../src/campaign/decide/design.js';

const DESIGN: DesignRecord = {
  method: 'group_sequential_obf',
  primary_measure: 'checks_passed',
  condition: 'with_skill',
  baseline: 'without_skill',
  alpha: 0.05,
  beta: 0.2,
  min_effect: 0.2,
  max_runs: 10,
  max_runs_per_eval: 10,
  evals: ['task'],
};

const counts = (x1: number, n1: number, x2: number, n2: number) => [{ x1, n1, x2, n2 }];

describe('campaign/decide/looks', () => {
  it('takes a look only when it counts more runs a condition than the last one', () => {
    const first = withLook(DESIGN, [], counts(1, 1, 0, 1));
    expect(first.map((l) => [l.runs, l.decision])).to.deep.equal([[1, 'go_on']]);
    const file = sequentialFile(DESIGN, first);
    // A round whose runs all failed for the harness: the same runs, no new look.
    const again = withLook(DESIGN, file.looks, counts(1, 1, 0, 2));
    expect(again).to.have.length(1);
    expect(withLook(DESIGN, file.looks, counts(2, 2, 0, 2))).to.have.length(2);
  });

  it('records the looks and the decision, and says it in words', () => {
    const looks = withLook(DESIGN, [], counts(6, 6, 0, 6));
    const file: SequentialFile = sequentialFile(DESIGN, looks);
    expect(file.decision).to.equal('significant');
    expect(file.text).to.match(
      /^stopped after 6 of 10 runs a condition: significant at the sequential boundary \(z 2\.76, beyond ±[0-9.]+\)$/u,
    );
    expect(decisionText(DESIGN, undefined)).to.equal(
      'undecided after 0 of 10 runs a condition: a resume plays the next round',
    );
    const capped = withLook(DESIGN, [], counts(5, 10, 3, 10));
    expect(decisionText(DESIGN, capped.at(-1))).to.match(
      /^played all 10 runs a condition: not significant at the sequential boundary \(z 0\.44, within ±[0-9.]+\)$/u,
    );
  });
});
