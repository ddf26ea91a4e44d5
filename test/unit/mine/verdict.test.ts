import { expect } from 'chai';
import { validationVerdict, type ValidationRun } from '../../../src/mine/index.js';

const NAMES = [
  'fail_to_pass_at_parent',
  'pass_to_pass_at_parent',
  'reference_applies',
  'fail_to_pass_at_commit',
  'pass_to_pass_at_commit',
];

/** A completed run whose checks passed as `passed` says, in the validation's order. */
const run = (...passed: boolean[]): ValidationRun => ({
  status: 'completed',
  duration_ms: 2000,
  checks: NAMES.map((name, i) => ({ name, passed: passed[i]!, duration_ms: 300 })),
});
const GOOD = [false, true, true, true, true];

describe('mine: whether a validated candidate is a task', () => {
  it('keeps one whose tests fail at the parent and pass with the commit, in every run', () => {
    expect(validationVerdict([run(...GOOD), run(...GOOD)])).to.deep.equal({ kept: true });
  });

  it('drops each way a candidate fails, with the reason', () => {
    const cases: [boolean[], string][] = [
      [[true, true, true, true, true], 'its tests already pass at the parent: nothing to do'],
      [[false, false, true, true, true], "the parent's other tests fail there"],
      [[false, true, false, false, true], "the commit's change does not apply to its parent"],
      [[false, true, true, false, true], 'its tests fail with the commit applied'],
      [[false, true, true, true, false], 'the other tests fail with the commit applied'],
    ];
    for (const [passed, reason] of cases)
      expect(validationVerdict([run(...passed), run(...passed)])).to.deep.equal({
        kept: false,
        reason,
      });
  });

  it('drops a flaky one: runs that disagree', () => {
    const flaky = [false, true, true, false, true];
    expect(validationVerdict([run(...GOOD), run(...flaky)])).to.deep.equal({
      kept: false,
      reason: 'flaky: fail_to_pass_at_commit passed in 1 of 2 runs',
    });
  });

  it('drops one with no runs, a run that did not complete, or a check with no result', () => {
    expect(validationVerdict([])).to.deep.include({ kept: false });
    expect(
      validationVerdict([{ ...run(...GOOD), status: 'failed', error: 'checks: engine lost' }]),
    ).to.deep.equal({ kept: false, reason: 'a validation run ended failed: checks: engine lost' });
    expect(validationVerdict([{ ...run(...GOOD), checks: [] }])).to.deep.equal({
      kept: false,
      reason: 'a run has no result for fail_to_pass_at_parent',
    });
  });
});
