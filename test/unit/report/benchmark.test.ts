import { expect } from 'chai';
import type { RunRecord } from '../../../src/artifacts/index.js';
import { GroupAccumulator, type MeasuredRun } from '../../../src/report/benchmark.js';
import { failureRows, failuresCell } from '../../../src/report/failures.js';

const MEASURES: RunRecord['measures'] = {
  pr_draft_at_hand_over: null,
  pr_described: null,
  pr_refreshed: null,
  pr_marked_ready: null,
  gh_not_played: 0,
  environment_broken: false,
  record_tampered: false,
  checks_passed: true,
  files_changed: 1,
  lines_added: 1,
  lines_removed: 0,
  turns: 1,
  duration_s: 1,
};

function run(over: Partial<MeasuredRun>): MeasuredRun {
  return { status: 'completed', measures: MEASURES, ...over };
}

describe('GroupAccumulator: every run the agent touched is counted', () => {
  it('counts failures by class; only the harness’s and the budget’s cuts leave the measures', () => {
    const acc = new GroupAccumulator();
    acc.add(run({}));
    acc.add(run({}));
    const failedChecks = { ...MEASURES, checks_passed: false };
    acc.add(
      run({
        status: 'failed',
        measures: failedChecks,
        failure: { class: 'agent', reason: 'service db died during turn 1' },
      }),
    );
    acc.add(
      run({
        status: 'failed',
        measures: failedChecks,
        failure: { class: 'model_api', reason: 'HTTP 529' },
      }),
    );
    acc.add(run({ status: 'timed_out', measures: failedChecks }));
    acc.add(
      run({
        status: 'failed',
        measures: { ...MEASURES, checks_passed: null },
        failure: { class: 'harness', reason: 'start: the service never became ready' },
      }),
    );
    acc.add(run({ status: 'limit_reached', limit: 'campaign_cost' }));
    const s = acc.stats();
    expect(s.runs).to.equal(7);
    expect(s.measured).to.equal(5);
    expect(s.failures).to.deep.equal({ harness: 1, model_api: 1, agent: 1, timeout: 1 });
    // Two of the five measured runs passed: the failures the agent caused count against it.
    expect(s.measures.checks_passed).to.include({ successes: 2, n: 5 });
  });

  it('a failure of an earlier evalrig (no class) keeps its old meaning', () => {
    const acc = new GroupAccumulator();
    acc.add(run({ status: 'failed', error: 'start: x' }));
    acc.add(run({ status: 'broken', error: 'collect: a link' }));
    const s = acc.stats();
    expect(s.failures).to.deep.equal({ harness: 1, model_api: 0, agent: 1, timeout: 0 });
    expect(s.measured).to.equal(1);
  });
});

describe('the failures in the report', () => {
  it('a cell per condition and BASELINE.md rows in words, none when nothing failed', () => {
    const f = { harness: 1, model_api: 0, agent: 2, timeout: 0 };
    expect(failuresCell({ condition: 'a', failures: f })).to.equal('1 / 0 / 2 / 0');
    expect(failuresCell({ condition: 'a' })).to.equal('n/a');
    expect(failureRows([{ condition: 'a', failures: f }])).to.deep.equal([
      [
        'failures (a)',
        '2 counted against the condition (model API 0, agent 2, time-out 0); 1 by the harness, left out of the measures',
      ],
    ]);
    const none = { harness: 0, model_api: 0, agent: 0, timeout: 0 };
    expect(failureRows([{ condition: 'a', failures: none }])).to.deep.equal([]);
  });
});
