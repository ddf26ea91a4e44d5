import { constants } from 'node:fs';
import { copyFile, lstat, mkdir, readdir, rm, stat, unlink } from 'node:fs/promises';
import { isAbsolute, join, normalize, sep } from 'node:path';
import { WorkspaceError, type PlacedPath } from './types.js';

/**
 * Checks a work-tree-relative path: relative, inside the work tree, not into
 * .git. Returns it normalized with forward slashes ('' for the root).
 */
export function checkRelative(to: string, what: string): string {
  const normal = normalize(to).split(sep).join('/').replace(/\/+$/, '');
  const clean = normal === '.' ? '' : normal;
  if (isAbsolute(to) || clean === '..' || clean.startsWith('../')) {
    throw new WorkspaceError(`${what} "${to}" must be a path inside the work tree`);
  }
  if (clean === '.git' || clean.startsWith('.git/')) {
    throw new WorkspaceError(`${what} "${to}" points into .git`);
  }
  return clean;
}

/**
 * Copies each host path into the work tree (later entries win) and returns
 * the work-tree paths of every file placed, so they can be forced into the
 * baseline even where the codebase ignores them.
 *
 * A placed path never goes through a link: where the codebase tracks a
 * symbolic link (or a file) at a folder of a placed path, it is replaced by a
 * real folder, and a link or folder where a placed file goes is replaced by
 * the file. So a codebase tracking `.claude` as a link to a host folder gets
 * a real `.claude` folder holding the staged skill (the link's removal is part
 * of the baseline), and nothing is ever written outside the work tree.
 * Host sources are read through links (a staged folder may link to shared
 * files).
 */
export async function placePaths(
  workTree: string,
  paths: ReadonlyArray<PlacedPath>,
  what: string,
): Promise<string[]> {
  const placed: string[] = [];
  for (const { from, to } of paths) {
    const target = checkRelative(to, `${what} target`);
    let kind;
    try {
      kind = await stat(from);
    } catch {
      throw new WorkspaceError(`${what} source ${from} does not exist`);
    }
    if (kind.isDirectory()) {
      await realFolder(workTree, target);
      for (const file of await filesUnder(from)) {
        const to = target ? `${target}/${file}` : file;
        await placeFile(workTree, join(from, file), to);
        placed.push(to);
      }
    } else {
      if (target === '') {
        throw new WorkspaceError(`${what} target "${to}" must name a file for file ${from}`);
      }
      await placeFile(workTree, from, target);
      placed.push(target);
    }
  }
  return placed;
}

/**
 * Whether a work-tree-relative path is there without going through a link:
 * every folder on the way is a real folder (the path itself may be a link,
 * which git adds as a link).
 */
export async function presentInTree(workTree: string, relative: string): Promise<boolean> {
  const parts = relative.split('/').filter(Boolean);
  let path = workTree;
  for (const [i, part] of parts.entries()) {
    path = join(path, part);
    const found = await lstat(path).catch(() => undefined);
    if (found === undefined) return false;
    if (i < parts.length - 1 && !found.isDirectory()) return false;
  }
  return parts.length > 0;
}

/** Copies one file to `to` (work-tree relative), its folders made real folders first. */
async function placeFile(workTree: string, from: string, to: string): Promise<void> {
  const parts = to.split('/');
  await realFolder(workTree, parts.slice(0, -1).join('/'));
  const dest = join(workTree, to);
  // Whatever is there (a tracked file, a link, a folder) goes: the placed file wins.
  await rm(dest, { recursive: true, force: true });
  // EXCL: open with O_EXCL, which never follows a link.
  await copyFile(from, dest, constants.COPYFILE_EXCL);
}

/**
 * Makes every component of `relative` under the work tree a real folder,
 * walking down from the work tree: a component that is a link or a file is
 * removed (never followed) and made a folder.
 */
async function realFolder(workTree: string, relative: string): Promise<void> {
  let path = workTree;
  for (const part of relative.split('/').filter(Boolean)) {
    path = join(path, part);
    const found = await lstat(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (found?.isDirectory()) continue;
    if (found === undefined) {
      await mkdir(path);
      continue;
    }
    await unlink(path);
    await mkdir(path);
  }
}

/**
 * Files under a host folder, relative, with forward slashes, sorted; links are
 * followed (a folder reached twice on one path, a link loop, is an error).
 */
export async function filesUnder(dir: string, prefix = '', seen: string[] = []): Promise<string[]> {
  const here = await stat(join(dir, prefix));
  const id = `${here.dev}:${here.ino}`;
  if (seen.includes(id)) {
    throw new WorkspaceError(`${join(dir, prefix)} links back to a folder that contains it`);
  }
  const files: string[] = [];
  for (const name of (await readdir(join(dir, prefix))).sort()) {
    const relative = prefix ? `${prefix}/${name}` : name;
    let kind;
    try {
      kind = await stat(join(dir, relative));
    } catch {
      throw new WorkspaceError(`${join(dir, relative)} is a link to nothing`);
    }
    if (kind.isDirectory()) files.push(...(await filesUnder(dir, relative, [...seen, id])));
    else files.push(relative);
  }
  return files;
}
