import { cp, readdir, stat } from 'node:fs/promises';
import { isAbsolute, join, normalize, relative, sep } from 'node:path';
import { EnvironmentError, type PlacedPath } from './types.js';

/**
 * Checks a work-tree-relative path: relative, inside the work tree, not into
 * .git. Returns it normalized with forward slashes ('' for the root).
 */
export function checkRelative(to: string, what: string): string {
  const normal = normalize(to).split(sep).join('/').replace(/\/+$/, '');
  const clean = normal === '.' ? '' : normal;
  if (isAbsolute(to) || clean === '..' || clean.startsWith('../')) {
    throw new EnvironmentError(`${what} "${to}" must be a path inside the work tree`);
  }
  if (clean === '.git' || clean.startsWith('.git/')) {
    throw new EnvironmentError(`${what} "${to}" points into .git`);
  }
  return clean;
}

/**
 * Copies each host path into the work tree (later entries win) and returns
 * the work-tree paths of every file placed, so they can be forced into the
 * baseline even where the codebase ignores them.
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
      throw new EnvironmentError(`${what} source ${from} does not exist`);
    }
    await cp(from, join(workTree, target), { recursive: true, force: true, dereference: true });
    if (kind.isDirectory()) {
      for (const file of await filesUnder(from)) placed.push(target ? `${target}/${file}` : file);
    } else {
      placed.push(target);
    }
  }
  return placed;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries) {
    if (entry.isDirectory()) continue;
    files.push(relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'));
  }
  return files;
}
