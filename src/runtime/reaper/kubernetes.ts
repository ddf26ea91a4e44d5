/**
 * The Kubernetes sweep target's shape: what a reaper removes of a campaign on
 * a cluster, by label, at once (the Jobs' TTL would remove them later anyway).
 * The calls are the Kubernetes provider's to implement; the order is here.
 */
import type { SweepTarget } from './targets.js';

/** The kinds of object a campaign leaves on a cluster, in the order they are removed. */
export const KUBERNETES_SWEEP_ORDER = ['jobs', 'pods', 'networkpolicies', 'configmaps'] as const;

export type KubernetesKind = (typeof KUBERNETES_SWEEP_ORDER)[number];

/** The two calls a sweep needs, in one namespace, implemented over the cluster's API. */
export interface KubernetesObjects {
  /** The names of the objects of `kind` carrying every label of `selector` (`k=v,k=v`). */
  list(kind: KubernetesKind, selector: string): Promise<readonly string[]>;
  /** Deletes one at once, its dependents with it (background propagation). Gone already: fine. */
  remove(kind: KubernetesKind, name: string): Promise<void>;
}

/**
 * Every object carrying all of `labels` (`key=value`), kind by kind: Jobs
 * first (their Pods follow), stray Pods, the run's NetworkPolicies, the
 * campaign's anchor last (what the others' owner references point at).
 */
export function kubernetesTarget(
  objects: KubernetesObjects,
  labels: readonly string[],
): SweepTarget {
  const selector = labels.join(',');
  return {
    name: 'Kubernetes objects',
    async sweep() {
      let found = 0;
      for (const kind of KUBERNETES_SWEEP_ORDER) {
        const names = await objects.list(kind, selector);
        found += names.length;
        await Promise.all(names.map((name) => objects.remove(kind, name)));
      }
      return found;
    },
  };
}
