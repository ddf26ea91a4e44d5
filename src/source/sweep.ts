import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** A temporary folder of the cache younger than this is never swept, whoever made it. */
export const STALE_TEMP_MS = 10 * 60 * 1000;

/**
 * Removes the `.tmp-<pid>-...` folders that fills which crashed left in a
 * cache folder: older than {@link STALE_TEMP_MS} and not of a live process
 * (a fill of a large repository may well take longer than the age alone).
 * Returns the names removed. A folder whose name carries no pid is swept on
 * age alone.
 */
export async function sweepStaleTemps(root: string, now = Date.now()): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(root);
  } catch {
    return [];
  }
  const swept: string[] = [];
  for (const name of names) {
    if (!name.startsWith('.tmp-')) continue;
    const path = join(root, name);
    let modified: number;
    try {
      modified = (await stat(path)).mtimeMs;
    } catch {
      continue; // gone meanwhile: its owner published or discarded it
    }
    if (now - modified < STALE_TEMP_MS) continue;
    const pid = /^\.tmp-(\d+)-/.exec(name)?.[1];
    if (pid !== undefined && isAlive(Number(pid))) continue;
    await rm(path, { recursive: true, force: true });
    swept.push(name);
  }
  return swept;
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
