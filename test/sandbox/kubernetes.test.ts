/**
 * The Kubernetes pieces against a real cluster (test/support/k8s.ts says
 * which): a Job's pod started as a run's would be, its hardening read back
 * from the API server and observed from inside, and the sweep by label
 * leaving nothing. No cluster: skipped, saying why; EVALRIG_K8S=required: failed.
 */
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  anchorName,
  copyInto,
  DENY_ALL_NAME,
  ensureDenyAll,
  ensureAnchor,
  jobName,
  KubernetesSandbox,
  openCluster,
  podExec,
  startJobPod,
  sweepByLabel,
  syncFromPod,
  type Cluster,
} from '../../src/sandbox/kubernetes/index.js';
import { BASE_IMAGE } from '../support/docker.js';
import { pushToRegistry, requireCluster, type K8sCluster } from '../support/k8s.js';

async function leftOver(cluster: Cluster, session: string): Promise<number> {
  const query = { namespace: cluster.namespace, labelSelector: `evalrig.session=${session}` };
  const [jobs, pods, maps] = await Promise.all([
    cluster.batch.listNamespacedJob(query),
    cluster.core.listNamespacedPod(query),
    cluster.core.listNamespacedConfigMap(query),
  ]);
  return jobs.items.length + pods.items.length + maps.items.length;
}

/** Polls until nothing of the session is left (deletion is asynchronous) or the deadline. */
async function settled(cluster: Cluster, session: string): Promise<number> {
  // Pods end through the kubelet: on a loaded 2-core machine that took up to ~40 s.
  const deadline = Date.now() + 150_000;
  let left = await leftOver(cluster, session);
  while (left > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    left = await leftOver(cluster, session);
  }
  return left;
}

describe('kubernetes (a real cluster)', function () {
  this.timeout(300_000);
  const session = `test-${process.pid}-${Date.now().toString(36)}`;
  const labels = { 'evalrig.session': session };
  let cluster: Cluster;
  let image: string;
  let env: K8sCluster;
  let pod: string;
  const name = jobName(session, 'hardening/run-01');

  before(async function () {
    env = await requireCluster(this);
    cluster = openCluster({ kubeconfig: env.kubeconfig, namespace: env.namespace });
    image = pushToRegistry(BASE_IMAGE, env.registry);
    const anchor = await ensureAnchor(cluster, anchorName(session), labels);
    pod = await startJobPod(cluster, {
      name,
      image,
      labels,
      runKey: 'hardening/run-01',
      anchor,
      uid: 1000,
      gid: 1000,
      workingDir: '/workspace',
      env: { HOME: '/home/evalrig' },
      cpus: 0.5,
      memoryBytes: 256 * 1024 * 1024,
      diskBytes: 512 * 1024 * 1024,
      activeDeadlineSeconds: 600,
      ttlSecondsAfterFinished: 60,
      command: ['sleep', 'infinity'],
      folders: [
        { name: 'workspace', path: '/workspace', sizeBytes: 64 << 20 },
        { name: 'tmp', path: '/tmp', sizeBytes: 64 << 20 },
        { name: 'home', path: '/home/evalrig', sizeBytes: 64 << 20 },
      ],
    }).then((started) => started.name);
  });

  after(async function () {
    if (cluster) await sweepByLabel(cluster, labels);
  });

  it("the pod's spec, read back from the API server, holds the hardening", async () => {
    const read = await cluster.core.readNamespacedPod({ namespace: cluster.namespace, name: pod });
    const spec = read.spec!;
    expect(spec.automountServiceAccountToken).to.equal(false);
    expect(spec.enableServiceLinks).to.equal(false);
    expect(spec.dnsPolicy).to.equal('None');
    const agent = spec.containers[0]!;
    expect(agent.image).to.equal(image);
    expect(agent.securityContext).to.deep.include({
      runAsUser: 1000,
      runAsNonRoot: true,
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      privileged: false,
    });
    expect(agent.securityContext!.capabilities!.drop).to.deep.equal(['ALL']);
    expect(agent.resources!.requests).to.deep.equal(agent.resources!.limits);
    expect(read.status!.qosClass).to.equal('Guaranteed');
  });

  it('inside: uid 1000, no effective capabilities, / read-only, no service-account token', async () => {
    const id = await podExec(cluster, pod, ['id', '-u']);
    expect(id.stdout.toString().trim()).to.equal('1000');
    const status = await podExec(cluster, pod, ['grep', '^CapEff:', '/proc/self/status']);
    expect(status.stdout.toString()).to.match(/^CapEff:\s+0+\s*$/);
    const touch = await podExec(cluster, pod, ['touch', '/planted']);
    expect(touch.exitCode).to.not.equal(0);
    expect(touch.stderr.toString()).to.match(/read-only file system/i);
    const token = await podExec(cluster, pod, [
      'ls',
      '/var/run/secrets/kubernetes.io/serviceaccount',
    ]);
    expect(token.exitCode).to.not.equal(0);
    const work = await podExec(cluster, pod, ['touch', '/workspace/ok']);
    expect(work.exitCode).to.equal(0);
  });

  it('input framed by its length reaches the command whole (stdin is never half-closed)', async () => {
    const input = Buffer.alloc(300_000, 'x');
    const result = await podExec(cluster, pod, ['head', '-c', String(input.length)], { input });
    expect(result.exitCode).to.equal(0);
    expect(result.stdout.equals(input)).to.equal(true);
  });

  it('files: a folder copied in, changed inside, synced out; a FIFO planted inside does not cross', async () => {
    const host = await mkdtemp(path.join(tmpdir(), 'evalrig-k8s-'));
    const back = await mkdtemp(path.join(tmpdir(), 'evalrig-k8s-back-'));
    try {
      await writeFile(path.join(host, 'a.txt'), 'alpha\n');
      await copyInto(cluster, pod, host, '/workspace/tree', { uid: 1000, gid: 1000 });
      const cat = await podExec(cluster, pod, ['cat', '/workspace/tree/a.txt']);
      expect(cat.stdout.toString()).to.equal('alpha\n');
      await podExec(cluster, pod, ['cp', '/workspace/tree/a.txt', '/workspace/tree/b.txt']);
      const first = await syncFromPod(cluster, pod, '/workspace/tree', back, undefined);
      expect(await readFile(path.join(back, 'b.txt'), 'utf8')).to.equal('alpha\n');
      // A FIFO the agent planted never crosses (nor blocks the sync): it is not kept.
      await podExec(cluster, pod, ['mkfifo', '/workspace/tree/pipe']);
      await podExec(cluster, pod, ['rm', '/workspace/tree/a.txt']);
      await syncFromPod(cluster, pod, '/workspace/tree', back, first.listing);
      expect(existsSync(path.join(back, 'pipe'))).to.equal(false);
      expect(existsSync(path.join(back, 'a.txt'))).to.equal(false);
      expect(await readFile(path.join(back, 'b.txt'), 'utf8')).to.equal('alpha\n');
    } finally {
      await rm(host, { recursive: true, force: true });
      await rm(back, { recursive: true, force: true });
    }
  });

  it('as a Sandbox: exec as its one user, files written and read, a FIFO never opened', async () => {
    const sandbox = new KubernetesSandbox(cluster, name, pod, '1000:1000', 'k8s-test');
    const r = await sandbox.exec(['pwd'], { workingDir: '/tmp', env: { X: 'y' } });
    expect(r.stdout.trim()).to.equal('/tmp');
    let refused: Error | undefined;
    await sandbox.exec(['id'], { user: '0:0' }).catch((e: Error) => (refused = e));
    expect(refused?.message).to.match(/every exec runs as 1000:1000/);
    await sandbox.writeFiles([
      {
        path: '/workspace/w/x.txt',
        content: 'hello',
        mode: 0o600,
        owner: { uid: 1000, gid: 1000 },
      },
    ]);
    expect((await sandbox.readFile('/workspace/w/x.txt', { maxBytes: 100 })).toString()).to.equal(
      'hello',
    );
    await sandbox.exec(['mkfifo', '/tmp/fifo']);
    let notRegular: Error | undefined;
    await sandbox.readFile('/tmp/fifo', { maxBytes: 100 }).catch((e: Error) => (notRegular = e));
    expect(notRegular?.message).to.match(/fifo/i);
  });

  it('the deny-all NetworkPolicy is made once (a second call finds it) and selects evalrig pods', async () => {
    const policyLabels = { 'evalrig.session': `${session}-policy` };
    await ensureDenyAll(cluster, policyLabels);
    await ensureDenyAll(cluster, policyLabels);
    const read = await cluster.networking.readNamespacedNetworkPolicy({
      namespace: cluster.namespace,
      name: DENY_ALL_NAME,
    });
    expect(read.spec!.podSelector.matchLabels).to.deep.equal({ 'evalrig.managed': 'true' });
    expect(read.spec!.policyTypes).to.deep.equal(['Ingress', 'Egress']);
    const swept = await sweepByLabel(cluster, policyLabels);
    expect(swept.networkPolicies).to.be.at.most(1);
  });

  it('the sweep by label removes the Job, its pod and the anchor', async () => {
    const swept = await sweepByLabel(cluster, labels);
    expect(swept.jobs).to.equal(1);
    expect(swept.configMaps).to.equal(1);
    expect(await settled(cluster, session)).to.equal(0);
  });
});
