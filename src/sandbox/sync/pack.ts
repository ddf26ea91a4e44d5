/**
 * What goes into a remote sandbox, as one tar stream built on the host and
 * put at `/` with the engine's putArchive. Owners and modes are set in the
 * tar headers (the engine applies them), never by a chown on the host:
 * a writable folder is its owner's (uid 1000 for the work tree), a read-only
 * folder or file is root's with no write bit for anyone else, so the agent
 * cannot change it.
 */
import { createReadStream } from 'node:fs';
import type { Stats } from 'node:fs';
import { lstat, readFile, readdir, readlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { pack as tarPack, type Pack } from 'tar-stream';
import type { Owner } from '../types.js';

export const ROOT: Owner = { uid: 0, gid: 0 };

/** One thing to put into the sandbox. Container paths are absolute. */
export type PackItem =
  | {
      readonly kind: 'folder';
      readonly host: string;
      readonly container: string;
      readonly owner: Owner;
      readonly readOnly: boolean;
    }
  | { readonly kind: 'file'; readonly host: string; readonly container: string }
  | {
      readonly kind: 'bytes';
      readonly container: string;
      readonly content: Buffer;
      readonly mode: number;
      readonly owner: Owner;
    }
  | {
      readonly kind: 'dir';
      readonly container: string;
      readonly mode: number;
      readonly owner: Owner;
    };

/** The tar name of an absolute container path. */
function nameOf(container: string): string {
  const clean = path.posix.normalize(container);
  if (!clean.startsWith('/') || clean === '/')
    throw new Error(`not a container path: ${container}`);
  return clean.slice(1);
}

/** The mode a copy gets: read-only copies lose every write bit but root's. */
function modeOf(mode: number, readOnly: boolean): number {
  const bits = mode & 0o777;
  return readOnly ? bits & 0o755 : bits;
}

function headerOwner(owner: Owner) {
  return { uid: owner.uid, gid: owner.gid, uname: '', gname: '' };
}

async function addFile(
  pack: Pack,
  name: string,
  host: string,
  mode: number,
  owner: Owner,
  size: number,
  mtime: Date,
): Promise<void> {
  const sink = pack.entry({ name, type: 'file', size, mode, mtime, ...headerOwner(owner) });
  await pipeline(createReadStream(host), sink);
}

/** One entry of a host folder, found by {@link listFolder}. */
interface Found {
  readonly host: string;
  readonly name: string;
  readonly info: Stats;
}

/** A host folder's entries, each folder before what it holds (lstat'ed a folder at a time, at once). */
async function listFolder(host: string, name: string): Promise<Found[]> {
  const info = await lstat(host);
  if (!info.isDirectory()) throw new Error(`${host} is not a folder`);
  const out: Found[] = [{ host, name, info }];
  const walk = async (dirHost: string, dirName: string): Promise<void> => {
    const children = (await readdir(dirHost)).sort();
    const infos = await Promise.all(children.map((c) => lstat(path.join(dirHost, c))));
    for (const [i, child] of children.entries()) {
      const found = {
        host: path.join(dirHost, child),
        name: `${dirName}/${child}`,
        info: infos[i]!,
      };
      out.push(found);
      if (found.info.isDirectory()) await walk(found.host, found.name);
    }
  };
  await walk(host, name);
  return out;
}

/** Files up to this size are read whole, several at once, ahead of the archive. */
const SMALL_FILE = 1024 * 1024;
const READ_AHEAD = 32;

/** Adds a host folder's tree (links as links; FIFOs, sockets and devices skipped). */
async function addFolder(pack: Pack, item: Extract<PackItem, { kind: 'folder' }>): Promise<void> {
  const found = await listFolder(item.host, nameOf(item.container));
  const owner = headerOwner(item.owner);
  // Reads run ahead of the archive, which is written in order.
  const ahead = new Map<number, Promise<Buffer | string>>();
  const fetch = (i: number): void => {
    const f = found[i];
    if (!f || ahead.has(i)) return;
    let read: Promise<Buffer | string> | undefined;
    if (f.info.isSymbolicLink()) read = readlink(f.host);
    else if (f.info.isFile() && f.info.size <= SMALL_FILE) read = readFile(f.host);
    if (!read) return;
    // Failed reads are thrown where the entry is written; none is left unhandled meanwhile.
    read.catch(() => undefined);
    ahead.set(i, read);
  };
  for (let i = 0; i < Math.min(READ_AHEAD, found.length); i++) fetch(i);
  for (const [i, f] of found.entries()) {
    fetch(i + READ_AHEAD);
    const mode = modeOf(f.info.mode, item.readOnly);
    const mtime = f.info.mtime;
    const read = ahead.get(i);
    ahead.delete(i);
    if (f.info.isDirectory()) {
      pack.entry({ name: f.name, type: 'directory', mode, mtime, ...owner });
    } else if (f.info.isSymbolicLink()) {
      const linkname = (await read) as string;
      pack.entry({ name: f.name, type: 'symlink', linkname, mode, mtime, ...owner });
    } else if (f.info.isFile()) {
      if (read) {
        const content = (await read) as Buffer;
        pack.entry(
          { name: f.name, type: 'file', size: content.length, mode, mtime, ...owner },
          content,
        );
      } else {
        await addFile(pack, f.name, f.host, mode, item.owner, f.info.size, mtime);
      }
    }
  }
}

/**
 * A tar stream of `items`, in order. Parents the image lacks are made by the
 * engine (root's, 0755); folders named by an item get the item's owner.
 */
export function packItems(items: readonly PackItem[]): Readable {
  const pack = tarPack();
  const fill = async (): Promise<void> => {
    for (const item of items) {
      if (item.kind === 'folder') await addFolder(pack, item);
      else if (item.kind === 'dir') {
        pack.entry({
          name: nameOf(item.container),
          type: 'directory',
          mode: item.mode,
          ...headerOwner(item.owner),
        });
      } else if (item.kind === 'bytes') {
        pack.entry(
          {
            name: nameOf(item.container),
            type: 'file',
            mode: item.mode,
            ...headerOwner(item.owner),
          },
          item.content,
        );
      } else {
        const info = await lstat(item.host);
        if (!info.isFile()) throw new Error(`${item.host} is not a regular file`);
        await addFile(
          pack,
          nameOf(item.container),
          item.host,
          modeOf(info.mode, true),
          ROOT,
          info.size,
          info.mtime,
        );
      }
    }
  };
  fill().then(
    () => pack.finalize(),
    (error: unknown) => pack.destroy(error as Error),
  );
  return pack as unknown as Readable;
}
