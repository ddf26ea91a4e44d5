import { expect } from 'chai';
import { CampaignBudget } from '../../../src/campaign/budget.js';
import { RunMeter } from '../../../src/campaign/run-meter.js';
import type { ModelCall } from '../../../src/flight/index.js';

/** A relayed call of `tokens` input tokens on model `m` (priced 1 USD per 1000 tokens below). */
function call(tokens: number, outcome: ModelCall['outcome'] = 'complete'): ModelCall {
  return {
    seq: 1,
    time: '2026-01-01T00:00:00.000Z',
    method: 'POST',
    path: '/v1/messages',
    api: 'messages',
    model: 'm',
    status: 200,
    outcome,
    reason: null,
    requestBytes: 10,
    responseBytes: 10,
    latencyMs: 1,
    tokens: { input: tokens, output: 0, cacheRead: 0, cacheWrite: 0 },
    answerId: null,
    stopReason: 'end_turn',
    toolCalls: [],
  };
}
const price = (_model: string, t: { input: number }) => t.input / 1000;

describe('RunMeter', () => {
  it('counts tokens, cost and requests, spending them from the campaign budget', () => {
    const budget = new CampaignBudget();
    const meter = new RunMeter({}, budget, price);
    meter.onCall(call(500));
    meter.onCall(call(0, 'refused')); // a refusal is no request
    expect([meter.tokens, meter.costUsd, meter.requests]).to.deep.equal([500, 0.5, 1]);
    expect(budget.spent()).to.equal(0.5);
    expect(budget.tokens('agent')).to.equal(500);
    expect(meter.refusal()).to.equal(undefined);
  });

  it('names the first limit reached and refuses further calls', () => {
    const meter = new RunMeter({ tokens: 1000, cost: 5 }, new CampaignBudget(), price);
    meter.onCall(call(600));
    expect(meter.reached).to.equal(undefined);
    meter.onCall(call(600));
    expect(meter.reached).to.equal('tokens');
    expect(meter.refusal()).to.match(/limit of tokens \(1000\)/);
  });

  it('refuses the call past model_requests, and any call once the campaign budget is spent', () => {
    const requests = new RunMeter({ model_requests: 2 }, new CampaignBudget(), price);
    requests.onCall(call(1));
    expect(requests.refusal()).to.equal(undefined);
    requests.onCall(call(1));
    expect(requests.refusal()).to.match(/model requests \(2\)/);
    expect(requests.reached).to.equal('model_requests');

    const budget = new CampaignBudget(1);
    const a = new RunMeter({}, budget, price);
    const b = new RunMeter({}, budget, price);
    a.onCall(call(1000));
    expect(b.refusal()).to.match(/budget of 1 USD is spent/);
    expect(b.reached).to.equal('campaign_cost');
  });
});
