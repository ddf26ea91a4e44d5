import type { DockerClient, EngineWatchOptions } from '../runtime/index.js';
import type { ExecOptions, ExecResult } from '../seam/index.js';

// The seam's vocabulary: every provider's exec, limits and labels are these.
export * from '../seam/index.js';
import type { EngineDescription, PreflightResult, PreflightSpec } from './engine-check.js';
import type { BaseImageState, ImageBuilder, SandboxImage } from './image-builder.js';

export type { BaseImageState, ImageBuilder, SandboxImage } from './image-builder.js';
import type { Owner, ReserveSpec, SandboxFile, SandboxSpec } from './spec.js';

// What a campaign asks of a sandbox (its spec, its files): spec.ts.
export * from './spec.js';

/**
 * The seam between a campaign and where its runs execute. A campaign and the
 * stop collection speak only these two interfaces; local Docker (bind mounts),
 * a remote Docker engine (archives in, deltas out) and, one day, Kubernetes
 * sit behind them. Inspect AI's SandboxEnvironment is the model: exec, read and
 * write files, one conformance suite that every backend passes.
 *
 * Whatever comes out of a sandbox is the untrusted agent's: a provider hands it
 * back as data (bytes, capped; archives entry-checked), never as a path to follow.
 * What a provider is asked (the spec) is spec.ts's; what it gives back is here.
 */

/** A service as it started: its container and how long it took to be ready. */
export interface StartedService {
  readonly name: string;
  readonly id: string;
  /** From the ask (a start's; places still being made count) to its readiness check's first success. */
  readonly readyMs: number;
}

/** A service found dead after its start: which, when, how, its last words. */
export interface ServiceFailure {
  readonly name: string;
  /** When its main process ended (the engine's clock), ISO 8601. */
  readonly at: string;
  readonly exitCode: number | null;
  readonly oomKilled: boolean;
  /** Its last log lines (stdout and stderr), capped. */
  readonly logTail: readonly string[];
}

/** A sandbox's start begun ahead of its spec: its engine chosen, its run's network made meanwhile. */
export interface SandboxReservation {
  /** Starts the sandbox there, with what was made (once; the spec's services are the reserved ones). */
  start(spec: SandboxSpec): Promise<Sandbox>;
  /** Removes what was made, for a start that will not come. Idempotent; nothing once started. */
  release(): Promise<void>;
  /** Settles once what is made ahead is made (never rejects: a failure shows at the start). */
  readonly made: Promise<void>;
}

/** What one {@link Sandbox.syncOut} moved: proportional to what changed, not to the tree. */
export interface SyncStats {
  /** Entries written or replaced in the host folder. */
  readonly changed: number;
  /** Entries removed from the host folder. */
  readonly removed: number;
  /** Bytes that crossed from the sandbox (0 when mounted). */
  readonly bytes: number;
}

/** One started sandbox: a run's container, wherever it runs. */
export interface Sandbox {
  readonly id: string;
  /** The provider's name (the engine it runs on). */
  readonly engine: string;
  /** True when host folders are the sandbox's own (mounted): nothing is copied or synced. */
  readonly mountsHostFolders: boolean;
  /**
   * Runs a command; output capped (`truncated`), a timeout leaves `timedOut`
   * true and the exit unknown (null), the sandbox usable. A sandbox killed or
   * removed meanwhile ends the exec: it returns or throws, never hangs. A
   * backend that runs every exec as the spec's `execUser` (Kubernetes) refuses
   * another `user` with a SandboxError.
   */
  exec(cmd: readonly string[], options?: ExecOptions): Promise<ExecResult>;
  /**
   * A regular file's bytes, refused (SandboxFileError) when missing, not regular
   * (a folder, a FIFO, a device, a link: never followed) or over `maxBytes`
   * (refused before its bytes cross). Never blocks on what the agent planted.
   */
  readFile(containerPath: string, options: { readonly maxBytes: number }): Promise<Buffer>;
  /** Writes files (missing parents created, root's), with their modes and owners. */
  writeFiles(files: readonly SandboxFile[]): Promise<void>;
  /** Copies a host folder's contents into the sandbox at `containerPath`, owned by `owner`. */
  copyIn(hostFolder: string, containerPath: string, owner: Owner): Promise<void>;
  /**
   * Makes `hostFolder` hold what the sandbox's `containerPath` holds now (files,
   * folders, links as links, modes). A no-op when mounted. Otherwise only what
   * changed since the previous sync of this pair crosses. Works after
   * {@link kill} until {@link remove}: a run cut by a timeout is killed, and
   * what it left is still brought back for the final diff (a stopped Docker
   * container's files are served by the archive endpoint; exec is not).
   */
  syncOut(containerPath: string, hostFolder: string): Promise<SyncStats>;
  /**
   * Stops every process of `user` (the agent), the sandbox lives on. Throws
   * ProcessesNotStoppedError (its `timedOut` says whether the stopping exec
   * itself got no answer) when some keep running.
   */
  stopProcessesOf(user: string, timeoutMs?: number): Promise<void>;
  /** Stops the sandbox's main process at once. Idempotent. */
  kill(): Promise<void>;
  /** Removes the sandbox and what it holds. Idempotent. */
  remove(): Promise<void>;
  /** The spec's services, each ready (absent or empty: none). */
  readonly services?: readonly StartedService[];
  /** The services that are no longer running, with why (empty: all are). */
  serviceFailures?(): Promise<readonly ServiceFailure[]>;
}

/**
 * Where sandboxes are started: one Docker engine (local or remote), one day a cluster.
 *
 * Its lifecycle is Inspect AI's: {@link open} (task_init), {@link start} and
 * {@link Sandbox.remove} (sample_init, sample_cleanup), {@link close}
 * (task_cleanup), {@link reap} (cli_cleanup). A provider never opened starts
 * sandboxes all the same (a test, a one-off check), with no watch and no reaper.
 */
export interface SandboxProvider {
  /** A name for reports and errors (`local`, `tcp://127.0.0.1:2376`, a context's name). */
  readonly name: string;
  readonly mountsHostFolders: boolean;
  /** Sandboxes at once over all its engines; absent: the campaign's `--jobs`. */
  readonly slots?: number;
  /**
   * Before the first sandbox: its engines watched (a frozen one noticed in
   * seconds), and a reaper standing by on each that removes what this provider
   * started should the process die. Idempotent; refused once closed.
   */
  open(options?: OpenOptions): Promise<void>;
  /**
   * After the last: no creation starts any more (those in flight land first),
   * every sandbox it started that is still there is removed, the watches and
   * reapers let go. Idempotent. A closed provider refuses {@link start} with a
   * ProviderClosedError.
   */
  close(): Promise<void>;
  /**
   * The Docker clients of its engines, in order (images are built on the first),
   * with this provider's labels and gate. Absent: a backend that is no Docker engine.
   */
  dockerClients?(): readonly DockerClient[];
  /**
   * What builds the images this provider runs and puts them where its nodes run
   * them (a Docker provider's own first engine; a cluster's, an engine and a
   * registry). Absent: the provider runs only images made elsewhere.
   */
  imageBuilder?(): ImageBuilder;
  /**
   * Lends the engine this provider builds images on (its first) to `build`, one of image/'s
   * builders, for as long as the build takes but no longer than the engine answers (lost
   * meanwhile: the wait ends with its error). What is built there reaches each engine that
   * runs it by {@link ensureImage}. Absent: a backend that builds nothing itself.
   */
  buildImage?<T>(what: string, build: (engine: DockerClient) => Promise<T>): Promise<T>;
  /**
   * The base image `tag` made present on the build engine when it lacks it and one of the
   * provider's other engines, or the machine's own, has it. Nothing happens when none has it
   * (the build then says which base is missing).
   */
  ensureBaseImage?(tag: string, log: NodeJS.WritableStream): Promise<BaseImageState>;
  /** Fails with a clear error when the backend does not answer. */
  check(): Promise<void>;
  /** Makes `image` runnable here: present already, or shipped from `from` (the engine it was built on). */
  ensureImage(image: SandboxImage, from?: SandboxProvider): Promise<void>;
  start(spec: SandboxSpec): Promise<Sandbox>;
  /**
   * Begins a sandbox's start ahead, while the caller prepares what the spec
   * needs: the run's private network and each container's place on it (what
   * makes a start with services slow) are made at once, on the engine the start
   * will use. Absent: nothing can be made ahead (call {@link start}).
   */
  reserve?(ahead: ReserveSpec): SandboxReservation;
  /**
   * Set once the backend stopped answering mid-campaign (every call of its
   * sandboxes then fails with it): a run that failed meanwhile failed for the
   * harness, not for its agent. Optional: a backend with no such watch says nothing.
   */
  lost?(): Error | undefined;
  /**
   * Why this provider cannot start services beside its sandboxes (one line),
   * or undefined when it can. Absent: it cannot.
   */
  servicesRefusal?(): string | undefined;
  /** Removes every sandbox carrying all of `labels` (and their networks); how many were removed. */
  reap(labels: Readonly<Record<string, string>>): Promise<number>;
  /**
   * Who the engines behind this provider are, in order (each pinged and asked
   * once); what each does differently is learned on the way. Optional: a
   * backend that is no engine says nothing.
   */
  describe?(): Promise<readonly EngineDescription[]>;
  /**
   * A locked-down container started and removed on each engine, as every run's
   * would be; fails with the engine's refusal when one would refuse them all.
   */
  preflight?(spec: PreflightSpec): Promise<readonly PreflightResult[]>;
}

/** What a provider's {@link SandboxProvider.open} is told about the campaign that opens it. */
export interface OpenOptions {
  /** How the engines are watched for a freeze (tests shorten it). */
  readonly watch?: EngineWatchOptions;
  /**
   * The orchestrator's scratch folder: the first engine's reaper removes it when the
   * orchestrator dies, and the stale ones of dead orchestrators beside it go at the open.
   */
  readonly scratch?: string;
  /** A folder under which the first engine's reaper unmounts every mount (the runs' disk quotas). */
  readonly mounts?: string;
  /**
   * Whose mounts under `mounts` the reaper removes: those whose source names this
   * owner (`newQuotaOwner()` of the quota module). A campaign resumed in the same folder
   * while the last one's reaper still sweeps keeps its own.
   */
  readonly mountsOwner?: string;
}
