import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';

/**
 * Whether `target` (a folder or file below `root`) is reached through no symbolic link: each
 * part of the way from `root` down is looked at without following it. A link as the last part
 * is refused by every read here anyway (O_NOFOLLOW); a folder link on the way would not be, and
 * a planted campaign folder (shared, downloaded) could point there anywhere on the host. What
 * does not exist yet is no link: a write may make it.
 */
export async function reachedThroughNoLink(root: string, target: string): Promise<boolean> {
  const rel = path.relative(root, target);
  if (rel === '') return true;
  if (rel.startsWith('..') || path.isAbsolute(rel)) return false;
  let at = await realpath(root);
  for (const part of rel.split(path.sep)) {
    at = path.join(at, part);
    const info = await lstat(at).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return null;
      throw e;
    });
    if (info === null) return true;
    if (info.isSymbolicLink()) return false;
  }
  return true;
}
