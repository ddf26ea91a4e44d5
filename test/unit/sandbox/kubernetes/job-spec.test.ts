import { expect } from 'chai';
import {
  buildDenyAll,
  buildJob,
  labelSelector,
  labelValue,
  parseClusterAddress,
} from '../../../../src/sandbox/kubernetes/index.js';
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
