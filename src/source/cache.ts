import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { EvalrigError } from '../errors/index.js';
import { git, runGit } from '../git/index.js';
import type { ResolvedCodebase } from './types.js';

/** Where the codebase cache lives unless told otherwise. */
export interface CacheOptions {
  /** Cache folder; default `$EVALRIG_CACHE_DIR`, else `${XDG_CACHE_HOME:-~/.cache}/evalrig/codebases`. */
  cacheDir?: string;
}

/** Message of the commit a snapshot source becomes. Constant, so equal files give an equal commit. */
export const SNAPSHOT_MESSAGE = 'evalrig snapshot';

/** The codebase cache could not be filled (the source vanished, a commit is not in it, a disk error). */
export class CodebaseCacheError extends EvalrigError {}

/** The cache folder: the option, else $EVALRIG_CACHE_DIR, else the user-level default. */
export function cacheRoot(options: CacheOptions = {}): string {
  if (options.cacheDir) return options.cacheDir;
  const fromEnv = process.env.EVALRIG_CACHE_DIR;
  if (fromEnv) return fromEnv;
  const xdg = process.env.XDG_CACHE_HOME;
  return join(xdg ? xdg : join(homedir(), '.cache'), 'evalrig', 'codebases');
}

/**
 * Returns the cached clone of `resolved.commit`, filling the cache the first
 * time: a bare repository at `<cache>/<commit>` holding the source's branches
 * and tags, and `refs/evalrig/commit` pinning the commit. Idempotent, and
 * safe when several processes fill it at once: each builds in a temporary
 * folder and renames it into place; the loser discards its copy.
 *
 * @example
 * const [resolved] = await resolveCodebases([{ source, baseDir }]);
 * const cachePath = await materializeCodebase(resolved);
 */
export async function materializeCodebase(
  resolved: ResolvedCodebase,
  options: CacheOptions = {},
): Promise<string> {
  const root = cacheRoot(options);
  const final = join(root, resolved.commit);
  if (existsSync(join(final, 'HEAD'))) return final;
  await mkdir(root, { recursive: true });
  const temp = await mkdtemp(join(root, `.tmp-${resolved.commit}-`));
  try {
    if (resolved.kind === 'snapshot') {
      const commit = await buildSnapshot(requirePath(resolved), temp);
      if (commit !== resolved.commit) {
        throw new CodebaseCacheError(
          `snapshot ${resolved.path} changed since it was resolved (commit ${resolved.commit}, now ${commit})`,
        );
      }
    } else {
      await cloneSource(resolved, temp);
    }
    return await publish(temp, final);
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Takes a folder that is not a repository as a snapshot of its files: makes
 * the commit in a new cache entry and returns the commit. The folder's own
 * .gitignore files are respected, and nothing is written into it.
 */
export async function snapshotIntoCache(path: string, options: CacheOptions = {}): Promise<string> {
  const root = cacheRoot(options);
  await mkdir(root, { recursive: true });
  const temp = await mkdtemp(join(root, '.tmp-snapshot-'));
  try {
    const commit = await buildSnapshot(path, temp);
    await publish(temp, join(root, commit));
    return commit;
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    throw error;
  }
}

async function buildSnapshot(path: string, bare: string): Promise<string> {
  await git(['init', '-q', '--bare', '-b', 'main', bare], { cwd: bare });
  const index = join(bare, 'snapshot-index');
  const options = { cwd: path, env: { GIT_INDEX_FILE: index } };
  const where = [`--git-dir=${bare}`, `--work-tree=${path}`];
  await git([...where, 'add', '-A', '--', '.'], options);
  const tree = await git([...where, 'write-tree'], options);
  const commit = await git([...where, 'commit-tree', '-m', SNAPSHOT_MESSAGE, tree], options);
  await git([`--git-dir=${bare}`, 'update-ref', 'refs/heads/main', commit], { cwd: bare });
  await git([`--git-dir=${bare}`, 'update-ref', 'refs/evalrig/commit', commit], { cwd: bare });
  await rm(index, { force: true });
  return commit;
}

async function cloneSource(resolved: ResolvedCodebase, bare: string): Promise<void> {
  const from = resolved.kind === 'git' ? resolved.url : resolved.path;
  if (from === undefined)
    throw new CodebaseCacheError(`codebase ${resolved.commit} has no url or path`);
  // --no-local: a pack transfer even from a local path, so the cache never
  // shares inodes with the user's repository and is one pack, not loose files.
  const cloned = await runGit(['clone', '-q', '--bare', '--no-local', '--', from, bare], {
    transport: 'any',
    cwd: bare,
    reject: false,
  });
  if (cloned.exitCode !== 0) {
    throw new CodebaseCacheError(`cannot clone codebase ${from}: ${cloned.stderr.trim()}`);
  }
  if (!(await hasCommit(bare, resolved.commit))) {
    // A commit no branch or tag reaches (detached HEAD, a full hash off-branch).
    await runGit(['fetch', '-q', 'origin', resolved.commit], {
      cwd: bare,
      reject: false,
      transport: 'any',
    });
    if (!(await hasCommit(bare, resolved.commit))) {
      throw new CodebaseCacheError(`commit ${resolved.commit} is not in codebase ${from}`);
    }
  }
  // Pins the commit so no gc drops it, and keeps the source's address out of the cache.
  await git(['update-ref', 'refs/evalrig/commit', resolved.commit], { cwd: bare });
  await git(['remote', 'remove', 'origin'], { cwd: bare });
}

async function hasCommit(repo: string, commit: string): Promise<boolean> {
  const probe = await runGit(['cat-file', '-e', `${commit}^{commit}`], {
    cwd: repo,
    reject: false,
  });
  return probe.exitCode === 0;
}

async function publish(temp: string, final: string): Promise<string> {
  try {
    await rename(temp, final);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
    // Another process published the same commit first; its copy is as good as ours.
    await rm(temp, { recursive: true, force: true });
  }
  return final;
}

function requirePath(resolved: ResolvedCodebase): string {
  if (resolved.path === undefined)
    throw new CodebaseCacheError(`snapshot ${resolved.commit} has no path`);
  return resolved.path;
}
