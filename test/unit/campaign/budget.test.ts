import { expect } from 'chai';
import { CampaignBudget } from '../../../src/campaign/budget.js';

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

  it('learns a turn from what earlier commands played: a resume refuses a run whole from its first admission', () => {
    // Earlier commands played 6 turns for 6 USD and spent them: 3.5 USD are left of 9.5.
    const budget = new CampaignBudget(9.5, { agent: 6, judge: 0 }, { turns: 6, costUsd: 6 });
    expect(budget.expectedTurnUsd()).to.equal(1);
    const a = budget.startRun(2)!; // 6 + 2 x 1 <= 9.5
    expect(budget.startRun(2)).to.equal(null); // 6 + 4 x 1 > 9.5: refused whole, not cut
    const t = a.startTurn()!;
    budget.spend(1, 'agent');
    t.end(1);
    expect(budget.expectedTurnUsd()).to.equal(1); // 7 USD over 7 turns
    a.end();
  });

  it('admits one run at a time until a turn of the campaign has a cost', async () => {
    const budget = new CampaignBudget(10);
    const first = (await budget.admitRun(1))!;
    let second: unknown;
    const waiting = budget.admitRun(1).then((r) => (second = r));
    await new Promise((resolve) => setImmediate(resolve));
    expect(second, 'no estimate yet: the second waits').to.equal(undefined);
    const turn = first.startTurn()!;
    budget.spend(4, 'agent');
    turn.end(4);
    await waiting;
    expect(second, 'the first turn cost 4: 4 + 4 <= 10').to.not.equal(null);
    // With the estimate known, a run that would not fit is refused at once, not waited for.
    expect(await budget.admitRun(1)).to.equal(null); // 4 + (1 + 1) x 4 > 10
  });

  it('a run that ends before any turn cost lets the next one in', async () => {
    const budget = new CampaignBudget(10);
    const first = (await budget.admitRun(2))!;
    const next = budget.admitRun(1);
    first.end(); // it failed before its first turn
    expect(await next).to.not.equal(null);
    // Without a budget nothing waits.
    const free = new CampaignBudget();
    await free.admitRun(1);
    expect(await free.admitRun(1)).to.not.equal(null);
  });
});
