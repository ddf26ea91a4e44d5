/**
 * One connection to a cluster: a kubeconfig (a path, or the default one with
 * a context named by `k8s://<context>`) and the namespace evalrig may use.
 */
import { BatchV1Api, CoreV1Api, KubeConfig, NetworkingV1Api } from '@kubernetes/client-node';

export interface ClusterAddress {
  /** A kubeconfig file; absent: the default lookup (KUBECONFIG, ~/.kube/config). */
  readonly kubeconfig?: string;
  readonly context?: string;
  readonly namespace?: string;
}

export interface Cluster {
  readonly config: KubeConfig;
  readonly namespace: string;
  readonly core: CoreV1Api;
  readonly batch: BatchV1Api;
  readonly networking: NetworkingV1Api;
}

/** A bad engine address or kubeconfig: the message names which. */
export class KubernetesAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KubernetesAddressError';
  }
}

/**
 * `k8s://<context>`, `k8s://<context>/<namespace>`, or a kubeconfig path
 * (`k8s:///path/to/kubeconfig` or a bare path ending in a kubeconfig name).
 */
export function parseClusterAddress(address: string): ClusterAddress {
  if (!address.startsWith('k8s://')) {
    throw new KubernetesAddressError(
      `--engine ${address}: a Kubernetes engine is k8s://<context>[/<namespace>] or k8s:///<kubeconfig path>`,
    );
  }
  const rest = address.slice('k8s://'.length);
  if (rest.startsWith('/')) return { kubeconfig: rest };
  const [context, namespace, ...extra] = rest.split('/');
  if (extra.length > 0 || context === '') {
    throw new KubernetesAddressError(`--engine ${address}: expected k8s://<context>[/<namespace>]`);
  }
  return { context, ...(namespace ? { namespace } : {}) };
}

export function openCluster(address: ClusterAddress): Cluster {
  const config = new KubeConfig();
  try {
    if (address.kubeconfig) config.loadFromFile(address.kubeconfig);
    else config.loadFromDefault();
  } catch (error) {
    throw new KubernetesAddressError(
      `kubeconfig ${address.kubeconfig ?? '(default)'}: ${(error as Error).message}`,
    );
  }
  if (address.context) {
    if (!config.getContextObject(address.context)) {
      throw new KubernetesAddressError(`kubeconfig has no context named ${address.context}`);
    }
    config.setCurrentContext(address.context);
  }
  // The context's own namespace when the address names none: a restricted user has one.
  const namespace =
    address.namespace ??
    config.getContextObject(config.getCurrentContext())?.namespace ??
    'default';
  return {
    config,
    namespace,
    core: config.makeApiClient(CoreV1Api),
    batch: config.makeApiClient(BatchV1Api),
    networking: config.makeApiClient(NetworkingV1Api),
  };
}
