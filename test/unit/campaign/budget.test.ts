import { expect } from 'chai';
import { CampaignBudget, RunMeter } from '../../../src/campaign/budget.js';
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

describe('CampaignBudget', () => {
  it("counts what earlier commands spent: the campaign's total never passes the budget", () => {
    const budget = new CampaignBudget(10, { agent: 6, judge: 1 });
    expect(budget.left()).to.equal(3);
    expect(budget.spent()).to.equal(0); // this command's
    const turn = budget.startTurn()!;
    budget.spend(2, 'agent');
    turn.end(2);
    expect(budget.campaignSpent()).to.equal(9);
    expect(budget.startTurn()).to.equal(null); // 9 + a 2 USD turn > 10
    budget.spend(1, 'judge');
    expect(budget.exhausted()).to.equal(true);
    expect(budget.left()).to.equal(0);
    expect(new CampaignBudget(5, { agent: 5, judge: 0 }).exhausted()).to.equal(true);
    expect(new CampaignBudget(undefined, { agent: 50, judge: 0 }).exhausted()).to.equal(false);
  });

  it('lets turns start while spent plus the turns in flight, at the mean turn, stay within it', () => {
    const budget = new CampaignBudget(10);
    const first = budget.startTurn()!;
    budget.spend(3, 'agent');
    first.end(3); // a turn costs 3 so far
    const a = budget.startTurn(); // 3 + 3 <= 10
    const b = budget.startTurn(); // 3 + 6 <= 10
    expect(a).to.not.equal(null);
    expect(b).to.not.equal(null);
    expect(budget.startTurn()).to.equal(null); // 3 + 9 > 10
    budget.spend(1, 'judge');
    expect(budget.spent()).to.equal(4);
    expect(budget.spentBy('judge')).to.equal(1);
  });

  it('admits a run whole: its later turns are owed, so new runs stop first and none is cut half-way', () => {
    const budget = new CampaignBudget(10);
    const pilot = budget.startRun(1)!;
    const t = pilot.startTurn()!;
    budget.spend(2, 'agent');
    t.end(2); // a turn costs 2 so far
    pilot.end();
    const a = budget.startRun(2)!; // 2 + 2 x 2 <= 10
    expect(budget.startRun(3)).to.equal(null); // 2 + (2 + 3) x 2 > 10: a's turns are owed
    const one = budget.startRun(1)!; // 2 + 3 x 2 <= 10
    for (let n = 0; n < 2; n++) {
      const turn = a.startTurn()!; // each of a's turns was counted at its admission
      budget.spend(2, 'agent');
      turn.end(2);
    }
    a.end();
    one.end(); // it played nothing: it owes nothing more
    expect(budget.startRun(3)).to.equal(null); // 6 + 3 x 2 > 10
    expect(budget.startRun(1)).to.not.equal(null); // 6 + 2 <= 10
  });

  it('lets the last run play when the budget is the total of equal turns (no rounding cut)', () => {
    const budget = new CampaignBudget(0.3);
    for (let n = 0; n < 2; n++) {
      const run = budget.startRun(1)!;
      const turn = run.startTurn()!;
      budget.spend(0.1, 'agent');
      turn.end(0.1);
      run.end();
    }
    // 0.1 + 0.1 + 0.1 is 0.30000000000000004: over 0.3 by a rounding error only.
    expect(budget.startRun(1)).to.not.equal(null);
  });

  it('is exhausted once spent reaches it; without a budget every turn starts', () => {
    const budget = new CampaignBudget(2);
    budget.spend(2, 'agent');
    expect(budget.exhausted()).to.equal(true);
    expect(budget.startTurn()).to.equal(null);
    const free = new CampaignBudget();
    free.spend(1e9, 'agent');
    expect(free.startTurn()).to.not.equal(null);
    expect(() => new CampaignBudget(0)).to.throw(/more than 0/);
  });
});

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
