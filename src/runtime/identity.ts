import { createHash } from 'node:crypto';
import type { DockerClient } from './connection.js';
import { bounded, PING_BOUND_MS } from './engine.js';
import type { EngineKind } from './profile.js';

/**
 * Who an engine is, as it says itself: its kind (the version endpoint of
 * Podman's service lists a "Podman Engine" component), version, a stable id,
 * whether it runs rootless, its cgroup version, CPUs and memory.
 */
export interface EngineIdentity {
  readonly kind: EngineKind;
  /** dockerd's version, or Podman's. */
  readonly version: string;
  /** The Docker API version it speaks. */
  readonly apiVersion: string;
  /**
   * dockerd's ID; for Podman, whose compatible `/info` makes up a new ID at
   * every call, a digest of its host name and storage roots (stable while it
   * keeps its storage).
   */
  readonly id: string;
  readonly rootless: boolean;
  /** Podman's network backend ('cni' or 'netavark'), as its own info says. */
  readonly networkBackend?: string;
  /** '1' or '2' when the engine says. */
  readonly cgroupVersion?: string;
  readonly cpus: number;
  readonly memoryBytes: number;
  readonly os: string;
  readonly arch: string;
}

interface VersionAnswer {
  readonly Version?: string;
  readonly ApiVersion?: string;
  readonly Os?: string;
  readonly Arch?: string;
  readonly Components?: ReadonlyArray<{ readonly Name?: string; readonly Version?: string }>;
}

interface InfoAnswer {
  readonly ID?: string;
  readonly NCPU?: number;
  readonly MemTotal?: number;
  readonly CgroupVersion?: string;
  readonly SecurityOptions?: readonly string[];
}

interface LibpodInfo {
  readonly host?: {
    readonly hostname?: string;
    readonly security?: { readonly rootless?: boolean };
    readonly networkBackend?: string;
  };
  readonly store?: { readonly graphRoot?: string; readonly runRoot?: string };
}

/** Podman's own info endpoint (not in the Docker API): rootless, host name, storage. */
async function libpodInfo(client: DockerClient): Promise<LibpodInfo | undefined> {
  const modem = client.docker.modem as unknown as {
    dial(options: object, callback: (error: unknown, data: unknown) => void): void;
  };
  try {
    return await bounded(
      client,
      'a Podman info query',
      () =>
        new Promise<LibpodInfo>((resolve, reject) => {
          modem.dial(
            { path: '/v4.0.0/libpod/info', method: 'GET', statusCodes: { 200: true } },
            (error, data) => (error ? reject(error) : resolve(data as LibpodInfo)),
          );
        }),
      PING_BOUND_MS,
    );
  } catch {
    return undefined;
  }
}

/** The kind of the engine that answered `/version`. */
export function kindOf(version: VersionAnswer): EngineKind {
  return (version.Components ?? []).some((c) => /^Podman Engine$/iu.test(c.Name ?? ''))
    ? 'podman'
    : 'docker';
}

/**
 * Asks the engine who it is (two or three calls, each bounded).
 *
 * @example
 * const who = await identifyEngine(client);
 * who.kind // 'podman'; who.rootless // true
 */
export async function identifyEngine(client: DockerClient): Promise<EngineIdentity> {
  const version = (await bounded(
    client,
    'a version query',
    () => client.docker.version(),
    PING_BOUND_MS,
  )) as VersionAnswer;
  const info = (await bounded(
    client,
    'an info query',
    () => client.docker.info(),
    PING_BOUND_MS,
  )) as InfoAnswer;
  const kind = kindOf(version);
  const podman = kind === 'podman' ? await libpodInfo(client) : undefined;
  const rootless =
    podman?.host?.security?.rootless ??
    (info.SecurityOptions ?? []).some((o) => /(^|,)name=rootless(,|$)/u.test(o));
  const id = podman
    ? `podman-${createHash('sha256')
        .update([podman.host?.hostname, podman.store?.graphRoot, podman.store?.runRoot].join('\0'))
        .digest('hex')
        .slice(0, 24)}`
    : (info.ID ?? '');
  return {
    kind,
    version: version.Version ?? '',
    apiVersion: version.ApiVersion ?? '',
    id,
    rootless,
    ...(podman?.host?.networkBackend ? { networkBackend: podman.host.networkBackend } : {}),
    ...(info.CgroupVersion ? { cgroupVersion: info.CgroupVersion } : {}),
    cpus: typeof info.NCPU === 'number' ? info.NCPU : 0,
    memoryBytes: typeof info.MemTotal === 'number' ? info.MemTotal : 0,
    os: version.Os ?? '',
    arch: version.Arch ?? '',
  };
}
