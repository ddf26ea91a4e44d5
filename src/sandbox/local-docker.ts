import path from 'node:path';
import type { Readable } from 'node:stream';
import type { PackOptions } from 'tar-fs';
import type { Header } from 'tar-stream';
import {
  bounded,
  pingDocker,
  removeContainers,
  removeNetworks,
  startContainer,
  type Bind,
  type DockerClient,
  type RunContainer,
} from '../runtime/index.js';
import {
  EngineChecks,
  type EngineDescription,
  type PreflightResult,
  type PreflightSpec,
} from './engine-check.js';
import { SandboxError } from './errors.js';
import { buildOn, shipBaseImage } from './build-engine.js';
import { EngineTenancy } from './lifecycle.js';
import type {
  BaseImageState,
  ExecOptions,
  ExecResult,
  ImageBuilder,
  OpenOptions,
  ReserveSpec,
  SandboxReservation,
} from './types.js';
import { absolutePath, readContainerFile } from './docker/index.js';
import { dockerImageBuilder } from './docker-builder.js';
import {
  reserveWithServices,
  servicesRefusalOf,
  startWithServices,
  type RunPlaces,
} from './services.js';
import type {
  Owner,
  Sandbox,
  SandboxFile,
  SandboxImage,
  SandboxProvider,
  SandboxSpec,
  SyncStats,
} from './types.js';

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

function statusOf(error: unknown): number | undefined {
  return (error as { statusCode?: number } | null)?.statusCode;
}

/** A path inside the sandbox, absolute and normalised: the only form the archive calls get. */

/** One run's container on the local engine: host folders are its own (bind mounts). */
export class LocalDockerSandbox implements Sandbox {
  readonly mountsHostFolders = true;

  constructor(
    private readonly client: DockerClient,
    readonly engine: string,
    /** runtime's container: this sandbox's implementation. */
    readonly run: RunContainer,
  ) {}

  get id(): string {
    return this.run.id;
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
    return readContainerFile(this.client, this.run.container, 'local', containerPath, options);
  }

  async writeFiles(files: readonly SandboxFile[]): Promise<void> {
    if (files.length === 0) return;
    // Loaded here: a campaign on mounted folders never ships an archive.
    const archive = (await import('tar-stream')).pack();
    for (const f of files) {
      const content = typeof f.content === 'string' ? Buffer.from(f.content) : f.content;
      const header: Partial<Header> & { name: string } = {
        name: absolutePath('local', f.path).slice(1),
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
    await this.putArchive('/', archive as unknown as Readable, 'a file write');
  }

  /** The folder's tree as an archive at `containerPath` (links kept as links), owned by `owner`. */
  async copyIn(hostFolder: string, containerPath: string, owner: Owner): Promise<void> {
    const target = absolutePath('local', containerPath).slice(1);
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
    const archive = pack(hostFolder, options) as unknown as Readable;
    await this.putArchive('/', archive, 'a copy in');
  }

  /** Mounted: the host folder already is the sandbox's. */
  syncOut(): Promise<SyncStats> {
    return Promise.resolve(NOTHING_MOVED);
  }

  stopProcessesOf(user: string, timeoutMs?: number): Promise<void> {
    return this.run.stopProcessesOf(user, timeoutMs);
  }

  kill(): Promise<void> {
    return this.run.kill();
  }

  remove(): Promise<void> {
    return this.run.remove();
  }

  private async putArchive(at: string, archive: Readable, what: string): Promise<void> {
    try {
      await bounded(this.client, what, () =>
        this.run.container.putArchive(archive as unknown as NodeJS.ReadableStream, { path: at }),
      );
    } catch (error) {
      if (statusOf(error) === undefined) throw error;
      throw new SandboxError(this.engine, what, (error as Error).message, { cause: error });
    } finally {
      archive.destroy();
    }
  }
}

/**
 * Today's engine behind the seam: the local Docker engine (or any engine that
 * shares this host's disk), sandboxes are runtime's containers with bind
 * mounts, nothing is copied or synced. Creations go through the client's gate
 * and carry its labels; its health is what {@link lost} reports.
 *
 * @example
 * const provider = new LocalDockerProvider(connectDocker());
 * const sandbox = await provider.start({ image: 'evalrig-base:bookworm' });
 * (await sandbox.exec(['true'])).exitCode // 0
 */
export class LocalDockerProvider implements SandboxProvider {
  readonly mountsHostFolders = true;
  private readonly checks: EngineChecks;
  private readonly tenancy: EngineTenancy;

  constructor(readonly client: DockerClient) {
    this.checks = new EngineChecks(client, client.where);
    this.tenancy = new EngineTenancy(client, client.where, (labels) => this.reap(labels));
  }

  get name(): string {
    return this.client.where;
  }

  /** The watch and the reaper (the default socket is this engine's when the client names none). */
  async open(options: OpenOptions = {}): Promise<void> {
    this.tenancy.open(options, true);
  }

  close(): Promise<void> {
    return this.tenancy.close();
  }

  dockerClients(): readonly DockerClient[] {
    return [this.client];
  }

  /** Images are built on this engine itself. */
  /** Its first engine builds; ensureImage ships the builds to the engines that run them. */
  imageBuilder(): ImageBuilder {
    return dockerImageBuilder(this);
  }

  buildImage<T>(what: string, build: (engine: DockerClient) => Promise<T>): Promise<T> {
    return buildOn(this.client, what, build);
  }

  ensureBaseImage(tag: string, log: NodeJS.WritableStream): Promise<BaseImageState> {
    return shipBaseImage(this.client, [], tag, log);
  }

  check(): Promise<void> {
    return pingDocker(this.client);
  }

  lost(): Error | undefined {
    return this.client.health?.lost;
  }

  /** Locally an image is built where it runs: this only checks it is there, the same image. */
  async ensureImage(image: SandboxImage): Promise<void> {
    let id: string;
    try {
      id = (
        await bounded(this.client, 'an image inspection', () =>
          this.client.docker.getImage(image.tag).inspect(),
        )
      ).Id;
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
      throw new SandboxError(this.name, 'ensure image', `image ${image.tag} is not present`);
    }
    if (id !== image.id) {
      throw new SandboxError(
        this.name,
        'ensure image',
        `image ${image.tag} is now ${id}, not the ${image.id} this campaign checked`,
      );
    }
  }

  servicesRefusal(): string | undefined {
    return servicesRefusalOf(this.client);
  }

  async start(spec: SandboxSpec, places?: Promise<RunPlaces>): Promise<Sandbox> {
    this.tenancy.admit();
    const sandbox = await startWithServices(
      this.client,
      this.name,
      spec,
      (netnsOf) => this.startOn(spec, netnsOf),
      places,
    );
    return this.tenancy.track(sandbox);
  }

  /** The run's network and places made at once (see sandbox/services.ts). */
  reserve(ahead: ReserveSpec): SandboxReservation {
    this.tenancy.admit();
    return reserveWithServices(this.client, ahead, (spec, places) => this.start(spec, places));
  }

  private async startOn(spec: SandboxSpec, netnsOf?: string): Promise<LocalDockerSandbox> {
    const run = await startContainer(this.client, {
      // Its place on the run's network, made ahead (sandbox/services.ts).
      ...(netnsOf ? { netnsOf } : {}),
      image: spec.image,
      user: spec.user,
      execUser: spec.execUser,
      workingDir: spec.workingDir,
      env: spec.env,
      labels: spec.labels,
      limits: spec.limits,
      online: spec.online,
      binds: bindsOf(spec),
    });
    return new LocalDockerSandbox(this.client, this.name, run);
  }

  async reap(labels: Readonly<Record<string, string>>): Promise<number> {
    const containers = await removeContainers(this.client, labels);
    return containers + (await removeNetworks(this.client, labels));
  }

  async describe(): Promise<readonly EngineDescription[]> {
    return [await this.checks.describe()];
  }

  async preflight(spec: PreflightSpec): Promise<readonly PreflightResult[]> {
    return [await this.checks.preflight(spec)];
  }
}
