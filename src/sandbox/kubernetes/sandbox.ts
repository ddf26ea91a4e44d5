/**
 * One run's pod as a {@link Sandbox}. Kubernetes has no per-exec user: an
 * exec as the agent runs in the "agent" container, one as the keeper in the
 * "keeper" container (each container's runAsUser); any other user is refused,
 * not faked. Files cross by tar over exec (files.ts), written by the container
 * whose user owns them; nothing is mounted from the host.
 */
import { randomBytes } from 'node:crypto';
import { ProcessesNotStoppedError, type ExecOptions, type ExecResult } from '../../seam/index.js';
import { SandboxError } from '../errors.js';
import { packItems, tarExtractCommand, type Listing, type PackItem } from '../sync/index.js';
import type { Owner, Sandbox, SandboxFile, SyncStats } from '../types.js';
import type { Cluster } from './cluster.js';
import type { Tunnel } from '../docker/tunnel.js';
import { podExec, PodExecError } from './exec.js';
import { openPodTunnel } from './pod-tunnel.js';
import { containerOfUser, containerOwning, ownerOf } from './pod-users.js';
import { copyInto, listPodFolder, readPodFile, sendBytes, syncFromPod } from './files.js';
import { removeJob } from './pod-lifecycle.js';

/**
 * The shell's kill: the image need not have a kill program, every POSIX shell has the builtin.
 * A killed process stays in /proc as a zombie until pid 1 reaps it, so the call returns once
 * none is left (5 s at most): a caller that looks next sees the processes gone, not dying.
 */
const KILL_ALL = [
  'sh',
  '-c',
  'kill -9 -1; for i in $(seq 50); do grep -qs "^State:[[:space:]]*Z" /proc/[0-9]*/status || exit 0; sleep 0.1; done',
];

export class KubernetesSandbox implements Sandbox {
  readonly mountsHostFolders = false;
  private readonly synced = new Map<string, Listing>();
  private readonly owner: Owner;
  private readonly keeperOwner: Owner | undefined;
  private removed = false;
  private tunnel: Tunnel | undefined;

  constructor(
    private readonly cluster: Cluster,
    readonly id: string,
    private readonly pod: string,
    private readonly execUser: string,
    readonly engine: string,
    /** The keeper container's `uid:gid`, when the pod has one. */
    private readonly keeperUser?: string,
    /** Where the agent's execs run when the container's working directory is a mount above it. */
    private readonly agentWorkingDir?: string,
    /** Told when an exec could not reach the pod's node (provider.ts avoids it for a while). */
    private readonly onNodeLost?: () => void,
  ) {
    this.owner = ownerOf(execUser);
    this.keeperOwner = keeperUser ? ownerOf(keeperUser) : undefined;
  }

  private containerOf(user: string | undefined): string | undefined {
    return containerOfUser(user, this.execUser, this.keeperUser);
  }

  private containerOwning(owner: Owner | undefined): string | undefined {
    return containerOwning(owner, this.owner, this.keeperOwner);
  }

  /** Why the socket tunnel stopped carrying, if it did. */
  get tunnelFailure(): string | undefined {
    return this.tunnel?.failure;
  }

  /**
   * Serves each route's socket in the pod: one long-lived exec in the keeper runs the
   * tunnel program, and every connection to a socket there reaches its host socket.
   */
  async openTunnel(routes: ReadonlyMap<string, string>, program: string): Promise<void> {
    if (!this.keeperUser)
      throw new SandboxError(this.engine, 'start', 'a tunnel needs the keeper container');
    this.tunnel = await openPodTunnel(this.cluster, this.pod, routes, program, this.keeperUser);
  }

  /** Once removed, every call fails here: the pod may outlive its Job for a few seconds. */
  private live(operation: string): void {
    if (this.removed)
      throw new SandboxError(this.engine, operation, `sandbox ${this.id} is removed`);
  }

  async exec(cmd: readonly string[], options: ExecOptions = {}): Promise<ExecResult> {
    this.live('exec');
    const container = this.containerOf(options.user);
    if (!container) {
      throw new SandboxError(
        this.engine,
        'exec',
        `every exec runs as ${this.execUser}${this.keeperUser ? ` or the keeper ${this.keeperUser}` : ''}, not ${options.user}`,
      );
    }
    const input =
      options.stdin === undefined
        ? undefined
        : typeof options.stdin === 'string'
          ? Buffer.from(options.stdin)
          : options.stdin;
    const env = Object.entries(options.env ?? {}).map(([k, v]) => `${k}=${v}`);
    const cwd = options.workingDir ?? (container === 'agent' ? this.agentWorkingDir : undefined);
    const direct = [
      ...(env.length > 0 || cwd ? ['env', ...(cwd ? ['-C', cwd] : []), ...env] : []),
      ...cmd,
    ];
    // Protocol v4 cannot close stdin: `head -c N` reads the input's exact length and its
    // pipe's end is the end of file the command sees.
    const argv = input ? ['sh', '-c', `head -c ${input.length} | "$@"`, 'sh', ...direct] : direct;
    const started = Date.now();
    const cap = options.maxOutputBytes ?? 64 * 1024 * 1024;
    try {
      const r = await podExec(this.cluster, this.pod, argv, {
        container,
        maxOutputBytes: cap + 1,
        ...(input ? { input } : {}),
        ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
      });
      const stdoutBytes = r.stdout.subarray(0, cap);
      return {
        exitCode: r.exitCode,
        stdout: stdoutBytes.toString(),
        stdoutBytes,
        stderr: r.stderr.toString(),
        timedOut: false,
        truncated: r.stdout.length > cap,
        durationMs: Date.now() - started,
      };
    } catch (error) {
      if (error instanceof PodExecError && /timed out/.test(error.message)) {
        const none = Buffer.alloc(0);
        return {
          exitCode: null,
          stdout: '',
          stdoutBytes: none,
          stderr: '',
          timedOut: true,
          truncated: false,
          durationMs: Date.now() - started,
        };
      }
      // The exec's own failure (the pod or the API server went away) is the engine's, typed.
      if (error instanceof PodExecError) {
        if (error.unreachable) this.onNodeLost?.();
        throw new SandboxError(this.engine, 'exec', error.message, { cause: error });
      }
      throw error;
    }
  }

  async readFile(containerPath: string, options: { readonly maxBytes: number }): Promise<Buffer> {
    this.live('read file');
    if (!containerPath.startsWith('/')) {
      throw new SandboxError(
        this.engine,
        'a file operation',
        `${containerPath} is not an absolute path`,
      );
    }
    return readPodFile(this.cluster, this.pod, containerPath, options.maxBytes);
  }

  async writeFiles(files: readonly SandboxFile[]): Promise<void> {
    this.live('write files');
    // tar extracts as the container's user: a file is written by the container whose user
    // owns it, all in one; any other owner would be a lie on the host's side.
    const container = this.containerOwning(files[0]?.owner);
    const other = files.find((f) => this.containerOwning(f.owner) !== container);
    if (!container || other) {
      const f = other ?? files[0]!;
      throw new SandboxError(
        this.engine,
        'write files',
        `${f.path}: every file is ${this.execUser}'s${this.keeperUser ? ` or all the keeper's` : ''}, not ${f.owner!.uid}:${f.owner!.gid}`,
      );
    }
    const owner = container === 'keeper' ? this.keeperOwner! : this.owner;
    const items: PackItem[] = files.map((f) => ({
      kind: 'bytes',
      container: f.path,
      content: typeof f.content === 'string' ? Buffer.from(f.content) : f.content,
      mode: f.mode ?? 0o644,
      owner,
    }));
    const chunks: Buffer[] = [];
    for await (const chunk of packItems(items)) chunks.push(chunk as Buffer);
    const staged = `/tmp/.evalrig-files-${randomBytes(6).toString('hex')}.tar`;
    await sendBytes(this.cluster, this.pod, Buffer.concat(chunks), staged, container);
    const r = await podExec(this.cluster, this.pod, tarExtractCommand(staged), { container });
    await podExec(this.cluster, this.pod, ['rm', '-f', staged], { container });
    if (r.exitCode !== 0)
      throw new SandboxError(this.engine, 'write files', r.stderr.toString().trim().slice(0, 300));
  }

  async copyIn(hostFolder: string, containerPath: string, owner: Owner): Promise<void> {
    this.live('copy in');
    const key = `${containerPath}\0${hostFolder}`;
    this.synced.delete(key);
    const container = this.containerOwning(owner);
    if (!container) {
      throw new SandboxError(
        this.engine,
        'copy in',
        `${containerPath}: no container runs as ${owner.uid}:${owner.gid}`,
      );
    }
    await copyInto(this.cluster, this.pod, hostFolder, containerPath, owner, container);
    // What went in is what the host folder holds: the first sync back moves only what changed.
    this.synced.set(key, await listPodFolder(this.cluster, this.pod, containerPath));
  }

  async syncOut(containerPath: string, hostFolder: string): Promise<SyncStats> {
    const key = `${containerPath}\0${hostFolder}`;
    const before = this.synced.get(key);
    // A sync that fails leaves the host folder unknown: the next one starts from empty.
    this.synced.delete(key);
    const { stats, listing } = await syncFromPod(
      this.cluster,
      this.pod,
      containerPath,
      hostFolder,
      before,
    );
    this.synced.set(key, listing);
    return stats;
  }

  async stopProcessesOf(user: string, timeoutMs = 10_000): Promise<void> {
    if (user !== this.execUser) {
      throw new SandboxError(
        this.engine,
        'stop processes',
        `every process runs as ${this.execUser}, not ${user}`,
      );
    }
    // kill -1 spares pid 1 (the idler) and the caller: every other process of the user ends.
    const r = await podExec(this.cluster, this.pod, KILL_ALL, { timeoutMs }).catch(
      (error: Error) => {
        throw new ProcessesNotStoppedError(
          `stopping ${user}'s processes: ${error.message}`,
          /timed out/.test(error.message),
        );
      },
    );
    if (r.exitCode !== 0 && r.stderr.length > 0 && !/No such process/.test(r.stderr.toString())) {
      throw new ProcessesNotStoppedError(
        `stopping ${user}'s processes: ${r.stderr.toString().trim()}`,
        false,
      );
    }
  }

  /**
   * Every process but the idler ends; the pod stays, so syncOut still brings
   * back what a run cut by its timeout left (the pod's end is remove's).
   */
  async kill(): Promise<void> {
    this.tunnel?.close();
    await podExec(this.cluster, this.pod, KILL_ALL, { timeoutMs: 10_000 }).catch(() => undefined);
  }

  async remove(): Promise<void> {
    this.removed = true;
    this.tunnel?.close();
    await removeJob(this.cluster, this.id);
  }
}
