import { randomBytes } from 'node:crypto';
import type { DockerClient } from './connection.js';
import { LABELS } from '../seam/index.js';
import { bounded } from './engine.js';
import { asRefusal, statusOf } from './refusal.js';

/**
 * A run's private network: its agent and its services on one bridge and
 * nothing else. `internal` gives it no route out (the engine drops what leaves
 * its subnet); `inhibit_ipv4` leaves the host's side of the bridge without an
 * address, so the engine's gateway address answers nobody: an internal bridge
 * otherwise still reaches every port the host listens on. Containers on it
 * also get IPv6 turned off (runtime/container.ts). Other runs are on other
 * bridges, with no route between them.
 */
export const RUN_NETWORK_OPTIONS = {
  'com.docker.network.bridge.inhibit_ipv4': 'true',
  // Within the run's own network its containers talk (the agent to its services).
  'com.docker.network.bridge.enable_icc': 'true',
} as const;

/** A created network, removed by {@link removeNetwork} (or by label). */
export interface RunNetwork {
  readonly id: string;
  readonly name: string;
  /** The run's services by name and address, for /etc/hosts (Podman's internal networks have no DNS). */
  readonly hosts?: Readonly<Record<string, string>>;
}

/**
 * Creates a run's private network, labelled like the run's containers (and the
 * client's session labels) so that every clean-up that finds those finds it.
 *
 * @example
 * const net = await createRunNetwork(client, { 'evalrig.run': key });
 * await startContainer(client, { image, network: { name: net.name } });
 */
export async function createRunNetwork(
  client: DockerClient,
  labels: Readonly<Record<string, string>>,
): Promise<RunNetwork> {
  const name = `evalrig-run-${randomBytes(6).toString('hex')}`;
  const create = async (): Promise<RunNetwork> => {
    const network = await bounded(client, 'a network creation', () =>
      client.docker
        .createNetwork({
          Name: name,
          Driver: 'bridge',
          Internal: true,
          CheckDuplicate: true,
          Options: { ...RUN_NETWORK_OPTIONS },
          Labels: { [LABELS.managed]: 'true', ...client.labels, ...labels },
        })
        .catch((error: unknown) => {
          throw asRefusal(client.where, 'a network creation', error);
        }),
    );
    return { id: network.id, name };
  };
  return client.gate ? client.gate.pass(create) : create();
}

/** Removes a network; gone already is fine. */
export async function removeNetwork(client: DockerClient, id: string): Promise<void> {
  await bounded(client, 'a network removal', () =>
    client.docker
      .getNetwork(id)
      .remove()
      .catch((error: unknown) => {
        if (statusOf(error) === 404) return;
        throw error;
      }),
  );
}

/**
 * Removes every evalrig network carrying all of `labels` (after their
 * containers: a network still in use is left, and counted, for the next sweep).
 * Returns how many were found.
 */
export async function removeNetworks(
  client: DockerClient,
  labels: Readonly<Record<string, string>> = {},
): Promise<number> {
  const filters = [
    `${LABELS.managed}=true`,
    ...Object.entries(labels).map(([k, v]) => `${k}=${v}`),
  ];
  const found = await bounded(client, 'a network listing', () =>
    client.docker.listNetworks({ filters: { label: filters } }),
  );
  await Promise.all(found.map((n) => removeNetwork(client, n.Id).catch(() => undefined)));
  return found.length;
}
