/**
 * The Docker provider with each of its file strategies, under the names
 * callers construct: the local engine with its folders mounted, and an engine
 * that cannot see the host's disk, its files copied in and synced out.
 */
import type { DockerClient } from '../../runtime/index.js';
import { copiedFiles, type CopiedOptions, type CopiedStrategy } from './copied.js';
import type { RemoteLimits } from '../sync/index.js';
import { mountedFiles } from './mounted.js';
import { DockerProvider } from './provider.js';
import type { FileStrategy } from './strategy.js';

/**
 * Today's engine behind the seam: the local Docker engine (or any engine that
 * shares this host's disk); nothing is copied or synced.
 *
 * @example
 * const provider = new LocalDockerProvider(connectDocker());
 * const sandbox = await provider.start({ image: 'evalrig-base:bookworm' });
 * (await sandbox.exec(['true'])).exitCode // 0
 */
export class LocalDockerProvider extends DockerProvider<FileStrategy> {
  constructor(client: DockerClient) {
    super({ client, files: mountedFiles });
  }
}

export interface RemoteDockerOptions extends CopiedOptions {
  readonly client: DockerClient;
  /** For reports and errors; default the client's address. */
  readonly name?: string;
}

/** A Docker engine that cannot see the host's disk: no bind mount of a host path (copied.ts). */
export class RemoteDockerProvider extends DockerProvider<CopiedStrategy> {
  constructor(options: RemoteDockerOptions) {
    super({
      client: options.client,
      ...(options.name !== undefined ? { name: options.name } : {}),
      files: (client, name) => copiedFiles(client, name, options),
    });
  }

  /** What one sync may bring back, and how big a listing may be. */
  get limits(): RemoteLimits {
    return this.strategy.limits;
  }
}
