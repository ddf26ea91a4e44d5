/**
 * The provider a campaign starts its runs' sandboxes from, made from what the
 * command line named: the engines (`--engine`), or the one of DOCKER_HOST.
 * The provider owns its engines' side of the campaign: a session label of its
 * own on every container (its reapers remove by it), one creation gate (a
 * signal closes it), a fresh health per engine, and its slots.
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
import { enginePoolOf, type EngineChoice } from './engine-pool.js';
import { connectEngine } from './engines.js';
import { LocalDockerProvider } from './local-docker.js';
import type { SandboxProvider } from './types.js';

export interface ProviderChoice {
  /** Engines to spread the runs over, `jobs` on each; the first builds the images. */
  readonly engines?: readonly EngineChoice[];
  /** The first engine's client as given (default: the first engine's, else DOCKER_HOST's). */
  readonly client?: DockerClient;
  /** Sandboxes at once on each engine. */
  readonly jobs: number;
  /** Another provider over the first engine's client (tests record calls through one). */
  readonly custom?: (client: DockerClient) => SandboxProvider;
}

/** A provider made for one campaign, not opened yet, and the client images are built with. */
export interface ConnectedProvider {
  readonly sandboxes: SandboxProvider;
  /** The first engine with the provider's session label, gate and health. */
  readonly client: DockerClient;
}

/**
 * Reaches the first engine (a clear error when it does not answer) and makes
 * the provider over every engine named: today's one engine with its folders
 * mounted, else a pool (several engines, or one that cannot see the host's disk).
 *
 * @example
 * const { sandboxes } = await connectProvider({ jobs: 2 });
 * await sandboxes.open();
 * try { ... } finally { await sandboxes.close(); }
 */
export async function connectProvider(choice: ProviderChoice): Promise<ConnectedProvider> {
  const engines = choice.engines ?? [];
  const first = engines[0];
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
  return { sandboxes, client };
}
