import { expect } from 'chai';
import type { RunRecord } from '../../../src/artifacts/index.js';
import { priceTokens } from '../../../src/agents/index.js';
import { AccountAccumulator, accountLines } from '../../../src/report/account.js';

/** A run.json of condition `a` with the agent totals given (none: a command agent). */
function record(over: Partial<RunRecord>, costUsd?: number, requests = 2): RunRecord {
  const tokens = { input: 100, output: 10, cache_read: 0, cache_write: 0 };
  return {
    condition: 'a',
    status: 'completed',
    started_at: '2026-01-01T00:00:00.000Z',
    finished_at: '2026-01-01T00:00:10.000Z',
    turns_completed: 1,
    ...(costUsd === undefined
      ? {}
      : {
          agent: {
            totals: {
              tool_calls: 0,
              tool_calls_failed: 0,
              model_requests: requests,
              tokens,
              cost_usd: costUsd,
            },
          },
        }),
    ...over,
  } as RunRecord;
}

const MODEL = 'claude-sonnet-4-5';
const call = (input: number, outcome: 'complete' | 'refused' = 'complete') => ({
  model: MODEL,
  tokens: { input, output: 0, cacheRead: 0, cacheWrite: 0 },
  outcome,
});

describe('AccountAccumulator', () => {
  it('says the runs the budget kept from playing are not played, not unpriced', async () => {
    const acc = new AccountAccumulator();
    await acc.add('/nonexistent', record({}, 0.5));
    const cut = { status: 'limit_reached', limit: 'campaign_cost', turns_completed: 0 } as const;
    await acc.add('/nonexistent', record(cut));
    await acc.add('/nonexistent', record(cut, undefined));
    const a = acc.account();
    expect(a.agent[0]).to.deep.include({ runs: 3, cost_usd: 0.5, unpriced_runs: 0, not_played: 2 });
    expect(accountLines(a)[0]).to.equal(
      'agent, a: 110 tokens, 0.50 USD over 3 run(s) (2 not played)',
    );
  });

  it('counts what replayed runs spent before in the total, and says it apart', async () => {
    const acc = new AccountAccumulator();
    await acc.add('/nonexistent', record({}, 0.5));
    acc.addReplayed([
      { key: 'e/a/run-01', calls: [call(1000), call(0, 'refused')] },
      // A run cut before it played: set aside with no call, nothing spent again.
      { key: 'e/a/run-02', calls: [] },
    ]);
    const a = acc.account();
    const again = priceTokens(MODEL, { input: 1000, output: 0, cacheRead: 0, cacheWrite: 0 })!;
    expect(a.replayed).to.deep.equal({ runs: 1, model_requests: 1, cost_usd: again });
    expect(a.total_cost_usd).to.be.closeTo(0.5 + again, 1e-9);
    expect(accountLines(a)).to.include(
      `replayed: ${again.toFixed(2)} USD spent again on 1 replayed run (what their earlier plays, cut or failed, cost; in the total)`,
    );
  });

  it('says nothing of replays when none spent anything', () => {
    const acc = new AccountAccumulator();
    acc.addReplayed([{ key: 'e/a/run-01', calls: [] }]);
    expect(acc.account().replayed).to.equal(undefined);
  });
});
