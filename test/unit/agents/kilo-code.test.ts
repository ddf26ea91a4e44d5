import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import {
  AGENT_ADAPTERS,
  adapterShares,
  agentFiles,
  KILO_CODE_INSTRUCTIONS,
  KiloCodeSession,
  parseKiloStream,
  priceTokens,
  toolResultForms,
  type AgentInstall,
} from '../../../src/agents/index.js';

const fixture = (turn: string): string =>
  readFileSync(`test/fixtures/transcripts/kilo-code-7.7.7/${turn}.jsonl`, 'utf8');
const kilo = AGENT_ADAPTERS['kilo-code'];
const SESSION = 'ses_dc4a10173ffetWt5YfPi4Ls9rD';

const install: AgentInstall = {
  package: '@kilocode/cli',
  version: '7.7.7',
  dir: '/cache/@kilocode/cli@7.7.7',
  binary: '/cache/@kilocode/cli@7.7.7/node_modules/@kilocode/cli-linux-x64/bin/kilo',
  sha256: '0'.repeat(64),
};

describe('agents: Kilo Code, read from its recorded streams', () => {
  it('titles the first turn, then continues the session its stream named; the prompt last, through the relay', () => {
    const session = new KiloCodeSession('grok-code-fast-1', ['--x']);
    const first = session.argv('Write it.');
    session.take(fixture('turn-01'));
    const second = session.argv('Push it.');
    expect(first.slice(0, 5)).to.deep.equal([
      '/opt/evalrig/relay/model-relay',
      '18080',
      '/run/evalrig-model/model.sock',
      '--',
      '/opt/evalrig/agent/kilo',
    ]);
    expect(first.slice(5, 12)).to.deep.equal([
      'run',
      '--format',
      'json',
      '--auto',
      '-m',
      'evalrig/grok-code-fast-1',
      '--title',
    ]);
    expect(first.slice(-4)).to.deep.equal(['evalrig', '--x', '--', 'Write it.']);
    expect(second.slice(-5)).to.deep.equal(['--session', SESSION, '--x', '--', 'Push it.']);
  });

  it('its config in KILO_CONFIG_CONTENT: only evalrig’s provider, at the relay, with the placeholder key; side traffic off', () => {
    const env = kilo.env('/home/u');
    const config = JSON.parse(env.KILO_CONFIG_CONTENT!) as Record<string, unknown>;
    expect(config).to.deep.include({
      autoupdate: false,
      share: 'disabled',
      enabled_providers: ['evalrig'],
      model: 'evalrig/grok-code-fast-1',
    });
    expect(config.provider).to.deep.equal({
      evalrig: {
        npm: '@ai-sdk/openai-compatible',
        name: 'evalrig',
        options: { baseURL: 'http://127.0.0.1:18080/v1', apiKey: 'evalrig-placeholder-key' },
        models: { 'grok-code-fast-1': { name: 'grok-code-fast-1', tool_call: true } },
      },
    });
    expect(env).to.include({
      HOME: '/home/u',
      KILO_DISABLE_MODELS_FETCH: '1',
      KILO_DISABLE_AUTOUPDATE: '1',
      KILO_TELEMETRY_LEVEL: 'off',
      KILO_DISABLE_SESSION_INGEST: '1',
    });
    // OpenCode's names are not its: none is set.
    expect(Object.keys(env).filter((k) => k.startsWith('OPENCODE_'))).to.deep.equal([]);
  });

  it('turn 1: two steps, their tokens summed, the write tool done; turn 2: the push failed', () => {
    const one = parseKiloStream(fixture('turn-01'));
    expect(one).to.deep.include({
      finalMessage: 'Done: notes.txt holds the word offline.',
      sessionId: SESSION,
      modelRequests: 2,
      tokens: { input: 4400, output: 52, cacheRead: 2300, cacheWrite: 0 },
      error: null,
      complete: true,
    });
    expect(one.toolCalls).to.deep.equal({
      total: 1,
      failed: 0,
      byName: { write: { count: 1, failed: 0 } },
    });
    const failed = parseKiloStream(fixture('turn-02-failed'));
    expect(failed.toolCalls.byName).to.deep.equal({ bash: { count: 1, failed: 1 } });
  });

  it('a call its permission rules denied is no failure, and its result reads as a refusal; a failed command’s does not', () => {
    const refused = parseKiloStream(fixture('turn-02-refused'));
    expect(refused.toolCalls).to.deep.equal({
      total: 1,
      failed: 0,
      byName: { bash: { count: 1, failed: 0 } },
    });
    expect(refused).to.deep.include({ complete: true, finalMessage: 'The push did not happen.' });
    const part = (turn: string) =>
      fixture(turn)
        .split('\n')
        .filter((l) => l.includes('"tool_use"'))
        .map((l) => (JSON.parse(l) as { part: { state: Record<string, string> } }).part.state)[0]!;
    const forms = toolResultForms('@kilocode/cli');
    expect(forms.refused(part('turn-02-refused').error!)).to.equal(true);
    expect(forms.refused(part('turn-02-failed').output!)).to.equal(false);
    expect(forms.refused('The user rejected permission to use this specific tool call.')).to.equal(
      true,
    );
  });

  it('the table: its native binary and the relay mounted, Chat Completions, the key as bearer', () => {
    expect(kilo.install('7.7.7')).to.deep.equal({
      package: '@kilocode/cli',
      version: '7.7.7',
      bin: 'kilo',
      binaryPath: `node_modules/@kilocode/cli-linux-${process.arch === 'arm64' ? 'arm64' : 'x64'}/bin/kilo`,
    });
    const files = agentFiles(kilo, install, '/dist/relay');
    expect(adapterShares(kilo, files, '/gw').files).to.deep.equal([
      { host: install.binary, container: '/opt/evalrig/agent/kilo' },
      { host: '/dist/relay', container: '/opt/evalrig/relay/model-relay' },
    ]);
    expect(kilo).to.include({ auth: 'bearer', defaultModel: 'grok-code-fast-1' });
    expect(kilo.gatewayPaths).to.deep.equal(['/v1/chat/completions']);
    expect(kilo.versionArgv.slice(-2)).to.deep.equal(['/opt/evalrig/agent/kilo', '--version']);
    expect(kilo.parseVersion('7.7.7\n')).to.equal('7.7.7');
    expect(priceTokens('grok-code-fast-1', { input: 1e6, output: 1e6, cacheRead: 1e6 })).to.equal(
      1.72,
    );
  });

  it('the treatment check: what Kilo Code loads (its conformance suite proves each)', () => {
    const verdict = (path: string, staged: string[] = [], frontMatter = true) =>
      KILO_CODE_INSTRUCTIONS({
        path,
        kind: path.toLowerCase().endsWith('skill.md') ? 'skill' : 'instructions',
        frontMatter,
        staged,
      });
    for (const p of [
      'AGENTS.md',
      '.kilo/skills/a/SKILL.md',
      '.kilo/skill/a/SKILL.md',
      '.kilo/skills/g/a/SKILL.md',
      '.kilo/skills/a/inner/SKILL.md',
      '.kilocode/skills/a/SKILL.md',
      '.claude/skills/a/SKILL.md',
      '.claude/skills/.h/a/SKILL.md',
      '.agents/skills/g/a/SKILL.md',
    ])
      expect(verdict(p), p).to.deep.equal({ loads: true, note: null });
    for (const p of [
      '.kilo/skills/.hidden/a/SKILL.md',
      '.claude/skill/a/SKILL.md',
      '.opencode/skills/a/SKILL.md',
      '.kilo/skills/a/skill.md',
      'agents.md',
      'AGENT.md',
      '.kilo/AGENTS.md',
      'GEMINI.md',
    ])
      expect(verdict(p).loads, p).to.equal(false);
    expect(verdict('.kilo/skills/a/SKILL.md', [], false).loads).to.equal(false);
    // CLAUDE.md: read where no AGENTS.md is.
    expect(verdict('CLAUDE.md', ['AGENTS.md', 'CLAUDE.md']).loads).to.equal(false);
    expect(verdict('CLAUDE.md', ['CLAUDE.md'])).to.deep.include({ loads: true });
  });
});
