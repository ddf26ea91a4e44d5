/**
 * The files of one sandbox whose host folders are copied (copied.ts puts them
 * in). Out is a delta sync: root, holding only CAP_DAC_READ_SEARCH, lists the
 * tree with GNU `find -P -printf` (NUL-separated fields: names may hold
 * newlines; no link followed), the listing is compared with the previous one
 * kept on the host (size, mtime, ctime, inode, mode, link target: a content
 * change always moves ctime), and only the changed regular files come back
 * as ONE tar stream (`tar --null -T -`, `--sparse`: holes do not cross).
 * sync/apply.ts writes them into the host folder, checking every name and
 * never following a link already there. What the run's files take on the
 * host beyond what went in is held to the spec's `diskBytes` before anything
 * is written. Everything that comes back is the agent's: data to check,
 * never a path to follow or a command.
 */
import { lstat, mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { bounded, type DockerClient, type RunContainer } from '../../runtime/index.js';
import { SandboxError, SandboxFileError } from '../errors.js';
import type { Owner, SandboxFile, SyncStats } from '../types.js';
import {
  addedBytes,
  applyDelta,
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
  type RemoteLimits,
} from '../sync/index.js';
import { execStreamed } from './exec-stream.js';
import { putArchive, type SandboxFiles } from './sandbox.js';
import type { Tunnel } from './tunnel.js';

/** The harness's execs inside a sandbox: root, with only CAP_DAC_READ_SEARCH (see copied.ts). */
export const HARNESS_USER = '0:0';
/** The harness's execs find their tools in root's folders only, whatever the image's PATH says. */
export const HARNESS_PATH = '/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin';
export const LONG_CALL_MS = 10 * 60_000;

/** Makes `hostFolder` an empty real folder of the host (a sync with no previous listing). */
async function emptyFolder(hostFolder: string): Promise<void> {
  await mkdir(hostFolder, { recursive: true });
  const info = await lstat(hostFolder);
  if (!info.isDirectory()) throw new Error(`${hostFolder} is not a folder of the host`);
  for (const child of await readdir(hostFolder)) {
    await rm(path.join(hostFolder, child), { recursive: true, force: true });
  }
}

export class CopiedFiles implements SandboxFiles {
  /** Per `container\0host` pair: the listing the host folder matches. */
  private readonly synced = new Map<string, Listing>();
  /** Per pair: the listing it went in with (the host folder already held that). */
  private readonly baseline = new Map<string, Listing>();
  /** Per pair: what the run's files take in the host folder (see {@link reserve}). */
  private readonly added = new Map<string, number>();
  /** The socket tunnel, once the start opened one. */
  tunnel: Tunnel | undefined;

  constructor(
    private readonly client: DockerClient,
    private readonly engine: string,
    private readonly run: RunContainer,
    private readonly limits: RemoteLimits,
    /** What the run's files may take on the host, all pairs together. */
    private readonly diskBytes?: number,
  ) {}

  get tunnelFailure(): string | undefined {
    return this.tunnel?.failure;
  }

  close(): void {
    this.tunnel?.close();
  }

  put(archive: Readable): Promise<void> {
    return putArchive(this.client, this.run.container, archive, 'an archive put', LONG_CALL_MS);
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

  /** The listing of `containerPath` (see sync/listing.ts). */
  private async list(containerPath: string): Promise<Listing> {
    const r = await this.run.exec(['find', '-P', containerPath, '-printf', LISTING_FORMAT], {
      user: HARNESS_USER,
      env: { LC_ALL: 'C', PATH: HARNESS_PATH },
      maxOutputBytes: this.limits.maxListingBytes,
      timeoutMs: LONG_CALL_MS,
    });
    if (r.timedOut)
      throw new SandboxError(this.engine, 'sync out', `listing ${containerPath} timed out`);
    if (r.truncated) {
      throw new SandboxFileError(
        containerPath,
        'too-large',
        `a listing over ${this.limits.maxListingBytes} bytes`,
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
    return parseListing(containerPath, r.stdoutBytes, this.limits);
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
    await this.wentIn(containerPath, hostFolder);
  }

  /** The pair's host folder holds what went in: what the run adds is counted from there. */
  async wentIn(containerPath: string, hostFolder: string): Promise<void> {
    const key = `${containerPath}\0${hostFolder}`;
    const listing = await this.list(containerPath);
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
    const budget = this.diskBytes ?? this.limits.maxTotalBytes;
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
      maxFileBytes: this.limits.maxFileBytes,
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
}
