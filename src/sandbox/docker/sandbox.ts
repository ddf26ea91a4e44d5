/**
 * One run's container on a Docker engine, whichever way its files travel: the
 * exec, the file read, the stopping and the removal are the engine's and the
 * same for every Docker sandbox; the writes, the copy in and the sync out are
 * the file strategy's ({@link SandboxFiles}: mounted.ts, copied.ts).
 */
import type { Readable } from 'node:stream';
import type Docker from 'dockerode';
import { bounded, type DockerClient, type RunContainer } from '../../runtime/index.js';
import type { ExecOptions, ExecResult, Owner, Sandbox, SandboxFile, SyncStats } from '../types.js';
import { readContainerFile } from './read-file.js';

/** What a file strategy does for one sandbox: the file operations that differ. */
export interface SandboxFiles {
  writeFiles(files: readonly SandboxFile[]): Promise<void>;
  copyIn(hostFolder: string, containerPath: string, owner: Owner): Promise<void>;
  syncOut(containerPath: string, hostFolder: string): Promise<SyncStats>;
  /** Why the socket tunnel stopped carrying, if the strategy runs one and it did. */
  readonly tunnelFailure?: string;
  /** Ends what the strategy runs beside the container (the tunnel), before a kill or removal. */
  close?(): void;
}

/** An archive put into `container` at `/` (its names are absolute), bounded. */
export async function putArchive(
  client: DockerClient,
  container: Docker.Container,
  archive: Readable,
  what: string,
  timeoutMs?: number,
): Promise<void> {
  await bounded(
    client,
    what,
    () => container.putArchive(archive as unknown as NodeJS.ReadableStream, { path: '/' }),
    timeoutMs,
  );
}

/** A run's container on a Docker engine, its files as its provider's strategy moves them. */
export class DockerSandbox implements Sandbox {
  constructor(
    private readonly client: DockerClient,
    readonly engine: string,
    /** runtime's container: this sandbox's implementation. */
    readonly run: RunContainer,
    readonly mountsHostFolders: boolean,
    private readonly files: SandboxFiles,
  ) {}

  get id(): string {
    return this.run.id;
  }

  /** Why the socket tunnel stopped carrying, if it did. */
  get tunnelFailure(): string | undefined {
    return this.files.tunnelFailure;
  }

  exec(cmd: readonly string[], options?: ExecOptions): Promise<ExecResult> {
    return this.run.exec(cmd, options);
  }

  /**
   * Through the engine's archive endpoint, which never follows the last
   * component (a link comes back as a link, refused) and resolves the rest
   * inside the container's own root: nothing on the host is reachable.
   */
  readFile(containerPath: string, options: { readonly maxBytes: number }): Promise<Buffer> {
    return readContainerFile(this.client, this.run.container, this.engine, containerPath, options);
  }

  writeFiles(files: readonly SandboxFile[]): Promise<void> {
    return this.files.writeFiles(files);
  }

  copyIn(hostFolder: string, containerPath: string, owner: Owner): Promise<void> {
    return this.files.copyIn(hostFolder, containerPath, owner);
  }

  syncOut(containerPath: string, hostFolder: string): Promise<SyncStats> {
    return this.files.syncOut(containerPath, hostFolder);
  }

  stopProcessesOf(user: string, timeoutMs?: number): Promise<void> {
    return this.run.stopProcessesOf(user, timeoutMs);
  }

  async kill(): Promise<void> {
    this.files.close?.();
    await this.run.kill();
  }

  async remove(): Promise<void> {
    this.files.close?.();
    await this.run.remove();
  }
}
