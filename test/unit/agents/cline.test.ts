import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import {
  AGENT_ADAPTERS,
  agentFiles,
  CLINE_INSTRUCTIONS,
  ClineSession,
  clineExitCode,
  parseClineStream,
  type AgentInstall,
} from '../../../src/agents/index.js';

const fixture = (turn: string): string =>
  readFileSync(`test/fixtures/transcripts/cline-3.0.65/${turn}.jsonl`, 'utf8');
const cline = AGENT_ADAPTERS.cline;
const SESSION = '1796355191481_3IsjS_cli';

const install: AgentInstall = {
  package: '@cline/cli-linux-x64',
  version: '3.0.65',
  dir: '/cache/@cline/cli-linux-x64@3.0.65',
  binary: '/cache/@cline/cli-linux-x64@3.0.65/node_modules/@cline/cli-linux-x64/bin/cline',
  sha256: '0'.repeat(64),
};

describe('agents: Cline, read from its recorded turns', () => {
  it('its first turn opens a session through the driver; a later one loads the one it named', () => {
    const session = new ClineSession('claude-sonnet-4-6', ['--retries', '2']);
    const head = [
      '/opt/evalrig/relay/model-relay',
      '18080',
      '/run/evalrig-model/model.sock',
      '--',
      '/opt/evalrig/driver/cline-acp',
      '/opt/evalrig/agent/cline',
      'http://127.0.0.1:18080/v1',
      'claude-sonnet-4-6',
    ];
    expect(session.argv('Run the commands.')).to.deep.equal([
      ...head,
      '-',
      '--',
      'Run the commands.',
      '--retries',
      '2',
    ]);
    session.take(fixture('turn-01'));
    expect(session.sessionId).to.equal(SESSION);
    expect(session.argv('Now say you are done.')).to.deep.equal([
      ...head,
      SESSION,
      '--',
      'Now say you are done.',
      '--retries',
      '2',
    ]);
  });

  it('an id of its form goes back into argv, `-` and `_` among its random part; no other', () => {
    const taken = new ClineSession('m');
    taken.take('{"type":"session","sessionId":"1796354222234_vfO8-_cli"}\n');
    expect(taken.sessionId).to.equal('1796354222234_vfO8-_cli');
    const session = new ClineSession('m');
    session.take(
      '{"type":"session","sessionId":"--help"}\n{"type":"result","stopReason":"end_turn"}\n',
    );
    expect(session.sessionId).to.equal(null);
    expect(session.argv('x')).to.include('-');
  });

  it('turn 1: its answers, tool calls (one failed), tokens without the cached part, the final text', () => {
    const t = parseClineStream(fixture('turn-01'));
    expect(t).to.deep.include({
      finalMessage: 'One command failed.',
      sessionId: SESSION,
      modelRequests: 2,
      apiRetries: 0,
      error: null,
      complete: true,
      skippedLines: 0,
    });
    expect(t.tokens).to.deep.equal({ input: 2100, output: 30, cacheRead: 400, cacheWrite: 0 });
    expect(t.toolCalls).to.deep.equal({
      total: 1,
      failed: 1,
      byName: { run_commands: { count: 1, failed: 1 } },
    });
    expect(t.claim.toolCallIds).to.deep.equal(['call_standin_1_1']);
    expect(t.claim.texts).to.deep.equal(['I will run two commands.', 'One command failed.']);
    expect(t.claim.stated).to.deep.equal([t.tokens]);
  });

  it('turn 2, resumed: the same session, this turn alone', () => {
    const t = parseClineStream(fixture('turn-02-resumed'));
    expect(t).to.deep.include({
      finalMessage: 'Second turn answer.',
      sessionId: SESSION,
      modelRequests: 1,
      complete: true,
    });
    expect(t.tokens).to.deep.equal({ input: 1200, output: 8, cacheRead: 0, cacheWrite: 0 });
  });

  it('a failed prompt: its error, no answer counted (the message Cline wrote itself is none)', () => {
    const t = parseClineStream(fixture('turn-03-api-error'));
    expect(t.error).to.match(/^session\/prompt: Internal error: the model script has no response/u);
    expect(t).to.deep.include({ finalMessage: null, modelRequests: 0, complete: false });
    expect(t.claim.texts).to.deep.equal([]);
  });

  it('a turn cut before its result is not complete; another stop reason is its error', () => {
    const cut = parseClineStream(fixture('turn-02-resumed').split('\n').slice(0, 3).join('\n'));
    expect(cut).to.deep.include({ complete: false, error: null });
    const cancelled = parseClineStream('{"type":"result","stopReason":"cancelled"}\n');
    expect(cancelled.error).to.equal('the turn stopped: cancelled');
  });

  it("reads a command's exit code from its run_commands result", () => {
    expect(clineExitCode('[Command exited with code 3]\n\n[stderr]\nfailing\n')).to.equal(3);
    expect(clineExitCode('hi\n')).to.equal(null);
  });

  it('loads AGENTS.md at the root and in its rules folders, one per name; skills one folder deep', () => {
    const verdict = (path: string, staged: string[] = [path], kind = 'instructions' as const) =>
      CLINE_INSTRUCTIONS({ path, kind, frontMatter: true, staged }).loads;
    expect(verdict('AGENTS.md')).to.equal(true);
    expect(verdict('.clinerules/AGENTS.md')).to.equal(true);
    expect(
      verdict('.clinerules/AGENTS.md', ['.clinerules/AGENTS.md', '.cline/rules/AGENTS.md']),
    ).to.equal(false);
    expect(verdict('CLAUDE.md')).to.equal(false);
    expect(verdict('sub/AGENTS.md')).to.equal(false);
    const skill = (path: string, frontMatter = true) =>
      CLINE_INSTRUCTIONS({ path, kind: 'skill', frontMatter, staged: [path] }).loads;
    expect(skill('.cline/skills/a/SKILL.md')).to.equal(true);
    expect(skill('.agents/skills/.a/SKILL.md', false)).to.equal(true);
    expect(skill('.cline/skills/g/a/SKILL.md')).to.equal(false);
    expect(skill('.claude/skills/a/SKILL.md')).to.equal(false);
  });

  it('mounts its binary, the relay and its driver; its provider and session backend in its env', () => {
    expect(agentFiles(cline, install, '/dist/relay', { driver: '/dist/cline-acp' })).to.deep.equal([
      { host: install.binary, container: '/opt/evalrig/agent/cline' },
      { host: '/dist/relay', container: '/opt/evalrig/relay/model-relay' },
      { host: '/dist/cline-acp', container: '/opt/evalrig/driver/cline-acp' },
    ]);
    expect(() => agentFiles(cline, install, '/dist/relay')).to.throw(/needs its driver/u);
    expect(cline.env('/home/u')).to.deep.equal({
      HOME: '/home/u',
      CLINE_PROVIDER: 'openai-compatible',
      CLINE_API_KEY: 'evalrig-placeholder-key',
      CLINE_SESSION_BACKEND_MODE: 'local',
    });
    expect(cline.gatewayPaths).to.deep.equal(['/v1/chat/completions']);
  });
});
