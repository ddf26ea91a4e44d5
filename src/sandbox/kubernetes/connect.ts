/**
 * The `k8s` scheme's provider factory (registry.ts): a campaign's `--engine
 * k8s://…` (or a kubeconfig path) becomes a KubernetesProvider with a session
 * label of its own. Nothing of Docker's is dialled or pinged.
 */
import { randomBytes } from 'node:crypto';
import { connectDocker, startClusterReaper } from '../../runtime/index.js';
import { LABELS } from '../../seam/index.js';
import { SandboxError } from '../errors.js';
import type { ConnectedProvider, ProviderChoice } from '../registry.js';
import type { OpenOptions } from '../types.js';
import {
  KubernetesAddressError,
  openCluster,
  parseClusterAddress,
  type ClusterAddress,
} from './cluster.js';
import { KubernetesProvider } from './provider.js';
import { labelSelector } from './sweep.js';

/** `k8s://…` as cluster.ts reads it; a bare kubeconfig path (schemeOf's other spelling) as itself. */
export function clusterAddressOf(where: string): ClusterAddress {
  return where.startsWith('/') ? { kubeconfig: where } : parseClusterAddress(where);
}

export async function connectKubernetesProvider(
  choice: ProviderChoice,
): Promise<ConnectedProvider> {
  const engines = choice.engines ?? [];
  const name = engines[0]!.address.name;
  if (engines.length > 1) {
    throw new SandboxError(
      name,
      'connect',
      'a cluster is the only engine of its campaign: name it alone',
    );
  }
  try {
    const address = clusterAddressOf(engines[0]!.address.where);
    const cluster = openCluster(address);
    const labels = { [LABELS.session]: randomBytes(8).toString('hex') };
    // The session's reaper, on the same file, context and namespace as the provider.
    const at = {
      ...address,
      context: cluster.config.getCurrentContext() || undefined,
      namespace: cluster.namespace,
    };
    const reaper = ({ scratch }: OpenOptions) =>
      startClusterReaper(at, labelSelector(labels).split(','), { scratch });
    // Images are built on the machine's own engine (DOCKER_HOST's) and pushed for the nodes.
    const builder = choice.imageRegistry
      ? { client: connectDocker(), registry: choice.imageRegistry }
      : undefined;
    return {
      sandboxes: new KubernetesProvider({
        cluster,
        name,
        labels,
        reaper,
        ...(builder ? { builder } : {}),
      }),
    };
  } catch (error) {
    if (error instanceof KubernetesAddressError)
      throw new SandboxError(name, 'connect', error.message);
    throw error;
  }
}
