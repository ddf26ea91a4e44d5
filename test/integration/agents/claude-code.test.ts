import { expect } from 'chai';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  AgentPreflightError,
  ClaudeCodeSession,
  CLAUDE_CODE_CONTAINER,
  claudeCodeArgv,
  claudeCodeBinds,
  claudeCodeEnv,
  newSessionId,
  parseClaudeCodeStream,
  parseVersionOutput,
  playClaudeCodeTurn,
  preflightAdapter,
  agentFiles,
  AGENT_ADAPTERS,
  type AgentInstall,
} from '../../../src/agents/index.js';
import {
  startModelGateway,
  type ModelCall,
  type ModelGateway,
} from '../../../src/gateway/index.js';
import {
  loadModelScript,
  startModelStandIn,
  type ModelStandIn,
} from '../../../src/model-stand-in/index.js';
import { LABELS, removeContainers, type RunContainer } from '../../../src/runtime/index.js';
import {
  HOME,
  IDENTITY,
  initWork,
  installClaudeCode,
  startAgentContainer,
  turnPlay,
  WORK,
} from '../../support/agents.js';
import { BASE_IMAGE, requireDocker, TEST_CAMPAIGN, testDocker } from '../../support/docker.js';
import { LocalDockerProvider } from '../../../src/sandbox/index.js';

const REAL_KEY = 'sk-ant-host-only-4f1c9e2b7a';
const SCRIPT = 'test/fixtures/transcripts/claude-code-2.1.332/model-script.json';

/**
 * The real agent binary, installed into the cache by its adapter (npm, once; CI runs
 * scripts/agents.sh first), played in a container with no network: its model calls go
 * through the gateway's socket to the model stand-in.
 */
describe('claude-code for real: the binary in a container, through the gateway, against the model stand-in', function () {
  this.timeout(300_000);
  const client = testDocker();
  const labels = { [LABELS.campaign]: `${TEST_CAMPAIGN}-claude-code` };
  let install: AgentInstall;
  let dir: string;
  let gatewayDir: string;
  let gateway: ModelGateway | undefined;
  let standIn: ModelStandIn | undefined;
  let hung: Server | undefined;
  let container: RunContainer | undefined;

  before(async () => {
    await requireDocker();
    install = await installClaudeCode();
  });
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-claude-'));
    gatewayDir = path.join(dir, 'model');
    await mkdir(gatewayDir, { mode: 0o711 });
  });
  afterEach(async () => {
    await container?.remove();
    await gateway?.close();
    await standIn?.close();
    hung?.closeAllConnections();
    await new Promise<void>((resolve) => (hung ? hung.close(() => resolve()) : resolve()));
    container = gateway = standIn = hung = undefined;
    await rm(dir, { recursive: true, force: true });
  });
  after(async () => {
    await removeContainers(client, labels);
  });

  const start = async (upstream: string): Promise<RunContainer> => {
    gateway = await startModelGateway({
      socketPath: path.join(gatewayDir, 'model.sock'),
      upstream: { url: upstream, apiKey: REAL_KEY },
      logPath: path.join(dir, 'model-calls.jsonl'),
    });
    const c = await startAgentContainer(client, {
      image: BASE_IMAGE,
      labels,
      binds: claudeCodeBinds(install.binary, gatewayDir),
    });
    container = c;
    await initWork(c);
    return c;
  };

  const turn = (
    c: RunContainer,
    prompt: string,
    sessionId: string,
    resume: boolean,
    timeoutMs = 120_000,
  ) =>
    c.exec(claudeCodeArgv({ prompt, sessionId, resume }), {
      workingDir: WORK,
      env: { ...claudeCodeEnv(HOME), ...IDENTITY },
      timeoutMs,
      maxOutputBytes: 4 * 1024 * 1024,
    });

  it('plays two turns, the second resumed: real tool calls, tokens and cost per turn, every model call logged', async () => {
    standIn = await startModelStandIn({
      script: await loadModelScript(SCRIPT),
      listen: { port: 0 },
    });
    const c = await start(standIn.url);
    // The preflight: the mounted binary answers its version in the image, as uid 1000.
    const version = await c.exec([CLAUDE_CODE_CONTAINER.binary, '--version'], { env: { HOME } });
    expect(parseVersionOutput(version.stdout)).to.equal(install.version);
    const session = new ClaudeCodeSession();
    const play = (prompt: string) => playClaudeCodeTurn(c, session, turnPlay(prompt));

    const first = await play('Create branch x with a file f and commit it.');
    expect(first.exec.exitCode, first.exec.stderr).to.equal(0);
    const t1 = first.summary;
    expect(t1).to.deep.include({
      finalMessage: 'Done: branch x has f.',
      sessionId: session.id,
      complete: true,
      truncated: false,
      error: null,
    });
    expect(first.transcript).to.equal(first.exec.stdout);
    expect(t1.toolCalls).to.deep.equal({
      total: 1,
      failed: 0,
      byName: { Bash: { count: 1, failed: 0 } },
    });
    expect(t1.tokens).to.deep.equal({ input: 2500, output: 52, cacheRead: 300, cacheWrite: 50 });
    const log = await c.exec(['git', '-C', WORK, 'log', '--format=%s', 'x']);
    expect(log.stdout).to.equal('m\ninit\n'); // the Bash call really ran, in the container

    const second = await play('Now push the branch.');
    expect(second.exec.exitCode, second.exec.stderr).to.equal(0);
    const t2 = second.summary;
    expect(t2.finalMessage).to.equal('The push failed: there is no origin.');
    expect(t2.sessionId).to.equal(session.id); // resumed, not a new session
    expect(t2.toolCalls.failed).to.equal(1);
    expect(t2.tokens).to.deep.equal({ input: 4100, output: 29, cacheRead: 1000, cacheWrite: 0 });
    expect(t1.costUsd! + t2.costUsd!).to.be.closeTo(t2.sessionCostUsd!, 1e-6);

    // What the model saw: the resumed turn carried the whole conversation, and the tool's output.
    const seen = standIn.requests();
    expect(seen.map((r) => [r.status, r.response])).to.deep.equal([
      [200, 0],
      [200, 1],
      [200, 2],
      [200, 3],
    ]);
    expect(seen[1]!.toolResults[0]!.text).to.match(
      /^Switched to a new branch 'x'\n\[x [0-9a-f]+\] m/,
    );
    expect(seen[2]!.messages).to.be.greaterThan(seen[1]!.messages);
    expect(seen[3]!.toolResults[0]!.isError).to.equal(true);

    await gateway!.flushed();
    const calls = (await readFile(path.join(dir, 'model-calls.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as ModelCall);
    // Nothing but model calls left the container (no telemetry, no count_tokens, no update check).
    expect(calls.map((x) => [x.method, x.path, x.status])).to.deep.equal(
      Array.from({ length: 4 }, () => ['POST', '/v1/messages', 200]),
    );
    expect(calls.reduce((s, x) => s + (x.tokens.input ?? 0), 0)).to.equal(
      t1.tokens.input + t2.tokens.input,
    );

    // The real key never entered the container: not in the agent's environment, not in its files.
    const search = await c.exec(
      ['sh', '-c', `grep -rl -- '${REAL_KEY}' ${HOME} ${WORK} /tmp /run/evalrig-model; env`],
      {
        env: claudeCodeEnv(HOME),
      },
    );
    expect(search.stdout).to.not.contain(REAL_KEY);
    expect(search.stdout).to.contain('ANTHROPIC_API_KEY=evalrig-placeholder-key');
  });

  it('a 529 overloaded answer: the agent retries, says so in its stream, and the turn ends well', async () => {
    standIn = await startModelStandIn({
      script: {
        responses: [
          { error: { status: 529, retry_after: 0 } },
          { content: [{ text: 'Nothing to do.' }], usage: { input_tokens: 10, output_tokens: 3 } },
        ],
      },
      listen: { port: 0 },
    });
    const c = await start(standIn.url);
    const r = await turn(c, 'hello', newSessionId(), false);
    expect(r.exitCode, r.stderr).to.equal(0);
    const t = parseClaudeCodeStream(r.stdout);
    expect(t).to.deep.include({
      finalMessage: 'Nothing to do.',
      apiRetries: 1,
      modelRequests: 1,
      error: null,
    });
    await gateway!.flushed();
    expect(gateway!.calls().map((x) => x.status)).to.deep.equal([529, 200]);
  });

  it('the preflight: the binary answers its version in the image; another file is refused with what it said', async () => {
    const claude = AGENT_ADAPTERS['claude-code'];
    const preflight = (of: AgentInstall) =>
      preflightAdapter(new LocalDockerProvider(client), claude, agentFiles(claude, of, undefined), {
        image: BASE_IMAGE,
        install: of,
        labels,
      });
    expect(await preflight(install)).to.equal(install.version);
    const other = path.join(dir, 'claude');
    await writeFile(other, '#!/bin/sh\necho "9.9.9 (another build)"\n', { mode: 0o755 });
    const impostor = { ...install, binary: other };
    let error: unknown;
    try {
      await preflight(impostor);
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(AgentPreflightError);
    expect((error as Error).message).to.equal(
      `agent: ${install.package}@${install.version} (${other}) does not answer its version in ${BASE_IMAGE}: --version exited 0 and said "9.9.9 (another build)"`,
    );
  });

  it('a transcript over its cap is kept with a visible mark and read as truncated', async () => {
    standIn = await startModelStandIn({
      script: await loadModelScript(SCRIPT),
      listen: { port: 0 },
    });
    const c = await start(standIn.url);
    const played = await playClaudeCodeTurn(
      c,
      new ClaudeCodeSession(),
      turnPlay('Create branch x.', 4000),
    );
    expect(played.exec.truncated).to.equal(true);
    expect(played.transcript).to.match(/\n\{"type":"evalrig_truncated","cap_bytes":4000\}\n$/);
    expect(played.summary).to.deep.include({ truncated: true, complete: false });
  });

  it('a model that never answers: the agent retries, the turn timeout cuts it', async () => {
    hung = createServer(() => undefined); // takes each request, answers nothing
    await new Promise<void>((resolve) => hung!.listen(0, '127.0.0.1', () => resolve()));
    const c = await start(`http://127.0.0.1:${(hung.address() as AddressInfo).port}`);
    const began = Date.now();
    const r = await turn(c, 'hello', newSessionId(), false, 6000);
    expect(r.timedOut).to.equal(true);
    expect(Date.now() - began).to.be.lessThan(30_000);
    await c.kill();
    const t = parseClaudeCodeStream(r.stdout);
    expect(t.complete).to.equal(false);
  });
});
