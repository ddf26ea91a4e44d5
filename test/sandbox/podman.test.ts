import { expect } from 'chai';
import path from 'node:path';
import type { ConditionsFile } from '../../src/artifacts/index.js';
import { LABELS } from '../../src/runtime/index.js';
import { connectEngine, engineAddress, RemoteDockerProvider } from '../../src/sandbox/index.js';
import { BASE_IMAGE, TEST_CAMPAIGN, requireDocker, testDocker } from '../support/docker.js';
import { containersWhile, expectBothRunsCompleted, nominalWorkspace } from '../support/engines.js';
import { campaignContainers, cli, readJson, runRecords, waitFor } from '../support/faults.js';
import { PODMAN_SERVICES, requirePodman, type PodmanService } from '../support/podman.js';
import { makeToyWorkspace, type ToyWorkspace } from '../support/toy.js';
import { sandboxConformance } from './conformance.js';

/**
 * Podman's Docker-compatible API service, rootful and rootless, as a campaign's
 * engine: the sandbox conformance suite, a campaign played there alone (the
 * test image built there over the base image shipped from the machine's
 * engine), and the reaper after a SIGKILL. What Podman does differently
 * (ulimits its root may not raise, reads that follow links, user namespaces)
 * is evalrig's to adapt to: nothing is configured for it here.
 */
for (const service of PODMAN_SERVICES) describe(`Podman ${service.name}`, () => podman(service));

function podman(service: PodmanService): void {
  let provider: RemoteDockerProvider;
  const labels = { [LABELS.campaign]: `${TEST_CAMPAIGN}-podman-${service.name}` };

  before(async function () {
    this.timeout(300_000);
    await requireDocker();
    await requirePodman(service);
    provider = new RemoteDockerProvider({
      client: connectEngine(engineAddress(service.host)),
      name: service.host,
    });
    // Shipped from the machine's engine when missing (docker save | podman load, through the APIs).
    const id = (await testDocker().docker.getImage(BASE_IMAGE).inspect()).Id;
    await provider.ensureImage(
      { tag: BASE_IMAGE, id },
      new RemoteDockerProvider({ client: testDocker() }),
    );
  });

  sandboxConformance(`Podman ${service.name} (no mounts)`, async () => {
    const [engine] = await provider.describe();
    expect(engine).to.include({ kind: 'podman', rootless: service.rootless });
    await provider.preflight({ image: BASE_IMAGE, labels });
    return { provider, image: BASE_IMAGE, labels: { ...labels, 'evalrig.suite': 'conformance' } };
  });

  describe('a campaign', function () {
    this.timeout(600_000);
    let ws: ToyWorkspace;
    before(async () => {
      ws = await nominalWorkspace();
    });
    after(async () => {
      await ws?.cleanup();
    });

    it('plays there alone, each run.json naming the engine, conditions.json listing it', async () => {
      const out = path.join(ws.root, 'out');
      const args = ['run', ws.evalSetFile, '--out', out, '--jobs', '2', '--no-report'];
      const running = cli([...args, '--engine', service.host]);
      const held = await containersWhile(running, out, {
        podman: provider.client,
        first: testDocker(),
      });
      const r = await running;
      expect(r.exitCode, r.stderr).to.equal(0);
      expect(held.podman, 'run containers on Podman').to.equal(2);
      expect(held.first, 'run containers on the machine engine').to.equal(0);
      await expectBothRunsCompleted(out);
      const conditions = await readJson<ConditionsFile>(path.join(out, 'conditions.json'));
      expect(conditions.engines).to.have.length(1);
      const engine = conditions.engines![0]!;
      expect(engine).to.include({
        address: service.host,
        kind: 'podman',
        rootless: service.rootless,
      });
      for (const { record } of await runRecords(out)) expect(record.engine).to.deep.equal(engine);
    });

    it('evalrig killed (SIGKILL): its containers there are gone within 10 s', async () => {
      const slow = await makeToyWorkspace({
        scripts: { slow: { turns: [{ actions: [{ sleep: 60 }, { stop: 'conformant' }] }] } },
        set: { conditions: { a: {} }, evals: [{ id: 'slow', prompt: 'wait', runs: 2 }] },
      });
      try {
        const args = ['run', slow.evalSetFile, '--out', slow.outDir, '--jobs', '2'];
        const child = cli([...args, '--no-report', '--engine', service.host]);
        await waitFor(
          async () => (await campaignContainers(provider.client, slow.outDir)) === 2,
          300_000,
          'both runs on Podman',
        );
        child.kill('SIGKILL');
        await child;
        await waitFor(
          async () => (await campaignContainers(provider.client, slow.outDir)) === 0,
          10_000,
          'no container of the campaign on Podman',
        );
      } finally {
        await slow.cleanup();
      }
    });
  });
}
