import { constants } from 'node:fs';
import { chmod, copyFile, link, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { CacheEntry } from './cache.js';

/**
 * How an environment gets the cache's pack: `hardlink` (no copy: the inode
 * is the cache's) or `copy` (its own inode; a reflink where the filesystem
 * has them, so blocks are still shared).
 */
export type ObjectSharing = 'hardlink' | 'copy';

/**
 * Hardlinks only when evalrig runs as root. Cached files are read-only and
 * stay root's (environments are handed to the container's user except for
 * files linked elsewhere), so a run cannot write them. Run as another user,
 * evalrig gives the container its own uid: a hardlinked pack would be the
 * run's to chmod and rewrite, poisoning every later environment of the
 * commit, so each environment gets a copy instead.
 */
export function defaultSharing(uid: number | undefined = process.getuid?.()): ObjectSharing {
  return uid === 0 ? 'hardlink' : 'copy';
}

/**
 * Puts the cache entry's pack and index into `<gitDir>/objects/pack`, as
 * `sharing` asks; a hardlink that the filesystem refuses (another
 * filesystem, a link limit, protected hardlinks) falls back to a copy.
 * Returns what was done: `copy` when any file was copied.
 */
export async function placeCodebaseObjects(
  entry: CacheEntry,
  gitDir: string,
  sharing: ObjectSharing = defaultSharing(),
): Promise<ObjectSharing> {
  const packDir = join(gitDir, 'objects', 'pack');
  await mkdir(packDir, { recursive: true });
  let done: ObjectSharing = 'hardlink';
  for (const file of entry.packFiles) {
    const from = join(entry.path, 'objects', 'pack', file);
    const to = join(packDir, file);
    if (sharing === 'hardlink') {
      try {
        await link(from, to);
        continue;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'EMLINK') throw error;
      }
    }
    // EXCL: never write through whatever is already there.
    await copyFile(from, to, constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE);
    await chmod(to, 0o444);
    done = 'copy';
  }
  return done;
}
