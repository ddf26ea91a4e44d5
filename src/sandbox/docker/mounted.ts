/**
 * The mounted file strategy: the local engine (or any engine that shares this
 * host's disk). Host folders, sockets and shared files are bind mounts, so
 * the host folder already is the sandbox's: nothing is synced out. Writes
 * and copies in go through the engine's archive endpoint. Images are built
 * where they run, so an image is only checked, never shipped.
 */
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { PackOptions } from 'tar-fs';
import type { Header } from 'tar-stream';
import {
  bounded,
  statusOf,
  type Bind,
  type DockerClient,
  type RunContainer,
} from '../../runtime/index.js';
import { SandboxError } from '../errors.js';
import type { Owner, SandboxFile, SandboxImage, SandboxSpec, SyncStats } from '../types.js';
import { absolutePath } from './read-file.js';
import { putArchive, type SandboxFiles } from './sandbox.js';
import type { FileStrategy, Placement } from './strategy.js';

const NOTHING_MOVED: SyncStats = { changed: 0, removed: 0, bytes: 0 };

/**
 * The spec's shared folders, sockets and files as bind mounts: a folder of
 * sockets is mounted read-only (the agent may connect, create nothing), a
 * file (an agent's binary) read-only too.
 */
export function bindsOf(spec: SandboxSpec): Bind[] {
  return [
    ...(spec.folders ?? []).map((f) => ({
      host: f.host,
      container: f.container,
      readOnly: f.readOnly,
    })),
    ...(spec.sockets ?? []).map((s) => ({ host: s.host, container: s.container, readOnly: true })),
    ...(spec.files ?? []).map((f) => ({ host: f.host, container: f.container, readOnly: true })),
  ];
}

/** The files of one sandbox whose host folders are mounted. */
class MountedFiles implements SandboxFiles {
  constructor(
    private readonly client: DockerClient,
    private readonly engine: string,
    private readonly run: RunContainer,
  ) {}

  async writeFiles(files: readonly SandboxFile[]): Promise<void> {
    if (files.length === 0) return;
    // Loaded here: a campaign on mounted folders never ships an archive.
    const archive = (await import('tar-stream')).pack();
    for (const f of files) {
      const content = typeof f.content === 'string' ? Buffer.from(f.content) : f.content;
      const header: Partial<Header> & { name: string } = {
        name: absolutePath(this.engine, f.path).slice(1),
        type: 'file',
        mode: f.mode ?? 0o644,
        uid: f.owner?.uid ?? 0,
        gid: f.owner?.gid ?? 0,
        size: content.length,
        mtime: new Date(),
      };
      archive.entry(header, content);
    }
    archive.finalize();
    await this.put(archive as unknown as Readable, 'a file write');
  }

  /** The folder's tree as an archive at `containerPath` (links kept as links), owned by `owner`. */
  async copyIn(hostFolder: string, containerPath: string, owner: Owner): Promise<void> {
    const target = absolutePath(this.engine, containerPath).slice(1);
    const { pack } = await import('tar-fs');
    // umask 0: the modes cross as they are (tar-fs applies the process's otherwise).
    const options: PackOptions & { umask: number } = {
      umask: 0,
      map: (header) => ({
        ...header,
        name: path.posix.join(target, header.name),
        uid: owner.uid,
        gid: owner.gid,
      }),
    };
    await this.put(pack(hostFolder, options) as unknown as Readable, 'a copy in');
  }

  /** Mounted: the host folder already is the sandbox's. */
  syncOut(): Promise<SyncStats> {
    return Promise.resolve(NOTHING_MOVED);
  }

  /** An engine's refusal is a SandboxError naming the engine; the archive is let go after. */
  private async put(archive: Readable, what: string): Promise<void> {
    try {
      await putArchive(this.client, this.run.container, archive, what);
    } catch (error) {
      if (statusOf(error) === undefined) throw error;
      throw new SandboxError(this.engine, what, (error as Error).message, { cause: error });
    } finally {
      archive.destroy();
    }
  }
}

/** Locally an image is built where it runs: this only checks it is there, the same image. */
async function checkImage(client: DockerClient, name: string, image: SandboxImage): Promise<void> {
  let id: string;
  try {
    id = (
      await bounded(client, 'an image inspection', () =>
        client.docker.getImage(image.tag).inspect(),
      )
    ).Id;
  } catch (error) {
    if (statusOf(error) !== 404) throw error;
    throw new SandboxError(name, 'ensure image', `image ${image.tag} is not present`);
  }
  if (id !== image.id) {
    throw new SandboxError(
      name,
      'ensure image',
      `image ${image.tag} is now ${id}, not the ${image.id} this campaign checked`,
    );
  }
}

/** The mounted strategy on `client`'s engine, named `name` in errors. */
export function mountedFiles(client: DockerClient, name: string): FileStrategy {
  return {
    kind: 'mounted',
    mountsHostFolders: true,
    local: true,
    ensureImage: (image) => checkImage(client, name, image),
    place: (spec): Promise<Placement> =>
      Promise.resolve({
        container: { user: spec.user, binds: bindsOf(spec) },
        files: (run) => Promise.resolve(new MountedFiles(client, name, run)),
      }),
  };
}
