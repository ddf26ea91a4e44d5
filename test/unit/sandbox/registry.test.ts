import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { InputError } from '../../../src/errors/index.js';
import {
  SandboxError,
  connectEngine,
  connectProvider,
  engineAddress,
  registerProvider,
  schemeOf,
  type SandboxProvider,
} from '../../../src/sandbox/index.js';
import { KubernetesProvider } from '../../../src/sandbox/kubernetes/index.js';

describe('sandbox/registry: a provider chosen by the engine address scheme', () => {
  it('reads each scheme from the address alone', () => {
    expect(schemeOf('unix:///var/run/docker.sock')).to.equal('unix');
    expect(schemeOf('/var/run/docker.sock')).to.equal('unix');
    expect(schemeOf('tcp://10.0.0.5:2376')).to.equal('tcp');
    expect(schemeOf('ssh://me@host')).to.equal('ssh');
    expect(schemeOf('unix:///run/podman/podman.sock')).to.equal('podman');
    expect(schemeOf('ssh://me@host/run/user/1000/podman/podman.sock')).to.equal('podman');
    expect(schemeOf('k8s://kind-evalrig')).to.equal('k8s');
    expect(schemeOf('/home/me/.kube/config')).to.equal('k8s');
    expect(schemeOf('/tmp/ci.kubeconfig')).to.equal('k8s');
    expect(schemeOf('my-context')).to.equal('context');
  });

  it('takes a cluster address without reading anything of Docker (no context, no TLS files)', () => {
    const address = engineAddress('k8s://kind-evalrig', { DOCKER_CONFIG: '/nonexistent' }, '/x');
    expect(address).to.deep.equal({
      name: 'k8s://kind-evalrig',
      where: 'k8s://kind-evalrig',
      options: {},
      local: false,
    });
  });

  it('never speaks Docker to a cluster address (dockerode would fall back to the local socket)', () => {
    expect(() => connectEngine(engineAddress('k8s://kind-evalrig'))).to.throw(
      InputError,
      '--engine "k8s://kind-evalrig": no Docker engine to speak to',
    );
  });

  describe('the built-in Kubernetes provider', () => {
    let dir: string;
    let kubeconfig: string;
    const saved = process.env.KUBECONFIG;
    before(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'evalrig-registry-'));
      kubeconfig = path.join(dir, 'kubeconfig');
      // Port 1 of loopback: nothing answers there, and nothing may be asked before a start.
      await writeFile(
        kubeconfig,
        [
          'apiVersion: v1',
          'kind: Config',
          'clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]',
          'users: [{name: u, user: {token: t}}]',
          'contexts: [{name: ci, context: {cluster: c, user: u, namespace: evalrig}}]',
          'current-context: ci',
          '',
        ].join('\n'),
      );
      process.env.KUBECONFIG = kubeconfig;
    });
    after(async () => {
      if (saved === undefined) delete process.env.KUBECONFIG;
      else process.env.KUBECONFIG = saved;
      await rm(dir, { recursive: true, force: true });
    });

    it('serves k8s:// and kubeconfig paths, with no Docker client and nothing dialled', async () => {
      for (const spec of ['k8s://ci', `k8s://${kubeconfig}`, kubeconfig]) {
        const address = engineAddress(spec);
        const connected = await connectProvider({ engines: [{ address, mounts: false }], jobs: 1 });
        expect(connected.sandboxes, spec).to.be.instanceOf(KubernetesProvider);
        expect(connected.sandboxes.name).to.equal(spec);
        expect(connected.client).to.equal(undefined);
      }
    });

    it('refuses a context the kubeconfig lacks with a SandboxError naming the address', async () => {
      const address = engineAddress('k8s://no-such-cluster');
      const error = await connectProvider({ engines: [{ address, mounts: false }], jobs: 1 }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(SandboxError);
      expect((error as Error).message).to.equal(
        'sandbox on k8s://no-such-cluster: connect failed: kubeconfig has no context named no-such-cluster',
      );
    });
  });

  it('hands a registered scheme to its factory, nothing pinged before', async () => {
    const asked: string[] = [];
    const sandboxes = { name: 'cluster' } as unknown as SandboxProvider;
    const unregister = registerProvider('k8s', (choice) => {
      asked.push(choice.engines![0]!.address.name);
      return Promise.resolve({ sandboxes });
    });
    try {
      const address = engineAddress('k8s://kind-evalrig');
      const connected = await connectProvider({ engines: [{ address, mounts: false }], jobs: 2 });
      expect(connected.sandboxes).to.equal(sandboxes);
      expect(connected.client).to.equal(undefined);
      expect(asked).to.deep.equal(['k8s://kind-evalrig']);
    } finally {
      unregister();
    }
  });
});
