/** Server tools are billed per request, apart from tokens: priced on the host, shown in the account. */
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  PRICE_TABLE_VERSION,
  priceServerTools,
  priceTokens,
  SERVER_TOOL_PRICES,
} from '../../../src/agents/index.js';
import type { RunRecord } from '../../../src/artifacts/index.js';
import { priceCall } from '../../../src/campaign/agent.js';
import { callFigures } from '../../../src/campaign/budget.js';
import { witnessTurn, type RelayedCall } from '../../../src/flight/index.js';
import { AccountAccumulator, accountLines } from '../../../src/report/account.js';

const MODEL = 'claude-opus-5-5';
const TOKENS = { input: 1700, output: 40, cacheRead: 0, cacheWrite: 0 };

function relayed(serverTools?: { webSearch: number; webFetch: number }): RelayedCall {
  return {
    seq: 1,
    time: '2026-12-02T00:00:00.000Z',
    method: 'POST',
    path: '/v1/messages',
    api: 'messages',
    model: MODEL,
    status: 200,
    outcome: 'complete',
    reason: null,
    requestBytes: 1,
    responseBytes: 1,
    latencyMs: 1,
    tokens: TOKENS,
    ...(serverTools ? { serverTools } : {}),
    answerId: 'msg_1',
    stopReason: 'pause_turn',
    toolCalls: [],
    texts: [],
    requestFacts: null,
  };
}

describe('prices: server tools', () => {
  it('prices a web search at 10 USD per 1,000 and a web fetch at nothing beyond tokens (table 2026-12-02.1 on)', () => {
    // Versions are dates and a count: they sort as text.
    expect(PRICE_TABLE_VERSION >= '2026-12-02.1', PRICE_TABLE_VERSION).to.equal(true);
    expect(SERVER_TOOL_PRICES).to.include({ webSearch: 0.01, webFetch: 0 });
    expect(SERVER_TOOL_PRICES.source).to.contain('10 USD per 1,000 searches');
    expect(priceServerTools({ webSearch: 3, webFetch: 2 })).to.equal(0.03);
    expect(priceServerTools(undefined)).to.equal(0);
  });

  it("adds the fee to the call's cost, in the run's figures and in the budget alike", () => {
    const tokens = priceTokens(MODEL, TOKENS)!;
    const tools = { webSearch: 1, webFetch: 0 };
    expect(priceCall(MODEL, TOKENS, tools)).to.be.closeTo(tokens + 0.01, 1e-9);
    expect(priceCall('no-such-model', TOKENS, tools)).to.equal(null);
    expect(witnessTurn([relayed(tools)], priceCall).costUsd).to.be.closeTo(tokens + 0.01, 1e-9);
    expect(witnessTurn([relayed()], priceCall).costUsd).to.be.closeTo(tokens, 1e-9);
    expect(callFigures(relayed(tools), priceCall).costUsd).to.be.closeTo(tokens + 0.01, 1e-9);
  });

  it("the account counts the searches from the gateway's log and says their fee apart", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'evalrig-prices-'));
    try {
      const lines = [relayed({ webSearch: 2, webFetch: 1 }), relayed()].map((c) => {
        const { texts: _t, requestFacts: _r, ...line } = c;
        return JSON.stringify(line);
      });
      await writeFile(path.join(dir, 'model-calls.jsonl'), `${lines.join('\n')}\n`);
      const acc = new AccountAccumulator();
      const record = {
        condition: 'with_skill',
        started_at: '2026-12-02T00:00:00.000Z',
        finished_at: '2026-12-02T00:00:10.000Z',
        agent: {
          totals: {
            model_requests: 2,
            tokens: { input: 3400, output: 80, cache_read: 0, cache_write: 0 },
            cost_usd: 0.05,
          },
        },
      } as unknown as RunRecord;
      await acc.add(dir, record);
      const account = acc.account();
      expect(account.server_tools).to.deep.equal({
        web_search_requests: 2,
        web_fetch_requests: 1,
        cost_usd: 0.02,
      });
      expect(accountLines(account)).to.include(
        'of which server tools: 2 web search(es), 1 web fetch(es), 0.02 USD',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
