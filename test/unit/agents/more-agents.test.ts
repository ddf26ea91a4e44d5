import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import {
  AGENT_ADAPTERS,
  adapterShares,
  agentFiles,
  GeminiCliSession,
  OpenCodeSession,
  parseBareVersion,
  parseGeminiStream,
  parseOpenCodeStream,
  QwenCodeSession,
  type AgentInstall,
  type TurnSummary,
} from '../../../src/agents/index.js';
import { keyHeader } from '../../../src/gateway/server.js';

const fixture = (agent: string, turn: string): string =>
  readFileSync(`test/fixtures/transcripts/${agent}/${turn}.jsonl`, 'utf8');
const TURNS = ['turn-01', 'turn-02-resumed', 'turn-03-api-error'];

/** Each fixture's turns played through one session, as a run takes them. */
function played(
  agent: string,
  session: { argv(p: string): string[]; take(s: string): TurnSummary },
): { argv: string[][]; summaries: TurnSummary[] } {
  const argv: string[][] = [];
  const summaries: TurnSummary[] = [];
  for (const t of TURNS) {
    argv.push(session.argv(`prompt of ${t}`));
    summaries.push(session.take(fixture(agent, t)));
  }
  return { argv, summaries };
}

// The model scripts the fixtures were recorded against: turn 1 is calls 1-2, turn 2 calls 3-4.
const TURN1 = { input: 4400, output: 52, cacheRead: 2300, cacheWrite: 0 };
const TURN2 = { input: 5200, output: 40, cacheRead: 4600, cacheWrite: 0 };

const install = (binary: string): AgentInstall => ({
  package: 'p',
  version: '1.0.0',
  dir: '/cache/p@1.0.0',
  binary,
  sha256: '0'.repeat(64),
});

describe('agents: Gemini CLI, Qwen Code and OpenCode, read from their recorded streams', () => {
  it('gemini-cli: the session evalrig chose, resumed; this turn’s tokens; the API error fails the turn', () => {
    const session = new GeminiCliSession('gemini-2.5-pro', ['--x'], 'sid-1');
    const { argv, summaries } = played('gemini-cli-0.61.0', session);
    expect(argv[0]).to.include.members(['--session-id', 'sid-1', '--yolo', '--x']);
    expect(argv[1]).to.include('--resume').and.not.include('--session-id');
    expect(argv[0]!.slice(0, 5)).to.deep.equal([
      '/opt/evalrig/relay/model-relay',
      '18080',
      '/run/evalrig-model/model.sock',
      '--',
      '/opt/evalrig/node/node',
    ]);
    const [one, two, three] = summaries;
    expect(one).to.deep.include({
      finalMessage: 'Done: notes.txt holds the word offline.',
      sessionId: '3f6d2c9e-8a41-4b7e-9c55-1d2e3f4a5b6c',
      modelRequests: 2,
      tokens: TURN1,
      error: null,
      complete: true,
    });
    expect(one!.toolCalls).to.deep.equal({
      total: 1,
      failed: 0,
      byName: { write_file: { count: 1, failed: 0 } },
    });
    // Its tool ids are the agent's own: none is claimed against the model's.
    expect(one!.claim.toolCallIds).to.deep.equal([]);
    expect(one!.claim.texts).to.deep.equal([
      'I will write the notes.',
      'Done: notes.txt holds the word offline.',
    ]);
    expect(two).to.deep.include({
      tokens: TURN2,
      finalMessage: 'The push failed: there is no origin.',
    });
    expect(three!.error).to.contain('the model script has no response left');
    expect(three!.finalMessage).to.equal(null);
  });

  it('qwen-code: the running usage taken apart per turn; "[API Error: …]" is an error, not the model’s text', () => {
    const session = new QwenCodeSession('qwen3-coder-plus', [], 'sid-2');
    const { argv, summaries } = played('qwen-code-0.15.10', session);
    expect(argv[0]).to.include.members([
      '--session-id',
      'sid-2',
      '--yolo',
      '-m',
      'qwen3-coder-plus',
    ]);
    expect(argv[2]).to.include.members(['--resume', 'sid-2']);
    const [one, two, three] = summaries;
    expect(one).to.deep.include({ tokens: TURN1, error: null, complete: true });
    expect(one!.claim.answerIds).to.deep.equal([]);
    expect(one!.claim.toolCallIds).to.deep.equal(['call_standin_1_1']);
    expect(one!.claim.stated).to.deep.equal([TURN1]);
    expect(two).to.deep.include({
      tokens: TURN2,
      finalMessage: 'The push failed: there is no origin.',
    });
    expect(three!.error).to.match(/^\[API Error: 400 the model script has no response/u);
    expect(three).to.deep.include({ finalMessage: null });
    expect(three!.tokens).to.deep.equal({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
    expect(three!.claim.texts).to.deep.equal([]);
  });

  it('opencode: the session OpenCode named, continued; each step’s tokens summed; a failed command counted; the error line fails the turn', () => {
    const session = new OpenCodeSession('stand-in', []);
    const { argv, summaries } = played('opencode-1.18.33', session);
    expect(argv[0]).to.include.members(['--title', 'evalrig', '--auto', '-m', 'evalrig/stand-in']);
    expect(argv[1]).to.include.members(['--session', 'ses_dcdf1b9a1ffep8oq851mXahkVb']);
    expect(argv[1]!.slice(-2)).to.deep.equal(['--', 'prompt of turn-02-resumed']);
    const [one, two, three] = summaries;
    expect(one).to.deep.include({ tokens: TURN1, modelRequests: 2, complete: true, error: null });
    expect(one!.claim.toolCallIds).to.deep.equal(['call_standin_1_1']);
    expect(one!.claim.terminals).to.equal(1);
    expect(two!.toolCalls).to.deep.equal({
      total: 1,
      failed: 1,
      byName: { bash: { count: 1, failed: 1 } },
    });
    expect(three).to.deep.include({ complete: false, finalMessage: null });
    expect(three!.error).to.match(/^APIError 400: the model script has no response left/u);
  });

  it('a session id that could be read as an option is never taken back into argv', () => {
    const s = new OpenCodeSession('m');
    s.take('{"type":"text","sessionID":"--help","part":{"text":"x"}}\n');
    expect(s.argv('next')).to.include('--title').and.not.include('--help');
    expect(parseOpenCodeStream('').complete).to.equal(false);
    expect(parseGeminiStream('not json\n').skippedLines).to.equal(1);
  });

  it('the table: Node agents mount their package folder, the runtime and their settings; each API its key header', () => {
    const gemini = AGENT_ADAPTERS['gemini-cli'];
    const pkg = '/cache/@google/gemini-cli@0.61.0/node_modules/@google/gemini-cli';
    const files = agentFiles(gemini, install(`${pkg}/bundle/gemini.js`), '/dist/relay', {
      node: '/cache/node',
      settings: '/cache/settings/gemini-cli.json',
    });
    expect(adapterShares(gemini, files, '/gw').files).to.deep.equal([
      { host: pkg, container: '/opt/evalrig/agent/gemini-cli' },
      { host: '/dist/relay', container: '/opt/evalrig/relay/model-relay' },
      { host: '/cache/node', container: '/opt/evalrig/node/node' },
      {
        host: '/cache/settings/gemini-cli.json',
        container: '/opt/evalrig/agent-settings/gemini-cli.json',
      },
    ]);
    expect(() => agentFiles(gemini, install('/x/bundle/gemini.js'), '/r')).to.throw(/needs Node/u);
    expect(gemini.env('/h')).to.include({
      GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:18080',
      GEMINI_API_KEY: 'evalrig-placeholder-key',
      GEMINI_CLI_SYSTEM_SETTINGS_PATH: '/opt/evalrig/agent-settings/gemini-cli.json',
    });
    const qwen = AGENT_ADAPTERS['qwen-code'];
    expect(qwen.packageDir!(install('/q/node_modules/@qwen-code/qwen-code/cli.js'))).to.equal(
      '/q/node_modules/@qwen-code/qwen-code',
    );
    const oc = AGENT_ADAPTERS.opencode;
    expect(JSON.parse(oc.env('/h', 'gpt-5.1').OPENCODE_CONFIG_CONTENT!).model).to.equal(
      'evalrig/gpt-5.1',
    );
    expect(oc.packageDir).to.equal(undefined);
    expect(
      [gemini.auth, qwen.auth, oc.auth].map((a) => Object.keys(keyHeader(a, 'k'))[0]),
    ).to.deep.equal(['x-goog-api-key', 'authorization', 'authorization']);
    expect(parseBareVersion('0.61.0\n')).to.equal('0.61.0');
    expect(parseBareVersion('opencode 1.0')).to.equal(null);
  });

  it('the treatment check: which instruction files and skills each loads', () => {
    const verdict = (
      type: 'gemini-cli' | 'qwen-code' | 'opencode' | 'claude-code',
      path: string,
      frontMatter = true,
    ) =>
      AGENT_ADAPTERS[type].instructions({
        path,
        kind: path.endsWith('SKILL.md') ? 'skill' : 'instructions',
        frontMatter,
      }).loads;
    expect(verdict('gemini-cli', 'GEMINI.md')).to.equal(true);
    expect(verdict('gemini-cli', 'AGENTS.md')).to.equal(false);
    expect(verdict('gemini-cli', '.gemini/skills/x/SKILL.md')).to.equal(true);
    expect(verdict('gemini-cli', '.claude/skills/x/SKILL.md')).to.equal(false);
    expect(verdict('qwen-code', 'QWEN.md')).to.equal(true);
    expect(verdict('qwen-code', 'AGENTS.md')).to.equal(true);
    expect(verdict('qwen-code', '.qwen/skills/x/SKILL.md')).to.equal(true);
    expect(verdict('qwen-code', '.qwen/skills/x/SKILL.md', false)).to.equal(false);
    expect(verdict('opencode', 'AGENTS.md')).to.equal(true);
    expect(verdict('opencode', 'GEMINI.md')).to.equal(false);
    expect(verdict('opencode', '.opencode/skill/a/b/SKILL.md')).to.equal(true);
    expect(verdict('opencode', '.claude/skills/x/SKILL.md')).to.equal(true);
    expect(verdict('claude-code', 'GEMINI.md')).to.equal(false);
  });
});
