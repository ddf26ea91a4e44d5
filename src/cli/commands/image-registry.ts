/**
 * `--image-registry host:port`: where a campaign on a Kubernetes engine pushes
 * the images it builds (on this machine's Docker engine) for the nodes to
 * pull by digest. Only a cluster pulls from a registry: with any other engine
 * the flag is refused, not ignored.
 */
import { InputError } from '../../errors/index.js';
import { schemeOf, type EngineChoice } from '../../sandbox/index.js';

const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])$/u;

/** The flag's value, checked: `host:port` (a name, an IPv4 address or a bracketed IPv6 one). */
export function imageRegistryFlag(value: string): string {
  const at = value.lastIndexOf(':');
  const host = value.slice(0, at);
  const port = value.slice(at + 1);
  const n = Number(port);
  if (at < 1 || !HOST.test(host) || !/^\d{1,5}$/u.test(port) || n < 1 || n > 65535) {
    throw new InputError(
      `--image-registry must be host:port (the registry the cluster's nodes pull from, e.g. 127.0.0.1:5000), got "${value}"`,
    );
  }
  return value;
}

/** The registry, when the engines are one cluster; the flag with any other engine is refused. */
export function imageRegistryFor(
  engines: readonly EngineChoice[] | undefined,
  registry: string | undefined,
): string | undefined {
  if (registry === undefined) return undefined;
  const cluster = engines?.length === 1 && schemeOf(engines[0]!.address.where) === 'k8s';
  if (!cluster) {
    const named = engines?.length
      ? engines.map((e) => e.address.name).join(', ')
      : 'the local Docker engine';
    throw new InputError(
      `--image-registry is for a Kubernetes engine (--engine k8s://<context> or a kubeconfig path); ${named} builds and runs its images itself`,
    );
  }
  return registry;
}
