/**
 * The deny-all NetworkPolicy: every pod evalrig labels gets no ingress and no
 * egress. Whether the cluster enforces it is a property of its network plugin
 * (see doctor.ts, which probes it), so it is one wall, not the only one.
 */
import type { V1NetworkPolicy } from '@kubernetes/client-node';
import { LABELS } from '../../seam/index.js';
import type { Cluster } from './cluster.js';

export const DENY_ALL_NAME = 'evalrig-deny-all';

export function buildDenyAll(
  namespace: string,
  labels: Readonly<Record<string, string>>,
): V1NetworkPolicy {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: DENY_ALL_NAME, namespace, labels: { ...labels, [LABELS.managed]: 'true' } },
    spec: {
      podSelector: { matchLabels: { [LABELS.managed]: 'true' } },
      policyTypes: ['Ingress', 'Egress'],
      // No rules: nothing in, nothing out.
      ingress: [],
      egress: [],
    },
  };
}

/** Creates the policy unless one of that name is there already (another session's). */
export async function ensureDenyAll(
  cluster: Cluster,
  labels: Readonly<Record<string, string>>,
): Promise<void> {
  try {
    await cluster.networking.createNamespacedNetworkPolicy({
      namespace: cluster.namespace,
      body: buildDenyAll(cluster.namespace, labels),
    });
  } catch (error) {
    if ((error as { code?: number }).code !== 409) throw error;
  }
}
