/**
 * The scheme of an engine address, read from its spelling alone (nothing
 * opened or dialled): what picks its provider in registry.ts.
 */

/** The kinds of engine address, each with the provider factory that serves it. */
export type ProviderScheme = 'unix' | 'tcp' | 'ssh' | 'podman' | 'context' | 'k8s';

/** True when a file name looks like a kubeconfig (how kubectl's users name them). */
function isKubeconfig(spec: string): boolean {
  const base = spec.split('/').pop() ?? '';
  return /kubeconfig/iu.test(base) || /\.ya?ml$/iu.test(base) || base === 'config';
}

/**
 * The scheme of one `--engine` value: `k8s://<context>` or a kubeconfig path a
 * cluster; a socket path or URL naming podman Podman's; `unix://`, `tcp://`,
 * `ssh://` as written; any other word a Docker context.
 *
 * @example schemeOf('k8s://kind-evalrig') // 'k8s'
 */
export function schemeOf(spec: string): ProviderScheme {
  const value = spec.trim();
  if (value.startsWith('k8s://')) return 'k8s';
  if (value.startsWith('/') && isKubeconfig(value)) return 'k8s';
  if (/podman/iu.test(value) && (value.startsWith('/') || /^(unix|ssh):\/\//u.test(value)))
    return 'podman';
  if (value.startsWith('/') || value.startsWith('unix://')) return 'unix';
  if (value.startsWith('tcp://')) return 'tcp';
  if (value.startsWith('ssh://')) return 'ssh';
  return 'context';
}
