import { basename, dirname, join, resolve } from 'node:path';
import { existsSync, readFileSync, statSync, type Stats } from 'node:fs';

/** Where a repository's git files are. */
export interface GitDirs {
  /** The work tree's own git directory (`.git`, or `.git/worktrees/<name>` for a worktree). */
  gitDir: string;
  /** The directory that holds config and refs shared by all worktrees. */
  commonDir: string;
  /** The top of the work tree, when there is one. */
  workTree: string | undefined;
}

/**
 * Finds the git directory of `cwd` as git does (walking up, following a `.git` file), without
 * spawning git. Returns undefined outside any repository.
 */
export function findGitDirs(cwd: string, env: NodeJS.ProcessEnv): GitDirs | undefined {
  if (env.GIT_DIR) {
    const gitDir = resolve(cwd, env.GIT_DIR);
    if (!isGitDir(gitDir)) return undefined;
    return { gitDir, commonDir: commonDirOf(gitDir), workTree: env.GIT_WORK_TREE };
  }
  let dir = resolve(cwd);
  for (;;) {
    const dotGit = join(dir, '.git');
    const st = statOrUndefined(dotGit);
    if (st?.isDirectory() && isGitDir(dotGit)) {
      return { gitDir: dotGit, commonDir: dotGit, workTree: dir };
    }
    if (st?.isFile()) {
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'));
      if (m?.[1]) {
        const gitDir = resolve(dir, m[1]);
        if (isGitDir(gitDir)) return { gitDir, commonDir: commonDirOf(gitDir), workTree: dir };
      }
    }
    // A bare repository, or a call from inside a git directory.
    if (isGitDir(dir) && basename(dir) !== '.git' && existsSync(join(dir, 'config'))) {
      if (statOrUndefined(join(dir, 'objects'))?.isDirectory()) {
        return { gitDir: dir, commonDir: commonDirOf(dir), workTree: undefined };
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function isGitDir(dir: string): boolean {
  return statOrUndefined(join(dir, 'HEAD'))?.isFile() === true;
}

function commonDirOf(gitDir: string): string {
  try {
    const rel = readFileSync(join(gitDir, 'commondir'), 'utf8').trim();
    return resolve(gitDir, rel);
  } catch {
    return gitDir;
  }
}

function statOrUndefined(p: string): Stats | undefined {
  try {
    return statSync(p);
  } catch {
    return undefined;
  }
}

/** The branch HEAD points at (`refs/heads/<b>` -> `<b>`), or undefined when detached. */
export function currentBranch(gitDir: string): string | undefined {
  const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
  const m = /^ref:\s*refs\/heads\/(.+)$/.exec(head);
  return m?.[1];
}
