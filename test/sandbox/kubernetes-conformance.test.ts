/**
 * The sandbox conformance suite against the real test cluster (test/support/k8s.ts):
 * KubernetesProvider starts each sandbox as a Job's pod, the base image pushed to the
 * cluster's registry and run by digest. Every object carries this run's own session
 * label, and only that label is swept: another run may share the cluster. Images are
 * built on the machine's own engine and pushed to the cluster's registry.
 */
import { connectDocker } from '../../src/runtime/index.js';
import { LABELS } from '../../src/sandbox/index.js';
import { KubernetesProvider, openCluster } from '../../src/sandbox/kubernetes/index.js';
import { BASE_IMAGE } from '../support/docker.js';
import { pushToRegistry, requireCluster, type K8sCluster } from '../support/k8s.js';
import { sandboxConformance } from './conformance.js';

describe('kubernetes provider', function () {
  // Pods end through the kubelet, and the suite starts a dozen of them.
  this.timeout(300_000);
  let env: K8sCluster;
  // Here, not in the target: a skip in this suite's own hook skips the suite within.
  before(async function () {
    env = await requireCluster(this);
  });

  sandboxConformance('kubernetes', async () => {
    const cluster = openCluster({ kubeconfig: env.kubeconfig, namespace: env.namespace });
    const labels = { [LABELS.session]: `kconf-${process.pid}-${Date.now().toString(36)}` };
    const name = `k8s://${env.kubeconfig}`;
    // Images are built on this machine's engine and pushed to the registry the nodes pull from.
    const builder = { client: connectDocker(), registry: env.registry };
    return {
      provider: new KubernetesProvider({ cluster, name, labels, builder }),
      image: pushToRegistry(BASE_IMAGE, env.registry),
      labels,
      another: (session) => new KubernetesProvider({ cluster, name, labels: session }),
      onlyExecUser: true,
    };
  });
});
