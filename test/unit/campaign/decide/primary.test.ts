import { expect } from 'chai';
import type { EvalSet } from '../../../../src/config/index.js';
import { primaryMeasureOf, valueIn } from '../../../../src/campaign/decide/index.js';
import type { PlannedRun } from '../../../../src/campaign/plan.js';

function setOf(fields: Partial<EvalSet>, checks = true, messageChecks = ['no_missing_gh']) {
  const e = {
    id: 'task',
    checks: checks ? [{ name: 'tests', run: 'true' }] : [],
    message_checks: messageChecks.map((name) => ({ name })),
  };
  const set = { file: '/set/evals.json', hand_over: [], min_effect: 0.2, evals: [e], ...fields };
  const planned = [{ eval: e, condition: { name: 'a' }, run: 1, key: 'task/a/run-01' }];
  return { set: set as unknown as EvalSet, planned: planned as unknown as PlannedRun[] };
}

describe('campaign/decide/primary', () => {
  it('defaults to the first verdict measure the set measures', () => {
    const withStops = setOf({ hand_over: ['awaiting-approval'] });
    expect(primaryMeasureOf(withStops.set, withStops.planned)).to.equal('pr_draft_at_hand_over');
    const checks = setOf({});
    expect(primaryMeasureOf(checks.set, checks.planned)).to.equal('checks_passed');
    const none = setOf({}, false);
    expect(primaryMeasureOf(none.set, none.planned)).to.equal('message_checks.no_missing_gh');
    const nothing = setOf({}, false, []);
    expect(() => primaryMeasureOf(nothing.set, nothing.planned)).to.throw(/set primary_measure/u);
  });

  it('refuses a judged measure, an unknown one and a check not every eval has, naming the field', () => {
    for (const [name, words] of [
      ['grading.all_passed', 'is judged'],
      ['tokens_in', 'is not a rate the runs measure'],
      [
        'message_checks.other',
        'names a message check not every eval of the campaign has (they share: no_missing_gh)',
      ],
      ['checks.lint', 'names a check not every eval of the campaign has (they share: tests)'],
    ]) {
      const { set, planned } = setOf({ primary_measure: name });
      expect(() => primaryMeasureOf(set, planned)).to.throw(
        `/set/evals.json#/primary_measure: "${name}" ${words}`,
      );
    }
  });

  it('takes one check as the primary measure, when every eval has it', () => {
    const { set, planned } = setOf({ primary_measure: 'checks.tests' });
    expect(primaryMeasureOf(set, planned)).to.equal('checks.tests');
  });

  it("reads a check's value as the report's checks.<name> counts it", () => {
    const checks = [
      { name: 'tests', command: 'npm test', passed: false, exit_code: 1, duration_ms: 5 },
    ] as never;
    const passed = { checks_passed: true } as never;
    const failed = { checks_passed: false } as never;
    expect(valueIn({ status: 'completed', measures: failed, checks }, 'checks.tests')).to.equal(
      false,
    );
    // A check with no result: it did not pass where checks_passed did not; unknown otherwise.
    expect(valueIn({ status: 'timed_out', measures: failed, checks: [] }, 'checks.tests')).to.equal(
      false,
    );
    expect(valueIn({ status: 'completed', measures: passed, checks: [] }, 'checks.tests')).to.equal(
      null,
    );
  });

  it("reads a run's value as the report counts it: nothing from a failed or budget-cut run", () => {
    const measures = { checks_passed: true } as never;
    expect(valueIn({ status: 'completed', measures }, 'checks_passed')).to.equal(true);
    expect(valueIn({ status: 'failed', measures }, 'checks_passed')).to.equal(null);
    expect(
      valueIn({ status: 'limit_reached', limit: 'campaign_cost', measures }, 'checks_passed'),
    ).to.equal(null);
    const message_checks = [{ name: 'x', passed: false }] as never;
    expect(valueIn({ status: 'completed', measures, message_checks }, 'message_checks.x')).to.equal(
      false,
    );
  });
});
