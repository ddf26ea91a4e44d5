/**
 * The provider a campaign starts its runs' sandboxes from, made from what the
 * command line named: the engines (`--engine`), or the one of DOCKER_HOST.
 * The first engine's scheme picks the factory (registry.ts) before anything
 * is dialled. A Docker provider owns its engines' side of the campaign: a
 * session label of its own on every container (its reapers remove by it), one
 * creation gate (a signal closes it), a fresh health per engine, and its slots.
 */
import { randomBytes } from 'node:crypto';
import {
  CreationGate,
  EngineHealth,
  LABELS,
  connectDocker,
  pingDocker,
  type DockerClient,
} from '../runtime/index.js';
import { enginePoolOf } from './engine-pool.js';
import { SandboxError } from './errors.js';
import { connectEngine } from './engines.js';
import { LocalDockerProvider } from './docker/index.js';
import {
  providerFactoryOf,
  registerProvider,
  schemeOf,
  type ConnectedProvider,
  type ProviderChoice,
} from './registry.js';

export type { ConnectedProvider, ProviderChoice } from './registry.js';

/**
 * Reaches the first Docker engine (a clear error when it does not answer) and
 * makes the provider over every engine named: today's one engine with its
 * folders mounted, else a pool (several engines, or one that cannot see the host's disk).
 */
async function connectDockerProvider(choice: ProviderChoice): Promise<ConnectedProvider> {
  const engines = choice.engines ?? [];
  const first = engines[0];
  if (choice.imageRegistry) {
    throw new SandboxError(
      first?.address.name ?? 'docker',
      'connect',
      '--image-registry is for a Kubernetes engine: a Docker engine builds and runs its images itself',
    );
  }
  const base = choice.client ?? (first ? connectEngine(first.address) : connectDocker());
  await pingDocker(base);
  const session = randomBytes(8).toString('hex');
  const client: DockerClient = {
    ...base,
    health: new EngineHealth(),
    gate: new CreationGate(),
    labels: { ...base.labels, [LABELS.session]: session },
  };
  const spread = engines.length > 1 || (engines.length === 1 && !first!.mounts);
  const sandboxes =
    choice.custom?.(client) ??
    (spread ? enginePoolOf(client, engines, choice.jobs) : new LocalDockerProvider(client));
  return { sandboxes, client, capacity: () => client.docker.info() };
}

// Podman and Docker contexts speak Docker's API: one factory serves them all.
for (const scheme of ['unix', 'tcp', 'ssh', 'podman', 'context'] as const)
  registerProvider(scheme, connectDockerProvider);

// Loaded when a cluster is named, not before: a Docker campaign never loads the cluster client.
registerProvider('k8s', async (choice) =>
  (await import('./kubernetes/connect.js')).connectKubernetesProvider(choice),
);

/** `evalrig doctor` on a cluster, loaded as lazily as its provider. */
export async function examineClusterEngine(where: string): Promise<{ text: string; fix?: string }> {
  const doctor = await import('./kubernetes/doctor.js');
  const exam = await doctor.examineClusterAt(where);
  return { text: doctor.formatClusterExamination(exam), ...(exam.fix ? { fix: exam.fix } : {}) };
}

/**
 * The provider for the engines named, from the factory the first one's scheme
 * registered (DOCKER_HOST's engine when none is named, or a client is given).
 *
 * @example
 * const { sandboxes } = await connectProvider({ jobs: 2 });
 * await sandboxes.open();
 * try { ... } finally { await sandboxes.close(); }
 */
export async function connectProvider(choice: ProviderChoice): Promise<ConnectedProvider> {
  const first = choice.engines?.[0];
  if (!first || choice.client) return connectDockerProvider(choice);
  return providerFactoryOf(schemeOf(first.address.where), first.address.name)(choice);
}
