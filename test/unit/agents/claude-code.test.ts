import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import {
  agentDir,
  AgentInstallError,
  claudeCodeArgv,
  claudeCodeBinds,
  claudeCodeEnv,
  claudeCodeShares,
  codexShares,
  markTruncated,
  newSessionId,
  parseClaudeCodeStream,
  PLACEHOLDER_API_KEY,
} from '../../../src/agents/index.js';

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

  describe('invocation', () => {
    it('a first turn names the session evalrig chose; a later turn resumes it', () => {
      const sessionId = newSessionId();
      expect(sessionId).to.match(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
      const common = [
        '--output-format',
        'stream-json',
        '--verbose',
        '--dangerously-skip-permissions',
      ];
      expect(claudeCodeArgv({ prompt: 'do it', sessionId, resume: false })).to.deep.equal([
        '/opt/evalrig/agent/claude',
        '-p',
        'do it',
        '--session-id',
        sessionId,
        ...common,
      ]);
      expect(
        claudeCodeArgv({ prompt: 'again', sessionId, resume: true, extraArgs: ['--model', 'x'] }),
      ).to.deep.equal([
        '/opt/evalrig/agent/claude',
        '-p',
        'again',
        '--resume',
        sessionId,
        ...common,
        '--model',
        'x',
      ]);
      expect(claudeCodeArgv({ prompt: 'x', sessionId, resume: false })).to.not.include('--bare');
    });

    it('the container gets a placeholder key, the gateway socket and no side traffic', () => {
      const env = claudeCodeEnv('/home/agent');
      expect(env).to.deep.equal({
        HOME: '/home/agent',
        ANTHROPIC_UNIX_SOCKET: '/run/evalrig-model/model.sock',
        ANTHROPIC_BASE_URL: 'http://localhost',
        ANTHROPIC_API_KEY: PLACEHOLDER_API_KEY,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      });
      expect(claudeCodeBinds('/cache/claude.exe', '/runs/r1/model')).to.deep.equal([
        { host: '/cache/claude.exe', container: '/opt/evalrig/agent/claude', readOnly: true },
        { host: '/runs/r1/model', container: '/run/evalrig-model', readOnly: true },
      ]);
    });

    it('shares the binary as a file and the gateway as its one socket, for sandboxes that cannot mount', () => {
      expect(claudeCodeShares('/cache/claude.exe', '/runs/r1/model')).to.deep.equal({
        files: [{ host: '/cache/claude.exe', container: '/opt/evalrig/agent/claude' }],
        sockets: [
          { host: '/runs/r1/model', container: '/run/evalrig-model', names: ['model.sock'] },
        ],
      });
      expect(codexShares('/cache/codex', '/cache/relay.js', '/runs/r1/model')).to.deep.equal({
        files: [
          { host: '/cache/codex', container: '/opt/evalrig/agent/codex' },
          { host: '/cache/relay.js', container: '/opt/evalrig/relay/model-relay' },
        ],
        sockets: [
          { host: '/runs/r1/model', container: '/run/evalrig-model', names: ['model.sock'] },
        ],
      });
    });

    it('the cache holds one folder per exact version; ranges, tags and odd names are refused', () => {
      expect(agentDir('/c', '@anthropic-ai/claude-code', '2.1.332')).to.equal(
        '/c/@anthropic-ai/claude-code@2.1.332',
      );
      for (const [pkg, version] of [
        ['@anthropic-ai/claude-code', 'latest'],
        ['@anthropic-ai/claude-code', '^2.1.0'],
        ['../../etc', '1.0.0'],
        ['@anthropic-ai/claude-code', '1.0.0/../../x'],
      ] as const) {
        expect(() => agentDir('/c', pkg, version), `${pkg}@${version}`).to.throw(AgentInstallError);
      }
    });
  });
});
