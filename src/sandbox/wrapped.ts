import type {
  ExecOptions,
  ExecResult,
  Owner,
  Sandbox,
  SandboxFile,
  ServiceFailure,
  StartedService,
  SyncStats,
} from './types.js';

/**
 * A sandbox that is another one with something added at its edges (a pool slot freed on
 * removal, services removed with it): every call goes to the inner sandbox unless a subclass
 * says otherwise, so the wrappers stay as narrow as the interface.
 */
export abstract class WrappedSandbox implements Sandbox {
  constructor(protected readonly inner: Sandbox) {}

  get id(): string {
    return this.inner.id;
  }
  get engine(): string {
    return this.inner.engine;
  }
  get mountsHostFolders(): boolean {
    return this.inner.mountsHostFolders;
  }
  get services(): readonly StartedService[] | undefined {
    return this.inner.services;
  }
  serviceFailures(): Promise<readonly ServiceFailure[]> {
    return this.inner.serviceFailures?.() ?? Promise.resolve([]);
  }
  exec(cmd: readonly string[], options?: ExecOptions): Promise<ExecResult> {
    return this.inner.exec(cmd, options);
  }
  readFile(containerPath: string, options: { readonly maxBytes: number }): Promise<Buffer> {
    return this.inner.readFile(containerPath, options);
  }
  writeFiles(files: readonly SandboxFile[]): Promise<void> {
    return this.inner.writeFiles(files);
  }
  copyIn(hostFolder: string, containerPath: string, owner: Owner): Promise<void> {
    return this.inner.copyIn(hostFolder, containerPath, owner);
  }
  syncOut(containerPath: string, hostFolder: string): Promise<SyncStats> {
    return this.inner.syncOut(containerPath, hostFolder);
  }
  stopProcessesOf(user: string, timeoutMs?: number): Promise<void> {
    return this.inner.stopProcessesOf(user, timeoutMs);
  }
  kill(): Promise<void> {
    return this.inner.kill();
  }
  remove(): Promise<void> {
    return this.inner.remove();
  }
}
