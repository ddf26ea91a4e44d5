import {
  bounded,
  createRunNetwork,
  removeNetwork,
  startContainer,
  type DockerClient,
  type ExecOptions,
  type RunContainer,
  type RunNetwork,
} from '../runtime/index.js';
import { SandboxError } from './errors.js';
import { WrappedSandbox } from './wrapped.js';
import type { Sandbox, SandboxSpec, ServiceFailure, ServiceSpec, StartedService } from './types.js';

/** The label naming a service's container (its DNS name on the run's network). */
export const SERVICE_LABEL = 'evalrig.service';
/** Log lines kept of a service that failed. */
const LOG_TAIL_LINES = 20;
const READY_POLL_MS = 50;

/** Starts a sandbox on a given network (or none): the provider's own start. */
export type StartOnNetwork = (network: RunNetwork | undefined) => Promise<Sandbox>;

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
 * A sandbox with its services: the run's private network, each service on it
 * by its name, the sandbox joined to it, every service ready before this
 * returns. The sandbox starts while the services get ready. Whatever fails
 * removes what was made and throws a SandboxError naming the service.
 */
export async function startWithServices(
  client: DockerClient,
  engine: string,
  spec: SandboxSpec,
  start: StartOnNetwork,
): Promise<Sandbox> {
  const services = spec.services ?? [];
  if (services.length === 0) return start(undefined);
  // Readiness is counted from here: the run's network is part of what a service costs.
  const askedAt = Date.now();
  const network = await createRunNetwork(client, spec.labels ?? {});
  const group = new ServiceGroup(client, engine, network, askedAt);
  let sandbox: Promise<Sandbox> | undefined;
  try {
    const containers = await Promise.all(services.map((s) => group.startOne(s, spec.labels)));
    const joined = namedByHosts(client) ? { ...network, hosts: await group.hosts() } : network;
    // The sandbox starts while the services get ready; a port check waits for it (it connects from there).
    const starting = start(joined).then((started) => (group.sandbox = started));
    sandbox = starting;
    starting.catch(() => undefined);
    const ready = Promise.all(services.map((s, i) => group.waitReady(s, containers[i]!, starting)));
    ready.catch(() => undefined);
    const [started] = await Promise.all([ready, starting]);
    return new ServicedSandbox(await starting, group, started);
  } catch (error) {
    // A sandbox still starting lands first, so that its removal sees it.
    await sandbox?.catch(() => undefined);
    await group.remove().catch(() => undefined);
    throw error instanceof SandboxError
      ? error
      : new SandboxError(engine, 'start', (error as Error).message, { cause: error });
  }
}

/** The services of one run and its network: started, watched, removed together. */
class ServiceGroup {
  sandbox?: Sandbox;
  readonly containers = new Map<string, { run: RunContainer; startedAt: number }>();

  constructor(
    private readonly client: DockerClient,
    private readonly engine: string,
    readonly network: RunNetwork,
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
      network: { name: this.network.name, aliases: [s.name] },
      // The image's own main process when no command is given (not runtime's idler).
      ...(s.cmd ? {} : { imageCmd: true }),
    });
    this.containers.set(s.name, { run, startedAt });
    return run;
  }

  /** Each service's address on the run's network, by its name. */
  async hosts(): Promise<Record<string, string>> {
    const entries = await Promise.all(
      [...this.containers].map(async ([name, c]) => {
        const info = await bounded(this.client, 'a service inspection', () =>
          c.run.container.inspect(),
        );
        const address = info.NetworkSettings.Networks[this.network.name]?.IPAddress;
        if (!address) throw new Error(`service ${name}: no address on the run's network`);
        return [name, address] as const;
      }),
    );
    return Object.fromEntries(entries);
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

  /** The sandbox, the services, then the network (which needs them gone). */
  async remove(): Promise<void> {
    await Promise.all([
      this.sandbox?.remove(),
      ...[...this.containers.values()].map((c) => c.run.remove()),
    ]);
    await removeNetwork(this.client, this.network.id);
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
