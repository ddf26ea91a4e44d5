import { expect } from 'chai';
import {
  buildDenyAll,
  buildJob,
  labelSelector,
  labelValue,
  lockedContext,
  parseClusterAddress,
  podLayout,
  splitAmounts,
  TUNNEL_DIR,
  type JobSpecInput,
} from '../../../../src/sandbox/kubernetes/index.js';
import type { SandboxSpec } from '../../../../src/sandbox/index.js';
import { parseEnvLines } from '../../../support/k8s.js';
import { INPUT } from './job-input.js';

describe('kubernetes Job spec', () => {
  it('names are DNS-1123 and at most 63 characters; label values that do not fit are hashed', () => {
    expect(INPUT.name).to.match(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
    expect(INPUT.name.length).to.be.at.most(63);
    expect(labelValue('pr-workflow-20261130t0512-a1b2c3')).to.equal(
      'pr-workflow-20261130t0512-a1b2c3',
    );
    expect(labelValue('a/b')).to.match(/^[0-9a-f]{10}$/);
    expect(labelValue('x'.repeat(64))).to.match(/^[0-9a-f]{10}$/);
  });

  it('holds the hardening: no token, no root, no capabilities, read-only root, requests = limits', () => {
    const job = buildJob(INPUT);
    expect(job.spec!.backoffLimit).to.equal(0);
    expect(job.spec!.ttlSecondsAfterFinished).to.equal(60);
    expect(job.metadata!.ownerReferences![0]).to.include({ kind: 'ConfigMap', uid: 'uid-1' });
    expect(job.metadata!.labels!['evalrig.managed']).to.equal('true');
    expect(job.metadata!.labels!['evalrig.run']).to.match(/^[0-9a-f]{10}$/);
    const pod = job.spec!.template.spec!;
    expect(pod).to.include({
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      dnsPolicy: 'None',
      restartPolicy: 'Never',
    });
    const agent = pod.containers[0]!;
    expect(agent.securityContext).to.deep.include({
      runAsUser: 1000,
      runAsNonRoot: true,
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(agent.resources!.requests).to.deep.equal(agent.resources!.limits);
    expect(agent.resources!.limits).to.have.keys('cpu', 'memory', 'ephemeral-storage');
  });

  it('the deny-all policy selects evalrig pods and allows nothing either way', () => {
    const policy = buildDenyAll('evalrig', {});
    expect(policy.spec!.policyTypes).to.deep.equal(['Ingress', 'Egress']);
    expect(policy.spec!.ingress).to.deep.equal([]);
    expect(policy.spec!.egress).to.deep.equal([]);
  });

  it('a sweep selector always includes the managed label', () => {
    expect(labelSelector({ 'evalrig.session': 'a/b' })).to.match(
      /^evalrig\.managed=true,evalrig\.session=[0-9a-f]{10}$/,
    );
  });

  it('engine addresses: a context, a context and namespace, a kubeconfig path; anything else is named', () => {
    expect(parseClusterAddress('k8s://kind-a')).to.deep.equal({ context: 'kind-a' });
    expect(parseClusterAddress('k8s://kind-a/evalrig')).to.deep.equal({
      context: 'kind-a',
      namespace: 'evalrig',
    });
    expect(parseClusterAddress('k8s:///etc/k/config')).to.deep.equal({
      kubeconfig: '/etc/k/config',
    });
    expect(() => parseClusterAddress('k8s://a/b/c')).to.throw(/--engine k8s:\/\/a\/b\/c/);
    expect(() => parseClusterAddress('tcp://x')).to.throw(/--engine tcp:\/\/x/);
  });

  it('reads the cluster announcement lines', () => {
    expect(
      parseEnvLines("export EVALRIG_K8S_NAMESPACE='evalrig'\nSCRIPT=/x/k8s.sh\n# c\n"),
    ).to.deep.equal({
      EVALRIG_K8S_NAMESPACE: 'evalrig',
      SCRIPT: '/x/k8s.sh',
    });
  });
});

describe('kubernetes Job spec: the keeper container', () => {
  const input: JobSpecInput = {
    ...INPUT,
    keeper: { uid: 65534, gid: 65534 },
    folders: [
      { name: 'work', path: '/work', sizeBytes: 1 << 30 },
      { name: 'evalset', path: '/evalset', sizeBytes: 1 << 20, access: 'shared' },
      { name: 'keeper-tmp', path: '/tmp', sizeBytes: 1 << 20, access: 'keeper' },
    ],
  };
  const pod = buildJob(input).spec!.template.spec!;
  const [agent, keeper] = pod.containers;

  it('a second container of the same image, under its own uid, in a process namespace apart', () => {
    expect(pod.containers.map((c) => c.name)).to.deep.equal(['agent', 'keeper']);
    expect(pod.shareProcessNamespace).to.equal(false);
    expect(keeper!.image).to.equal(agent!.image);
    expect(keeper!.command).to.deep.equal(agent!.command);
    expect(keeper!.securityContext).to.deep.equal(lockedContext(65534, 65534));
    expect(agent!.securityContext!.runAsUser).to.equal(1000);
  });

  it("takes its share of the run's CPU and memory (the pod asks what a run is given), requests = limits", () => {
    const sum = (a: string, b: string) => Number(a) + Number(b);
    expect(keeper!.resources!.requests).to.deep.equal(keeper!.resources!.limits);
    expect(agent!.resources!.requests).to.deep.equal(agent!.resources!.limits);
    const [a, k] = [agent!.resources!.limits!, keeper!.resources!.limits!];
    expect(a.cpu).to.equal('900m');
    expect(k.cpu).to.equal('100m');
    expect(sum(a.memory!, k.memory!)).to.equal(512 * 1024 * 1024);
    expect(k.memory).to.equal(String(128 * 1024 * 1024));
    expect(a['ephemeral-storage']).to.equal(String(1024 * 1024 * 1024));
    // A small run gives a quarter of its memory; a large one 200m of CPU at most, a tiny one 50m.
    expect(splitAmounts(0.25, 256 * 1024 * 1024).keeper).to.deep.equal({
      cpu: '50m',
      memory: String(64 * 1024 * 1024),
    });
    expect(splitAmounts(4, 8 * 1024 ** 3).keeper.cpu).to.equal('200m');
    expect(splitAmounts(4, 8 * 1024 ** 3).agent.cpu).to.equal('3800m');
  });

  it('writes the shared folder, which the agent mounts read-only; its own folder the agent never sees', () => {
    expect(agent!.volumeMounts).to.deep.equal([
      { name: 'work', mountPath: '/work' },
      { name: 'evalset', mountPath: '/evalset', readOnly: true },
    ]);
    expect(keeper!.volumeMounts).to.deep.equal([
      { name: 'evalset', mountPath: '/evalset' },
      { name: 'keeper-tmp', mountPath: '/tmp' },
    ]);
    expect(pod.volumes!.map((v) => v.name)).to.deep.equal(['work', 'evalset', 'keeper-tmp']);
  });

  it('without a keeper, the pod has the agent alone', () => {
    expect(buildJob(INPUT).spec!.template.spec!.containers).to.have.length(1);
  });
});

describe('kubernetes Job spec: nodes avoided', () => {
  it('keeps the pod off the named nodes by their name, a field no kubelet sets', () => {
    const pod = buildJob({ ...INPUT, avoidNodes: ['127.0.0.2'] }).spec!.template.spec!;
    const terms =
      pod.affinity!.nodeAffinity!.requiredDuringSchedulingIgnoredDuringExecution!.nodeSelectorTerms;
    expect(terms).to.deep.equal([
      { matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['127.0.0.2'] }] },
    ]);
  });

  it('with none to avoid, the pod has no affinity at all', () => {
    expect(buildJob(INPUT).spec!.template.spec!.affinity).to.equal(undefined);
    expect(buildJob({ ...INPUT, avoidNodes: [] }).spec!.template.spec!.affinity).to.equal(
      undefined,
    );
  });
});

describe('kubernetes pod layout', () => {
  const spec: SandboxSpec = {
    image: 'x',
    folders: [
      { host: '/h/tree', container: '/work/toy' },
      { host: '/h/set', container: '/evalset', readOnly: true },
    ],
    files: [{ host: '/h/agent', container: '/opt/evalrig/agent/agent' }],
    sockets: [{ host: '/h/sock', container: '/run/evalrig', names: ['gh.sock'] }],
  };

  it("the agent's places, the shared ones (read-only for it), the keeper's own, and the routes", () => {
    const layout = podLayout(spec, '/work/toy', 1 << 30, 'k8s://t');
    const by = Object.fromEntries(
      layout.folders.map((f) => [`${f.path} ${f.access ?? 'agent'}`, f]),
    );
    expect(Object.keys(by).sort()).to.deep.equal([
      '/evalset shared',
      '/opt/evalrig/agent shared',
      '/run/evalrig shared',
      `${TUNNEL_DIR} keeper`,
      '/tmp agent',
      '/tmp keeper',
      '/work agent',
    ]);
    // The work tree's top is made by tar (the agent's), not a mount point (root's).
    expect(layout.containerWorkingDir).to.equal('/work');
    expect(new Set(layout.folders.map((f) => f.name)).size).to.equal(layout.folders.length);
    expect([...layout.routes]).to.deep.equal([['/run/evalrig/gh.sock', '/h/sock/gh.sock']]);
  });

  it('HOME is a place of the agent; nested places fold into the outer one', () => {
    const layout = podLayout(
      {
        image: 'x',
        env: { HOME: '/home/evalrig' },
        folders: [
          { host: '/a', container: '/work/toy' },
          { host: '/b', container: '/work/toy/sub' },
          { host: '/c', container: '/remote/toy.git' },
        ],
      },
      '/work/toy',
      1 << 30,
      'k8s://t',
    );
    const agent = layout.folders.filter((f) => !f.access).map((f) => f.path);
    expect(agent).to.deep.equal(['/tmp', '/work', '/remote', '/home/evalrig']);
  });

  it('no sockets: no tunnel folder', () => {
    const layout = podLayout({ image: 'x' }, '/tmp', 1 << 30, 'k8s://t');
    expect(layout.folders.map((f) => f.path)).to.not.include(TUNNEL_DIR);
    expect(layout.routes.size).to.equal(0);
  });

  it('refuses a socket name that is a path, and a folder both read-only and written', () => {
    const bad = { ...spec, sockets: [{ host: '/h', container: '/run/x', names: ['../a'] }] };
    expect(() => podLayout(bad, '/tmp', 1, 'k8s://t')).to.throw(/not a plain name: "\.\.\/a"/);
    const both = {
      image: 'x',
      folders: [
        { host: '/a', container: '/evalset' },
        { host: '/b', container: '/evalset/', readOnly: true },
      ],
    };
    expect(() => podLayout(both, '/tmp', 1, 'k8s://t')).to.throw(
      /\/evalset: both written by the agent and read-only/,
    );
  });
});
