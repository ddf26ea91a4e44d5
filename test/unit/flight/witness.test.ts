import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { priceTokens } from '../../../src/agents/index.js';
import { witnessTurn, type RelayedCall } from '../../../src/flight/index.js';
import type { ModelScript, ScriptMessage } from '../../../src/model-stand-in/index.js';
import { relayedCall } from '../../support/relayed.js';

const script = async (agent: string): Promise<ScriptMessage[]> =>
  (
    JSON.parse(
      await readFile(`test/fixtures/transcripts/${agent}/model-script.json`, 'utf8'),
    ) as ModelScript
  ).responses as ScriptMessage[];

describe('flight: the figures of a turn, from what the gateway relayed', () => {
  it('sums the billed tokens, prices them on the host, counts the answers and the tool calls asked for', async () => {
    const [first, second] = await script('claude-code-2.1.332');
    const calls = [relayedCall('messages', first!, 1), relayedCall('messages', second!, 2)];
    const turn = witnessTurn(calls, priceTokens);
    expect(turn.modelRequests).to.equal(2);
    expect(turn.tokens).to.deep.equal({ input: 2500, output: 52, cacheRead: 300, cacheWrite: 50 });
    // Claude Code 2.1.332 reported 0.01135 for this turn: the same list prices.
    expect(turn.costUsd).to.equal(0.01135);
    expect(turn.toolCalls).to.deep.equal({
      total: 1,
      failed: 0,
      byName: { Bash: { count: 1, failed: 0 } },
    });
    expect(turn.finalMessage).to.equal('Done: branch x has f.');
    expect(turn.calls).to.deep.equal({ first: 1, last: 2 });
    expect([...turn.answerIds]).to.deep.equal(['msg_standin_000001', 'msg_standin_000002']);
  });

  it('counts a tool call failed when the agent sent its result back marked as an error', async () => {
    const [, , third, fourth] = await script('claude-code-2.1.332');
    const asked = relayedCall('messages', third!, 3);
    const id = asked.toolCalls[0]!.id!;
    const after = relayedCall('messages', fourth!, 4, {
      request: { toolResults: [{ id, isError: true }] },
    });
    const turn = witnessTurn([asked, after], priceTokens);
    expect(turn.toolCalls).to.deep.equal({
      total: 1,
      failed: 1,
      byName: { Bash: { count: 1, failed: 1 } },
    });
  });

  it('takes the final message from the agent loop, not from a side request that declares no tools', async () => {
    const [, second] = await script('claude-code-2.1.332');
    const loop = relayedCall('messages', second!, 1);
    const title = relayedCall('messages', { content: [{ text: 'A short title' }] }, 2, {
      request: { hasTools: false },
    });
    expect(witnessTurn([loop, title], priceTokens).finalMessage).to.equal('Done: branch x has f.');
    expect(witnessTurn([title], priceTokens).finalMessage).to.equal('A short title');
  });

  it('leaves a call with no usage out of the tokens (counted apart), a model the table lacks makes the cost unknown', async () => {
    const [first] = await script('codex-0.171.0');
    const priced = relayedCall('responses', first!, 1);
    const unreported: RelayedCall = {
      ...relayedCall('responses', first!, 2, {
        request: { toolResults: [{ id: 'call_standin_1_1', isError: null }] },
      }),
      outcome: 'failed',
      tokens: { input: null, output: null, cacheRead: null, cacheWrite: null },
    };
    const turn = witnessTurn([priced, unreported], priceTokens);
    expect(turn.modelRequests).to.equal(2);
    expect(turn.unreported).to.equal(1);
    expect(turn.tokens).to.deep.equal({ input: 1200, output: 40, cacheRead: 300, cacheWrite: 0 });
    expect(turn.retries).to.equal(0, 'a failed call that ends the turn was not retried');
    expect(turn.toolCalls.failed, 'the Responses API marks no result as an error').to.equal(null);
    const unknown = relayedCall('responses', first!, 3, { model: 'not-in-the-table' });
    expect(witnessTurn([priced, unknown], priceTokens).costUsd).to.equal(null);
  });

  it('counts as retries the failed calls another followed', async () => {
    const [first] = await script('codex-0.171.0');
    const failed = {
      ...relayedCall('responses', first!, 1, { status: 503 }),
      outcome: 'error' as const,
    };
    const turn = witnessTurn([failed, relayedCall('responses', first!, 2)], priceTokens);
    expect(turn).to.deep.include({ retries: 1, modelRequests: 1 });
  });
});
