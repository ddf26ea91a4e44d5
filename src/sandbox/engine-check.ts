/**
 * An engine looked at before a campaign trusts it with runs: who it is
 * ({@link describeEngine}: kind, version, id, rootless, CPUs, memory), then a
 * locked-down container started there and removed ({@link preflightEngine}):
 * network none, a non-root user, an init, the eval set's limits, as every run's
 * container is. What the engine does differently is learned on the way and
 * kept in its client's profile, so that every run there is asked for the same
 * way (rootful Podman's open-file and process limits, lowered by runtime's
 * container start where its root may not raise them, are said here).
 *
 * @example
 * const engine = await describeEngine(client, 'unix:///run/podman/podman.sock');
 * const check = await preflightEngine(client, engine, { image, limits });
 * check.limitsEnforced // false on rootless Podman over cgroup v1
 */
import {
  DEFAULT_LIMITS,
  identifyEngine,
  pingDocker,
  startContainer,
  type DockerClient,
  type EngineIdentity,
  type Ulimit,
} from '../runtime/index.js';
import type { ContainerLimits } from '../seam/index.js';

/** An engine as a campaign records it: the address as given, and who answered there. */
export interface EngineDescription extends Omit<EngineIdentity, 'kind'> {
  /** A Docker engine's kind, or a cluster (whose nodes' engines evalrig never speaks to). */
  readonly kind: EngineIdentity['kind'] | 'kubernetes';
  /** As the user gave it (`--engine`, DOCKER_HOST, a context's name). */
  readonly address: string;
}

/** What the locked-down container showed. */
export interface PreflightResult {
  readonly engine: EngineDescription;
  readonly look: LockedDownLook;
  /** The memory and process limits hold inside the container (rootless on cgroup v1: they do not). */
  readonly limitsEnforced: boolean;
  /** The ulimits evalrig sends there, when it had to lower the engine's (Podman's) own. */
  readonly ulimits?: readonly Ulimit[];
  /** What the user should know, one sentence each. */
  readonly warnings: readonly string[];
}

export interface PreflightSpec {
  /** An image the engine holds, with sh. */
  readonly image: string;
  readonly limits?: ContainerLimits;
  /** Labels of the preflight container (its campaign's, so that its reaper removes it). */
  readonly labels?: Readonly<Record<string, string>>;
}

/** Pings the engine and asks who it is; records its kind in the client's profile. */
export async function describeEngine(
  client: DockerClient,
  address: string,
): Promise<EngineDescription> {
  await pingDocker(client);
  const identity = await identifyEngine(client);
  if (client.profile) {
    client.profile.kind = identity.kind;
    client.profile.rootless = identity.rootless;
    client.profile.networkBackend = identity.networkBackend;
  }
  return { address, ...identity };
}

/**
 * Reads, inside the container, what a run there is held to: its user, its
 * memory and process limits (cgroup v2 files, else v1's), its network
 * interfaces and its pid 1 (the init). One `key=value` per line.
 */
export const LOCKED_DOWN_LOOK = `echo "uid=$(id -u)"
echo "memory=$(cat /sys/fs/cgroup/memory.max 2>/dev/null || cat /sys/fs/cgroup/memory/memory.limit_in_bytes 2>/dev/null)"
echo "pids=$(cat /sys/fs/cgroup/pids.max 2>/dev/null || cat /sys/fs/cgroup/pids/pids.max 2>/dev/null)"
echo "network=$(ls /sys/class/net | tr '\\n' ' ')"
echo "init=$(tr '\\0' ' ' < /proc/1/cmdline | cut -d' ' -f1)"`;

/** What {@link LOCKED_DOWN_LOOK} saw. */
export interface LockedDownLook {
  readonly uid: string;
  /** Bytes, or 'max' / a huge number when unbounded; '' when unreadable. */
  readonly memory: string;
  readonly pids: string;
  readonly network: readonly string[];
  readonly init: string;
}

/** Parses {@link LOCKED_DOWN_LOOK}'s lines. */
export function parseLook(text: string): LockedDownLook {
  const field = (key: string): string =>
    new RegExp(`^${key}=(.*)$`, 'mu').exec(text)?.[1]?.trim() ?? '';
  return {
    uid: field('uid'),
    memory: field('memory'),
    pids: field('pids'),
    network: field('network').split(/\s+/u).filter(Boolean),
    init: field('init'),
  };
}

/** Whether the limits read inside hold the ones asked for (the kernel rounds memory to pages). */
export function limitsHold(look: LockedDownLook, limits: ContainerLimits | undefined): boolean {
  const memory = Number(look.memory);
  const pids = Number(look.pids);
  const memoryOk =
    look.memory !== '' &&
    Number.isFinite(memory) &&
    (limits?.memoryBytes === undefined || memory <= limits.memoryBytes * 1.01);
  const pidsOk = Number.isFinite(pids) && (limits?.pids === undefined || pids <= limits.pids);
  return memoryOk && pidsOk;
}

/**
 * Starts a locked-down container on the engine and removes it; fails with the
 * engine's refusal (EngineRefusedError: its words, what to do) when the engine
 * would refuse every run.
 */
export async function preflightEngine(
  client: DockerClient,
  engine: EngineDescription,
  spec: PreflightSpec,
): Promise<PreflightResult> {
  const before = client.profile?.ulimits;
  // The limits every container gets unless told otherwise, checked as the ones asked.
  const limits = { ...DEFAULT_LIMITS, ...spec.limits };
  const run = await startContainer(client, {
    image: spec.image,
    user: '65534:65534',
    limits,
    labels: { ...spec.labels, 'evalrig.preflight': 'true' },
  });
  let look: LockedDownLook;
  try {
    const r = await run.exec(['sh', '-c', LOCKED_DOWN_LOOK], {
      timeoutMs: 30_000,
      maxOutputBytes: 4096,
    });
    look = parseLook(r.stdout);
  } finally {
    await run.remove().catch(() => undefined);
  }
  const warnings: string[] = [];
  const limitsEnforced = limitsHold(look, limits);
  if (!limitsEnforced) {
    warnings.push(
      `the engine at ${engine.address} does not hold its containers to their memory and process limits${engine.rootless && engine.cgroupVersion === '1' ? ' (rootless on a cgroup v1 host)' : ''}: its runs are not bounded; run it on a cgroup v2 host, or rootful`,
    );
  }
  const ulimits = client.profile?.ulimits;
  if (ulimits && ulimits !== before) {
    warnings.push(
      `the engine at ${engine.address} refused to raise its containers' ${ulimits.map((u) => u.Name).join(' and ')} limits: evalrig sets ${ulimits.map((u) => `${u.Name}=${u.Hard}`).join(', ')} (set default_ulimits in its containers.conf to choose)`,
    );
  }
  return { engine, look, limitsEnforced, ...(ulimits ? { ulimits } : {}), warnings };
}

/**
 * One engine's description and preflight, as its provider owns them: the
 * description asked once and kept, the preflight's result kept for whoever
 * asks after (doctor, the campaign's record).
 */
export class EngineChecks {
  private described: Promise<EngineDescription> | undefined;
  private checked: PreflightResult | undefined;

  constructor(
    private readonly client: DockerClient,
    private readonly address: string,
  ) {}

  describe(): Promise<EngineDescription> {
    this.described ??= describeEngine(this.client, this.address);
    return this.described;
  }

  async preflight(spec: PreflightSpec): Promise<PreflightResult> {
    this.checked = await preflightEngine(this.client, await this.describe(), spec);
    return this.checked;
  }

  /** The last preflight's result, if one ran. */
  get result(): PreflightResult | undefined {
    return this.checked;
  }
}
