import { expect } from 'chai';
import {
  agentTurnFailure,
  failureOfState,
  modelApiFault,
  serviceFailure,
} from '../../../../src/campaign/run/failure.js';
import { ServiceDiedError } from '../../../../src/campaign/services.js';

type Call = Parameters<typeof modelApiFault>[0][number];
const ok: Call = { outcome: 'complete', status: 200, reason: null };
const overloaded: Call = { outcome: 'error', status: 529, reason: 'overloaded_error' };

describe('run failures classed by who had control', () => {
  describe('modelApiFault', () => {
    it("the upstream's error on the turn's last call forwarded is the model API's", () => {
      expect(modelApiFault([ok, overloaded])).to.equal(
        "the model API's last call ended error (HTTP 529: overloaded_error)",
      );
      expect(modelApiFault([ok, { outcome: 'error', status: 500, reason: null }])).to.match(/500/u);
      expect(modelApiFault([ok, { outcome: 'cut', status: 200, reason: 'overloaded' }])).to.match(
        /ended cut/u,
      );
    });

    it("a 400 answers what the agent sent, the gateway's own refusals are skipped, and a recovered error is no fault", () => {
      expect(modelApiFault([{ outcome: 'error', status: 400, reason: 'invalid' }])).to.equal(
        undefined,
      );
      expect(
        modelApiFault([overloaded, { outcome: 'refused', status: 403, reason: 'budget' }]),
      ).to.be.a('string');
      expect(modelApiFault([overloaded, ok])).to.equal(undefined);
      expect(modelApiFault([])).to.equal(undefined);
    });
  });

  describe('agentTurnFailure', () => {
    it("is the model API's when the gateway saw it fail, the agent's otherwise", () => {
      const api = agentTurnFailure('turn 1: the agent exited 1', { n: 1, cannotStart: false }, [
        overloaded,
      ]);
      expect(api.class).to.equal('model_api');
      expect(api.reason).to.contain('turn 1: the agent exited 1');
      expect(
        agentTurnFailure('turn 2: exited 1', { n: 2, cannotStart: false }, [ok]).class,
      ).to.equal('agent');
    });

    it("an agent that cannot start on its first turn never had control: the harness's (its image)", () => {
      expect(agentTurnFailure('x', { n: 1, cannotStart: true }, []).class).to.equal('harness');
      // On a later turn it may have removed its own program.
      expect(agentTurnFailure('x', { n: 2, cannotStart: true }, []).class).to.equal('agent');
    });
  });

  describe('serviceFailure', () => {
    const died = new ServiceDiedError(
      [{ name: 'db', at: '2026-01-01T00:00:00Z', exitCode: 137, oomKilled: true, logTail: [] }],
      'turn 1',
    );
    it("a service that died once the agent's first turn began is the agent's", () => {
      const f = serviceFailure({ agentBegan: true }, died);
      expect(f.class).to.equal('agent');
      expect(f.reason).to.match(/^service db died during turn 1 .*while the agent had control$/u);
    });
    it('before it, the harness’s', () => {
      expect(serviceFailure({}, died).class).to.equal('harness');
    });
  });

  describe('failureOfState', () => {
    it('a time-out is its own class, a broken environment the agent’s, a bare failure the harness’s', () => {
      expect(failureOfState({ status: 'timed_out', phase: 'turn 2' })).to.deep.equal({
        class: 'timeout',
        reason: 'timed out in turn 2',
      });
      expect(failureOfState({ status: 'broken', phase: 'collect', error: 'e' })?.class).to.equal(
        'agent',
      );
      expect(failureOfState({ status: 'failed', phase: 'start', error: 'e' })?.class).to.equal(
        'harness',
      );
      expect(failureOfState({ status: 'completed', phase: 'record' })).to.equal(undefined);
      expect(failureOfState({ status: 'limit_reached', phase: 'turn 1' })).to.equal(undefined);
    });
  });
});
