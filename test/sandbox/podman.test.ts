import { expect } from 'chai';
import path from 'node:path';
import type { ConditionsFile } from '../../src/artifacts/index.js';
import { LABELS } from '../../src/runtime/index.js';
import { connectEngine, engineAddress, RemoteDockerProvider } from '../../src/sandbox/index.js';
import { BASE_IMAGE, TEST_CAMPAIGN, requireDocker, testDocker } from '../support/docker.js';
import { containersWhile, expectBothRunsCompleted, nominalWorkspace } from '../support/engines.js';
import { campaignContainers, cli, readJson, runRecords, waitFor } from '../support/faults.js';
import {
  PODMAN_SERVICES,
  requirePodman,
  startPodmanWithoutInit,
  type OwnPodman,
  type PodmanService,
} from '../support/podman.js';
import { makeToyWorkspace, type ToyWorkspace } from '../support/toy.js';
import { anotherOn, sandboxConformance } from './conformance.js';
import { servicesConformance } from './services-conformance.js';
import { sharedFilesOncePerEngine } from './file-cache.js';

/**
 * Podman's Docker-compatible API service, rootful and rootless, as a campaign's
 * engine: the sandbox conformance suite, a campaign played there alone (the
 * test image built there over the base image shipped from the machine's
 * engine), and the reaper after a SIGKILL. What Podman does differently
 * (ulimits its root may not raise, reads that follow links, user namespaces)
 * is evalrig's to adapt to: nothing is configured for it here.
 */
for (const service of PODMAN_SERVICES) describe(`Podman ${service.name}`, () => podman(service));

/**
 * An engine that refuses every container evalrig asks for (Podman without
 * catatonit, the init evalrig always asks for): doctor names the fix, and a
 * campaign is refused at its preflight, one line each, no stack, no run.
 */
describe('Podman refusing every container (no catatonit)', function () {
  this.timeout(300_000);
  let podman: OwnPodman;
  let ws: ToyWorkspace;
  before(async () => {
    await requireDocker();
    await requirePodman(PODMAN_SERVICES[0]!);
    podman = await startPodmanWithoutInit();
    ws = await nominalWorkspace();
  });
  after(async () => {
    await ws?.cleanup();
    await podman?.stop();
  });

  /** One line on stderr: the engine, the operation, its words and the fix; no stack. */
  function expectRefusal(r: { exitCode?: number; stderr: string }): void {
    expect(r.exitCode, r.stderr).to.equal(1);
    const lines = r.stderr
      .split('\n')
      .filter((l) => l.startsWith('evalrig: ') && !/warning/u.test(l));
    expect(lines, r.stderr).to.have.length(1);
    expect(lines[0]).to.contain(`the engine at ${podman.host} refused a container creation`);
    expect(lines[0]).to.contain('container-init binary not found');
    expect(lines[0]).to.contain('install catatonit');
    expect(r.stderr).not.to.match(/^\s+at /mu);
  }

  it('doctor: the engine answers, the container is refused, and the first thing to fix says catatonit', async () => {
    const r = await cli(['doctor', '--no-agents', '--engine', podman.host]);
    expectRefusal(r);
    expect(r.stdout).to.contain(`engine ${podman.host}`);
    expect(r.stdout).to.match(/answers: Podman \d/u);
    expect(r.stdout).to.contain('first thing to fix: the engine at');
  });

  it("run: refused at the preflight, before any run, with the engine's words", async () => {
    const out = path.join(ws.root, 'refused');
    const r = await cli([
      'run',
      ws.evalSetFile,
      '--out',
      out,
      '--no-report',
      '--engine',
      podman.host,
    ]);
    expectRefusal(r);
    expect(await runRecords(out)).to.have.length(0);
  });
});

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
    return {
      provider,
      image: BASE_IMAGE,
      labels: { ...labels, 'evalrig.suite': 'conformance' },
      another: (session) => anotherOn(provider, session),
    };
  });

  sharedFilesOncePerEngine(() => provider, labels);

  // With its CNI backend (Debian's Podman 4): an internal network with no address on the host's side.
  if (service.rootless) {
    it('rootless: refuses services in one line', async () => {
      await provider.describe();
      expect(provider.servicesRefusal()).to.match(/^rootless Podman's networks [^\n]+$/u);
    });
  } else {
    servicesConformance(`Podman ${service.name}`, async () => {
      await provider.describe();
      return {
        provider,
        client: connectEngine(engineAddress(service.host)),
        image: BASE_IMAGE,
        labels: { ...labels, 'evalrig.suite': 'services' },
      };
    });
  }

  it('doctor: says what answers, its capacity, the images, and that a locked-down container starts there', async () => {
    const r = await cli(['doctor', '--no-agents', '--engine', service.host]);
    expect(r.exitCode, r.stderr).to.equal(0);
    expect(r.stdout).to.match(
      new RegExp(`answers: Podman [0-9.]+ \\(API [0-9.]+, ${service.name}`, 'u'),
    );
    expect(r.stdout).to.match(/capacity: \d+ CPUs, [0-9.]+ GiB of memory/u);
    expect(r.stdout).to.contain(`base image ${BASE_IMAGE}: present`);
    expect(r.stdout).to.match(
      /locked-down container: started and removed \(network: lo; user 65534; init \S+/u,
    );
    expect(r.stdout).to.match(/\n {2}ready$/u);
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
