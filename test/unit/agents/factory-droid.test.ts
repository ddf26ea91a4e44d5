import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import {
  AGENT_ADAPTERS,
  agentFiles,
  FACTORY_DROID_SKILLS,
  FactoryDroidSession,
  factoryDroidExitCode,
  parseFactoryDroidStream,
  priceTokens,
  type AgentInstall,
} from '../../../src/agents/index.js';

const fixture = (turn: string): string =>
  readFileSync(`test/fixtures/transcripts/factory-droid-0.225.2/${turn}.jsonl`, 'utf8');
const droid = AGENT_ADAPTERS['factory-droid'];
const FIRST = '218cad36-7eaa-40e9-af1a-d76d8c292ef5';
const FORKED = 'fb9c1eb2-7d42-46a9-b44a-7dc5997bb816';

const install: AgentInstall = {
  package: '@factory/cli-linux-x64',
  version: '0.225.2',
  dir: '/cache/@factory/cli-linux-x64@0.225.2',
  binary: '/cache/@factory/cli-linux-x64@0.225.2/node_modules/@factory/cli-linux-x64/bin/droid',
  sha256: '0'.repeat(64),
};

describe('agents: Factory Droid, read from its recorded streams', () => {
  it('its first turn names no session; a later one forks the one the turn before named', () => {
    const session = new FactoryDroidSession('kimi-k2.6', ['--x']);
    const first = session.argv('Write it.');
    expect(first.slice(0, 7)).to.deep.equal([
      '/opt/evalrig/relay/model-relay',
      '18080',
      '/run/evalrig-model/model.sock',
      '--',
      '/bin/sh',
      '-c',
      first[6],
    ]);
    const agent = first.indexOf('/opt/evalrig/agent/droid');
    expect(first.slice(agent + 1)).to.deep.equal([
      ...['exec', '--auto', 'high', '-m', 'custom:evalrig', '-o', 'stream-json'],
      ...['--x', '--', 'Write it.'],
    ]);
    session.take(fixture('turn-01'));
    expect(session.sessionId).to.equal(FIRST);
    const second = session.argv('-p is a prompt too');
    expect(second.slice(-5)).to.deep.equal(['--fork', FIRST, '--x', '--', '-p is a prompt too']);
    session.take(fixture('turn-02-forked'));
    expect(session.argv('Again.')).to.include(FORKED);
    // An id not shaped like its own never reaches argv.
    session.take('{"type":"completion","session_id":"--skip-permissions-unsafe"}\n');
    expect(session.sessionId).to.equal(FORKED);
  });

  it('writes its settings under HOME before it runs: one custom model at the relay, the placeholder key', () => {
    const argv = new FactoryDroidSession('kimi-k2.6').argv('Go.');
    const [script, , settings, ps] = argv.slice(6, 10);
    expect(script).to.contain('"$HOME/.factory/settings.json"').and.contain('command -v ps');
    expect(JSON.parse(settings!)).to.deep.equal({
      customModels: [
        {
          id: 'custom:evalrig',
          model: 'kimi-k2.6',
          displayName: 'kimi-k2.6',
          provider: 'generic-chat-completion-api',
          baseUrl: 'http://127.0.0.1:18080/v1',
          apiKey: 'evalrig-placeholder-key',
        },
      ],
    });
    expect(ps).to.match(/^#!\/bin\/sh\n/u);
  });

  it('turn 1: three answers by its own message ids, two commands, this turn’s tokens stated', () => {
    const one = parseFactoryDroidStream(fixture('turn-01'));
    expect(one).to.deep.include({
      finalMessage: 'Done: notes.txt holds the word offline.',
      sessionId: FIRST,
      modelRequests: 3,
      apiRetries: 0,
      tokens: { input: 3300, output: 39, cacheRead: 800, cacheWrite: 0 },
      costUsd: null,
      error: null,
      complete: true,
      truncated: false,
    });
    expect(one.toolCalls).to.deep.equal({
      total: 2,
      failed: 0,
      byName: { Execute: { count: 2, failed: 0 } },
    });
    expect(one.claim).to.deep.include({
      answerIds: [],
      texts: ['I will write the notes.', 'Done: notes.txt holds the word offline.'],
      toolCallIds: ['call_standin_1_1', 'call_standin_2_0'],
      terminals: 1,
      starts: 1,
      stated: [{ input: 3300, output: 39, cacheRead: 800, cacheWrite: 0 }],
      listedSkills: null,
    });
  });

  it('turn 2, forked: the push Droid Shield refused is no failure; turn 3: the 400 is the turn’s error', () => {
    const two = parseFactoryDroidStream(fixture('turn-02-forked'));
    expect(two).to.deep.include({ sessionId: FORKED, modelRequests: 2, complete: true });
    expect(two.tokens).to.deep.include({ input: 2700, output: 17 });
    expect(two.toolCalls.byName).to.deep.equal({ Execute: { count: 1, failed: 0 } });
    const three = parseFactoryDroidStream(fixture('turn-03-api-error'));
    expect(three).to.deep.include({
      finalMessage: null,
      modelRequests: 0,
      error: '400 the model script has no response left for request 6 (it holds 5)',
      complete: false,
    });
  });

  it('goes through a 429, a cut stream and a 503 without a word; the cut answer is in no claim', () => {
    const faults = parseFactoryDroidStream(fixture('turn-faults'));
    expect(faults).to.deep.include({
      finalMessage: 'The faults are behind us.',
      modelRequests: 2,
      apiRetries: 0,
      error: null,
      complete: true,
    });
    expect(faults.toolCalls).to.deep.include({ total: 1, failed: 0 });
    expect(faults.claim.texts).to.deep.equal(['Committing.', 'The faults are behind us.']);
    expect(faults.claim.toolCallIds).to.deep.equal(['call_standin_3_1']);
  });

  it('a command of its deny list: its own words end a first turn (not the model’s), a result refuses it in a forked one', () => {
    const first = parseFactoryDroidStream(fixture('turn-denied-first'));
    expect(first).to.deep.include({
      finalMessage: null,
      modelRequests: 1,
      error:
        'Exec ended early: insufficient permission to proceed. Re-run with --skip-permissions-unsafe.',
      complete: false,
    });
    expect(first.toolCalls).to.deep.include({ total: 1, failed: 0 });
    expect(first.claim.texts).to.deep.equal([]);
    const forked = parseFactoryDroidStream(fixture('turn-denied-forked'));
    expect(forked).to.deep.include({ finalMessage: 'I will not run it.', complete: true });
    expect(forked.toolCalls).to.deep.include({ total: 1, failed: 0 });
  });

  it('a cut transcript is marked, not taken whole; a forged second completion is two terminals', () => {
    const head = fixture('turn-01').split('\n').slice(0, 4).join('\n');
    const cut = parseFactoryDroidStream(`${head}\n{"type":"evalrig_truncated","cap_bytes":10}\n`);
    expect(cut).to.deep.include({ truncated: true, complete: false });
    const twice = parseFactoryDroidStream(
      `${fixture('turn-01')}${fixture('turn-01').split('\n').at(-2)}\n`,
    );
    expect(twice.claim.terminals).to.equal(2);
  });
});

describe('agents: the Factory Droid adapter', () => {
  it('runs in Airgap Mode with its updater off; HOME holds its settings and sessions', () => {
    expect(droid.env('/tmp/home', 'kimi-k2.6')).to.deep.equal({
      HOME: '/tmp/home',
      FACTORY_AIRGAP_ENABLED: '1',
      FACTORY_DROID_AUTO_UPDATE_ENABLED: 'false',
    });
    expect(droid).to.deep.include({
      package: '@factory/cli-linux-x64',
      defaultModel: 'kimi-k2.6',
      gatewayPaths: ['/v1/chat/completions'],
      auth: 'bearer',
    });
    expect(droid.install('0.225.2')).to.deep.equal({
      package: '@factory/cli-linux-x64',
      version: '0.225.2',
      bin: 'droid',
      binaryPath: 'node_modules/@factory/cli-linux-x64/bin/droid',
    });
  });

  it('mounts the binary and the relay, nothing else', () => {
    expect(agentFiles(droid, install, '/dist/relay')).to.deep.equal([
      { host: install.binary, container: '/opt/evalrig/agent/droid' },
      { host: '/dist/relay', container: '/opt/evalrig/relay/model-relay' },
    ]);
    expect(droid.parseVersion('0.225.2\n')).to.equal('0.225.2');
    expect(droid.versionArgv.slice(-2)).to.deep.equal(['/opt/evalrig/agent/droid', '--version']);
  });

  it('its refusals match what its tool results read; a failing command is not one; its exit codes', () => {
    const refused = (text: string) => droid.refusals.some((r) => r.test(text));
    const said = (turn: string) =>
      fixture(turn)
        .split('\n')
        .filter((l) => l.includes('"tool_result"'))
        .map((l) => (JSON.parse(l) as { error?: { message: string } }).error?.message ?? '');
    expect(said('turn-faults').map(refused)).to.deep.equal([true]);
    expect(said('turn-02-forked').map(refused)).to.deep.equal([true]);
    expect(said('turn-denied-forked').map(refused)).to.deep.equal([true]);
    expect(
      refused('Error: Command failed (exit code: 3)\nfailing\n\n[Process exited with code 3]'),
    ).to.equal(false);
    expect(
      factoryDroidExitCode('Error: Command failed (exit code: 3)\n\n[Process exited with code 3]'),
    ).to.equal(3);
    expect(factoryDroidExitCode('ok\n\n\n[Process exited with code 0]')).to.equal(0);
    expect(factoryDroidExitCode('Error: Command terminated by signal: SIGKILL')).to.equal(null);
  });

  it('lists a skill as its system reminder does, the description as YAML reads it', () => {
    expect(FACTORY_DROID_SKILLS.entry('pr-flow', 'Use "it" <here> & ✓')).to.equal(
      'pr-flow: Use "it" <here> & ✓',
    );
    expect(FACTORY_DROID_SKILLS.tool).to.deep.equal({ name: 'Skill', field: 'skill' });
  });

  it('prices its default model (an assumed list price)', () => {
    const tokens = { input: 1_000_000, output: 1_000_000, cacheRead: 1_000_000 };
    expect(priceTokens(droid.defaultModel!, tokens)).to.equal(5.11);
  });
});
