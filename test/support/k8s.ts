/**
 * The test Kubernetes cluster scripts/k8s-cluster.sh runs (`build`, then
 * `start 2`): read from the lines its `env` prints. CI sets EVALRIG_K8S=required,
 * and a missing cluster then fails the test; anywhere else the test is skipped
 * and says why and how to start the cluster.
 */
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
}

export const CLUSTER_SCRIPT = path.resolve(import.meta.dirname, '../../scripts/k8s-cluster.sh');

/** The cluster's description, or why there is none (the script's own message). */
export async function readCluster(): Promise<K8sCluster | string> {
  const result = await execa('bash', [CLUSTER_SCRIPT, 'env'], { reject: false });
  if (result.exitCode !== 0) return result.stderr.trim() || `${CLUSTER_SCRIPT} env failed`;
  const lines = new Map<string, string>();
  for (const line of result.stdout.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) lines.set(line.slice(0, at), line.slice(at + 1));
  }
  const need = (key: string): string => {
    const value = lines.get(key);
    if (value === undefined) throw new Error(`${CLUSTER_SCRIPT} env printed no ${key}`);
    return value;
  };
  return {
    adminKubeconfig: need('EVALRIG_K8S_ADMIN_KUBECONFIG'),
    kubeconfig: need('EVALRIG_K8S_KUBECONFIG'),
    registry: need('EVALRIG_K8S_REGISTRY'),
    namespace: need('EVALRIG_K8S_NAMESPACE'),
    kubectl: need('EVALRIG_K8S_KUBECTL'),
  };
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
