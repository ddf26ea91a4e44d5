import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { markTruncated, parseCodexStream, priceTokens } from '../../../../src/agents/index.js';

const FIXTURES = 'test/fixtures/transcripts/codex-0.171.0';
const fixture = (name: string): string => readFileSync(`${FIXTURES}/${name}`, 'utf8');
const MODEL = 'gpt-5.1-codex';
const THREAD = '01a22a96-42ca-7f00-8c0b-470c499f03d5';

describe('codex adapter', () => {
  describe('transcript parsing (streams recorded from the real binary)', () => {
    it('a first turn: the thread id, the final message, one command, tokens with the cached part apart, a priced cost', () => {
      const { summary: t, usage } = parseCodexStream(fixture('turn-01.jsonl'), { model: MODEL });
      expect(t.finalMessage).to.equal('Done: branch x has f.');
      expect(t.sessionId).to.equal(THREAD);
      expect(t.toolCalls).to.deep.equal({
        total: 1,
        failed: 0,
        byName: { command_execution: { count: 1, failed: 0 } },
      });
      // The model script: (1200 + 300 cached) + 1300 in, 40 + 12 out.
      expect(t.tokens).to.deep.equal({ input: 2500, output: 52, cacheRead: 300, cacheWrite: 0 });
      // 2500 × 1.25 + 300 × 0.125 + 52 × 10, per million.
      expect(t.costUsd).to.equal(0.003683);
      expect(t.sessionCostUsd).to.equal(null);
      // The CLI's warning item (unknown model metadata) is neither a tool call nor an error.
      expect(t).to.deep.include({ error: null, complete: true, skippedLines: 0, apiRetries: 0 });
      expect(usage).to.deep.equal({ input: 2800, cachedInput: 300, cacheWrite: 0, output: 52 });
    });

    it('a resumed turn: its failed command counted, and this turn’s tokens, not the running totals', () => {
      const first = parseCodexStream(fixture('turn-01.jsonl'), { model: MODEL });
      const { summary: t, usage } = parseCodexStream(fixture('turn-02-resumed.jsonl'), {
        model: MODEL,
        previous: first.usage,
      });
      expect(t.finalMessage).to.equal('The push failed: there is no origin.');
      expect(t.toolCalls).to.deep.equal({
        total: 1,
        failed: 1,
        byName: { command_execution: { count: 1, failed: 1 } },
      });
      // Running totals 7900/1300/81 less turn 1's 2800/300/52: (2000 + 1000 cached) + 2100 in.
      expect(t.tokens).to.deep.equal({ input: 4100, output: 29, cacheRead: 1000, cacheWrite: 0 });
      expect(usage.input).to.equal(7900);
    });

    it('a failed turn (the model answered 400): the error, no final message, no tokens, the totals kept', () => {
      const before = { input: 7900, cachedInput: 1300, cacheWrite: 0, output: 81 };
      const { summary: t, usage } = parseCodexStream(fixture('turn-03-api-error.jsonl'), {
        model: MODEL,
        previous: before,
      });
      expect(t.error).to.contain('the model script has no response left for request 5');
      expect(t.finalMessage).to.equal(null);
      expect(t.complete).to.equal(true);
      expect(t.tokens).to.deep.equal({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
      expect(t.costUsd).to.equal(0);
      expect(usage).to.deep.equal(before);
    });

    it('counts reconnect attempts as retries; a cut stream is incomplete and says so', () => {
      const stream =
        `{"type":"thread.started","thread_id":"t-1"}\n` +
        `{"type":"turn.started"}\n` +
        `{"type":"error","message":"Reconnecting... 1/5 (stream disconnected before completion)"}\n` +
        `{"type":"error","message":"Reconnecting... 2/5 (stream disconnected before completion)"}\n` +
        `{"type":"item.completed","item":{"id":"i","type":"agent_message","text":"half`;
      const { summary: t } = parseCodexStream(markTruncated(stream, 300), { model: MODEL });
      expect(t).to.deep.include({ apiRetries: 2, complete: false, truncated: true, error: null });
      expect(t.finalMessage).to.equal(null);
    });

    it('prices nothing for a model the table lacks rather than guessing', () => {
      const { summary: t } = parseCodexStream(fixture('turn-01.jsonl'), { model: 'my-own-model' });
      expect(t.costUsd).to.equal(null);
      expect(priceTokens('constructor', { input: 1, output: 1, cacheRead: 0 })).to.equal(null);
    });
  });
});
