import {
  LABELS,
  bounded,
  createRunNetwork,
  removeNetwork,
  startContainer,
  type DockerClient,
  type RunContainer,
  type RunNetwork,
} from '../runtime/index.js';
import { SandboxError } from './errors.js';
import { WrappedSandbox } from './wrapped.js';
import type {
  ExecOptions,
  Sandbox,
  SandboxReservation,
  SandboxSpec,
  ServiceFailure,
  ServiceSpec,
  StartedService,
} from './types.js';

/** The label naming a service's container (its DNS name on the run's network). */
export const SERVICE_LABEL = 'evalrig.service';
/** Log lines kept of a service that failed. */
const LOG_TAIL_LINES = 20;
const READY_POLL_MS = 50;

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

/**
 * Starts a sandbox in the network namespace of `netnsOf` (its place on the
 * run's network), or with network none: the provider's own start.
 */
export type StartOnNetwork = (netnsOf: string | undefined) => Promise<Sandbox>;

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
async function allLanded<T>(promises: readonly Promise<T>[]): Promise<T[]> {
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
async function removePlaces(
  client: DockerClient,
  made: { readonly network: RunNetwork; readonly holders: readonly RunContainer[] },
): Promise<void> {
  await Promise.all(made.holders.map((h) => h.remove()));
  await removeNetwork(client, made.network.id);
}

function holdersOf(places: RunPlaces): RunContainer[] {
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

/**
 * A sandbox with its services: the run's private network, each service on it
 * by its name, the sandbox on it too, every service ready before this
 * returns. Each joins its place made ahead (`places`, from a reservation), or
 * made here. The sandbox starts while the services get ready. Whatever fails
 * removes what was made and throws a SandboxError naming the service.
 */
export async function startWithServices(
  client: DockerClient,
  engine: string,
  spec: SandboxSpec,
  start: StartOnNetwork,
  places?: Promise<RunPlaces>,
): Promise<Sandbox> {
  const services = spec.services ?? [];
  if (services.length === 0) return start(undefined);
  // Readiness is counted from here: places still being made count, those made ahead do not.
  const askedAt = Date.now();
  const group = new ServiceGroup(client, engine, askedAt);
  let sandbox: Promise<Sandbox> | undefined;
  try {
    group.places = await (places ??
      makePlaces(client, { image: spec.image, labels: spec.labels, services }));
    // The sandbox starts while the services start and get ready; a port check waits for it.
    const starting = start(group.places.sandbox.id).then((started) => (group.sandbox = started));
    sandbox = starting;
    starting.catch(() => undefined);
    // All landed before a failure is thrown: the removal then sees every one started.
    const containers = await allLanded(services.map((s) => group.startOne(s, spec.labels)));
    const ready = Promise.all(services.map((s, i) => group.waitReady(s, containers[i]!, starting)));
    ready.catch(() => undefined);
    const [started] = await Promise.all([ready, starting]);
    return new ServicedSandbox(await starting, group, started);
  } catch (error) {
    // A sandbox still starting lands first, so that its removal sees it.
    await sandbox?.catch(() => undefined);
    // Places made ahead and handed over are this start's to remove, as its own are.
    group.places ??= await places?.catch(() => undefined);
    await group.remove().catch(() => undefined);
    throw error instanceof SandboxError
      ? error
      : new SandboxError(engine, 'start', (error as Error).message, { cause: error });
  }
}

/** The services of one run and its places: started, watched, removed together. */
class ServiceGroup {
  sandbox?: Sandbox;
  places?: RunPlaces;
  readonly containers = new Map<string, { run: RunContainer; startedAt: number }>();

  constructor(
    private readonly client: DockerClient,
    private readonly engine: string,
    private readonly askedAt: number,
  ) {}

  async startOne(
    s: ServiceSpec,
    labels: Readonly<Record<string, string>> | undefined,
  ): Promise<RunContainer> {
    const startedAt = Date.now();
    const run = await startContainer(this.client, {
      image: s.image,
      ...(s.cmd ? { cmd: s.cmd } : {}),
      env: s.env,
      limits: s.limits,
      labels: { ...labels, [SERVICE_LABEL]: s.name },
      // Its place: its holder's address, its name on the run's network.
      netnsOf: this.places!.services.get(s.name)!.id,
      // The image's own main process when no command is given (not runtime's idler).
      ...(s.cmd ? {} : { imageCmd: true }),
    });
    this.containers.set(s.name, { run, startedAt });
    return run;
  }

  /**
   * Waits for the readiness check: one exec that repeats it inside (an exec
   * per attempt costs far more than the check on a busy engine); a service that
   * exits meanwhile ends that exec, and fails the start at once.
   */
  async waitReady(
    s: ServiceSpec,
    run: RunContainer,
    sandbox: Promise<Sandbox>,
  ): Promise<StartedService> {
    const startedAt = this.containers.get(s.name)!.startedAt;
    const deadline = startedAt + s.ready.timeoutMs;
    for (;;) {
      const remaining = deadline - Date.now();
      if (remaining > 0 && (await this.readyWithin(s, run, sandbox, remaining))) {
        return { name: s.name, id: run.id, readyMs: Date.now() - this.askedAt };
      }
      const failure = await this.failureOf(s.name, run);
      if (failure) throw this.notReady(s, `it exited (${describeFailure(failure)})`);
      if (Date.now() >= deadline) {
        const tail = await logTail(this.client, run);
        throw this.notReady(
          s,
          `not ready within ${s.ready.timeoutMs / 1000} s${tail.length ? `; its last lines: ${tail.slice(-5).join(' | ')}` : ''}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
    }
  }

  /** True once the check passed within `ms`: by port from the sandbox, else the command in the service. */
  private async readyWithin(
    s: ServiceSpec,
    run: RunContainer,
    sandbox: Promise<Sandbox>,
    ms: number,
  ): Promise<boolean> {
    const options: ExecOptions = { timeoutMs: ms, maxOutputBytes: 4096 };
    const pause = `sleep ${READY_POLL_MS / 1000}`;
    try {
      const r =
        s.ready.port !== undefined
          ? // From the sandbox, by name: what the agent will connect to.
            await (
              await sandbox
            ).exec(
              [
                'bash',
                '-c',
                `until (exec 3<>/dev/tcp/${s.name}/${s.ready.port}) 2>/dev/null; do ${pause}; done`,
              ],
              options,
            )
          : await run.exec(
              [
                'sh',
                '-c',
                // A subshell: a check that says `exit 1` ends its attempt, not the loop.
                `until (${s.ready.command ?? 'true'}\n); do ${pause}; done`,
              ],
              options,
            );
      return r.exitCode === 0;
    } catch {
      return false;
    }
  }

  private notReady(s: ServiceSpec, why: string): SandboxError {
    return new SandboxError(this.engine, 'start', `service ${s.name}: ${why}`);
  }

  /** The service's failure when its container no longer runs, else undefined. */
  async failureOf(name: string, run: RunContainer): Promise<ServiceFailure | undefined> {
    const info = await bounded(this.client, 'a service inspection', () => run.container.inspect());
    if (info.State.Running) return undefined;
    return {
      name,
      at: info.State.FinishedAt,
      exitCode: typeof info.State.ExitCode === 'number' ? info.State.ExitCode : null,
      oomKilled: Boolean(info.State.OOMKilled),
      logTail: await logTail(this.client, run),
    };
  }

  async failures(): Promise<ServiceFailure[]> {
    const found = await Promise.all(
      [...this.containers].map(([name, c]) => this.failureOf(name, c.run)),
    );
    return found.filter((f): f is ServiceFailure => f !== undefined);
  }

  /** The sandbox and the services, then their places and the network (which needs them gone). */
  async remove(): Promise<void> {
    await Promise.all([
      this.sandbox?.remove(),
      ...[...this.containers.values()].map((c) => c.run.remove()),
    ]);
    const places = this.places;
    if (places) {
      await removePlaces(this.client, { network: places.network, holders: holdersOf(places) });
    }
  }
}

/** One line of a failure: exit code, OOM. */
export function describeFailure(f: ServiceFailure): string {
  return `exit ${f.exitCode ?? 'unknown'}${f.oomKilled ? ', out of memory' : ''}`;
}

/**
 * A container's last log lines. Its streams come multiplexed (no TTY): frames
 * of an 8-byte header (stream, 0, 0, 0, size) and the bytes.
 */
async function logTail(client: DockerClient, run: RunContainer): Promise<string[]> {
  try {
    const raw = (await bounded(client, 'a log read', () =>
      run.container.logs({ stdout: true, stderr: true, tail: LOG_TAIL_LINES, follow: false }),
    )) as unknown as Buffer;
    const text: Buffer[] = [];
    for (let at = 0; at + 8 <= raw.length;) {
      const size = raw.readUInt32BE(at + 4);
      text.push(raw.subarray(at + 8, at + 8 + size));
      at += 8 + size;
    }
    return Buffer.concat(text)
      .toString('utf8')
      .split('\n')
      .map((l) => l.slice(0, 500))
      .filter((l) => l.length > 0)
      .slice(-LOG_TAIL_LINES);
  } catch {
    return [];
  }
}

/** A sandbox whose removal takes its services and network with it. */
class ServicedSandbox extends WrappedSandbox {
  constructor(
    inner: Sandbox,
    private readonly group: ServiceGroup,
    private readonly started: readonly StartedService[],
  ) {
    super(inner);
  }

  override get services(): readonly StartedService[] {
    return this.started;
  }

  override remove(): Promise<void> {
    return this.group.remove();
  }
  override serviceFailures(): Promise<readonly ServiceFailure[]> {
    return this.group.failures();
  }
}
