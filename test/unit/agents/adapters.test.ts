import { expect } from 'chai';
import {
  AGENT_ADAPTERS,
  adapterShares,
  agentFiles,
  CodexSession,
  ClaudeCodeSession,
  type AgentInstall,
} from '../../../src/agents/index.js';
import type { TurnAgentRecord } from '../../../src/artifacts/index.js';
import { whyAgentFailed } from '../../../src/campaign/turns.js';
import { ADAPTER_KINDS, AGENT_KINDS } from '../../../src/config/index.js';
import type { ExecResult } from '../../../src/sandbox/index.js';

const install = (binary: string): AgentInstall => ({
  package: 'p',
  version: '1.0.0',
  dir: '/cache/p@1.0.0',
  binary,
  sha256: '0'.repeat(64),
});

describe('agent adapters: what differs between claude-code and codex, in one table', () => {
  it('has an adapter for each kind of the one list, with its name, package and default model', () => {
    expect(Object.keys(AGENT_ADAPTERS)).to.deep.equal(ADAPTER_KINDS);
    for (const kind of ADAPTER_KINDS) {
      const adapter = AGENT_ADAPTERS[kind];
      expect(adapter.type).to.equal(kind);
      expect({ ...AGENT_KINDS[kind] }).to.deep.equal({
        name: adapter.name,
        package: adapter.package,
        defaultModel: adapter.defaultModel,
      });
    }
  });

  it('claude-code: its binary and the gateway folder mounted, /v1/messages, the key as x-api-key', () => {
    const a = AGENT_ADAPTERS['claude-code'];
    const files = agentFiles(a, install('/c/claude'), undefined);
    expect(adapterShares(a, files, '/gw')).to.deep.equal({
      files: [{ host: '/c/claude', container: '/opt/evalrig/agent/claude' }],
      sockets: [{ host: '/gw', container: '/run/evalrig-model', names: ['model.sock'] }],
    });
    expect(a).to.include({ auth: 'x-api-key' });
    expect(a.gatewayPaths).to.deep.equal(['/v1/messages']);
    expect(a.newSession({ extraArgs: [] })).to.be.instanceOf(ClaudeCodeSession);
  });

  it('codex: its binary, the relay and the gateway folder, /v1/responses, the key as bearer', () => {
    const a = AGENT_ADAPTERS.codex;
    const files = agentFiles(a, install('/c/codex'), '/dist/model-relay');
    expect(adapterShares(a, files, '/gw')).to.deep.equal({
      files: [
        { host: '/c/codex', container: '/opt/evalrig/agent/codex' },
        { host: '/dist/model-relay', container: '/opt/evalrig/relay/model-relay' },
      ],
      sockets: [{ host: '/gw', container: '/run/evalrig-model', names: ['model.sock'] }],
    });
    expect(() => agentFiles(a, install('/c/codex'), undefined)).to.throw(/model relay/u);
    expect(a).to.include({ auth: 'bearer' });
    expect(a.gatewayPaths).to.deep.equal(['/v1/responses']);
    // --version is asked as a turn starts: through the relay.
    expect(a.versionArgv.slice(0, 1)).to.deep.equal(['/opt/evalrig/relay/model-relay']);
    expect(a.versionArgv.slice(-2)).to.deep.equal(['/opt/evalrig/agent/codex', '--version']);
    const session = a.newSession({ model: 'gpt-5-mini', extraArgs: ['--x'] });
    expect(session).to.be.instanceOf(CodexSession);
    expect(session.argv('hi')).to.include('model="gpt-5-mini"').and.to.include('--x');
  });

  it('built into an image, the agent files are not shared: only the gateway socket is', () => {
    expect(adapterShares(AGENT_ADAPTERS.codex, [], '/gw')).to.deep.equal({
      files: [],
      sockets: [{ host: '/gw', container: '/run/evalrig-model', names: ['model.sock'] }],
    });
  });
});

describe('campaign: when a turn is no real turn of the agent', () => {
  const exec = (o: Partial<ExecResult>): ExecResult =>
    ({
      exitCode: 0,
      stdout: '',
      stderr: '',
      timedOut: false,
      truncated: false,
      durationMs: 1,
      ...o,
    }) as ExecResult;
  const agent = (o: Partial<TurnAgentRecord>): TurnAgentRecord =>
    ({ error: null, complete: true, ...o }) as TurnAgentRecord;

  it('a command agent: exit 0 is a turn; 126 and 127 could not start; any other non-zero exited', () => {
    expect(whyAgentFailed({ exec: exec({}) })).to.equal(undefined);
    expect(
      whyAgentFailed({ exec: exec({ exitCode: 127, stdout: 'OCI runtime exec failed\r\n' }) }),
    ).to.equal('the agent could not start (exit 127: OCI runtime exec failed)');
    expect(whyAgentFailed({ exec: exec({ exitCode: 126 }) })).to.equal(
      'the agent could not start (exit 126: nothing)',
    );
    expect(
      whyAgentFailed({ exec: exec({ exitCode: 1, stderr: 'boom\n', stdout: 'out' }) }),
    ).to.equal('the agent exited 1 (boom)');
    expect(whyAgentFailed({ exec: exec({ exitCode: 2, stdout: 'why' }) })).to.equal(
      'the agent exited 2 (why)',
    );
  });

  it('an adapter agent: its own error, an unfinished stream, or a non-zero exit (its stream is no reason)', () => {
    expect(whyAgentFailed({ exec: exec({}), agent: agent({}) })).to.equal(undefined);
    expect(whyAgentFailed({ exec: exec({}), agent: agent({ error: 'overloaded' }) })).to.equal(
      'the agent reported an error: overloaded',
    );
    expect(whyAgentFailed({ exec: exec({}), agent: agent({ complete: false }) })).to.equal(
      'the agent ended without its final result line',
    );
    expect(
      whyAgentFailed({ exec: exec({ exitCode: 1, stdout: '{"type":"x"}' }), agent: agent({}) }),
    ).to.equal('the agent exited 1 (nothing)');
  });
});
