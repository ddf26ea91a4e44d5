/**
 * What a campaign asks of a sandbox: the spec it starts from (its image, users,
 * limits, the host folders, sockets and files it shares, its services) and
 * the files it writes in. The words every provider takes in; what they give
 * back and the two interfaces themselves are types.ts's.
 */
import type { ContainerLimits } from '../seam/index.js';

/** A uid and gid inside the sandbox. */
export interface Owner {
  readonly uid: number;
  readonly gid: number;
}

/**
 * A host folder the sandbox works in. Mounted where the provider can; otherwise
 * copied in (owned by `owner`) and brought back into the host folder by
 * `Sandbox.syncOut`, so host-side measures read the same tree either way.
 */
export interface SharedFolder {
  readonly host: string;
  readonly container: string;
  readonly readOnly?: boolean;
  /**
   * Who owns the copy inside the sandbox (set in the archive, never by a chown on
   * the host). A provider that mounts host folders leaves ownership to the caller,
   * who hands the host folder over before the start (as root) or shares its uid.
   */
  readonly owner?: Owner;
}

/**
 * A host folder of Unix sockets served to the sandbox at `container`: mounted
 * read-only where the provider can, otherwise each named socket is tunnelled
 * (its connections carried to the host socket of the same name).
 */
export interface SharedSockets {
  readonly host: string;
  readonly container: string;
  readonly names: readonly string[];
}

/** A host file the sandbox reads (an agent's binary): mounted read-only, or copied in. */
export interface SharedFile {
  readonly host: string;
  readonly container: string;
}

/**
 * A service the run's agent reaches by `name` (DNS) on the run's private
 * network: a database, a queue. Started before the sandbox is handed over and
 * ready by then; removed with the sandbox. Its image is the provider's to run
 * (built or shipped like the run's own).
 */
export interface ServiceSpec {
  /** Its DNS name on the run's network (a DNS label). */
  readonly name: string;
  readonly image: string;
  /** The main process; default the image's own. */
  readonly cmd?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly limits?: ContainerLimits;
  /**
   * When it is ready: a shell command in the service's container exits 0, or
   * its TCP `port` accepts a connection from the sandbox (by its name, as the
   * agent would connect). Not ready within `timeoutMs`: the start fails.
   */
  readonly ready: {
    readonly command?: string;
    readonly port?: number;
    readonly timeoutMs: number;
  };
}

/** What to start. Network none, capabilities dropped and limits are not options. */
export interface SandboxSpec {
  readonly image: string;
  /** The main process's user (`uid:gid`): not the agent's, so the agent's processes can be stopped. */
  readonly user?: string;
  /** User of every exec that names none. */
  readonly execUser?: string;
  readonly workingDir?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly labels?: Readonly<Record<string, string>>;
  readonly limits?: ContainerLimits;
  /**
   * What the run may write (resources.disk). A mounted sandbox is held to it by the run's quota;
   * a copying one holds its host copies to it: what the syncs write beyond the folders as they
   * went in (holes take nothing). Default: the provider's own cap.
   */
  readonly diskBytes?: number;
  readonly folders?: readonly SharedFolder[];
  readonly sockets?: readonly SharedSockets[];
  readonly files?: readonly SharedFile[];
  /**
   * Services beside the sandbox: given, the sandbox and they share a private
   * network of their own (no route out, the host not on it) instead of network
   * none. Only for a provider whose `SandboxProvider.servicesRefusal` says nothing.
   */
  readonly services?: readonly ServiceSpec[];
  /**
   * The engine's default network instead of none: only for an environment's
   * setup commands (the eval set's author's, fetching dependencies before any
   * run). A run's sandbox, the agent's, never sets it.
   */
  readonly online?: boolean;
}

/** What a reservation makes ahead for a sandbox with services (see `SandboxProvider.reserve`). */
export interface ReserveSpec {
  /** The sandbox's image: present on the engine, the places' holders idle in it. */
  readonly image: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly services: readonly ServiceSpec[];
}

/** A file to write into a sandbox. */
export interface SandboxFile {
  readonly path: string;
  readonly content: string | Buffer;
  /** Default 0o644. */
  readonly mode?: number;
  /**
   * Default root; on a backend that writes only as its exec user (Kubernetes),
   * that user, and any other owner is refused with a SandboxError.
   */
  readonly owner?: Owner;
}
