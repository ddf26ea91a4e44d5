/**
 * The services of one run and its places: started in their places, checked
 * until ready, watched for an exit, removed together.
 */
import {
  bounded,
  startContainer,
  type DockerClient,
  type RunContainer,
} from '../../../runtime/index.js';
import { SandboxError } from '../../errors.js';
import type {
  ExecOptions,
  Sandbox,
  ServiceFailure,
  ServiceSpec,
  StartedService,
} from '../../types.js';
import { holdersOf, removePlaces, type RunPlaces } from './places.js';

/** The label naming a service's container (its DNS name on the run's network). */
export const SERVICE_LABEL = 'evalrig.service';
/** Log lines kept of a service that failed. */
const LOG_TAIL_LINES = 20;
const READY_POLL_MS = 50;

/** The services of one run and its places: started, watched, removed together. */
export class ServiceGroup {
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
