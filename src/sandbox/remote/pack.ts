/**
 * What goes into a remote sandbox, as one tar stream built on the host and
 * put at `/` with the engine's putArchive. Owners and modes are set in the
 * tar headers (the engine applies them), never by a chown on the host:
 * a writable folder is its owner's (uid 1000 for the work tree), a read-only
 * folder or file is root's with no write bit for anyone else, so the agent
 * cannot change it.
 */
import { createReadStream } from 'node:fs';
import { lstat, readdir, readlink } from 'node:fs/promises';
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

/** Adds a host folder's tree (links as links; FIFOs, sockets and devices skipped). */
async function addFolder(pack: Pack, item: Extract<PackItem, { kind: 'folder' }>): Promise<void> {
  const walk = async (host: string, name: string): Promise<void> => {
    const info = await lstat(host);
    const mode = modeOf(info.mode, item.readOnly);
    const owner = item.owner;
    if (info.isDirectory()) {
      pack.entry({ name, type: 'directory', mode, mtime: info.mtime, ...headerOwner(owner) });
      for (const child of (await readdir(host)).sort()) {
        await walk(path.join(host, child), `${name}/${child}`);
      }
    } else if (info.isSymbolicLink()) {
      const target = await readlink(host);
      pack.entry({
        name,
        type: 'symlink',
        linkname: target,
        mode,
        mtime: info.mtime,
        ...headerOwner(owner),
      });
    } else if (info.isFile()) {
      await addFile(pack, name, host, mode, owner, info.size, info.mtime);
    }
  };
  const info = await lstat(item.host);
  if (!info.isDirectory()) throw new Error(`${item.host} is not a folder`);
  await walk(item.host, nameOf(item.container));
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
