import { expect } from 'chai';
import type { CheckResult } from '../../../src/artifacts/index.js';
import {
  checkOutcome,
  checkOutcomes,
  measureRun,
  type MeasureInput,
} from '../../../src/measure/index.js';

const NO_DIFF = {
  files_added: 0,
  files_modified: 0,
  files_deleted: 0,
  lines_added: 0,
  lines_removed: 0,
  untracked: 0,
};

function result(name: string, passed: boolean): CheckResult {
  return {
    name,
    command: `npm run ${name}`,
    passed,
    exit_code: passed ? 0 : 1,
    duration_ms: 5,
    output: passed ? 'ok' : 'failed',
    truncated: false,
  };
}

/** A run as the campaign records it: its checks, and the measures measureRun gives them. */
function run(checks: CheckResult[], over: Partial<MeasureInput> = {}) {
  const input: MeasureInput = {
    stops: [],
    checks,
    diff: NO_DIFF,
    turnsCompleted: 1,
    durationMs: 1000,
    stoppedAtHandOver: false,
    status: 'completed',
    allCalls: [],
    checksDeclared: 2,
    ...over,
  };
  return { checks, measures: measureRun(input) };
}

describe('checkOutcome: each check of a run, as the report and --until-decided count it', () => {
  it('is the check result when the run has one', () => {
    const r = run([result('tests', true), result('lint', false)]);
    expect(checkOutcome(r, 'tests')).to.equal(true);
    expect(checkOutcome(r, 'lint')).to.equal(false);
    expect(checkOutcomes(r, ['tests', 'lint'])).to.deep.equal([
      { name: 'tests', passed: true },
      { name: 'lint', passed: false },
    ]);
  });

  it('counts a declared check as failed in a run that ended, agent in control, before it ran', () => {
    const r = run([], { status: 'failed', failure: 'agent' });
    expect(r.measures.checks_passed).to.equal(false);
    expect(checkOutcomes(r, ['tests', 'lint'])).to.deep.equal([
      { name: 'tests', passed: false },
      { name: 'lint', passed: false },
    ]);
  });

  it("knows nothing of a check the harness's failure kept from running", () => {
    const r = run([], { status: 'failed', failure: 'harness' });
    expect(r.measures.checks_passed).to.equal(null);
    expect(checkOutcome(r, 'tests')).to.equal(null);
  });

  it('reads a run.json of an older version with no checks field and no declared names', () => {
    const old = { measures: run([]).measures } as Parameters<typeof checkOutcomes>[0];
    expect(checkOutcomes(old)).to.deep.equal([]);
  });
});
