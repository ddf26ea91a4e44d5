// How each agent CLI runs offline against the model stand-in, for real-agents.test.ts: its
// package, what a container mounts, its settings and environment, argv for a first and a
// resumed turn, and what its stream says of the three turns. Found out on this machine; the
// agents' adapters take it over (see the notes in the fixtures' README).
import { expect } from 'chai';
import path from 'node:path';
import type { AgentInstall } from '../../../src/agents/index.js';

/** Where the relay listens in the container (its own loopback; the network is none). */
export const RELAY_PORT = 8080;
const BASE = `http://127.0.0.1:${RELAY_PORT}`;
/** What the agent holds instead of a key: the stand-in wants none. */
const PLACEHOLDER = 'evalrig-placeholder-key';
const NODE = '/opt/evalrig/node/node';
const FIXTURES = 'test/fixtures/transcripts';

export interface AgentTurn {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

export interface OfflineAgent {
  readonly name: string;
  readonly version: string;
  readonly install: { package: string; version: string; bin: string; binaryPath?: string };
  /** The host path to mount read-only at `mountAt`. */
  mount(install: AgentInstall): string;
  readonly mountAt: string;
  /** Files written under HOME before the first turn. */
  readonly homeFiles: Record<string, string>;
  readonly env: Record<string, string>;
  /** A session id the caller chooses, where the agent takes one. */
  readonly sessionId?: string;
  /** Else the session id the first turn's stream names. */
  sessionFrom?(stdout: string): string | undefined;
  argv(prompt: string, session: { first?: string; resume?: string }): string[];
  /** The stand-in path every model call takes. */
  readonly path: RegExp;
  readonly fixtures: string;
  check(turns: AgentTurn[]): void;
}

const lines = (stdout: string): Record<string, unknown>[] =>
  stdout
    .split('\n')
    .filter((l) => l.trim().startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

const SESSION = '3f6d2c9e-8a41-4b7e-9c55-1d2e3f4a5b6c';

const GEMINI: OfflineAgent = {
  name: 'gemini-cli',
  version: '0.61.0',
  install: { package: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' },
  // The .bin link resolves to bundle/gemini.js: mount the whole package.
  mount: (i) => path.dirname(path.dirname(i.binary)),
  mountAt: '/opt/evalrig/agent/gemini-cli',
  homeFiles: {
    '.gemini/settings.json': JSON.stringify({
      // With a base URL set and no auth type, 0.61 picks "gateway", which -p refuses.
      security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
      model: { skipNextSpeakerCheck: true, disableLoopDetection: true },
      tools: { useRipgrep: false },
    }),
  },
  env: {
    GEMINI_API_KEY: PLACEHOLDER,
    GOOGLE_GEMINI_BASE_URL: BASE,
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
  },
  sessionId: SESSION,
  argv: (prompt, s) => [
    NODE,
    '/opt/evalrig/agent/gemini-cli/bundle/gemini.js',
    // A named model: "auto" would first ask a router model (an extra generateContent call).
    ...['-m', 'gemini-2.5-pro'],
    ...(s.resume ? ['--resume', s.resume] : ['--session-id', s.first!]),
    ...['--output-format', 'stream-json', '--yolo', '-p', prompt],
  ],
  path: /^\/v1beta\/models\/gemini-2\.5-pro:streamGenerateContent$/,
  fixtures: `${FIXTURES}/gemini-cli-0.61.0`,
  check([one, two, three]) {
    expect(one!.exitCode, one!.stderr).to.equal(0);
    const first = lines(one!.stdout);
    expect(first[0]).to.deep.include({ type: 'init', session_id: SESSION });
    expect(first.find((e) => e.type === 'tool_use')).to.deep.include({ tool_name: 'write_file' });
    expect(first[first.length - 1]).to.deep.include({ type: 'result', status: 'success' });
    expect(two!.exitCode, two!.stderr).to.equal(0);
    expect(lines(two!.stdout)[0]).to.deep.include({ session_id: SESSION });
    const failed = lines(three!.stdout).pop()!;
    expect(failed).to.deep.include({ type: 'result', status: 'error' });
    expect(JSON.stringify(failed.error)).to.contain('the model script has no response left');
    expect(three!.exitCode).to.not.equal(0);
  },
};

const QWEN: OfflineAgent = {
  name: 'qwen-code',
  version: '0.15.10',
  install: { package: '@qwen-code/qwen-code', version: '0.15.10', bin: 'qwen' },
  mount: (i) => path.dirname(i.binary),
  mountAt: '/opt/evalrig/agent/qwen-code',
  homeFiles: {
    '.qwen/settings.json': JSON.stringify({
      security: { auth: { selectedType: 'openai' } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { disableAutoUpdate: true, disableUpdateNag: true },
      // Else a turn may end with a "memory extraction" call of its own, taking a scripted answer.
      memory: { enableManagedAutoMemory: false },
    }),
  },
  env: {
    OPENAI_API_KEY: PLACEHOLDER,
    OPENAI_BASE_URL: `${BASE}/v1`,
    OPENAI_MODEL: 'qwen3-coder-plus',
  },
  sessionId: SESSION,
  argv: (prompt, s) => [
    NODE,
    '/opt/evalrig/agent/qwen-code/cli.js',
    ...['--auth-type', 'openai', '-m', 'qwen3-coder-plus'],
    ...(s.resume ? ['--resume', s.resume] : ['--session-id', s.first!]),
    ...['--output-format', 'stream-json', '--yolo', '-p', prompt],
  ],
  path: /^\/v1\/chat\/completions$/,
  fixtures: `${FIXTURES}/qwen-code-0.15.10`,
  check([one, two, three]) {
    for (const t of [one!, two!, three!]) expect(t.exitCode, t.stderr).to.equal(0);
    const result = (t: AgentTurn) => lines(t.stdout).pop()!;
    expect(result(one!)).to.deep.include({
      type: 'result',
      subtype: 'success',
      session_id: SESSION,
      result: 'Done: notes.txt holds the word offline.',
    });
    expect(result(two!)).to.deep.include({ result: 'The push failed: there is no origin.' });
    // An API error is a "successful" result whose text says so, and exit 0.
    expect(result(three!)).to.deep.include({ subtype: 'success', is_error: false });
    expect(result(three!).result).to.match(/^\[API Error: 400 the model script has no response/);
  },
};

const OPENCODE: OfflineAgent = {
  name: 'opencode',
  version: '1.18.33',
  install: {
    package: 'opencode-ai',
    version: '1.18.33',
    bin: 'opencode',
    binaryPath: `node_modules/opencode-linux-${process.arch === 'arm64' ? 'arm64' : 'x64'}/bin/opencode`,
  },
  mount: (i) => i.binary,
  mountAt: '/opt/evalrig/agent/opencode',
  homeFiles: {},
  env: {
    OPENCODE_CONFIG_CONTENT: JSON.stringify({
      autoupdate: false,
      share: 'disabled',
      provider: {
        evalrig: {
          npm: '@ai-sdk/openai-compatible',
          name: 'evalrig',
          options: { baseURL: `${BASE}/v1`, apiKey: PLACEHOLDER },
          models: { 'stand-in': { name: 'stand-in', tool_call: true } },
        },
      },
      model: 'evalrig/stand-in',
    }),
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
  },
  sessionFrom: (stdout) => lines(stdout)[0]?.sessionID as string | undefined,
  argv: (prompt, s) => [
    '/opt/evalrig/agent/opencode',
    ...['run', '--format', 'json', '--auto', '-m', 'evalrig/stand-in'],
    // A title given: else a first turn also asks the model for one, racing the turn's call.
    ...(s.resume ? ['--session', s.resume] : ['--title', 'evalrig']),
    prompt,
  ],
  path: /^\/v1\/chat\/completions$/,
  fixtures: `${FIXTURES}/opencode-1.18.33`,
  check([one, two, three]) {
    expect(one!.exitCode, one!.stderr).to.equal(0);
    const first = lines(one!.stdout);
    const session = first[0]!.sessionID;
    const tool = first.find((e) => e.type === 'tool_use')!.part as { tool: string; state: object };
    expect(tool.tool).to.equal('write');
    expect(tool.state).to.deep.include({ status: 'completed' });
    expect(two!.exitCode, two!.stderr).to.equal(0);
    expect(lines(two!.stdout).every((e) => e.sessionID === session)).to.equal(true);
    expect(three!.exitCode).to.equal(1);
    const error = lines(three!.stdout).find((e) => e.type === 'error')!;
    expect(error.error).to.deep.nested.include({ name: 'APIError', 'data.statusCode': 400 });
  },
};

/**
 * GitHub's Copilot CLI needs no GitHub login once COPILOT_PROVIDER_BASE_URL names a provider
 * ("bring your own key"); COPILOT_OFFLINE keeps it from calling GitHub's API at start.
 */
const COPILOT: OfflineAgent = {
  name: 'copilot',
  version: '1.0.102',
  install: {
    package: '@github/copilot',
    version: '1.0.102',
    bin: 'copilot',
    binaryPath: `node_modules/@github/copilot-linux-${process.arch === 'arm64' ? 'arm64' : 'x64'}/copilot`,
  },
  mount: (i) => i.binary,
  mountAt: '/opt/evalrig/agent/copilot',
  homeFiles: {},
  env: {
    COPILOT_OFFLINE: 'true',
    COPILOT_PROVIDER_BASE_URL: `${BASE}/v1`,
    COPILOT_PROVIDER_API_KEY: PLACEHOLDER,
    COPILOT_MODEL: 'gpt-5.4',
  },
  sessionId: SESSION,
  argv: (prompt, s) => [
    '/opt/evalrig/agent/copilot',
    ...['--allow-all', '--no-auto-update', '--disable-client-telemetry', '--output-format', 'json'],
    ...(s.resume ? ['--resume', s.resume] : ['--session-id', s.first!]),
    ...['-p', prompt],
  ],
  path: /^\/v1\/chat\/completions$/,
  fixtures: `${FIXTURES}/copilot-1.0.102`,
  check([one, two, three]) {
    expect(one!.exitCode, one!.stderr).to.equal(0);
    const first = lines(one!.stdout);
    const done = first.find((e) => e.type === 'tool.execution_complete')!.data;
    expect(done).to.deep.include({ success: true, shellExecution: { exitCode: 0 } });
    expect(first.pop()).to.deep.include({ type: 'result', sessionId: SESSION, exitCode: 0 });
    expect(two!.exitCode, two!.stderr).to.equal(0);
    const failed = lines(two!.stdout).find((e) => e.type === 'tool.execution_complete')!.data;
    expect(failed).to.deep.include({ shellExecution: { exitCode: 128 } });
    expect(three!.exitCode).to.equal(1);
    const error = lines(three!.stdout).find((e) => e.type === 'session.error')!.data;
    expect(error).to.deep.include({ statusCode: 400 });
  },
};

export const OFFLINE_AGENTS: readonly OfflineAgent[] = [GEMINI, QWEN, OPENCODE, COPILOT];
