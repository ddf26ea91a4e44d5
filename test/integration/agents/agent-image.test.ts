/**
 * install "image": the agent's binary (and Codex's relay) built into an image derived from a run
 * image, for engines that cannot mount host paths. Built for real from the test image, reused
 * while unchanged, and the binary answers there with nothing mounted.
 */
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  AGENT_ADAPTERS,
  agentFiles,
  CODEX_VERIFIED_VERSION,
  ensureAgentInstalled,
  preflightAdapter,
  sha256File,
  type AgentInstall,
} from '../../../src/agents/index.js';
import { campaignAgent } from '../../../src/campaign/agent.js';
import { planRuns } from '../../../src/campaign/index.js';
import { loadEvalSet } from '../../../src/config/index.js';
import {
  agentImageHash,
  ensureAgentImage,
  ensureTestImage,
  type AgentImage,
} from '../../../src/image/index.js';
import { LABELS, removeContainers } from '../../../src/runtime/index.js';
import { requireDocker, TEST_CAMPAIGN, testDocker } from '../../support/docker.js';
import { bundleStandIn } from '../agent/bundle.js';
import { LocalDockerProvider } from '../../../src/sandbox/index.js';

const adapter = AGENT_ADAPTERS.codex;

describe('agent image: codex built into an image derived from the test image', function () {
  this.timeout(600_000);
  const client = testDocker();
  const labels = { [LABELS.campaign]: `${TEST_CAMPAIGN}-agent-image` };
  let dir: string;
  let install: AgentInstall;
  let files: { host: string; container: string; sha256: string }[];
  let testImage: string;
  let first: AgentImage | undefined;

  before(async () => {
    await requireDocker();
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-agent-image-'));
    install = await ensureAgentInstalled(
      adapter.install(process.env.EVALRIG_CODEX_VERSION ?? CODEX_VERIFIED_VERSION),
    );
    const relay = await bundleStandIn('model-relay', path.join(dir, 'relay', 'model-relay'));
    files = await Promise.all(
      agentFiles(adapter, install, relay).map(async (f) => ({
        ...f,
        sha256: await sha256File(f.host),
      })),
    );
    testImage = (await ensureTestImage(client, {})).tag;
  });
  after(async () => {
    await removeContainers(client, labels);
    // The image this file built (hundreds of MB); one it found already there is left.
    if (first?.built)
      await client.docker
        .getImage(first.tag)
        .remove()
        .catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  });

  it('builds it once, tagged by the base id, the package, its version and the files; then reuses it', async () => {
    const options = {
      baseImage: testImage,
      package: install.package,
      version: install.version,
      files,
    };
    const t0 = performance.now();
    first = await ensureAgentImage(client, options);
    const buildMs = performance.now() - t0;
    const t1 = performance.now();
    const again = await ensureAgentImage(client, options);
    const reuseMs = performance.now() - t1;
    process.stderr.write(
      `      agent image: ${first.built ? 'built' : 'found'} in ${Math.round(buildMs)} ms, reused in ${Math.round(reuseMs)} ms\n`,
    );
    const hash = agentImageHash(first.base.id, install.package, install.version, files);
    expect(first.tag).to.equal(`evalrig-agent:${hash.slice(0, 12)}`);
    expect(again).to.deep.equal({ ...first, built: false });
    expect(first.base.tag).to.equal(testImage);
    // Another binary is another image.
    const other = agentImageHash(first.base.id, install.package, install.version, [
      { ...files[0]!, sha256: '0'.repeat(64) },
      files[1]!,
    ]);
    expect(other).to.not.equal(hash);
    const inspect = await client.docker.getImage(first.tag).inspect();
    expect(inspect.Config.User).to.equal('evalrig'); // the base's user is kept
  });

  it('answers its version there through the relay, with nothing mounted', async () => {
    expect(first, 'built by the test above').to.not.equal(undefined);
    const version = await preflightAdapter(new LocalDockerProvider(client), adapter, [], {
      image: first!.tag,
      install,
      labels,
    });
    expect(version).to.equal(install.version);
  });

  it("a campaign's runs start from it and mount only the gateway's folder", async () => {
    await writeFile(
      path.join(dir, 'evals.json'),
      JSON.stringify({
        name: 's',
        agent: { type: 'codex', version: install.version, model: { script: 'm.json' } },
        evals: [{ id: 'a', prompt: 'p' }],
      }),
    );
    await writeFile(
      path.join(dir, 'm.json'),
      JSON.stringify({ responses: [{ content: [{ text: 'x' }] }] }),
    );
    const evalSet = await loadEvalSet(path.join(dir, 'evals.json'));
    const record = { base: testImage, base_id: first!.base.id, tag: first!.tag, id: first!.id };
    const agent = campaignAgent({
      adapter,
      install,
      files,
      sourceFor: () => ({ script: { responses: [] } }),
      model: 'gpt-5.1-codex',
      derived: new Map([[testImage, record]]),
    });
    expect(agent.imageFor(testImage)).to.equal(first!.tag);
    expect(agent.shares('/tmp/gw')).to.deep.equal({
      files: [],
      sockets: [{ host: '/tmp/gw', container: adapter.modelDir, names: ['model.sock'] }],
    });
    expect(agent.identity).to.deep.include({ install: 'image', images: [record] });
    expect(agent.runIdentity(testImage).images).to.deep.equal([record]);
    const [planned] = planRuns(evalSet, {});
    expect(agent.session(planned!).argv('x')).to.include('model="gpt-5.1-codex"');
  });
});
