/**
 * A sandbox with its services: the run's private network, each service on it
 * by its name, the sandbox on it too (places.ts, group.ts).
 */
import type { DockerClient } from '../../../runtime/index.js';
import { SandboxError } from '../../errors.js';
import type { Sandbox, SandboxSpec, ServiceFailure, StartedService } from '../../types.js';
import { WrappedSandbox } from '../../wrapped.js';
import { ServiceGroup } from './group.js';
import { allLanded, makePlaces, type RunPlaces } from './places.js';

/**
 * Starts a sandbox in the network namespace of `netnsOf` (its place on the
 * run's network), or with network none: the provider's own start.
 */
export type StartOnNetwork = (netnsOf: string | undefined) => Promise<Sandbox>;

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
