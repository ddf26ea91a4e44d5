/**
 * The real repositories kept beside the project (../shared/repos, or EVALRIG_SHARED_REPOS):
 * bare clones, read-only, lacking the empty folders git needs. A test gets a clone of its own.
 */
import { existsSync } from 'node:fs';
import { cp, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';

export function sharedRepo(name: string): string | undefined {
  const root =
    process.env.EVALRIG_SHARED_REPOS ?? path.resolve(import.meta.dirname, '../../../shared/repos');
  const bare = path.join(root, `${name}.git`);
  return existsSync(bare) ? bare : undefined;
}

/** A working clone of the shared repository `bare` in `dir` (its history whole). */
export async function cloneShared(bare: string, dir: string): Promise<string> {
  const copy = `${dir}.git`;
  await cp(bare, copy, { recursive: true });
  await mkdir(path.join(copy, 'refs', 'heads'), { recursive: true });
  await mkdir(path.join(copy, 'refs', 'tags'), { recursive: true });
  await execa('git', ['clone', '-q', copy, dir]);
  return dir;
}
