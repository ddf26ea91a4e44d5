import { expect } from 'chai';
import { checkOutcome, checkOutcomes } from '../../../src/measure/index.js';
import { checkedRun, checkResult } from '../../support/checked-runs.js';

describe('checkOutcome: each check of a run, as the report and --until-decided count it', () => {
  it('is the check result when the run has one', () => {
    const r = checkedRun([checkResult('tests', true), checkResult('lint', false)]);
    expect(checkOutcome(r, 'tests')).to.equal(true);
    expect(checkOutcome(r, 'lint')).to.equal(false);
    expect(checkOutcomes(r, ['tests', 'lint'])).to.deep.equal([
      { name: 'tests', passed: true },
      { name: 'lint', passed: false },
    ]);
  });

  it('counts a declared check as failed in a run that ended, agent in control, before it ran', () => {
    const r = checkedRun([], { status: 'failed', failure: 'agent' });
    expect(r.measures.checks_passed).to.equal(false);
    expect(checkOutcomes(r, ['tests', 'lint'])).to.deep.equal([
      { name: 'tests', passed: false },
      { name: 'lint', passed: false },
    ]);
  });

  it("knows nothing of a check the harness's failure kept from running", () => {
    const r = checkedRun([], { status: 'failed', failure: 'harness' });
    expect(r.measures.checks_passed).to.equal(null);
    expect(checkOutcome(r, 'tests')).to.equal(null);
  });

  it('reads a run.json of an older version with no checks field and no declared names', () => {
    const old = { measures: checkedRun([]).measures } as Parameters<typeof checkOutcomes>[0];
    expect(checkOutcomes(old)).to.deep.equal([]);
  });
});
