/**
 * The reaper's {@link KubernetesObjects} over the cluster's API (client-node). main.ts loads
 * this module only for a cluster's reaper, so a Docker engine's reaper never evaluates the
 * client. The kubeconfig is read when this is made, at the reaper's start: the orchestrator
 * (or its user) may remove the file once it has ended.
 */
import { BatchV1Api, CoreV1Api, KubeConfig, NetworkingV1Api } from '@kubernetes/client-node';
import type { ReaperKubernetes } from './config.js';
import type { KubernetesKind, KubernetesObjects } from './kubernetes.js';

interface Named {
  readonly items: readonly { readonly metadata?: { readonly name?: string } }[];
}

/** The kind's list and delete calls in one namespace. */
interface KindCalls {
  list(labelSelector: string): Promise<Named>;
  remove(name: string): Promise<unknown>;
}

/** The longest a call may take: client-node's have no bound, and the rounds' bound is checked between them. */
const CALL_MS = 5000;

/** `call`, or an Error once {@link CALL_MS} have passed (an API server that never answers). */
async function bounded<T>(call: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), CALL_MS);
  });
  try {
    return await Promise.race([call, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The cluster's configuration as the orchestrator named it; throws naming what is wrong. */
export function kubeConfigOf(cfg: ReaperKubernetes): KubeConfig {
  const config = new KubeConfig();
  if (cfg.kubeconfig) config.loadFromFile(cfg.kubeconfig);
  else config.loadFromDefault();
  if (cfg.context) {
    if (!config.getContextObject(cfg.context))
      throw new Error(`reaper: the kubeconfig has no context named ${cfg.context}`);
    config.setCurrentContext(cfg.context);
  }
  return config;
}

export function kubernetesObjects(cfg: ReaperKubernetes): KubernetesObjects {
  const config = kubeConfigOf(cfg);
  const core = config.makeApiClient(CoreV1Api);
  const batch = config.makeApiClient(BatchV1Api);
  const networking = config.makeApiClient(NetworkingV1Api);
  const namespace = cfg.namespace;
  // Background: the owner goes at once and the garbage collector takes its pods; a pod goes
  // with no grace (its agent is not asked to stop: the orchestrator that wanted it is gone).
  const now = { propagationPolicy: 'Background', gracePeriodSeconds: 0 };
  const calls: Record<KubernetesKind, KindCalls> = {
    jobs: {
      list: (labelSelector) => batch.listNamespacedJob({ namespace, labelSelector }),
      remove: (name) => batch.deleteNamespacedJob({ namespace, name, ...now }),
    },
    pods: {
      list: (labelSelector) => core.listNamespacedPod({ namespace, labelSelector }),
      remove: (name) => core.deleteNamespacedPod({ namespace, name, ...now }),
    },
    networkpolicies: {
      list: (labelSelector) => networking.listNamespacedNetworkPolicy({ namespace, labelSelector }),
      remove: (name) => networking.deleteNamespacedNetworkPolicy({ namespace, name }),
    },
    configmaps: {
      list: (labelSelector) => core.listNamespacedConfigMap({ namespace, labelSelector }),
      remove: (name) =>
        core.deleteNamespacedConfigMap({ namespace, name, propagationPolicy: 'Background' }),
    },
  };
  return {
    async list(kind, selector) {
      const listed = await bounded(calls[kind].list(selector));
      return listed.items.flatMap((o) => (o.metadata?.name ? [o.metadata.name] : []));
    },
    async remove(kind, name) {
      try {
        await bounded(calls[kind].remove(name));
      } catch (error) {
        // Another sweeper, the garbage collector or the TTL got there first.
        if ((error as { code?: number }).code !== 404) throw error;
      }
    },
  };
}
