import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import {
  AGENT_ADAPTERS,
  agentFiles,
  COPILOT_CLI_INSTRUCTIONS,
  COPILOT_CLI_SKILLS,
  CopilotCliSession,
  parseCopilotStream,
  parseCopilotVersion,
  priceTokens,
  type AgentInstall,
} from '../../../src/agents/index.js';

const fixture = (turn: string): string =>
  readFileSync(`test/fixtures/transcripts/copilot-1.0.102/${turn}.jsonl`, 'utf8');
const SESSION = '3f6d2c9e-8a41-4b7e-9c55-1d2e3f4a5b6c';
const copilot = AGENT_ADAPTERS['copilot-cli'];

const install: AgentInstall = {
  package: '@github/copilot',
  version: '1.0.102',
  dir: '/cache/@github/copilot@1.0.102',
  binary: '/cache/@github/copilot@1.0.102/node_modules/@github/copilot-linux-x64/copilot',
  sha256: '0'.repeat(64),
};

describe('agents: Copilot CLI, read from its recorded streams', () => {
  it('names the session evalrig chose, then resumes it; the prompt last, through the relay', () => {
    const session = new CopilotCliSession(['--x'], 'sid-1');
    const first = session.argv('Write it.');
    session.take(fixture('turn-01'));
    const second = session.argv('Push it.');
    expect(first.slice(0, 5)).to.deep.equal([
      '/opt/evalrig/relay/model-relay',
      '18080',
      '/run/evalrig-model/model.sock',
      '--',
      '/opt/evalrig/agent/copilot',
    ]);
    expect(first).to.include.members(['--allow-all', '--no-auto-update', '--x']);
    expect(first[first.indexOf('--output-format') + 1]).to.equal('json');
    expect(first.slice(-5)).to.deep.equal(['--session-id', 'sid-1', '--x', '-p', 'Write it.']);
    expect(first).to.not.include('--resume');
    expect(second.slice(-5)).to.deep.equal(['--resume', 'sid-1', '--x', '-p', 'Push it.']);
    expect(second).to.not.include('--session-id');
  });

  it('turn 1: two answers, their ids and texts claimed, the command that wrote the file, no tokens stated', () => {
    const one = parseCopilotStream(fixture('turn-01'));
    expect(one).to.deep.include({
      finalMessage: 'Done: notes.txt holds the word offline.',
      sessionId: SESSION,
      modelRequests: 2,
      apiRetries: 0,
      tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      costUsd: null,
      error: null,
      complete: true,
      truncated: false,
    });
    expect(one.toolCalls).to.deep.equal({
      total: 1,
      failed: 0,
      byName: { bash: { count: 1, failed: 0 } },
    });
    expect(one.claim).to.deep.include({
      answerIds: ['chatcmpl-standin000001', 'chatcmpl-standin000002'],
      texts: ['I will write the notes.', 'Done: notes.txt holds the word offline.'],
      toolCallIds: ['call_standin_1_1'],
      terminals: 1,
      stated: [],
      listedSkills: ['customize-cloud-agent', 'github-pr-media'],
    });
  });

  it('turn 2, resumed: a command that exits 128 is failed; turn 3: the 400 is the turn’s error', () => {
    const two = parseCopilotStream(fixture('turn-02-resumed'));
    expect(two).to.deep.include({ sessionId: SESSION, modelRequests: 2, complete: true });
    expect(two.toolCalls.byName).to.deep.equal({ bash: { count: 1, failed: 1 } });
    const three = parseCopilotStream(fixture('turn-03-api-error'));
    expect(three).to.deep.include({
      finalMessage: null,
      modelRequests: 0,
      error: '400 the model script has no response left for request 5 (it holds 4)',
      complete: false,
    });
  });

  it('goes through a 429, a 503 and a cut stream (three retries); the call its policy refused is no failure', () => {
    const faults = parseCopilotStream(fixture('turn-faults'));
    expect(faults).to.deep.include({
      finalMessage: 'The faults are behind us.',
      modelRequests: 2,
      apiRetries: 3,
      error: null,
      complete: true,
    });
    expect(faults.toolCalls).to.deep.equal({
      total: 1,
      failed: 0,
      byName: { bash: { count: 1, failed: 0 } },
    });
    // The cut answer's part is no text of a whole answer, and its request id no answer id.
    expect(faults.claim.texts).to.deep.equal(['Running it.', 'The faults are behind us.']);
    expect(faults.claim.answerIds).to.deep.equal([
      'chatcmpl-standin000004',
      'chatcmpl-standin000005',
    ]);
  });

  it('its refusals match what its tool results read; a failing command is not one', () => {
    const refused = (text: string) => copilot.refusals.some((r) => r.test(text));
    expect(
      refused(
        "Command not executed. The 'pkill' command is not allowed. Use 'kill <PID>' with a specific process ID instead.",
      ),
    ).to.equal(true);
    expect(
      refused(
        'Command blocked: contains dangerous shell expansion patterns (e.g., parameter transformation, indirect expansion, or nested command substitution) that could enable arbitrary code execution.',
      ),
    ).to.equal(true);
    expect(refused('failing\n<shellId: 0 completed with exit code 3>')).to.equal(false);
  });

  it('a cut transcript is marked, not taken whole; a forged second result is two terminals', () => {
    const head = fixture('turn-01').split('\n').slice(0, 10).join('\n');
    const cut = parseCopilotStream(`${head}\n{"type":"evalrig_truncated","cap_bytes":10}\n`);
    expect(cut).to.deep.include({ truncated: true, complete: false });
    const twice = parseCopilotStream(
      `${fixture('turn-01')}${fixture('turn-01').split('\n').at(-2)}\n`,
    );
    expect(twice.claim.terminals).to.equal(2);
  });
});

describe('agents: the Copilot CLI adapter', () => {
  it('points its own provider at the relay with the placeholder key and the read-only package cache', () => {
    const env = copilot.env('/tmp/home', 'gpt-5.4');
    expect(env).to.deep.include({
      HOME: '/tmp/home',
      COPILOT_PROVIDER_BASE_URL: 'http://127.0.0.1:18080/v1',
      COPILOT_PROVIDER_WIRE_API: 'completions',
      COPILOT_PROVIDER_API_KEY: 'evalrig-placeholder-key',
      COPILOT_MODEL: 'gpt-5.4',
      COPILOT_OFFLINE: 'true',
      COPILOT_PKG_CACHE_HOME: '/opt/evalrig/agent/copilot-pkg',
    });
    expect(copilot.env('/h').COPILOT_MODEL).to.equal(copilot.defaultModel);
    expect(copilot).to.deep.include({ gatewayPaths: ['/v1/chat/completions'], auth: 'bearer' });
  });

  it('mounts the binary, the relay and the unpacked folder; it needs the folder', () => {
    const files = agentFiles(copilot, install, '/dist/relay', { unpacked: '/cache/pkg-cache' });
    expect(files).to.deep.equal([
      { host: install.binary, container: '/opt/evalrig/agent/copilot' },
      { host: '/dist/relay', container: '/opt/evalrig/relay/model-relay' },
      { host: '/cache/pkg-cache', container: '/opt/evalrig/agent/copilot-pkg' },
    ]);
    expect(() => agentFiles(copilot, install, '/dist/relay')).to.throw(/unpacked folder/u);
  });

  it('reads its version line, nothing else', () => {
    const said = "GitHub Copilot CLI 1.0.102.\nRun 'copilot update' to check for updates.\n";
    expect(parseCopilotVersion(said)).to.equal('1.0.102');
    expect(parseCopilotVersion('Copilot binary version: 1.0.102')).to.equal(null);
  });

  it('lists a skill as its system message does: XML, every HTML character escaped', () => {
    expect(COPILOT_CLI_SKILLS.entry('pr-flow', `Use "it" <here> & 'there'`)).to.equal(
      '<name>pr-flow</name><description>Use &quot;it&quot; &lt;here&gt; &amp; &apos;there&apos;',
    );
    expect(COPILOT_CLI_SKILLS.tool).to.deep.equal({ name: 'skill', field: 'skill' });
  });

  it('prices its default model (an assumed list price)', () => {
    const tokens = { input: 1_000_000, output: 0, cacheRead: 1_000_000 };
    expect(priceTokens(copilot.defaultModel!, tokens)).to.equal(2.75);
  });
});

describe('agents: what Copilot CLI loads (its rule, as its requests showed)', () => {
  const verdict = (path: string, staged: readonly string[] = [path]) => {
    const kind = path.toLowerCase().endsWith('skill.md') ? 'skill' : 'instructions';
    return COPILOT_CLI_INSTRUCTIONS({ path, kind, frontMatter: true, staged });
  };

  it('AGENTS.md, CLAUDE.md, GEMINI.md and .github/copilot-instructions.md, side by side, whatever their case', () => {
    const all = ['AGENTS.md', 'CLAUDE.md', 'GEMINI.md', '.github/copilot-instructions.md'];
    for (const p of [...all, 'agents.md', 'Claude.md', '.github/COPILOT-INSTRUCTIONS.md']) {
      expect(verdict(p, all), p).to.deep.equal({ loads: true, note: null });
    }
  });

  it('not a letter off, nested, elsewhere, nor another agent’s file', () => {
    expect(verdict('AGENT.md').note).to.match(/reads AGENTS\.md, not AGENT\.md/u);
    expect(verdict('copilot-instructions.md').note).to.match(/in \.github\/ only/u);
    expect(verdict('.github/AGENTS.md').loads).to.equal(false);
    expect(verdict('QWEN.md').note).to.match(/reads no QWEN\.md/u);
  });

  it('skills at any depth under its three roots; no dot-folder, none inside another skill, no other root', () => {
    for (const p of [
      '.github/skills/a/SKILL.md',
      '.github/skills/group/a/SKILL.md',
      '.claude/skills/a/SKILL.md',
      '.agents/skills/g/a/SKILL.md',
    ])
      expect(verdict(p).loads, p).to.equal(true);
    for (const p of [
      '.github/skill/a/SKILL.md',
      '.github/skills/.hidden/a/SKILL.md',
      '.copilot/skills/a/SKILL.md',
      '.github/skills/a/skill.md',
    ])
      expect(verdict(p).loads, p).to.equal(false);
    const outer = '.github/skills/a/SKILL.md';
    const inner = '.github/skills/a/b/SKILL.md';
    expect(verdict(inner, [outer, inner]).note).to.contain(`takes ${outer} as the skill`);
    expect(verdict(outer, [outer, inner]).loads).to.equal(true);
  });

  it('refuses a skill without front matter', () => {
    const bare = COPILOT_CLI_INSTRUCTIONS({
      path: '.github/skills/a/SKILL.md',
      kind: 'skill',
      frontMatter: false,
    });
    expect(bare.loads).to.equal(false);
  });
});
