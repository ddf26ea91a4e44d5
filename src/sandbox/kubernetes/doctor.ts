/**
 * `evalrig doctor --engine k8s://…`: what the cluster lets evalrig do, and
 * which isolation holds there, each line from the API server's own answer.
 * The hardening is checked by a server-side dry run of a run's Job: an
 * admission step that strips a line (a webhook, a policy engine) shows in
 * what comes back, not in what evalrig sent. Nothing is created.
 */
import {
  AuthorizationV1Api,
  NodeV1Api,
  VersionApi,
  type V1Job,
  type V1NetworkPolicy,
} from '@kubernetes/client-node';
import { KubernetesAddressError, openCluster, type Cluster } from './cluster.js';
import { clusterAddressOf } from './connect.js';
import { buildJob } from './job-spec.js';
import { buildDenyAll } from './network-policy.js';

export interface ClusterExamination {
  readonly address: string;
  readonly lines: readonly string[];
  /** The first thing to fix; absent when a campaign can run here. */
  readonly fix?: string;
}

/** What a run needs, as the Role in docs/k8s/evalrig-role.yaml grants it. */
const NEEDED = [
  { group: 'batch', resource: 'jobs', verb: 'create' },
  { group: '', resource: 'pods', verb: 'list' },
  { group: '', resource: 'pods', subresource: 'exec', verb: 'create' },
  { group: '', resource: 'configmaps', verb: 'create' },
  { group: 'networking.k8s.io', resource: 'networkpolicies', verb: 'create' },
] as const;

function reasonOf(error: unknown): string {
  const e = error as { code?: number; body?: unknown; message?: string };
  let message = e.message ?? String(error);
  try {
    const body = (typeof e.body === 'string' ? JSON.parse(e.body) : e.body) as { message?: string };
    message = body?.message ?? message;
  } catch {
    // A body that is not JSON: the client's own message stays.
  }
  return e.code ? `${e.code}: ${message}` : message;
}

async function missingAccess(cluster: Cluster): Promise<string[]> {
  const auth = cluster.config.makeApiClient(AuthorizationV1Api);
  const missing: string[] = [];
  for (const need of NEEDED) {
    const review = await auth.createSelfSubjectAccessReview({
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectAccessReview',
        spec: { resourceAttributes: { namespace: cluster.namespace, ...need } },
      },
    });
    const name = 'subresource' in need ? `${need.resource}/${need.subresource}` : need.resource;
    if (!review.status?.allowed) missing.push(`${need.verb} ${name}`);
  }
  return missing;
}

/** A run's Job, as evalrig would send it, for the dry run. */
function probeJob(namespace: string): V1Job {
  return buildJob({
    name: 'evalrig-doctor-probe',
    namespace,
    image: 'evalrig-doctor@sha256:' + '0'.repeat(64),
    labels: { 'evalrig.doctor': 'probe' },
    runKey: 'doctor',
    anchor: { name: 'evalrig-doctor-probe', uid: '00000000-0000-0000-0000-000000000000' },
    uid: 1000,
    gid: 1000,
    workingDir: '/workspace',
    env: {},
    cpus: 1,
    memoryBytes: 256 * 1024 * 1024,
    diskBytes: 1024 * 1024 * 1024,
    activeDeadlineSeconds: 60,
    ttlSecondsAfterFinished: 60,
    command: ['sh'],
    folders: [{ name: 'workspace', path: '/workspace', sizeBytes: 1024 * 1024 }],
  });
}

/** The hardening lines the stored pod template lost on its way in (empty: all held). */
export function strippedHardening(stored: V1Job): string[] {
  const pod = stored.spec?.template.spec;
  const box = pod?.containers[0]?.securityContext;
  const lost: string[] = [];
  if (pod?.automountServiceAccountToken !== false) lost.push('no service-account token');
  if (pod?.enableServiceLinks !== false) lost.push('no service links');
  if (pod?.dnsPolicy !== 'None') lost.push('no DNS');
  if (box?.runAsNonRoot !== true || box.runAsUser !== 1000) lost.push('uid 1000, not root');
  if (box?.allowPrivilegeEscalation !== false) lost.push('no privilege escalation');
  if (box?.readOnlyRootFilesystem !== true) lost.push('read-only root');
  if (!box?.capabilities?.drop?.includes('ALL') || (box.capabilities.add ?? []).length > 0)
    lost.push('no capabilities');
  return lost;
}

async function dryRun(cluster: Cluster): Promise<{ job: string; policy: string }> {
  const namespace = cluster.namespace;
  let job: string;
  try {
    const stored = await cluster.batch.createNamespacedJob({
      namespace,
      body: probeJob(namespace),
      dryRun: 'All',
    });
    const lost = strippedHardening(stored);
    job =
      lost.length === 0
        ? 'holds (a dry run of a run’s Job came back whole): uid 1000, no capabilities, no privilege escalation, read-only root, no token, no service links, no DNS'
        : `NOT whole: the cluster's admission removed ${lost.join(', ')}`;
  } catch (error) {
    job = `unknown: the dry run of a run's Job was refused (${reasonOf(error)})`;
  }
  const unenforced =
    'whether it is enforced is the network plugin’s, which the API does not say: evalrig counts only on the pod lines above';
  let policy: string;
  try {
    const body: V1NetworkPolicy = buildDenyAll(namespace, {});
    await cluster.networking.createNamespacedNetworkPolicy({ namespace, body, dryRun: 'All' });
    policy = `the deny-all policy is accepted; ${unenforced}`;
  } catch (error) {
    // 409: an earlier campaign made it (it is shared by the namespace's runs).
    policy =
      (error as { code?: number }).code === 409
        ? `the deny-all policy is in place; ${unenforced}`
        : `refused (${reasonOf(error)}): runs keep only the pod lines above`;
  }
  return { job, policy };
}

async function runtimeClasses(cluster: Cluster): Promise<string> {
  try {
    const list = await cluster.config.makeApiClient(NodeV1Api).listRuntimeClass();
    const names = list.items.map((r) => `${r.metadata?.name} (${r.handler})`);
    return names.length ? names.join(', ') : 'none: pods run on the nodes’ default runtime';
  } catch (error) {
    return `not readable by this user (${reasonOf(error)})`;
  }
}

/** Examines one cluster; every failure is a line, the first blocking one the fix. */
export async function examineCluster(
  address: string,
  cluster: Cluster,
): Promise<ClusterExamination> {
  let version: string;
  try {
    const v = await cluster.config.makeApiClient(VersionApi).getCode();
    version = `Kubernetes ${v.gitVersion} at ${cluster.config.getCurrentCluster()?.server}`;
  } catch (error) {
    const fix = `${address}: the API server does not answer (${reasonOf(error)})`;
    return { address, lines: [fix], fix };
  }
  const lines = [version, `namespace: ${cluster.namespace}`];
  const missing = await missingAccess(cluster);
  const fix = missing.length
    ? `${address}: this user may not ${missing.join(', ')} in namespace ${cluster.namespace}: apply docs/k8s/evalrig-role.yaml and bind it`
    : undefined;
  lines.push(
    missing.length ? `access: missing ${missing.join(', ')}` : 'access: every call a run needs',
  );
  const { job, policy } = await dryRun(cluster);
  lines.push(`pod hardening: ${job}`, `network policy: ${policy}`);
  lines.push(`runtime classes: ${await runtimeClasses(cluster)}`);
  return { address, lines, ...(fix ? { fix } : {}) };
}

/** Opens the cluster an `--engine` value names and examines it; a bad address is the fix. */
export async function examineClusterAt(where: string): Promise<ClusterExamination> {
  let cluster: Cluster;
  try {
    cluster = openCluster(clusterAddressOf(where));
  } catch (error) {
    if (!(error instanceof KubernetesAddressError)) throw error;
    return { address: where, lines: [error.message], fix: error.message };
  }
  return examineCluster(where, cluster);
}

export function formatClusterExamination(e: ClusterExamination): string {
  return [`engine ${e.address}`, ...e.lines.map((l) => `  ${l}`)].join('\n');
}
