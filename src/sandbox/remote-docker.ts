/**
 * A Docker engine that cannot see the host's disk (another machine, or one
 * whose disk the campaign must not rely on): no bind mount of a host path.
 * Read-only shared files (an agent's binary) cross once per engine, into
 * named volumes mounted read-only (docker/file-cache.ts).
 *
 * In: folders, files, the socket folders and the tunnel program go in as one
 * tar stream built on the host (pack.ts), owners and modes set in the tar
 * headers: a writable folder is its owner's (the work tree uid 1000), a
 * read-only one root's with no write bit for the agent.
 *
 * Out: {@link RemoteSandbox.syncOut} is a delta sync. Inside the sandbox, root
 * (holding only CAP_DAC_READ_SEARCH back, so it can read whatever modes the
 * agent left, and nothing else; the main process is root's so that its execs
 * inherit that capability, the spec's `user` is the keeper's) lists the tree with GNU `find -P -printf`
 * (NUL-separated fields: names may hold newlines; no link followed), the
 * listing is compared with the previous one kept on the host (size, mtime,
 * ctime, inode, mode, link target: a content change always moves ctime), and
 * only the changed regular files come back as ONE tar stream (`tar --null -T -`
 * reading the names verbatim from stdin; `--sparse`: a file's holes do not
 * cross). apply.ts writes them into the host folder, holes kept, checking every
 * name and never following a link already there; links are made from the
 * listing, FIFOs, sockets and devices are not copied. What the run's files take
 * on the host (work tree and origin together, beyond what went in) is held to
 * the spec's `diskBytes` (the run's resources.disk) before anything is written.
 * The host folder then holds what the sandbox holds, and the host's seal and
 * diff measure it as they measure a mounted tree.
 *
 * Sockets: the sandbox has network none and no mounts, so each named host
 * socket is served inside by the tunnel program (stand-in/tunnel) run as the
 * keeper (the main process's user, never the agent's) in a folder it owns with
 * mode 0711, and every connection is carried over that exec's stdio
 * (tunnel.ts). Frames are untrusted: capped, names checked, connections bounded.
 *
 * Everything that comes back (listings, archives, file bytes, frames) is the
 * agent's: data to check, never a path to follow or a command.
 */
import { lstat, mkdir, readdir, readFile as readHostFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { projectRoot } from '../image/index.js';
import {
  bounded,
  pingDocker,
  removeContainers,
  startContainer,
  removeNetworks,
  type DockerClient,
  type RunContainer,
} from '../runtime/index.js';
import {
  EngineChecks,
  type EngineDescription,
  type PreflightResult,
  type PreflightSpec,
} from './engine-check.js';
import { dockerImageBuilder } from './docker-builder.js';
import { SandboxError, SandboxFileError } from './errors.js';
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
import {
  reserveWithServices,
  servicesRefusalOf,
  startWithServices,
  type RunPlaces,
} from './services.js';
import { shipImage, type ImageExporter } from './ship-image.js';
import { execStreamed, FileCache, readContainerFile, Tunnel } from './docker/index.js';
import {
  addedBytes,
  applyDelta,
  type ApplyLimits,
  checkDelta,
  diffListings,
  hostBytesOf,
  type ListedEntry,
  type Listing,
  LISTING_FORMAT,
  type PackItem,
  packItems,
  parseListing,
  ROOT,
  tarCreateCommand,
} from './sync/index.js';
import type {
  Owner,
  Sandbox,
  SandboxFile,
  SandboxImage,
  SandboxProvider,
  SandboxSpec,
  SyncStats,
} from './types.js';

/** What one sync may bring back, and how big a listing may be. */
export interface RemoteLimits extends ApplyLimits {
  readonly maxEntries: number;
  readonly maxListingBytes: number;
}

/**
 * What one sync may bring back, and how big a listing may be. `maxTotalBytes` is also what a
 * sandbox's host copies may take when its spec names no `diskBytes`.
 */
export const DEFAULT_REMOTE_LIMITS: RemoteLimits = {
  maxFileBytes: 512 * 1024 ** 2,
  maxTotalBytes: 4 * 1024 ** 3,
  maxEntries: 2_000_000,
  maxListingBytes: 512 * 1024 ** 2,
};

export interface RemoteDockerOptions {
  readonly client: DockerClient;
  /** For reports and errors; default the client's address. */
  readonly name?: string;
  readonly limits?: Partial<RemoteLimits>;
  /** The bundled tunnel program on the host; default dist/stand-in/tunnel/tunnel. */
  readonly tunnelProgram?: string;
}

/** The work tree's owner when a writable folder names none: the image's user. */
export const AGENT_OWNER: Owner = { uid: 1000, gid: 1000 };
/** The keeper when the spec's user is not numeric. */
const NOBODY: Owner = { uid: 65534, gid: 65534 };
/** Where the tunnel program goes in a sandbox (root's, read only). */
const TUNNEL_DIR = '/run/evalrig-tunnel';
const TUNNEL_PATH = `${TUNNEL_DIR}/tunnel.js`;
/** The harness's execs inside a sandbox: root, with only CAP_DAC_READ_SEARCH (see header). */
const HARNESS_USER = '0:0';
const HARNESS_CAPABILITIES = ['DAC_READ_SEARCH'];
/** The harness's execs find their tools in root's folders only, whatever the image's PATH says. */
export const HARNESS_PATH = '/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin';
const LONG_CALL_MS = 10 * 60_000;

function ownerOf(user: string | undefined): Owner {
  const m = /^(\d+)(?::(\d+))?$/u.exec(user ?? '');
  if (!m) return NOBODY;
  return { uid: Number(m[1]), gid: Number(m[2] ?? m[1]) };
}

/** Makes `hostFolder` an empty real folder of the host (a sync with no previous listing). */
async function emptyFolder(hostFolder: string): Promise<void> {
  await mkdir(hostFolder, { recursive: true });
  const info = await lstat(hostFolder);
  if (!info.isDirectory()) throw new Error(`${hostFolder} is not a folder of the host`);
  for (const child of await readdir(hostFolder)) {
    await rm(path.join(hostFolder, child), { recursive: true, force: true });
  }
}

export class RemoteDockerProvider implements SandboxProvider, ImageExporter {
  readonly name: string;
  readonly mountsHostFolders = false;
  readonly client: DockerClient;
  readonly limits: RemoteLimits;
  private readonly tunnelProgram: string;
  private readonly checks: EngineChecks;
  /** The shared read-only files (an agent's binary), once per engine as volumes. */
  private readonly files: FileCache;

  private readonly tenancy: EngineTenancy;

  constructor(options: RemoteDockerOptions) {
    this.client = options.client;
    this.name = options.name ?? options.client.where;
    this.tenancy = new EngineTenancy(this.client, this.name, (labels) => this.reap(labels));
    this.checks = new EngineChecks(this.client, this.name);
    this.files = new FileCache(this.client, this.name);
    this.limits = { ...DEFAULT_REMOTE_LIMITS, ...options.limits };
    this.tunnelProgram =
      options.tunnelProgram ?? path.join(projectRoot(), 'dist', 'stand-in', 'tunnel', 'tunnel');
  }

  async check(): Promise<void> {
    await pingDocker(this.client);
  }

  /** The watch, and a reaper where its endpoint lets one reach the engine. */
  async open(options: OpenOptions = {}): Promise<void> {
    this.tenancy.open(options, false);
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

  lost(): Error | undefined {
    return this.client.health?.lost;
  }

  async exportImage(tag: string): Promise<Readable> {
    return (await bounded(this.client, 'an image export', () =>
      this.client.docker.getImage(tag).get(),
    )) as unknown as Readable;
  }

  async ensureImage(image: SandboxImage, from?: SandboxProvider): Promise<void> {
    await shipImage(this.client, this.name, image, from);
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

  private async startOn(spec: SandboxSpec, netnsOf?: string): Promise<Sandbox> {
    const keeper = ownerOf(spec.user);
    const { binds, copied } = await this.files
      .mounts(spec.files ?? [], spec.image)
      .catch((error: unknown) => {
        throw new SandboxError(this.name, 'start', (error as Error).message, { cause: error });
      });
    const run = await startContainer(this.client, {
      image: spec.image,
      // Root holds CAP_DAC_READ_SEARCH only when the main process is root's (an
      // exec inherits the main process's capabilities); the agent can signal
      // neither it nor the keeper's tunnel.
      user: HARNESS_USER,
      execUser: spec.execUser,
      workingDir: spec.workingDir,
      env: spec.env,
      labels: spec.labels,
      limits: spec.limits,
      online: spec.online,
      rootCapabilities: HARNESS_CAPABILITIES,
      // Its place on the run's network, made ahead (sandbox/services.ts).
      ...(netnsOf ? { netnsOf } : {}),
      // Named volumes of this engine (the shared files' cache), read-only: no host path.
      binds,
    });
    const sandbox = new RemoteSandbox(this, run, keeper, spec.diskBytes);
    try {
      await sandbox.fill({ ...spec, files: copied }, this.tunnelProgram);
    } catch (error) {
      await sandbox.remove().catch(() => undefined);
      throw error instanceof SandboxError || error instanceof SandboxFileError
        ? error
        : new SandboxError(this.name, 'start', (error as Error).message, { cause: error });
    }
    return sandbox;
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

/** One sandbox on a remote engine. */
export class RemoteSandbox implements Sandbox {
  readonly mountsHostFolders = false;
  /** Per `container\0host` pair: the listing the host folder matches. */
  private readonly synced = new Map<string, Listing>();
  /** Per pair: the listing it went in with (the host folder already held that). */
  private readonly baseline = new Map<string, Listing>();
  /** Per pair: what the run's files take in the host folder (see {@link reserve}). */
  private readonly added = new Map<string, number>();
  private tunnel: Tunnel | undefined;

  constructor(
    private readonly provider: RemoteDockerProvider,
    private readonly run: RunContainer,
    private readonly keeper: Owner,
    /** What the run's files may take on the host, all pairs together. */
    private readonly diskBytes?: number,
  ) {}

  get id(): string {
    return this.run.id;
  }

  get engine(): string {
    return this.provider.name;
  }

  private get client(): DockerClient {
    return this.provider.client;
  }

  /** Why the socket tunnel stopped carrying, if it did. */
  get tunnelFailure(): string | undefined {
    return this.tunnel?.failure;
  }

  /** Puts the spec's folders, files and sockets in, and starts the tunnel. */
  async fill(spec: SandboxSpec, tunnelProgram: string): Promise<void> {
    const items: PackItem[] = [];
    for (const folder of spec.folders ?? []) {
      const readOnly = folder.readOnly ?? false;
      const owner = readOnly ? ROOT : (folder.owner ?? AGENT_OWNER);
      items.push({
        kind: 'folder',
        host: folder.host,
        container: folder.container,
        owner,
        readOnly,
      });
    }
    for (const file of spec.files ?? []) {
      items.push({ kind: 'file', host: file.host, container: file.container });
    }
    const routes = new Map<string, string>();
    for (const shared of spec.sockets ?? []) {
      items.push({ kind: 'dir', container: shared.container, mode: 0o711, owner: this.keeper });
      for (const name of shared.names) {
        if (!/^[A-Za-z0-9._-]+$/u.test(name) || name === '.' || name === '..') {
          throw new SandboxError(
            this.engine,
            'start',
            `a socket name that is not a plain name: ${JSON.stringify(name)}`,
          );
        }
        routes.set(path.posix.join(shared.container, name), path.join(shared.host, name));
      }
    }
    if (routes.size > 0) {
      const program = await readHostFile(tunnelProgram).catch((error: unknown) => {
        throw new SandboxError(
          this.engine,
          'start',
          `the tunnel program ${tunnelProgram} is missing (run npm run build)`,
          { cause: error },
        );
      });
      items.push({ kind: 'dir', container: TUNNEL_DIR, mode: 0o755, owner: ROOT });
      items.push({
        kind: 'bytes',
        container: TUNNEL_PATH,
        content: program,
        mode: 0o644,
        owner: ROOT,
      });
    }
    if (items.length > 0) await this.put(packItems(items));
    for (const folder of spec.folders ?? []) {
      if (!folder.readOnly)
        this.wentIn(`${folder.container}\0${folder.host}`, await this.list(folder.container));
    }
    if (routes.size > 0) {
      this.tunnel = await Tunnel.open(this.client.docker, this.run.container, {
        routes,
        user: `${this.keeper.uid}:${this.keeper.gid}`,
        program: TUNNEL_PATH,
      });
    }
  }

  private async put(archive: Readable): Promise<void> {
    await bounded(
      this.client,
      'an archive put',
      () =>
        this.run.container.putArchive(archive as unknown as NodeJS.ReadableStream, { path: '/' }),
      LONG_CALL_MS,
    );
  }

  /** A stopped sandbox (killed after a cut turn) is started again: its main process only. */
  private async ensureRunning(): Promise<void> {
    const info = await bounded(this.client, 'a container inspect', () =>
      this.run.container.inspect(),
    );
    if (!info.State.Running) {
      // Two syncs at once (work tree and origin) may both start it: 304 says it is up.
      await bounded(this.client, 'a container start', () =>
        this.run.container.start().catch((error: { statusCode?: number }) => {
          if (error.statusCode !== 304) throw error;
        }),
      );
    }
  }

  /** The listing of `containerPath` (see listing.ts). */
  private async list(containerPath: string): Promise<Listing> {
    const r = await this.run.exec(['find', '-P', containerPath, '-printf', LISTING_FORMAT], {
      user: HARNESS_USER,
      env: { LC_ALL: 'C', PATH: HARNESS_PATH },
      maxOutputBytes: this.provider.limits.maxListingBytes,
      timeoutMs: LONG_CALL_MS,
    });
    if (r.timedOut)
      throw new SandboxError(this.engine, 'sync out', `listing ${containerPath} timed out`);
    if (r.truncated) {
      throw new SandboxFileError(
        containerPath,
        'too-large',
        `a listing over ${this.provider.limits.maxListingBytes} bytes`,
      );
    }
    if (r.exitCode !== 0) {
      if (r.stdoutBytes.length === 0 && /No such file/u.test(r.stderr)) {
        throw new SandboxFileError(containerPath, 'missing');
      }
      throw new SandboxError(
        this.engine,
        'sync out',
        `listing ${containerPath}: ${r.stderr.trim().slice(0, 300)}`,
      );
    }
    return parseListing(containerPath, r.stdoutBytes, this.provider.limits);
  }

  exec(cmd: readonly string[], options?: ExecOptions): Promise<ExecResult> {
    return this.run.exec(cmd, options);
  }

  readFile(containerPath: string, options: { readonly maxBytes: number }): Promise<Buffer> {
    return readContainerFile(this.client, this.run.container, this.engine, containerPath, options);
  }

  async writeFiles(files: readonly SandboxFile[]): Promise<void> {
    const items: PackItem[] = files.map((f) => ({
      kind: 'bytes',
      container: f.path,
      content: typeof f.content === 'string' ? Buffer.from(f.content) : f.content,
      mode: f.mode ?? 0o644,
      owner: f.owner ?? ROOT,
    }));
    await this.ensureRunning();
    await this.put(packItems(items));
  }

  async copyIn(hostFolder: string, containerPath: string, owner: Owner): Promise<void> {
    await this.put(
      packItems([
        { kind: 'folder', host: hostFolder, container: containerPath, owner, readOnly: false },
      ]),
    );
    this.wentIn(`${containerPath}\0${hostFolder}`, await this.list(containerPath));
  }

  /** A pair's host folder holds what went in: what the run adds is counted from there. */
  private wentIn(key: string, listing: Listing): void {
    this.synced.set(key, listing);
    this.baseline.set(key, listing);
    this.added.set(key, 0);
  }

  /**
   * Holds the run's files on the host to the sandbox's disk, before a sync writes anything:
   * what they take in this folder after the sync, plus in the others, must fit. Reserved at
   * once (a concurrent sync of the other folder counts it). Returns what this sync may write.
   */
  private reserve(
    key: string,
    hostFolder: string,
    after: Listing,
    files: readonly ListedEntry[],
  ): number {
    const budget = this.diskBytes ?? this.provider.limits.maxTotalBytes;
    const added = addedBytes(this.baseline.get(key) ?? new Map(), after);
    let others = 0;
    for (const [k, bytes] of this.added) if (k !== key) others += bytes;
    if (others + added > budget) {
      const what =
        this.diskBytes === undefined ? "the engine's cap" : "the run's disk (resources.disk)";
      throw new SandboxFileError(
        hostFolder,
        'too-large',
        `the run's files would take ${others + added} bytes on the host, ${what} is ${budget}`,
      );
    }
    this.added.set(key, added);
    let fetched = 0;
    for (const f of files) fetched += hostBytesOf(f);
    // Files this sync does not fetch stay as they are: the rest of the budget is this sync's.
    return budget - others - (added - fetched);
  }

  async syncOut(containerPath: string, hostFolder: string): Promise<SyncStats> {
    const key = `${containerPath}\0${hostFolder}`;
    await this.ensureRunning();
    const before = this.synced.get(key);
    const after = await this.list(containerPath);
    const delta = diffListings(before ?? new Map(), after);
    // A sync that lost its way (a failed one) starts again from an empty folder: all of it counts.
    if (!before) this.baseline.set(key, new Map());
    const limits = {
      maxFileBytes: this.provider.limits.maxFileBytes,
      maxTotalBytes: this.reserve(key, hostFolder, after, delta.files),
    };
    checkDelta(hostFolder, delta, limits);
    // From here the host folder matches no known listing until this sync ends.
    this.synced.delete(key);
    if (!before) await emptyFolder(hostFolder);
    const fetch = async (names: readonly string[]): Promise<Readable> => {
      const stdin = Buffer.from(names.map((n) => `./${n}\0`).join(''));
      const { stdout } = await execStreamed(
        this.client,
        this.run.container,
        tarCreateCommand(containerPath, '-'),
        { user: HARNESS_USER, stdin, env: ['LC_ALL=C', `PATH=${HARNESS_PATH}`] },
      );
      return stdout;
    };
    const stats = await applyDelta(hostFolder, delta, fetch, limits);
    this.synced.set(key, after);
    return stats;
  }

  stopProcessesOf(user: string, timeoutMs?: number): Promise<void> {
    return this.run.stopProcessesOf(user, timeoutMs);
  }

  async kill(): Promise<void> {
    this.tunnel?.close();
    await this.run.kill();
  }

  async remove(): Promise<void> {
    this.tunnel?.close();
    await this.run.remove();
  }
}
