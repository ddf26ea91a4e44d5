/**
 * The reaper's Kubernetes target: deletes every object evalrig made that
 * carries the given labels. Jobs go with foreground propagation so their pods
 * go too; pods are swept as well, for a Job already gone without them.
 */
import { LABELS } from '../../seam/index.js';
import type { Cluster } from './cluster.js';
import { labelSet } from './names.js';

export interface SweepCount {
  readonly jobs: number;
  readonly pods: number;
  readonly configMaps: number;
  readonly networkPolicies: number;
}

export function labelSelector(labels: Readonly<Record<string, string>>): string {
  return Object.entries(labelSet({ [LABELS.managed]: 'true', ...labels }))
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
}

export async function sweepByLabel(
  cluster: Cluster,
  labels: Readonly<Record<string, string>>,
): Promise<SweepCount> {
  const namespace = cluster.namespace;
  const labelSelectorText = labelSelector(labels);
  const query = { namespace, labelSelector: labelSelectorText };
  const [jobs, pods, configMaps, policies] = await Promise.all([
    cluster.batch.listNamespacedJob(query),
    cluster.core.listNamespacedPod(query),
    cluster.core.listNamespacedConfigMap(query),
    cluster.networking.listNamespacedNetworkPolicy(query),
  ]);
  const gone = { propagationPolicy: 'Background', gracePeriodSeconds: 0 };
  await Promise.all([
    ...jobs.items.map((j) =>
      ignoreMissing(
        cluster.batch.deleteNamespacedJob({ namespace, name: j.metadata!.name!, ...gone }),
      ),
    ),
    ...pods.items.map((p) =>
      ignoreMissing(
        cluster.core.deleteNamespacedPod({ namespace, name: p.metadata!.name!, ...gone }),
      ),
    ),
    ...configMaps.items.map((c) =>
      ignoreMissing(cluster.core.deleteNamespacedConfigMap({ namespace, name: c.metadata!.name! })),
    ),
    ...policies.items.map((n) =>
      ignoreMissing(
        cluster.networking.deleteNamespacedNetworkPolicy({ namespace, name: n.metadata!.name! }),
      ),
    ),
  ]);
  return {
    jobs: jobs.items.length,
    pods: pods.items.length,
    configMaps: configMaps.items.length,
    networkPolicies: policies.items.length,
  };
}

/** Another sweeper (or the cluster's TTL) got there first: the object is gone either way. */
async function ignoreMissing(deletion: Promise<unknown>): Promise<void> {
  try {
    await deletion;
  } catch (error) {
    if ((error as { code?: number }).code !== 404) throw error;
  }
}
