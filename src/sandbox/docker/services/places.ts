/**
 * A run's private network and its places on it, made before any of its
 * containers (see {@link RunPlaces}), and whether an engine can keep that
 * network private at all.
 */
import {
  LABELS,
  bounded,
  createRunNetwork,
  removeNetwork,
  startContainer,
  type DockerClient,
  type RunContainer,
  type RunNetwork,
} from '../../../runtime/index.js';
import type { Sandbox, SandboxReservation, SandboxSpec, ServiceSpec } from '../../types.js';

/**
 * Why an engine cannot keep a run's network private, or undefined. Docker can
 * (an internal bridge with no address on the host's side). So can Podman with
 * its CNI backend: an internal network there gets no address on the host's
 * bridge and no DNS (the services' names go in /etc/hosts instead). Its
 * netavark backend keeps the gateway's address on the bridge for its DNS
 * server, where the host would answer: refused until a probe from inside
 * shows otherwise (the services conformance suite).
 */
export function servicesRefusalOf(client: DockerClient): string | undefined {
  const profile = client.profile;
  if (profile?.kind === 'podman' && profile.rootless) {
    // Its networks live in a namespace of its own (rootless-netns), which failed to start here: not proven private.
    return "rootless Podman's networks have not been proven to keep a run's services from reaching the host; use rootful Podman (its CNI backend) or Docker";
  }
  if (profile?.kind === 'podman' && profile.networkBackend !== 'cni') {
    return `Podman's ${profile.networkBackend ?? 'netavark'} networks keep the host's address on their bridge, so a run's services could not be kept from reaching the host (Podman with its CNI backend can)`;
  }
  return undefined;
}

/** Whether the run's services are named through /etc/hosts: Podman's internal networks have no DNS. */
function namedByHosts(client: DockerClient): boolean {
  return client.profile?.kind === 'podman';
}

/** The label marking a place holder: the idle container that holds a run's network namespace. */
export const PLACE_LABEL = LABELS.place;
/** A holder's limits: it only idles (its namespace's joiner brings its own). */
const HOLDER_LIMITS = { memoryBytes: 32 * 1024 ** 2, cpus: 0.25, pids: 16 };

/**
 * A run's places on its private network, made before any of its containers:
 * the network, and for the sandbox and each service an idle holder on it (its
 * address, its name for the others, IPv6 off) whose network namespace that
 * container then joins. Joining a user-defined network is the costly part of a
 * container's start (its namespace, its end of the bridge, the engine's DNS
 * inside): made ahead, while the run is prepared, the services and the sandbox
 * start as fast as with network none.
 */
export interface RunPlaces {
  readonly network: RunNetwork;
  readonly sandbox: RunContainer;
  readonly services: ReadonlyMap<string, RunContainer>;
}

/** Which services a run's places are for, on which image (the run's: its holders idle in it). */
export interface PlacesSpec {
  readonly image: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly services: readonly ServiceSpec[];
}

/**
 * Makes a run's places (see {@link RunPlaces}); what fails removes what was
 * made. Where the network has no DNS (Podman), the sandbox's holder gets the
 * services' addresses in its /etc/hosts, which its joiner shares.
 */
export async function makePlaces(client: DockerClient, spec: PlacesSpec): Promise<RunPlaces> {
  const labels = spec.labels ?? {};
  const network = await createRunNetwork(client, labels);
  const holders: RunContainer[] = [];
  const hold = async (
    name: string,
    on: { name: string; aliases?: string[]; hosts?: Record<string, string> },
  ): Promise<RunContainer> => {
    const run = await startContainer(client, {
      image: spec.image,
      labels: { ...labels, [PLACE_LABEL]: name },
      limits: HOLDER_LIMITS,
      network: on,
    });
    holders.push(run);
    return run;
  };
  try {
    const services = new Map<string, RunContainer>();
    const serviceHolders = spec.services.map(async (s) => {
      const holder = await hold(s.name, { name: network.name, aliases: [s.name] });
      services.set(s.name, holder);
      return holder;
    });
    // Named by /etc/hosts: the sandbox's holder needs the services' addresses first.
    if (namedByHosts(client)) await allLanded(serviceHolders);
    const hosts = namedByHosts(client) ? await addressesOf(client, network, services) : undefined;
    const [sandbox] = await allLanded([
      hold('sandbox', { name: network.name, ...(hosts ? { hosts } : {}) }),
      ...serviceHolders,
    ]);
    return { network, sandbox: sandbox as RunContainer, services };
  } catch (error) {
    await removePlaces(client, { network, holders }).catch(() => undefined);
    throw error;
  }
}

/** Every promise settled (none left making something behind a failure), then the first failure thrown. */
export async function allLanded<T>(promises: readonly Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(promises);
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<T>).value);
}

/** Each holder's address on the run's network, by its service's name. */
async function addressesOf(
  client: DockerClient,
  network: RunNetwork,
  services: ReadonlyMap<string, RunContainer>,
): Promise<Record<string, string>> {
  const entries = await Promise.all(
    [...services].map(async ([name, run]) => {
      const info = await bounded(client, 'a service inspection', () => run.container.inspect());
      const address = info.NetworkSettings.Networks[network.name]?.IPAddress;
      if (!address) throw new Error(`service ${name}: no address on the run's network`);
      return [name, address] as const;
    }),
  );
  return Object.fromEntries(entries);
}

/** The holders, then the network (which needs them gone). Gone already is fine. */
export async function removePlaces(
  client: DockerClient,
  made: { readonly network: RunNetwork; readonly holders: readonly RunContainer[] },
): Promise<void> {
  await Promise.all(made.holders.map((h) => h.remove()));
  await removeNetwork(client, made.network.id);
}

export function holdersOf(places: RunPlaces): RunContainer[] {
  return [places.sandbox, ...places.services.values()];
}

/**
 * A sandbox's start begun ahead (a provider's `reserve`): the run's places are
 * made at once, while the caller prepares the rest; `start` then uses them.
 */
export function reserveWithServices(
  client: DockerClient,
  spec: PlacesSpec,
  start: (spec: SandboxSpec, places?: Promise<RunPlaces>) => Promise<Sandbox>,
): SandboxReservation {
  if (spec.services.length === 0) {
    return {
      start: (sandbox) => start(sandbox),
      release: () => Promise.resolve(),
      made: Promise.resolve(),
    };
  }
  const places = makePlaces(client, spec);
  const made = places.then(
    () => undefined,
    () => undefined,
  );
  let used = false;
  return {
    made,
    start: (sandbox) => {
      used = true;
      return start(sandbox, places);
    },
    release: async () => {
      if (used) return;
      used = true;
      const made = await places.catch(() => undefined);
      if (made) await removePlaces(client, { network: made.network, holders: holdersOf(made) });
    },
  };
}
