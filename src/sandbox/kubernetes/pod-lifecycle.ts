/**
 * A run's Job from creation to its pod running, and its removal. The anchor
 * ConfigMap is made once per session: every Job names it as owner, so the
 * cluster's garbage collector removes the session's Jobs once it is gone.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Cluster } from './cluster.js';
import { buildAnchor, buildJob, type JobSpecInput } from './job-spec.js';

/** The pod did not come up: the message says what the cluster said (pull, schedule, crash). */
export class PodStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PodStartError';
  }
}

/** The anchor's uid, created when missing (another process of the session may race: 409 is fine). */
export async function ensureAnchor(
  cluster: Cluster,
  name: string,
  labels: Readonly<Record<string, string>>,
): Promise<{ name: string; uid: string }> {
  try {
    const made = await cluster.core.createNamespacedConfigMap({
      namespace: cluster.namespace,
      body: buildAnchor(name, cluster.namespace, labels),
    });
    return { name, uid: made.metadata!.uid! };
  } catch (error) {
    if ((error as { code?: number }).code !== 409) throw error;
  }
  const found = await cluster.core.readNamespacedConfigMap({ namespace: cluster.namespace, name });
  return { name, uid: found.metadata!.uid! };
}

/** Why a pod that is not running will not run: a waiting reason that never clears by itself. */
function stuckReason(pod: V1Pod): string | undefined {
  if (pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded') {
    return `pod ${pod.metadata?.name} ended (${pod.status.phase}) before it was used`;
  }
  for (const status of pod.status?.containerStatuses ?? []) {
    const reason = status.state?.waiting?.reason;
    if (
      reason &&
      [
        'ErrImagePull',
        'ImagePullBackOff',
        'InvalidImageName',
        'CreateContainerConfigError',
        'CreateContainerError',
      ].includes(reason)
    ) {
      return `pod ${pod.metadata?.name}: ${reason}: ${status.state?.waiting?.message ?? ''}`.trim();
    }
  }
  // Unschedulable for want of CPU or memory clears as other pods end: waited on, not stuck.
  const unschedulable = unschedulableReason(pod);
  return unschedulable && !/Insufficient/u.test(unschedulable) ? unschedulable : undefined;
}

function unschedulableReason(pod: V1Pod): string | undefined {
  const condition = pod.status?.conditions?.find(
    (c) => c.type === 'PodScheduled' && c.reason === 'Unschedulable',
  );
  return condition
    ? `pod ${pod.metadata?.name} cannot be scheduled: ${condition.message}`
    : undefined;
}

/** A run's pod, running, and the node it runs on. */
export interface StartedPod {
  readonly name: string;
  readonly node: string;
}

/** Creates the Job and waits for its one pod to run. */
export async function startJobPod(
  cluster: Cluster,
  input: Omit<JobSpecInput, 'namespace'>,
  timeoutMs = 120_000,
): Promise<StartedPod> {
  await cluster.batch.createNamespacedJob({
    namespace: cluster.namespace,
    body: buildJob({ ...input, namespace: cluster.namespace }),
  });
  const deadline = Date.now() + timeoutMs;
  let waiting: string | undefined;
  // Polled, not watched: a watch over a restricted user's namespace needs the same
  // rights and one more connection to keep alive, for a wait of a few seconds.
  for (let wait = 100; Date.now() < deadline; wait = Math.min(wait * 2, 1000)) {
    const pods = await cluster.core.listNamespacedPod({
      namespace: cluster.namespace,
      labelSelector: `job-name=${input.name}`,
    });
    const pod = pods.items[0];
    if (pod) {
      const running = pod.status?.containerStatuses?.every((s) => s.ready || s.state?.running);
      if (pod.status?.phase === 'Running' && running)
        return { name: pod.metadata!.name!, node: pod.spec?.nodeName ?? '' };
      const stuck = stuckReason(pod);
      if (stuck) throw new PodStartError(stuck);
      waiting = unschedulableReason(pod);
    }
    await sleep(wait);
  }
  throw new PodStartError(
    `Job ${input.name}: no running pod within ${timeoutMs} ms${waiting ? ` (${waiting})` : ''}`,
  );
}

/**
 * Deletes the Job and its pod. Idempotent. The pod goes at once (grace 0): its pid 1 ignores
 * SIGTERM, and a pod left to the Job's garbage collection holds its CPU for the grace period.
 */
export async function removeJob(cluster: Cluster, name: string): Promise<void> {
  try {
    await cluster.batch.deleteNamespacedJob({
      namespace: cluster.namespace,
      name,
      propagationPolicy: 'Background',
      gracePeriodSeconds: 0,
    });
  } catch (error) {
    if ((error as { code?: number }).code !== 404) throw error;
  }
  const pods = await cluster.core.listNamespacedPod({
    namespace: cluster.namespace,
    labelSelector: `job-name=${name}`,
  });
  for (const pod of pods.items) {
    await cluster.core
      .deleteNamespacedPod({
        namespace: cluster.namespace,
        name: pod.metadata!.name!,
        gracePeriodSeconds: 0,
      })
      .catch((error: { code?: number }) => {
        if (error.code !== 404) throw error;
      });
  }
}
