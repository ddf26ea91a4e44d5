/**
 * One run's pod as a {@link Sandbox}. Every exec runs as the pod's one user
 * (the container's runAsUser): another user is refused, not faked. Files
 * cross by tar over exec (files.ts); nothing is mounted from the host.
 */
import { randomBytes } from 'node:crypto';
import { ProcessesNotStoppedError, type ExecOptions, type ExecResult } from '../../seam/index.js';
import { SandboxError, SandboxFileError } from '../errors.js';
import { packItems, tarExtractCommand, type Listing, type PackItem } from '../sync/index.js';
import type { Owner, Sandbox, SandboxFile, SyncStats } from '../types.js';
import type { Cluster } from './cluster.js';
import { podExec, PodExecError } from './exec.js';
import { copyInto, listPodFolder, sendBytes, syncFromPod } from './files.js';
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
  private removed = false;

  constructor(
    private readonly cluster: Cluster,
    readonly id: string,
    private readonly pod: string,
    private readonly execUser: string,
    readonly engine: string,
  ) {
    const [uid, gid] = execUser.split(':').map(Number);
    this.owner = { uid: uid!, gid: gid ?? uid! };
  }

  /** Once removed, every call fails here: the pod may outlive its Job for a few seconds. */
  private live(operation: string): void {
    if (this.removed)
      throw new SandboxError(this.engine, operation, `sandbox ${this.id} is removed`);
  }

  async exec(cmd: readonly string[], options: ExecOptions = {}): Promise<ExecResult> {
    this.live('exec');
    if (options.user !== undefined && options.user !== this.execUser) {
      throw new SandboxError(
        this.engine,
        'exec',
        `every exec runs as ${this.execUser}, not ${options.user}`,
      );
    }
    const input =
      options.stdin === undefined
        ? undefined
        : typeof options.stdin === 'string'
          ? Buffer.from(options.stdin)
          : options.stdin;
    const env = Object.entries(options.env ?? {}).map(([k, v]) => `${k}=${v}`);
    const direct = [
      ...(env.length > 0 || options.workingDir
        ? ['env', ...(options.workingDir ? ['-C', options.workingDir] : []), ...env]
        : []),
      ...cmd,
    ];
    // Protocol v4 cannot close stdin: `head -c N` reads the input's exact length and its
    // pipe's end is the end of file the command sees.
    const argv = input ? ['sh', '-c', `head -c ${input.length} | "$@"`, 'sh', ...direct] : direct;
    const started = Date.now();
    const cap = options.maxOutputBytes ?? 64 * 1024 * 1024;
    try {
      const r = await podExec(this.cluster, this.pod, argv, {
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
    // stat without following links first: a FIFO or a device is never opened.
    const st = await podExec(this.cluster, this.pod, ['stat', '-c', '%F|%s', '--', containerPath]);
    if (st.exitCode !== 0) throw new SandboxFileError(containerPath, 'missing');
    const [type, size] = st.stdout.toString().trim().split('|');
    if (type !== 'regular file' && type !== 'regular empty file') {
      throw new SandboxFileError(containerPath, 'not-regular', type ?? '');
    }
    if (Number(size) > options.maxBytes) {
      throw new SandboxFileError(
        containerPath,
        'too-large',
        `${size} bytes, the cap is ${options.maxBytes}`,
      );
    }
    const r = await podExec(this.cluster, this.pod, [
      'head',
      '-c',
      String(options.maxBytes + 1),
      '--',
      containerPath,
    ]);
    if (r.stdout.length > options.maxBytes) {
      throw new SandboxFileError(containerPath, 'too-large', `over ${options.maxBytes} bytes`);
    }
    return r.stdout;
  }

  async writeFiles(files: readonly SandboxFile[]): Promise<void> {
    this.live('write files');
    // tar extracts as the pod's one user: any other owner would be a lie on the host's side.
    const other = files.find(
      (f) => f.owner && (f.owner.uid !== this.owner.uid || f.owner.gid !== this.owner.gid),
    );
    if (other) {
      throw new SandboxError(
        this.engine,
        'write files',
        `${other.path}: every file is ${this.execUser}'s, not ${other.owner!.uid}:${other.owner!.gid}`,
      );
    }
    const items: PackItem[] = files.map((f) => ({
      kind: 'bytes',
      container: f.path,
      content: typeof f.content === 'string' ? Buffer.from(f.content) : f.content,
      mode: f.mode ?? 0o644,
      owner: this.owner,
    }));
    const chunks: Buffer[] = [];
    for await (const chunk of packItems(items)) chunks.push(chunk as Buffer);
    const staged = `/tmp/.evalrig-files-${randomBytes(6).toString('hex')}.tar`;
    await sendBytes(this.cluster, this.pod, Buffer.concat(chunks), staged);
    const r = await podExec(this.cluster, this.pod, tarExtractCommand(staged));
    await podExec(this.cluster, this.pod, ['rm', '-f', staged]);
    if (r.exitCode !== 0)
      throw new SandboxError(this.engine, 'write files', r.stderr.toString().trim().slice(0, 300));
  }

  async copyIn(hostFolder: string, containerPath: string, owner: Owner): Promise<void> {
    this.live('copy in');
    const key = `${containerPath}\0${hostFolder}`;
    this.synced.delete(key);
    await copyInto(this.cluster, this.pod, hostFolder, containerPath, owner);
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
    await podExec(this.cluster, this.pod, KILL_ALL, { timeoutMs: 10_000 }).catch(() => undefined);
  }

  async remove(): Promise<void> {
    this.removed = true;
    await removeJob(this.cluster, this.id);
  }
}
