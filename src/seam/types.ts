/**
 * The words a sandbox and the Docker runtime share: what an exec takes and
 * returns, a sandbox's limits, the labels on everything evalrig starts. They live
 * below both (sandbox/ builds on runtime/, and a Kubernetes provider on neither),
 * so the seam's vocabulary is no backend's own.
 */

/** Labels on everything evalrig starts, so leftovers can always be found. */
export const LABELS = {
  managed: 'evalrig.managed',
  campaign: 'evalrig.campaign',
  run: 'evalrig.run',
  /** One orchestrator process: what its reaper removes when it dies. */
  session: 'evalrig.session',
  /**
   * A holder of a network namespace that other containers join (a run's place
   * on its network, sandbox/docker/services/): removed after them, as Podman
   * refuses to remove it while they are there.
   */
  place: 'evalrig.place',
} as const;

/** A sandbox's resource limits, whatever runs it (a container, a pod). */
export interface SandboxLimits {
  /** Memory in bytes. */
  readonly memoryBytes?: number;
  /** CPUs, fractional allowed (1.5). */
  readonly cpus?: number;
  /** Maximum number of processes. */
  readonly pids?: number;
}

export interface ExecOptions {
  readonly env?: Readonly<Record<string, string>>;
  readonly user?: string;
  readonly workingDir?: string;
  /** Written to the process's standard input, which is then closed. */
  readonly stdin?: string | Buffer;
  /** The exec is abandoned after this long; `timedOut` is then true. */
  readonly timeoutMs?: number;
  /**
   * Time not charged to `timeoutMs`, read when it runs out (e.g. a turn's model calls queued
   * behind the campaign's rate limits): the exec is given that much longer.
   */
  readonly extraMs?: () => number;
  /** Each of stdout and stderr is kept up to this many bytes. */
  readonly maxOutputBytes?: number;
}

export interface ExecResult {
  /** null when the exec timed out (its exit is unknown). */
  readonly exitCode: number | null;
  readonly stdout: string;
  /** Standard output as bytes, for callers that parse a byte-counted format. */
  readonly stdoutBytes: Buffer;
  readonly stderr: string;
  readonly timedOut: boolean;
  /** True when stdout or stderr was cut at maxOutputBytes. */
  readonly truncated: boolean;
  readonly durationMs: number;
}

/** The agent kept processes alive past a turn (a process table kept full, a kill loop outrun). */
export class ProcessesNotStoppedError extends Error {
  constructor(
    message: string,
    /** The stopping exec did not end in time: the engine may be the one not answering. */
    readonly timedOut: boolean,
  ) {
    super(message);
  }
}

/** The older name of {@link SandboxLimits}, kept for the runtime's containers. */
export type ContainerLimits = SandboxLimits;
