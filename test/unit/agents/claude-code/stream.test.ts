import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { markTruncated, parseClaudeCodeStream } from '../../../../src/agents/index.js';

const FIXTURES = 'test/fixtures/transcripts/claude-code-2.1.332';
const fixture = (name: string): string => readFileSync(`${FIXTURES}/${name}`, 'utf8');

describe('claude-code adapter', () => {
  describe('transcript parsing (streams recorded from the real binary)', () => {
    it('a first turn: the final message, one Bash call, two model requests, this turn’s tokens and cost', () => {
      const t = parseClaudeCodeStream(fixture('turn-01.jsonl'));
      expect(t.finalMessage).to.equal('Done: branch x has f.');
      expect(t.sessionId).to.equal('0b6c2a1e-7f3d-4c5b-9a8e-1d2c3b4a5f60');
      expect(t.toolCalls).to.deep.equal({
        total: 1,
        failed: 0,
        byName: { Bash: { count: 1, failed: 0 } },
      });
      expect(t.modelRequests).to.equal(2);
      // The model script's usage: 1200+1300 in, 40+12 out, 300 read, 50 written.
      expect(t.tokens).to.deep.equal({ input: 2500, output: 52, cacheRead: 300, cacheWrite: 50 });
      expect(t.costUsd).to.equal(0.01135);
      expect(t.sessionCostUsd).to.be.closeTo(0.01135, 1e-9);
      expect(t).to.deep.include({ error: null, complete: true, skippedLines: 0, apiRetries: 0 });
    });

    it('a resumed turn: a failed tool call counted, the cost of this turn and not the running total', () => {
      const t = parseClaudeCodeStream(fixture('turn-02-resumed.jsonl'), {
        previousSessionCostUsd: 0.01135,
      });
      expect(t.finalMessage).to.equal('The push failed: there is no origin.');
      expect(t.toolCalls).to.deep.equal({
        total: 1,
        failed: 1,
        byName: { Bash: { count: 1, failed: 1 } },
      });
      expect(t.tokens).to.deep.equal({ input: 4100, output: 29, cacheRead: 1000, cacheWrite: 0 });
      expect(t.costUsd).to.equal(0.01718);
      expect(t.sessionCostUsd).to.equal(0.02853);
    });

    it('without the per-turn usage, the cost is the step of the running total', () => {
      const lines = fixture('turn-02-resumed.jsonl').trim().split('\n');
      const result = JSON.parse(lines.pop()!) as Record<string, unknown>;
      delete result.model_usage_since_last_result;
      const t = parseClaudeCodeStream([...lines, JSON.stringify(result)].join('\n'), {
        previousSessionCostUsd: 0.01135,
      });
      expect(t.costUsd).to.equal(0.01718);
    });

    it('an API error: the agent’s error kept, no final message, no model request counted', () => {
      const t = parseClaudeCodeStream(fixture('turn-03-api-error.jsonl'), {
        previousSessionCostUsd: 0.02853,
      });
      expect(t.error).to.equal(
        'API Error: 400 the model script has no response left for request 10 (it holds 4)',
      );
      expect(t.finalMessage).to.equal(null);
      expect(t.modelRequests).to.equal(0);
      expect(t.costUsd).to.equal(0);
      expect(t.complete).to.equal(true);
    });

    it('a cut stream: incomplete, junk lines counted and skipped, what came before kept', () => {
      const head = fixture('turn-01.jsonl').split('\n').slice(0, 5).join('\n');
      const t = parseClaudeCodeStream(`${head}\nnot json\n[1,2]\n{"type":"assist`);
      expect(t.complete).to.equal(false);
      expect(t.skippedLines).to.equal(3);
      expect(t.toolCalls.total).to.equal(1);
      expect(t.costUsd).to.equal(null);
      expect(t.finalMessage).to.equal('I will make the branch.');
    });

    it('a transcript cut at its cap: the partial line dropped, a visible mark, read as truncated and incomplete', () => {
      const whole = fixture('turn-01.jsonl');
      const cut = markTruncated(whole.slice(0, 5000), 5000);
      const lines = cut.trim().split('\n');
      expect(JSON.parse(lines[lines.length - 1]!)).to.deep.equal({
        type: 'evalrig_truncated',
        cap_bytes: 5000,
      });
      const t = parseClaudeCodeStream(cut);
      expect(t).to.deep.include({ truncated: true, complete: false, skippedLines: 0 });
      expect(t.toolCalls.total).to.equal(1); // what came before the cut is kept
      expect(lines).to.have.length(5); // four whole lines and the mark
      expect(parseClaudeCodeStream(whole).truncated).to.equal(false);
    });

    it('skips a line past the line cap instead of parsing it', () => {
      const huge = JSON.stringify({
        type: 'assistant',
        message: { id: 'm', content: [{ type: 'text', text: 'x'.repeat(5000) }] },
      });
      const t = parseClaudeCodeStream(huge, { maxLineBytes: 1000 });
      expect(t.skippedLines).to.equal(1);
      expect(t.modelRequests).to.equal(0);
    });
  });
});
