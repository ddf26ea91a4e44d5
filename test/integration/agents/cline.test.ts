import { expect } from 'chai';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  AGENT_ADAPTERS,
  agentFiles,
  CLINE_VERIFIED_VERSION,
  ensureAgentInstalled,
  playAgentTurn,
  preflightAdapter,
  type AgentInstall,
} from '../../../src/agents/index.js';
import {
  startModelStandIn,
  type ModelScript,
  type ModelStandIn,
} from '../../../src/model-stand-in/index.js';
import { LABELS, removeContainers, type RunContainer } from '../../../src/runtime/index.js';
import { LocalDockerProvider } from '../../../src/sandbox/index.js';
import { HOME, initWork, startAgentContainer, turnPlay, WORK } from '../../support/agents.js';
import { BASE_IMAGE, requireDocker, TEST_CAMPAIGN, testDocker } from '../../support/docker.js';
import { bundleStandIn } from '../agent/bundle.js';

const cline = AGENT_ADAPTERS.cline;
const MODEL = 'claude-sonnet-4-6';
const SCRIPT: ModelScript = {
  responses: [
    {
      content: [
        { text: 'Writing the notes.' },
        { tool_use: { name: 'run_commands', input: { commands: ['echo offline > notes.txt'] } } },
      ],
      usage: { input_tokens: 900, output_tokens: 12 },
    },
    {
      content: [{ text: 'Done: notes.txt written.' }],
      usage: { input_tokens: 950, output_tokens: 6 },
    },
    { content: [{ text: 'Still done.' }], usage: { input_tokens: 990, output_tokens: 3 } },
  ],
};
/**
 * Every process of the container whose command line names the agent's binary, with it (the
 * pattern's brackets keep this shell and its grep from matching themselves).
 */
const AGENT_PROCESSES = `for p in /proc/[0-9]*; do c=$(tr '\\0' ' ' < $p/cmdline 2>/dev/null); case "$c" in */opt/evalrig/agent/[c]line*) echo "\${p#/proc/} $c";; esac; done; true`;
/**
 * Cline for real in a run's container (network none, uid 1000, its binary and the ACP driver
 * mounted read-only): the preflight, two turns in one session (the second loads the first),
 * and no process of the agent left once a turn is over (its hub daemon kept off).
 */
describe('cline for real: its binary and driver read-only in a run, two turns offline in one session', function () {
  this.timeout(300_000);
  const client = testDocker();
  const labels = { [LABELS.campaign]: `${TEST_CAMPAIGN}-cline` };
  let install: AgentInstall;
  let dir: string;
  let relay: string;
  let driver: string;
  let standIn: ModelStandIn | undefined;
  let container: RunContainer | undefined;

  before(async () => {
    await requireDocker();
    install = await ensureAgentInstalled(
      cline.install(process.env.EVALRIG_CLINE_VERSION ?? CLINE_VERIFIED_VERSION),
    );
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-cline-'));
    await mkdir(path.join(dir, 'model'), { mode: 0o711 });
    relay = await bundleStandIn('model-relay', path.join(dir, 'relay', 'model-relay'));
    driver = await bundleStandIn('cline-acp', path.join(dir, 'driver', 'cline-acp'));
  });
  after(async () => {
    await container?.remove();
    await standIn?.close();
    await removeContainers(client, labels);
    await rm(dir, { recursive: true, force: true });
  });

  it('the preflight: the mounted binary answers its version in the image', async () => {
    const provider = new LocalDockerProvider(client);
    const files = agentFiles(cline, install, relay, { driver });
    const options = { image: BASE_IMAGE, install, labels };
    expect(await preflightAdapter(provider, cline, files, options)).to.equal(install.version);
  });

  it('plays two turns in one session, the second carrying the first; nothing of it lingers after either', async () => {
    standIn = await startModelStandIn({
      script: SCRIPT,
      listen: { socketPath: path.join(dir, 'model', 'model.sock') },
    });
    container = await startAgentContainer(client, {
      image: BASE_IMAGE,
      labels,
      binds: [
        ...agentFiles(cline, install, relay, { driver }).map((f) => ({ ...f, readOnly: true })),
        { host: path.join(dir, 'model'), container: '/run/evalrig-model', readOnly: true },
      ],
    });
    await initWork(container);
    const session = cline.newSession({ model: MODEL, extraArgs: [] });
    const one = await playAgentTurn(
      container,
      session,
      cline.env(HOME),
      turnPlay('Write the notes.'),
    );
    expect(one.exec.exitCode, one.exec.stderr).to.equal(0);
    expect(one.summary).to.deep.include({
      finalMessage: 'Done: notes.txt written.',
      complete: true,
      modelRequests: 2,
    });
    expect((await container.exec(['sh', '-c', AGENT_PROCESSES])).stdout).to.equal('');
    const two = await playAgentTurn(container, session, cline.env(HOME), turnPlay('Again.'));
    expect(two.exec.exitCode, two.exec.stderr).to.equal(0);
    expect(two.summary.sessionId).to.equal(one.summary.sessionId);
    expect((await container.exec(['sh', '-c', AGENT_PROCESSES])).stdout).to.equal('');
    const notes = await container.exec(['cat', `${WORK}/notes.txt`]);
    expect(notes.stdout).to.equal('offline\n');
    const requests = standIn.requests();
    expect(requests.map((r) => [r.path, r.model])).to.deep.equal(
      Array(3).fill(['/v1/chat/completions', MODEL]),
    );
    // The second turn's request holds the first whole: its prompt, call, result and answer.
    expect(requests[2]!.messages).to.equal(requests[1]!.messages + 2);
  });
});
