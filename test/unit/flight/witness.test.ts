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
      refused: 0,
      byName: { Bash: { count: 1, failed: 0, refused: 0 } },
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
      refused: 0,
      byName: { Bash: { count: 1, failed: 1, refused: 0 } },
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

  it('answers only what completed: 429, 529, a stream cut mid-way, then two answers are 2 requests and 3 retries; the cut call asked for nothing', () => {
    const error = (n: number, status: number): RelayedCall => ({
      ...relayedCall('messages', { content: [] }, n, { status }),
      outcome: 'error',
      tokens: { input: null, output: null, cacheRead: null, cacheWrite: null },
      toolCalls: [],
      texts: [],
    });
    const asked = { tool_use: { name: 'Bash', input: { command: 'rm -rf /work' } } };
    const cut: RelayedCall = {
      ...relayedCall(
        'messages',
        { content: [{ text: 'half' }, asked], usage: { input_tokens: 500, output_tokens: 40 } },
        3,
      ),
      outcome: 'cut',
      reason: 'overloaded_error',
    };
    const answer = relayedCall('messages', { content: [{ text: 'Looking.' }, asked] }, 4);
    const last = relayedCall('messages', { content: [{ text: 'Done.' }] }, 5);
    const turn = witnessTurn([error(1, 429), error(2, 529), cut, answer, last], priceTokens);
    expect(turn).to.deep.include({ modelRequests: 2, retries: 3, finalMessage: 'Done.' });
    expect(turn.toolCalls.total, "the cut call's tool call never ran").to.equal(1);
    // Billed as the upstream reported it: the cut call's usage counts, in tokens and cost alike.
    const billed = witnessTurn([cut], priceTokens);
    expect(billed.tokens.output).to.be.greaterThan(0);
    expect(billed.costUsd).to.be.greaterThan(0);
    expect(billed.modelRequests).to.equal(0);
    // What the model sent before the cut may still be cited by the agent's stream.
    expect(turn.texts.has('half')).to.equal(true);
  });

  it("counts a call the agent refused (its own words for it) as refused, not failed, with or without the API's ids", () => {
    const asked = relayedCall(
      'messages',
      { content: [{ tool_use: { name: 'Bash', input: { command: 'echo $(id)' } } }] },
      1,
    );
    const id = asked.toolCalls[0]!.id!;
    const back = relayedCall('messages', { content: [{ text: 'Blocked.' }] }, 2, {
      request: {
        toolResults: [{ id, isError: true, text: 'Blocked: command substitution detected' }],
      },
    });
    const isRefusal = (t: string) => t.startsWith('Blocked:');
    const turn = witnessTurn([asked, back], priceTokens, isRefusal);
    expect(turn.toolCalls).to.deep.include({ total: 1, failed: 0, refused: 1 });
    expect(turn.toolCalls.byName.Bash).to.deep.equal({ count: 1, failed: 0, refused: 1 });
    // Gemini gives calls no id: a result goes by the agent's own id and the tool's name.
    const gemini: RelayedCall = { ...asked, toolCalls: [{ id: null, name: 'run_shell_command' }] };
    const result = {
      id: 'run_shell_command_1_0',
      isError: null,
      name: 'run_shell_command',
      text: 'Blocked: x',
    };
    const again = relayedCall('messages', { content: [{ text: 'ok' }] }, 2, {
      request: { toolResults: [result] },
    });
    const retried = relayedCall('messages', { content: [{ text: 'ok' }] }, 3, {
      request: { toolResults: [result] },
    });
    const g = witnessTurn([gemini, again, retried], priceTokens, isRefusal);
    expect(g.toolCalls.refused, 'one call, however often its result is sent').to.equal(1);
    expect(g.toolCalls.byName.run_shell_command!.refused).to.equal(1);
  });
});
