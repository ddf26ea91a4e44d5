import { PassThrough, type Readable } from 'node:stream';
import type Docker from 'dockerode';
import type { DockerClient } from './connection.js';
import { bounded } from './engine.js';
import type { EngineProfile } from './profile.js';
import { GateClosedError } from './gate.js';
import { asRefusal, engineMessageOf, statusOf } from './refusal.js';
import {
  LABELS,
  ProcessesNotStoppedError,
  type ContainerLimits,
  type ExecOptions,
  type ExecResult,
} from '../seam/index.js';

export { CreationGate, GateClosedError } from './gate.js';

export const DEFAULT_LIMITS: Required<ContainerLimits> = {
  memoryBytes: 2 * 1024 ** 3,
  cpus: 2,
  pids: 512,
};

export interface Bind {
  readonly host: string;
  readonly container: string;
  readonly readOnly?: boolean;
}

/**
 * What to start. Security is not optional: every container has network none
 * (or its run's private network),
 * all capabilities dropped, no-new-privileges and resource limits. There is no
 * way to mount the Docker socket through this type on purpose.
 */
export interface ContainerSpec {
  readonly image: string;
  /** Command of the container's main process; defaults to one that idles. */
  readonly cmd?: readonly string[];
  /** `uid[:gid]` or a user name of the image; defaults to the image's user. */
  readonly user?: string;
  /**
   * User of every exec that names none (default: `user`). A main process of
   * another user than the execs' is one they cannot signal, so
   * {@link RunContainer.stopProcessesOf} can stop every process of theirs and
   * the container lives on.
   */
  readonly execUser?: string;
  readonly workingDir?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly labels?: Readonly<Record<string, string>>;
  readonly binds?: readonly Bind[];
  readonly limits?: ContainerLimits;
  readonly name?: string;
  /**
   * Capabilities given back to the container's root (every other is dropped).
   * Only root holds them: the agent's non-root user gets none, and
   * no-new-privileges keeps it from gaining any. A remote engine's harness
   * execs need DAC_READ_SEARCH to read whatever modes the agent left.
   */
  readonly rootCapabilities?: readonly string[];
  /**
   * A run's private network (runtime/network.ts) instead of network none: the
   * run's own containers and nothing else, no route out, the host not on it.
   * `aliases` are the names the others reach this container by (a service's).
   */
  readonly network?: {
    readonly name: string;
    readonly aliases?: readonly string[];
    /** Names given in /etc/hosts (a run's services, where the network has no DNS). */
    readonly hosts?: Readonly<Record<string, string>>;
  };
  /**
   * Another container's network namespace (its id) instead of a network of its
   * own: a run's place on its private network, made ahead (sandbox/docker/services/).
   * This container then has that one's address and names there, and starts with
   * no network to set up (the costly part of a start on a user-defined network).
   */
  readonly netnsOf?: string;
  /**
   * The engine's default network instead of none: an environment's setup
   * fetching its dependencies (the eval set's commands), never a run's.
   */
  readonly online?: boolean;
  /** The image's own command as the main process (a service's), instead of `cmd` or the idler. */
  readonly imageCmd?: boolean;
}

/**
 * Stops every process of the exec's user but itself: `kill -9 -1` signals all
 * it may signal (never pid 1, never itself), repeated until /proc shows none
 * of its user's left (`-O`: owned by the effective uid), killed processes
 * included until the container's init has reaped them.
 */
const STOP_PROCESSES = `kill -9 -1 2>/dev/null
i=0
while :; do
  left=
  for p in /proc/[0-9]*; do
    if [ "$p" != "/proc/$$" ] && [ -O "$p" ]; then left=$p; break; fi
  done
  [ -z "$left" ] && exit 0
  i=$((i + 1))
  [ "$i" -lt 200 ] || exit 3
  sleep 0.05
  kill -9 -1 2>/dev/null
done`;

const IDLE = ['sh', '-c', 'trap "exit 0" TERM INT; while :; do sleep 3600 & wait $!; done'];
const DEFAULT_MAX_OUTPUT = 1024 * 1024;

function hostConfig(spec: ContainerSpec, profile?: EngineProfile): Docker.HostConfig {
  const limits = { ...DEFAULT_LIMITS, ...spec.limits };
  return {
    // Online (a setup): the engine's default network, as `docker run` gives it.
    ...(spec.online && !spec.network ? {} : { NetworkMode: networkModeOf(spec) }),
    // On a run's network: no IPv6 either (its link-local addresses would reach the host's bridge).
    ...(spec.network ? { Sysctls: { 'net.ipv6.conf.all.disable_ipv6': '1' } } : {}),
    ...(spec.network?.hosts
      ? { ExtraHosts: Object.entries(spec.network.hosts).map(([n, ip]) => `${n}:${ip}`) }
      : {}),
    CapDrop: ['ALL'],
    ...(spec.rootCapabilities?.length ? { CapAdd: [...spec.rootCapabilities] } : {}),
    SecurityOpt: ['no-new-privileges'],
    Memory: limits.memoryBytes,
    MemorySwap: limits.memoryBytes,
    NanoCpus: Math.round(limits.cpus * 1e9),
    PidsLimit: limits.pids,
    Binds: (spec.binds ?? []).map((b) => `${b.host}:${b.container}:${b.readOnly ? 'ro' : 'rw'}`),
    Init: true,
    ...(profile?.ulimits ? { Ulimits: profile.ulimits.map((u) => ({ ...u })) } : {}),
  };
}

function networkModeOf(spec: ContainerSpec): string {
  if (spec.netnsOf) return `container:${spec.netnsOf}`;
  return spec.network?.name ?? 'none';
}

/** Collects a stream up to a byte cap, noting whether anything was cut. */
class CappedBuffer {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  truncated = false;
  constructor(private readonly cap: number) {}
  push(chunk: Buffer): void {
    const room = this.cap - this.size;
    if (chunk.length > room) this.truncated = true;
    if (room <= 0) return;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(kept);
    this.size += kept.length;
  }
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
  text(): string {
    return this.bytes().toString('utf8');
  }
}

type ExecStream = NodeJS.ReadWriteStream & Readable;

/** Creates the exec and attaches to its output (and stdin, when there is one to send). */
async function startExec(
  client: DockerClient,
  container: Docker.Container,
  cmd: readonly string[],
  options: ExecOptions,
): Promise<{ exec: Docker.Exec; stream: ExecStream }> {
  const exec = await bounded(client, 'an exec', () =>
    container
      .exec({
        Cmd: [...cmd],
        AttachStdout: true,
        AttachStderr: true,
        AttachStdin: options.stdin !== undefined,
        Env: Object.entries(options.env ?? {}).map(([k, v]) => `${k}=${v}`),
        User: options.user,
        WorkingDir: options.workingDir,
      })
      .catch(refused(client, 'an exec')),
  );
  const stream = (await bounded(client, 'an exec start', () =>
    exec
      .start({ hijack: true, stdin: options.stdin !== undefined })
      .catch(refused(client, 'an exec start')),
  )) as ExecStream;
  // A cut connection may emit several errors; the first decides, the rest are expected.
  stream.on('error', () => undefined);
  return { exec, stream };
}

/**
 * Waits for the exec's output to end, or its time (`timeoutMs`, plus what `extraMs` grants)
 * to run out. An engine lost meanwhile, or a stream error, throws.
 */
async function execOutcome(
  client: DockerClient,
  stream: ExecStream,
  options: ExecOptions,
): Promise<'ended' | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const health = client.health;
  let onLost: (() => void) | undefined;
  const ended = new Promise<'ended'>((resolve, reject) => {
    stream.once('end', () => resolve('ended'));
    stream.once('close', () => resolve('ended'));
    stream.once('error', reject);
    // An engine lost mid-exec (frozen: the stream just stays open) releases the wait.
    onLost = () => reject(health?.lost);
    if (health?.lost) onLost();
    else health?.signal.addEventListener('abort', onLost, { once: true });
  });
  const timedOut =
    options.timeoutMs === undefined
      ? new Promise<never>(() => {})
      : new Promise<'timeout'>((resolve) => {
          let granted = 0;
          const expire = (): void => {
            const extra = options.extraMs?.() ?? 0;
            if (extra <= granted) return resolve('timeout');
            timer = setTimeout(expire, extra - granted);
            granted = extra;
          };
          timer = setTimeout(expire, options.timeoutMs);
        });
  return bounded(client, 'an exec', () => Promise.race([ended, timedOut]), Infinity)
    .catch((error: unknown) => {
      stream.destroy();
      throw error;
    })
    .finally(() => {
      clearTimeout(timer);
      if (onLost) health?.signal.removeEventListener('abort', onLost);
    });
}

/** A started container of evalrig's, with exec and teardown. */
export class RunContainer {
  constructor(
    private readonly client: DockerClient,
    readonly container: Docker.Container,
    private readonly execUser?: string,
    /** The main process's user (`ContainerSpec.user`): whose processes stay. */
    private readonly mainUser?: string,
  ) {}

  get id(): string {
    return this.container.id;
  }

  /** Runs a command in the container and collects its output. */
  async exec(cmd: readonly string[], options: ExecOptions = {}): Promise<ExecResult> {
    const started = Date.now();
    const client = this.client;
    const { exec, stream } = await startExec(client, this.container, cmd, {
      ...options,
      user: options.user ?? this.execUser,
    });
    const cap = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
    const out = new CappedBuffer(cap);
    const err = new CappedBuffer(cap);
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    stdout.on('data', (c: Buffer) => out.push(c));
    stderr.on('data', (c: Buffer) => err.push(c));
    this.client.docker.modem.demuxStream(stream, stdout, stderr);
    if (options.stdin !== undefined) {
      // Half-close: the process sees EOF on stdin while we keep reading.
      stream.write(options.stdin);
      (stream as unknown as { end(): void }).end();
    }

    const outcome = await execOutcome(client, stream, options);
    if (outcome === 'timeout') {
      stream.destroy();
      return {
        exitCode: null,
        stdout: out.text(),
        stdoutBytes: out.bytes(),
        stderr: err.text(),
        timedOut: true,
        truncated: out.truncated || err.truncated,
        durationMs: Date.now() - started,
      };
    }
    const info = await bounded(client, 'an exec inspect', () => exec.inspect());
    return {
      exitCode: info.ExitCode ?? null,
      stdout: out.text(),
      stdoutBytes: out.bytes(),
      stderr: err.text(),
      timedOut: false,
      truncated: out.truncated || err.truncated,
      durationMs: Date.now() - started,
    };
  }

  /**
   * Stops every process of `user` in the container (what a turn left running
   * in the background included) with SIGKILL, repeated until none is left, so
   * nothing changes the environment while a stop is read. The main process
   * must belong to another user (see {@link ContainerSpec.execUser}). Throws
   * when that cannot be done within `timeoutMs` (a process table kept full).
   */
  async stopProcessesOf(user: string, timeoutMs = 10_000): Promise<void> {
    // Most turns leave nothing running: the engine's process list (a host-side
    // listing) says so for a fraction of an exec's cost inside the container.
    if (await this.onlyMainUserRuns(user)) return;
    const r = await this.exec(['sh', '-c', STOP_PROCESSES], {
      user,
      timeoutMs,
      maxOutputBytes: 4096,
    });
    if (r.timedOut || r.exitCode !== 0) {
      throw new ProcessesNotStoppedError(
        `the processes of ${user} could not be stopped (${r.timedOut ? 'timed out' : `exit ${r.exitCode}`})`,
        r.timedOut,
      );
    }
  }

  /**
   * Whether the engine lists only processes of one owner in the container:
   * its main process (always listed while it runs) is another user's than
   * `user`, so none of `user`'s is left, and none can start again (only an
   * exec starts a process of theirs). False whenever that cannot be told:
   * the main user or `user` not a numeric uid, or Podman, whose listing
   * differs. The uids compared are the engine host's view of them, mapped
   * alike for every process, so a remapped engine answers the same.
   */
  private async onlyMainUserRuns(user: string): Promise<boolean> {
    const uidOf = (u: string | undefined) => /^(\d+)(?::\d+)?$/u.exec(u ?? '')?.[1];
    const main = uidOf(this.mainUser);
    const theirs = uidOf(user);
    if (main === undefined || theirs === undefined || main === theirs) return false;
    if (this.client.profile?.kind === 'podman') return false;
    const listed = (await bounded(this.client, 'a process listing', () =>
      this.container.top({ ps_args: '-o pid,uid' }),
    ).catch(() => undefined)) as { Titles?: string[]; Processes?: string[][] } | undefined;
    const column = listed?.Titles?.indexOf('UID') ?? -1;
    const processes = listed?.Processes ?? [];
    if (column < 0 || processes.length === 0) return false;
    return new Set(processes.map((p) => p[column])).size === 1;
  }

  /** Kills the main process; the container stops at once. Idempotent. */
  async kill(): Promise<void> {
    await bounded(this.client, 'a kill', () =>
      this.container.kill({ signal: 'SIGKILL' }).catch(ignoreGone),
    );
  }

  /** Removes the container, killing it first if it still runs. Idempotent. */
  async remove(): Promise<void> {
    await bounded(this.client, 'a removal', () =>
      this.container.remove({ force: true, v: true }).catch(ignoreGone),
    );
  }
}

function ignoreGone(error: unknown): void {
  const status = statusOf(error);
  // 404: already removed; 409: not running / removal in progress.
  if (status === 404 || status === 409) return;
  // Podman 4 says "not running" with a 500: "can only kill running containers … container state improper".
  if (status === 500 && /container state improper/u.test(engineMessageOf(error))) return;
  throw error;
}

/** Turns an engine's error answer into an EngineRefusedError naming the engine and `operation`. */
function refused(client: DockerClient, operation: string): (error: unknown) => never {
  return (error) => {
    throw asRefusal(client.where, operation, error);
  };
}

/**
 * Creates and starts a container; its main process idles unless `cmd` says
 * otherwise. It carries the client's labels (the orchestrator's session, for
 * its reaper) and goes through the client's gate.
 */
export async function startContainer(
  client: DockerClient,
  spec: ContainerSpec,
): Promise<RunContainer> {
  const create = (): Promise<RunContainer> => createAndStart(client, spec);
  const run = await (client.gate ? client.gate.pass(create) : create());
  if (client.gate?.closed) {
    // Created while a signal was handled: it must not outlive this call.
    await run.remove().catch(() => undefined);
    throw new GateClosedError();
  }
  return run;
}

/**
 * Creates and starts the container; a limit the engine refuses to set
 * (rootful Podman's) is lowered in the client's profile and the creation
 * tried again, so every later container there is asked for within it.
 */
async function createAndStart(client: DockerClient, spec: ContainerSpec): Promise<RunContainer> {
  for (;;) {
    const sent = client.profile?.ulimits;
    try {
      return await createAndStartOnce(client, spec);
    } catch (error) {
      if (!client.profile?.lowerAfter(error, sent)) throw error;
    }
  }
}

async function createAndStartOnce(
  client: DockerClient,
  spec: ContainerSpec,
): Promise<RunContainer> {
  const container = await bounded(client, 'a container creation', () =>
    client.docker
      .createContainer({
        name: spec.name,
        Image: spec.image,
        Cmd: spec.imageCmd ? undefined : [...(spec.cmd ?? IDLE)],
        User: spec.user,
        WorkingDir: spec.workingDir,
        Env: Object.entries(spec.env ?? {}).map(([k, v]) => `${k}=${v}`),
        Labels: { [LABELS.managed]: 'true', ...client.labels, ...spec.labels },
        HostConfig: hostConfig(spec, client.profile),
        NetworkDisabled: spec.network === undefined && !spec.online && !spec.netnsOf,
        ...(spec.network
          ? {
              NetworkingConfig: {
                EndpointsConfig: {
                  [spec.network.name]: { Aliases: [...(spec.network.aliases ?? [])] },
                },
              },
            }
          : {}),
      })
      .catch(refused(client, 'a container creation')),
  );
  const run = new RunContainer(client, container, spec.execUser, spec.user);
  try {
    await bounded(client, 'a container start', () =>
      container.start().catch(refused(client, 'a container start')),
    );
  } catch (error) {
    await run.remove();
    throw error;
  }
  return run;
}

/**
 * Runs `cmd` in a fresh container of `image` and removes it: the one-shot
 * form, for probes of an image and the foundation tests.
 *
 * @example
 * const r = await runOnce(client, { image: 'evalrig-base:bookworm' }, ['git', '--version']);
 * r.stdout // 'git version 2.39.5\n'
 */
export async function runOnce(
  client: DockerClient,
  spec: ContainerSpec,
  cmd: readonly string[],
  options: ExecOptions = {},
): Promise<ExecResult> {
  const run = await startContainer(client, spec);
  try {
    return await run.exec(cmd, options);
  } finally {
    await run.remove();
  }
}

/**
 * Removes every container carrying all of `labels` (evalrig's managed label
 * is implied). Returns how many were removed.
 */
export async function removeContainers(
  client: DockerClient,
  labels: Readonly<Record<string, string>> = {},
): Promise<number> {
  const filters = [
    `${LABELS.managed}=true`,
    ...Object.entries(labels).map(([k, v]) => `${k}=${v}`),
  ];
  const found = await bounded(client, 'a container listing', () =>
    client.docker.listContainers({ all: true, filters: { label: filters } }),
  );
  // The holders of network namespaces last (see LABELS.place).
  const holder = (c: Docker.ContainerInfo): boolean => c.Labels?.[LABELS.place] !== undefined;
  for (const round of [found.filter((c) => !holder(c)), found.filter(holder)]) {
    await Promise.all(
      round.map((c) =>
        bounded(client, 'a removal', () =>
          client.docker.getContainer(c.Id).remove({ force: true, v: true }).catch(ignoreGone),
        ),
      ),
    );
  }
  return found.length;
}

/** Lists evalrig containers carrying all of `labels`. */
export async function listContainers(
  client: DockerClient,
  labels: Readonly<Record<string, string>> = {},
): Promise<Docker.ContainerInfo[]> {
  const filters = [
    `${LABELS.managed}=true`,
    ...Object.entries(labels).map(([k, v]) => `${k}=${v}`),
  ];
  return bounded(client, 'a container listing', () =>
    client.docker.listContainers({ all: true, filters: { label: filters } }),
  );
}
