import { expect } from 'chai';
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  AGENT_ADAPTERS,
  AgentInstallError,
  agentFiles,
  COPILOT_CLI_BIN,
  COPILOT_CLI_PACKAGE,
  COPILOT_CLI_VERIFIED_VERSION,
  copilotBinaryPath,
  ensureAgentInstalled,
  ensureCopilotUnpacked,
  isUnpacked,
  playAgentTurn,
  preflightAdapter,
  type AgentInstall,
} from '../../../src/agents/index.js';
import { startModelStandIn, type ModelStandIn } from '../../../src/model-stand-in/index.js';
import { LABELS, removeContainers, type RunContainer } from '../../../src/runtime/index.js';
import { LocalDockerProvider } from '../../../src/sandbox/index.js';
import { HOME, initWork, startAgentContainer, turnPlay } from '../../support/agents.js';
import { BASE_IMAGE, requireDocker, TEST_CAMPAIGN, testDocker } from '../../support/docker.js';
import { bundleStandIn } from '../agent/bundle.js';

const copilot = AGENT_ADAPTERS['copilot-cli'];
const PKG = '/opt/evalrig/agent/copilot-pkg';

/**
 * Copilot CLI's package cache, unpacked once on the host and mounted read-only: a turn plays
 * from it and unpacks nothing, where the same binary given a writable empty cache unpacks its
 * 235 MB there first.
 */
describe('copilot-cli for real: its package cache unpacked once on the host, mounted read-only into a run', function () {
  this.timeout(300_000);
  const client = testDocker();
  const labels = { [LABELS.campaign]: `${TEST_CAMPAIGN}-copilot-cli` };
  let install: AgentInstall;
  let dir: string;
  let relay: string;
  let standIn: ModelStandIn | undefined;
  let container: RunContainer | undefined;

  before(async () => {
    await requireDocker();
    install = await ensureAgentInstalled({
      package: COPILOT_CLI_PACKAGE,
      version: process.env.EVALRIG_COPILOT_CLI_VERSION ?? COPILOT_CLI_VERIFIED_VERSION,
      bin: COPILOT_CLI_BIN,
      binaryPath: copilotBinaryPath(),
    });
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-copilot-'));
    await mkdir(path.join(dir, 'model'), { mode: 0o711 });
    relay = await bundleStandIn('model-relay', path.join(dir, 'relay', 'model-relay'));
  });
  afterEach(async () => {
    await container?.remove();
    await standIn?.close();
    container = standIn = undefined;
  });
  after(async () => {
    await removeContainers(client, labels);
    await rm(dir, { recursive: true, force: true });
  });

  it('unpacks into the install once, by the binary itself, and then finds it there', async () => {
    const fresh = { ...install, dir: path.join(dir, 'install') };
    await mkdir(fresh.dir);
    const unpacked = await ensureCopilotUnpacked(fresh);
    expect(unpacked).to.equal(path.join(fresh.dir, 'pkg-cache'));
    expect(await isUnpacked(unpacked, fresh.version)).to.equal(true);
    const before = await stat(unpacked);
    expect(await ensureCopilotUnpacked(fresh)).to.equal(unpacked);
    expect((await stat(unpacked)).ino, 'not unpacked again').to.equal(before.ino);
    expect(await readdir(fresh.dir)).to.deep.equal(['pkg-cache']);
  });

  it('refuses an unpack that fails, leaving nothing half done', async () => {
    const broken = { ...install, dir: path.join(dir, 'broken'), binary: '/bin/false' };
    await mkdir(broken.dir);
    let error: unknown;
    await ensureCopilotUnpacked(broken).catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(AgentInstallError);
    expect(String(error)).to.contain('could not unpack its package cache');
    expect(await readdir(broken.dir)).to.deep.equal([]);
  });

  it('the preflight: the mounted binary answers its version in the image', async () => {
    const files = agentFiles(copilot, install, relay, {
      unpacked: await ensureCopilotUnpacked(install),
    });
    const provider = new LocalDockerProvider(client);
    const options = { image: BASE_IMAGE, install, labels };
    expect(await preflightAdapter(provider, copilot, files, options)).to.equal(install.version);
  });

  it('plays a turn from the read-only folder and unpacks nothing; given a writable empty cache, it unpacks there', async () => {
    standIn = await startModelStandIn({
      script: { responses: [{ content: [{ text: 'Hi.' }] }, { content: [{ text: 'Hi again.' }] }] },
      listen: { socketPath: path.join(dir, 'model', 'model.sock') },
    });
    const unpacked = await ensureCopilotUnpacked(install);
    const files = agentFiles(copilot, install, relay, { unpacked });
    container = await startAgentContainer(client, {
      image: BASE_IMAGE,
      labels,
      binds: [
        ...files.map((f) => ({ ...f, readOnly: true })),
        { host: path.join(dir, 'model'), container: '/run/evalrig-model', readOnly: true },
      ],
    });
    const c = container;
    await initWork(c);
    const env = copilot.env(HOME, 'gpt-5.4');
    const sh = (script: string) => c.exec(['sh', '-c', script], { env: { HOME } });

    const denied = await sh(`touch ${PKG}/pkg/probe`);
    expect(denied.exitCode, 'the mount is read-only').to.not.equal(0);
    const turn = await playAgentTurn(
      c,
      copilot.newSession({ extraArgs: [] }),
      env,
      turnPlay('Hi.'),
    );
    expect(turn.exec.exitCode, turn.exec.stderr).to.equal(0);
    expect(turn.summary).to.deep.include({ finalMessage: 'Hi.', complete: true });
    const marks = `find "$HOME" /tmp /var -name .extraction-complete 2>/dev/null | sort -u`;
    expect((await sh(marks)).stdout, 'no package cache unpacked in the run').to.equal('');

    // The same binary with an empty cache it may write: it unpacks first (what the mount saves).
    const own = { ...env, COPILOT_PKG_CACHE_HOME: `${HOME}/own-cache` };
    const again = await playAgentTurn(
      c,
      copilot.newSession({ extraArgs: [] }),
      own,
      turnPlay('Hi again.'),
    );
    expect(again.exec.exitCode, again.exec.stderr).to.equal(0);
    expect((await sh(marks)).stdout.trim()).to.equal(
      `${HOME}/own-cache/pkg/linux-${process.arch === 'arm64' ? 'arm64' : 'x64'}/${install.version}/.extraction-complete`,
    );
  });
});
