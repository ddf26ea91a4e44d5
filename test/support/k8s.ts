/**
 * The test Kubernetes cluster scripts/k8s-cluster.sh runs (`build`, then
 * `start 2`): the one reader of it for every test. Its EVALRIG_K8S_* variables
 * when the environment sets them (CI, a child process), else the lines the
 * script's `env` prints. CI sets EVALRIG_K8S=required, and a missing cluster
 * then fails the test; anywhere else the test is skipped and says why and how
 * to start the cluster.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Context } from 'mocha';
import { execa } from 'execa';

export interface K8sCluster {
  /** system:masters: for the checks a test makes as the host. */
  readonly adminKubeconfig: string;
  /** The restricted user, bound to docs/k8s/evalrig-role.yaml in `namespace` only. */
  readonly kubeconfig: string;
  /** 127.0.0.1:PORT: the loopback registry the nodes pull from. */
  readonly registry: string;
  readonly namespace: string;
  /** The kubectl built with the cluster (its version matches the cluster's). */
  readonly kubectl: string;
  /** The script's state folder: each process's `<name>.pid` (a fault test kills a kubelet by it). */
  readonly state: string;
}

export const CLUSTER_SCRIPT = path.resolve(import.meta.dirname, '../../scripts/k8s-cluster.sh');

const KEYS = {
  adminKubeconfig: 'EVALRIG_K8S_ADMIN_KUBECONFIG',
  kubeconfig: 'EVALRIG_K8S_KUBECONFIG',
  registry: 'EVALRIG_K8S_REGISTRY',
  namespace: 'EVALRIG_K8S_NAMESPACE',
  kubectl: 'EVALRIG_K8S_KUBECTL',
  state: 'EVALRIG_K8S_STATE',
} as const;

/** `NAME=value` lines (an optional `export `, quotes stripped). */
export function parseEnvLines(text: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^\s*(?:export\s+)?([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line);
    if (match) found[match[1]!] = match[2]!.trim().replace(/^(['"])(.*)\1$/, '$2');
  }
  return found;
}

function fromLines(vars: Readonly<Record<string, string | undefined>>): K8sCluster | string {
  const missing = Object.values(KEYS).filter((key) => !vars[key]);
  if (missing.length > 0) return `no ${missing.join(', ')}`;
  return Object.fromEntries(
    Object.entries(KEYS).map(([field, key]) => [field, vars[key]!]),
  ) as unknown as K8sCluster;
}

/** The cluster's description, or why there is none (the script's own message). */
export async function readCluster(): Promise<K8sCluster | string> {
  // Set in the environment: a caller (CI, a test's child process) already read the script.
  if (process.env[KEYS.kubeconfig]) return fromLines(process.env);
  const result = await execa('bash', [CLUSTER_SCRIPT, 'env'], { reject: false });
  if (result.exitCode !== 0) return result.stderr.trim() || `${CLUSTER_SCRIPT} env failed`;
  const found = fromLines(parseEnvLines(result.stdout));
  return typeof found === 'string' ? `${CLUSTER_SCRIPT} env printed ${found}` : found;
}

/**
 * A `before` hook's step: the running cluster. Without one the test fails when
 * EVALRIG_K8S=required (CI), and is skipped elsewhere, printing why.
 */
export async function requireCluster(context: Context): Promise<K8sCluster> {
  const cluster = await readCluster();
  if (typeof cluster !== 'string') return cluster;
  const how = `start one with: bash scripts/k8s-cluster.sh build && bash scripts/k8s-cluster.sh start 2`;
  if (process.env.EVALRIG_K8S === 'required') {
    throw new Error(`EVALRIG_K8S=required but no test cluster runs (${cluster}); ${how}`);
  }
  console.log(`    skipped: no test Kubernetes cluster (${cluster}); ${how}`);
  context.skip();
}

/** The cluster's variables, for a child process that must reach the same cluster. */
export function clusterEnv(cluster: K8sCluster): Record<string, string> {
  return Object.fromEntries(
    Object.entries(KEYS).map(([field, key]) => [key, cluster[field as keyof K8sCluster]]),
  );
}

/** kubectl as one of the cluster's users; never throws, the test reads the result. */
export function kubectl(
  cluster: K8sCluster,
  kubeconfig: string,
  args: readonly string[],
  input?: string,
): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  return execa(cluster.kubectl, [`--kubeconfig=${kubeconfig}`, ...args], {
    reject: false,
    input,
  }).then((r) => ({ exitCode: r.exitCode ?? -1, stdout: r.stdout, stderr: r.stderr }));
}

/**
 * The local image pushed to the test registry; returns its `registry/name@sha256:…`,
 * as the provider always runs images by digest.
 */
export function pushToRegistry(image: string, registry: string): string {
  const target = `${registry}/${image.replace(/:.*$/, '')}:test`;
  execFileSync('docker', ['tag', image, target]);
  execFileSync('docker', ['push', '--quiet', target], { stdio: ['ignore', 'ignore', 'pipe'] });
  const digests = execFileSync('docker', ['inspect', '--format', '{{json .RepoDigests}}', target], {
    encoding: 'utf8',
  });
  const byDigest = (JSON.parse(digests) as string[]).find((d) => d.startsWith(`${registry}/`));
  if (!byDigest) throw new Error(`${target}: pushed, but docker reports no digest for ${registry}`);
  return byDigest;
}
