import { expect } from 'chai';
import type { SequentialFile } from '../../../src/artifacts/index.js';
import {
  sequentialLine,
  sequentialRows,
  sequentialSection,
} from '../../../src/report/sequential.js';

const FILE: SequentialFile = {
  schema: 'evalrig/sequential@1',
  design: {
    method: 'group_sequential_obf',
    primary_measure: 'checks_passed',
    condition: 'with_skill',
    baseline: 'without_skill',
    alpha: 0.05,
    beta: 0.2,
    min_effect: 0.2,
    max_runs: 40,
    max_runs_per_eval: 40,
    evals: ['task'],
  },
  looks: [
    { runs: 13, z: 2.1, t: 0.325, efficacy: 3.4, futility: 0, decision: 'go_on' },
    { runs: 14, z: 3.41, t: 0.35, efficacy: 3.1, futility: 0, decision: 'significant' },
  ],
  decision: 'significant',
  text: 'stopped after 14 of 40 runs a condition: significant at the sequential boundary (z 3.41, beyond ±3.10)',
};

describe('report/sequential', () => {
  it("takes benchmark.json's section from sequential.json: the design in words, the last look's runs", () => {
    const s = sequentialSection(FILE);
    expect(s).to.include({
      decision: 'significant',
      runs: 14,
      looks: 2,
      max_runs: 40,
      primary_measure: 'checks_passed',
      text: FILE.text,
    });
    expect(s.design).to.equal(
      "group-sequential, O'Brien-Fleming-type alpha spending (Lan-DeMets), two-sided alpha 0.05, non-binding futility at 20 pts (beta 0.2), at most 40 runs a condition",
    );
  });

  it('says the design and why it stopped in the verdict line and in two BASELINE.md rows', () => {
    const s = sequentialSection(FILE);
    expect(sequentialLine(s)).to.equal(
      `Sequential test of checks_passed, with_skill vs without_skill (${s.design}): ${FILE.text}`,
    );
    expect(sequentialRows(s).map((r) => r[0])).to.deep.equal([
      'sequential design',
      'sequential decision',
    ]);
    expect(sequentialRows(undefined)).to.deep.equal([]);
  });
});
