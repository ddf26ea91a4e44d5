import { expect } from 'chai';
import { failureOf, leftOut } from '../../../src/measure/index.js';

describe('failureOf and leftOut: who had control, and what follows', () => {
  it('a run that says its class keeps it', () => {
    const run = {
      status: 'failed' as const,
      failure: { class: 'agent' as const, reason: 'service db died' },
    };
    expect(failureOf(run)).to.deep.equal({ class: 'agent', reason: 'service db died' });
    expect(leftOut(run)).to.equal(false);
  });

  it('only the harness class is left out of the measures', () => {
    const harness = {
      status: 'failed' as const,
      failure: { class: 'harness' as const, reason: 'x' },
    };
    expect(leftOut(harness)).to.equal(true);
    for (const c of ['model_api', 'agent', 'timeout'] as const) {
      expect(leftOut({ status: 'failed', failure: { class: c, reason: 'x' } }), c).to.equal(false);
    }
  });

  it('a run the budget cut is left out; one past its own limit is not', () => {
    expect(leftOut({ status: 'limit_reached', limit: 'campaign_cost' })).to.equal(true);
    expect(leftOut({ status: 'limit_reached', limit: 'tokens' })).to.equal(false);
    expect(failureOf({ status: 'limit_reached' })).to.equal(undefined);
  });

  it('a run written before failures were classed reads as its status said then', () => {
    expect(failureOf({ status: 'failed', error: 'start: no image' })).to.deep.equal({
      class: 'harness',
      reason: 'start: no image',
    });
    expect(failureOf({ status: 'broken', error: 'collect: a link' })?.class).to.equal('agent');
    expect(failureOf({ status: 'timed_out' })?.class).to.equal('timeout');
    expect(failureOf({ status: 'completed' })).to.equal(undefined);
    expect(leftOut({ status: 'broken' })).to.equal(false);
  });
});
