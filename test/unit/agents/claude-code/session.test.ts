import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { ClaudeCodeSession, parseVersionOutput } from '../../../../src/agents/index.js';

const FIXTURES = 'test/fixtures/transcripts/claude-code-2.1.332';
const fixture = (name: string): string => readFileSync(`${FIXTURES}/${name}`, 'utf8');

describe('claude-code session', () => {
  it('names its session on the first turn, resumes it after, and costs each turn alone', () => {
    const session = new ClaudeCodeSession('0b6c2a1e-7f3d-4c5b-9a8e-1d2c3b4a5f60', ['--model', 'm']);
    const first = session.argv('one');
    expect(first.slice(1, 5)).to.deep.equal(['-p', 'one', '--session-id', session.id]);
    expect(first.slice(-2)).to.deep.equal(['--model', 'm']);
    expect(session.take(fixture('turn-01.jsonl')).costUsd).to.equal(0.01135);
    expect(session.argv('two').slice(1, 5)).to.deep.equal(['-p', 'two', '--resume', session.id]);

    // Without the per-turn usage field, the running total is what the cost comes from.
    const lines = fixture('turn-02-resumed.jsonl').trim().split('\n');
    const result = JSON.parse(lines.pop()!) as Record<string, unknown>;
    delete result.model_usage_since_last_result;
    expect(session.take([...lines, JSON.stringify(result)].join('\n')).costUsd).to.equal(0.01718);
    expect(session.take(fixture('turn-03-api-error.jsonl')).costUsd).to.equal(0);
  });

  it('reads the version a binary answers', () => {
    expect(parseVersionOutput('2.1.332 (Claude Code)\n')).to.equal('2.1.332');
    expect(parseVersionOutput('codex-cli 0.160.0')).to.equal(null);
    expect(parseVersionOutput('sh: 1: claude: not found')).to.equal(null);
  });
});
