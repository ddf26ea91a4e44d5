/**
 * The test cluster, as its builder announced it: the EVALRIG_K8S_* variables,
 * or, when they are absent, the lines of /tmp/k8s-cluster-ready (or those its
 * SCRIPT prints with `env`). EVALRIG_K8S=required makes a missing cluster a
 * failure instead of a skip.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

export interface K8sEnv {
  /** The restricted user's kubeconfig: one namespace, what evalrig runs as. */
  readonly kubeconfig: string;
  readonly adminKubeconfig?: string;
  /** 127.0.0.1:PORT: the nodes pull from it. */
  readonly registry: string;
  readonly namespace: string;
}

const READY_FILE = process.env.EVALRIG_K8S_READY_FILE ?? '/tmp/k8s-cluster-ready';

/** `NAME=value` lines (an optional `export `, quotes stripped). */
export function parseEnvLines(text: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^\s*(?:export\s+)?([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line);
    if (match) found[match[1]!] = match[2]!.trim().replace(/^(['"])(.*)\1$/, '$2');
  }
  return found;
}

function announced(): Record<string, string> {
  const vars: Record<string, string> = {};
  if (existsSync(READY_FILE)) Object.assign(vars, parseEnvLines(readFileSync(READY_FILE, 'utf8')));
  const script = process.env.EVALRIG_K8S_SCRIPT ?? vars.SCRIPT;
  if (!vars.EVALRIG_K8S_KUBECONFIG && script && existsSync(script)) {
    Object.assign(vars, parseEnvLines(execFileSync('bash', [script, 'env'], { encoding: 'utf8' })));
  }
  for (const [k, v] of Object.entries(process.env))
    if (k.startsWith('EVALRIG_K8S_') && v) vars[k] = v;
  return vars;
}

/** The cluster, or why there is none (a sentence for the skip or the failure). */
export function k8sEnv(): K8sEnv | string {
  const vars = announced();
  const missing = [
    'EVALRIG_K8S_KUBECONFIG',
    'EVALRIG_K8S_REGISTRY',
    'EVALRIG_K8S_NAMESPACE',
  ].filter((k) => !vars[k]);
  if (missing.length > 0) {
    return `no Kubernetes test cluster: ${missing.join(', ')} unset and ${READY_FILE} does not name them`;
  }
  return {
    kubeconfig: vars.EVALRIG_K8S_KUBECONFIG!,
    ...(vars.EVALRIG_K8S_ADMIN_KUBECONFIG
      ? { adminKubeconfig: vars.EVALRIG_K8S_ADMIN_KUBECONFIG }
      : {}),
    registry: vars.EVALRIG_K8S_REGISTRY!,
    namespace: vars.EVALRIG_K8S_NAMESPACE!,
  };
}

/** True when a missing cluster must fail the tests (CI that builds one). */
export function k8sRequired(): boolean {
  return process.env.EVALRIG_K8S === 'required';
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
