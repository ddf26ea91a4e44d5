import { EngineRefusedError } from './refusal.js';

/** The two families of engines evalrig drives: Docker's dockerd, and Podman's API service. */
export type EngineKind = 'docker' | 'podman';

/** One resource limit of a container's processes (setrlimit), as the Docker API spells it. */
export interface Ulimit {
  readonly Name: string;
  readonly Soft: number;
  readonly Hard: number;
}

/**
 * What evalrig learned of an engine that changes how it asks that engine for
 * containers. Learned once, when the engine is opened (sandbox/open-engine);
 * until then the engine is asked as Docker is. Clients copied from one
 * another share it, so every run on the engine benefits.
 */
export class EngineProfile {
  kind: EngineKind = 'docker';
  rootless = false;
  /** Podman's network backend (runtime/identity.ts): what a run's private network is made of there. */
  networkBackend: string | undefined = undefined;
  /**
   * Sent with every container when set. Rootful Podman otherwise raises the
   * open-file and process limits to 1048576, which a host whose root lacks
   * CAP_SYS_RESOURCE refuses; Docker's containers inherit the engine's own.
   */
  ulimits: readonly Ulimit[] | undefined = undefined;

  /**
   * After an engine refused to set a limit (runc's "error setting rlimit
   * type N": Podman's default is above what its root may set), the next lower
   * value for that limit: true when the creation should be tried again.
   * `sent` is what the refused creation was sent: when the limits changed
   * since (another creation lowered them meanwhile), the retry uses those.
   */
  lowerAfter(error: unknown, sent: readonly Ulimit[] | undefined): boolean {
    if (!(error instanceof EngineRefusedError)) return false;
    const type = /error setting rlimit type (\d+)/u.exec(error.engineMessage)?.[1];
    const name = type === undefined ? undefined : RLIMIT_NAMES[type];
    if (!name) return false;
    if (this.ulimits !== sent) return true;
    const current = this.ulimits?.find((u) => u.Name === name)?.Hard ?? PODMAN_ULIMIT;
    const next = ULIMIT_STEPS.find((v) => v < current);
    if (next === undefined) return false;
    this.ulimits = [
      ...(this.ulimits ?? []).filter((u) => u.Name !== name),
      { Name: name, Soft: next, Hard: next },
    ];
    return true;
  }
}

/** Values tried, highest first, for a limit the engine refused to raise. */
const ULIMIT_STEPS = [65536, 16384, 4096, 1024];
/** What Podman sets unless told otherwise. */
const PODMAN_ULIMIT = 1048576;
/** runc names a limit by its number: RLIMIT_NPROC and RLIMIT_NOFILE. */
const RLIMIT_NAMES: Readonly<Record<string, string>> = { '6': 'nproc', '7': 'nofile' };
