import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { imageRegistryFlag, imageRegistryFor } from '../../../src/cli/commands/image-registry.js';
import { engineChoices } from '../../../src/cli/commands/run.js';
import { InputError } from '../../../src/errors/index.js';
import { KubernetesProvider, openCluster } from '../../../src/sandbox/kubernetes/index.js';
import { LABELS, SandboxError } from '../../../src/sandbox/index.js';

describe('--image-registry', () => {
  it('takes host:port: a name, an IPv4 address, a bracketed IPv6 one', () => {
    for (const ok of ['127.0.0.1:16500', 'registry.local:5000', 'reg:1', '[::1]:5000'])
      expect(imageRegistryFlag(ok)).to.equal(ok);
  });

  it('refuses anything else, naming the flag and the value', () => {
    for (const bad of [
      '127.0.0.1',
      ':5000',
      'host:0',
      'host:65536',
      'host:50x',
      'a b:1',
      'http://h:1',
      'h:1/path',
    ]) {
      expect(() => imageRegistryFlag(bad), bad).to.throw(
        InputError,
        `--image-registry must be host:port (the registry the cluster's nodes pull from, e.g. 127.0.0.1:5000), got "${bad}"`,
      );
    }
  });

  it('goes with one Kubernetes engine; with a Docker one, or none, it is refused', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'evalrig-registry-flag-'));
    try {
      const kubeconfig = path.join(dir, 'kubeconfig');
      await writeFile(kubeconfig, 'apiVersion: v1\nkind: Config\nclusters: []\n');
      expect(imageRegistryFor(engineChoices({ engine: ['k8s://ci'] }), 'r:1')).to.equal('r:1');
      expect(imageRegistryFor(engineChoices({ engine: [kubeconfig] }), 'r:1')).to.equal('r:1');
      expect(imageRegistryFor(engineChoices({ engine: ['k8s://ci'] }), undefined)).to.equal(
        undefined,
      );
      expect(() => imageRegistryFor(engineChoices({ engine: ['tcp://h:2375'] }), 'r:1')).to.throw(
        InputError,
        /^--image-registry is for a Kubernetes engine \(--engine k8s:\/\/<context> or a kubeconfig path\); tcp:\/\/h:2375 builds/,
      );
      expect(() => imageRegistryFor(undefined, 'r:1')).to.throw(
        InputError,
        /the local Docker engine builds and runs its images itself/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a cluster without it, when an image must be built, says to name it', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'evalrig-registry-flag-'));
    const kubeconfig = path.join(dir, 'kubeconfig');
    // Port 1 of loopback: nothing answers, and nothing is asked.
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
    const cluster = openCluster({ kubeconfig, namespace: 'evalrig' });
    await rm(dir, { recursive: true, force: true });
    const provider = new KubernetesProvider({
      cluster,
      name: 'k8s://ci',
      labels: { [LABELS.session]: 's' },
    });
    expect(() => provider.buildImage('the test image', () => Promise.resolve())).to.throw(
      SandboxError,
      /the test image must be built, and a cluster runs images from a registry: name the one its nodes pull from with --image-registry host:port/,
    );
  });
});
