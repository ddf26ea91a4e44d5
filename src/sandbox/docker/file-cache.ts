/**
 * The files a remote sandbox shares read-only (an agent's binary: 400 MB for
 * Claude Code) crossed into every run's archive. Here they cross once per
 * engine: a named volume per folder of them, named by the files' content
 * (`evalrig-files-<digest>`), filled once and mounted read-only into each run
 * at that folder. It outlives the campaign as an image does, so the next
 * campaign with the same agent finds it there.
 *
 * Filling is guarded by a container name, which the engine keeps unique: the
 * filler creates `<volume>-fill` (the volume mounted, never started), writes
 * the files and then a marker, and removes it; anyone else finding the name
 * taken waits for it to go. A filler that dies leaves its container to its
 * reaper (it carries the session's labels), and the marker is what says a
 * volume is whole, never its existence.
 *
 * Only folders of evalrig's own tree (/opt/evalrig/…) are mounted whole;
 * files elsewhere are copied into each run as before.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type Docker from 'dockerode';
import {
  bounded,
  startContainer,
  statusOf,
  type Bind,
  type DockerClient,
} from '../../runtime/index.js';
import type { SharedFile } from '../types.js';
import { packItems, ROOT, type PackItem } from '../sync/pack.js';

/** Where the files of a cached folder may be: evalrig's own tree in the image. */
const CACHEABLE = '/opt/evalrig/';
/** Where the filler mounts the volume. */
const FILL_AT = '/evalrig-fill';
/** Written last: a volume holding it holds every file. */
const MARKER = '.evalrig-complete';
/** How long a filler waits for another's fill before it fails. */
const FILL_WAIT_MS = 10 * 60_000;
const LONG_CALL_MS = 10 * 60_000;

/** sha256 of host files, once per (path, size, mtime) in this process. */
const digests = new Map<string, Promise<string>>();

async function digestOf(file: string): Promise<string> {
  const info = await stat(file);
  const key = `${file}\0${info.size}\0${info.mtimeMs}`;
  let digest = digests.get(key);
  if (!digest) {
    digest = new Promise<string>((resolve, reject) => {
      const hash = createHash('sha256');
      createReadStream(file)
        .on('data', (c) => hash.update(c))
        .on('end', () => resolve(hash.digest('hex')))
        .on('error', reject);
    });
    digests.set(key, digest);
    digest.catch(() => digests.delete(key));
  }
  return digest;
}

/** One folder of shared files, as a volume. */
interface CachedFolder {
  readonly folder: string;
  readonly files: readonly SharedFile[];
  readonly volume: string;
}

/** The volume's name: the folder, and each file's name and content. */
async function folderOf(folder: string, files: readonly SharedFile[]): Promise<CachedFolder> {
  const hash = createHash('sha256').update(`evalrig files v1\n${folder}\n`);
  for (const f of [...files].sort((a, b) => (a.container < b.container ? -1 : 1))) {
    hash.update(`${path.posix.basename(f.container)} ${await digestOf(f.host)}\n`);
  }
  return { folder, files, volume: `evalrig-files-${hash.digest('hex').slice(0, 24)}` };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The volumes of one engine, each filled at most once by this provider. */
export class FileCache {
  private readonly filled = new Map<string, Promise<void>>();

  constructor(
    private readonly client: DockerClient,
    private readonly engine: string,
  ) {}

  /**
   * Splits `files` into the folders mounted from volumes (filled here first,
   * using `image` for the filler) and the files still to copy in.
   */
  async mounts(
    files: readonly SharedFile[],
    image: string,
  ): Promise<{ binds: Bind[]; copied: SharedFile[] }> {
    const byFolder = new Map<string, SharedFile[]>();
    const copied: SharedFile[] = [];
    for (const f of files) {
      const folder = path.posix.dirname(path.posix.normalize(f.container));
      if (!`${folder}/`.startsWith(CACHEABLE) || folder === CACHEABLE.slice(0, -1)) {
        copied.push(f);
        continue;
      }
      byFolder.set(folder, [...(byFolder.get(folder) ?? []), f]);
    }
    const binds: Bind[] = [];
    for (const [folder, group] of byFolder) {
      const cached = await folderOf(folder, group);
      let fill = this.filled.get(cached.volume);
      if (!fill) {
        fill = this.fill(cached, image);
        this.filled.set(cached.volume, fill);
        fill.catch(() => this.filled.delete(cached.volume));
      }
      await fill;
      binds.push({ host: cached.volume, container: folder, readOnly: true });
    }
    return { binds, copied };
  }

  /** Makes the volume whole on the engine (see the module's header). */
  private async fill(cached: CachedFolder, image: string): Promise<void> {
    const deadline = Date.now() + FILL_WAIT_MS;
    for (;;) {
      const filler = await this.claim(cached, image);
      if (filler) {
        try {
          if (!(await this.whole(filler))) await this.write(filler, cached);
        } finally {
          await bounded(this.client, 'a removal', () =>
            filler.remove({ force: true, v: false }).catch(() => undefined),
          );
        }
        return;
      }
      if (Date.now() > deadline) {
        throw new Error(
          `the files volume ${cached.volume} on ${this.engine} is being filled by another evalrig for over ${FILL_WAIT_MS / 60_000} min`,
        );
      }
      await sleep(500);
    }
  }

  /**
   * Starts the filler (the lock: its name is unique on the engine); undefined
   * while another one holds the name. Started, so that the engine's archive
   * calls reach the volume (Podman's do not reach a container's volumes
   * before it runs).
   */
  private async claim(cached: CachedFolder, image: string): Promise<Docker.Container | undefined> {
    try {
      const run = await startContainer(this.client, {
        name: `${cached.volume}-fill`,
        image,
        user: '0:0',
        labels: { 'evalrig.files': cached.volume },
        binds: [{ host: cached.volume, container: FILL_AT }],
        // Small, and within any engine's CPUs: it only holds the volume while files are put.
        limits: { cpus: 1, memoryBytes: 256 * 1024 ** 2, pids: 32 },
      });
      return run.container;
    } catch (error) {
      if (statusOf(error) === 409) return undefined;
      throw error;
    }
  }

  /** Whether the volume already holds its marker. */
  private async whole(filler: { getArchive(o: { path: string }): Promise<unknown> }) {
    try {
      const archive = (await bounded(this.client, 'an archive read', () =>
        filler.getArchive({ path: `${FILL_AT}/${MARKER}` }),
      )) as Readable;
      archive.resume();
      return true;
    } catch (error) {
      if (statusOf(error) === 404) return false;
      throw error;
    }
  }

  /** The files, root's and read-only, then the marker. */
  private async write(
    filler: { putArchive(s: NodeJS.ReadableStream, o: { path: string }): Promise<unknown> },
    cached: CachedFolder,
  ): Promise<void> {
    const put = async (items: PackItem[]) => {
      const archive = packItems(items);
      await bounded(
        this.client,
        'an archive put',
        () => filler.putArchive(archive as unknown as NodeJS.ReadableStream, { path: '/' }),
        LONG_CALL_MS,
      );
    };
    await put(
      cached.files.map((f) => ({
        kind: 'file' as const,
        host: f.host,
        container: `${FILL_AT}/${path.posix.basename(f.container)}`,
      })),
    );
    await put([
      {
        kind: 'bytes',
        container: `${FILL_AT}/${MARKER}`,
        content: Buffer.from(''),
        mode: 0o444,
        owner: ROOT,
      },
    ]);
  }
}
