/**
 * Which provider an engine address names, read from its scheme alone: nothing
 * is dialled, pinged or parsed as Docker before the choice, so an address no
 * Docker engine answers (a cluster) reaches its own provider untouched.
 */
import { SandboxError } from './errors.js';
import type { EngineChoice } from './engine-pool.js';
import type { DockerClient } from '../runtime/index.js';
import type { ProviderScheme } from './scheme.js';
import type { SandboxProvider } from './types.js';

export { schemeOf, type ProviderScheme } from './scheme.js';

/** What a campaign asks a provider factory for (see connect.ts). */
export interface ProviderChoice {
  /** Engines to spread the runs over, `jobs` on each; the first builds the images. */
  readonly engines?: readonly EngineChoice[];
  /** The first engine's client as given (default: the first engine's, else DOCKER_HOST's). */
  readonly client?: DockerClient;
  /** Sandboxes at once on each engine. */
  readonly jobs: number;
  /** A cluster's registry (`host:port`): images are built on the local engine and pushed there. */
  readonly imageRegistry?: string;
  /** Another provider over the first engine's client (tests record calls through one). */
  readonly custom?: (client: DockerClient) => SandboxProvider;
}

/** What a campaign's engines phase reads of its engines, whatever serves them. */
export interface EngineCapacityInfo {
  readonly NCPU?: unknown;
  readonly MemTotal?: unknown;
}

/** A provider made for one campaign, not opened yet. */
export interface ConnectedProvider {
  readonly sandboxes: SandboxProvider;
  /** The first engine with the provider's session label, gate and health: Docker providers only. */
  readonly client?: DockerClient;
  /**
   * The first engine's CPUs and memory, for a provider whose `describe` says
   * nothing (a custom one): asked of the provider's side, never of Docker by the campaign.
   */
  readonly capacity?: () => Promise<EngineCapacityInfo>;
}

export type ProviderFactory = (choice: ProviderChoice) => Promise<ConnectedProvider>;

const factories = new Map<ProviderScheme, ProviderFactory>();

/**
 * Makes `factory` serve addresses of `scheme` (a later registration replaces an
 * earlier); the returned function puts back what served it before.
 */
export function registerProvider(scheme: ProviderScheme, factory: ProviderFactory): () => void {
  const before = factories.get(scheme);
  factories.set(scheme, factory);
  return () => {
    if (before) factories.set(scheme, before);
    else factories.delete(scheme);
  };
}

/** The factory for `scheme`; a clear SandboxError naming the address when none is built in. */
export function providerFactoryOf(scheme: ProviderScheme, address: string): ProviderFactory {
  const factory = factories.get(scheme);
  if (factory) return factory;
  const what = scheme === 'k8s' ? 'no Kubernetes provider' : `no provider for ${scheme} engines`;
  throw new SandboxError(address, 'connect', `${what} is built into this evalrig`);
}
