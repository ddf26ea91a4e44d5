import { expect } from 'chai';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  CodexSession,
  codexBinds,
  playCodexTurn,
  preflightAdapter,
  agentFiles,
  AGENT_ADAPTERS,
  type AgentInstall,
} from '../../../src/agents/index.js';
import { startModelGateway, type ModelGateway } from '../../../src/gateway/index.js';
import {
  loadModelScript,
  startModelStandIn,
  type ModelStandIn,
} from '../../../src/model-stand-in/index.js';
import { LABELS, removeContainers, type RunContainer } from '../../../src/runtime/index.js';
import {
  HOME,
  initWork,
  installCodex,
  startAgentContainer,
  turnPlay,
  WORK,
} from '../../support/agents.js';
import { BASE_IMAGE, requireDocker, TEST_CAMPAIGN, testDocker } from '../../support/docker.js';
import { bundleStandIn } from '../agent/bundle.js';
import { LocalDockerProvider } from '../../../src/sandbox/index.js';

const REAL_KEY = 'sk-openai-host-only-7d2e9c4b1a';
const SCRIPT = 'test/fixtures/transcripts/codex-0.171.0/model-script.json';
const MODEL = 'gpt-5.1-codex';

/**
 * The real Codex binary in a container with no network: its model calls go to the relay on
 * the container's loopback, through the run's gateway socket, to the model stand-in.
 */
describe('codex for real: the static binary in a container, through the relay and the gateway, against the model stand-in', function () {
  this.timeout(300_000);
  const client = testDocker();
  const labels = { [LABELS.campaign]: `${TEST_CAMPAIGN}-codex` };
  let install: AgentInstall;
  let dir: string;
  let relay: string;
  let gateway: ModelGateway | undefined;
  let standIn: ModelStandIn | undefined;
  let container: RunContainer | undefined;

  before(async () => {
    await requireDocker();
    install = await installCodex();
  });
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-codex-'));
    await mkdir(path.join(dir, 'model'), { mode: 0o711 });
    relay = await bundleStandIn('model-relay', path.join(dir, 'relay', 'model-relay'));
  });
  afterEach(async () => {
    await container?.remove();
    await gateway?.close();
    await standIn?.close();
    container = gateway = standIn = undefined;
    await rm(dir, { recursive: true, force: true });
  });
  after(async () => {
    await removeContainers(client, labels);
  });

  it('the preflight: the mounted binary answers its version in the image', async () => {
    const codex = AGENT_ADAPTERS.codex;
    const files = agentFiles(codex, install, relay);
    expect(
      await preflightAdapter(new LocalDockerProvider(client), codex, files, {
        image: BASE_IMAGE,
        install,
        labels,
      }),
    ).to.equal(install.version);
  });

  it('plays two turns, the second resumed: real commands in the container, tokens per turn, the key never inside', async () => {
    standIn = await startModelStandIn({
      script: await loadModelScript(SCRIPT),
      listen: { port: 0 },
    });
    gateway = await startModelGateway({
      socketPath: path.join(dir, 'model', 'model.sock'),
      upstream: { url: standIn.url, apiKey: REAL_KEY },
      logPath: path.join(dir, 'model-calls.jsonl'),
      paths: ['/v1/responses'],
    });
    container = await startAgentContainer(client, {
      image: BASE_IMAGE,
      labels,
      binds: codexBinds(install.binary, relay, path.join(dir, 'model')),
    });
    const c = container;
    await initWork(c);
    const session = new CodexSession(MODEL);
    const play = (prompt: string) => playCodexTurn(c, session, turnPlay(prompt));

    const first = await play('Create branch x with a file f and commit it.');
    expect(first.exec.exitCode, first.exec.stderr + first.exec.stdout).to.equal(0);
    expect(first.summary).to.deep.include({
      finalMessage: 'Done: branch x has f.',
      complete: true,
      error: null,
    });
    expect(first.summary.toolCalls.byName).to.deep.equal({
      command_execution: { count: 1, failed: 0 },
    });
    expect(first.summary.tokens).to.deep.equal({
      input: 2500,
      output: 52,
      cacheRead: 300,
      cacheWrite: 0,
    });
    const log = await c.exec(['git', '-C', WORK, 'log', '--format=%s', 'x']);
    expect(log.stdout).to.equal('m\ninit\n'); // the command really ran, in the container

    const second = await play('Push it.');
    expect(second.exec.exitCode, second.exec.stderr).to.equal(0);
    expect(second.summary.sessionId).to.equal(session.threadId);
    expect(second.summary).to.deep.include({
      finalMessage: 'The push failed: there is no origin.',
    });
    expect(second.summary.toolCalls).to.deep.include({ total: 1, failed: 1 });
    expect(second.summary.tokens).to.deep.equal({
      input: 4100,
      output: 29,
      cacheRead: 1000,
      cacheWrite: 0,
    });

    // Four model calls, all through the gateway; the real key is nowhere in the container.
    const calls = (await readFile(path.join(dir, 'model-calls.jsonl'), 'utf8')).trim().split('\n');
    expect(calls.map((l) => (JSON.parse(l) as { path: string }).path)).to.deep.equal(
      Array(4).fill('/v1/responses'),
    );
    const grep = await c.exec(['sh', '-c', `env; grep -rs ${REAL_KEY} ${HOME} || true`]);
    expect(grep.stdout).to.not.contain(REAL_KEY);
  });
});
