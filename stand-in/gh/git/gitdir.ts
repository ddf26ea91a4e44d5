import fs from 'node:fs';
import path from 'node:path';

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
    const gitDir = path.resolve(cwd, env.GIT_DIR);
    if (!isGitDir(gitDir)) return undefined;
    return { gitDir, commonDir: commonDirOf(gitDir), workTree: env.GIT_WORK_TREE };
  }
  let dir = path.resolve(cwd);
  for (;;) {
    const dotGit = path.join(dir, '.git');
    const st = statOrUndefined(dotGit);
    if (st?.isDirectory() && isGitDir(dotGit)) {
      return { gitDir: dotGit, commonDir: dotGit, workTree: dir };
    }
    if (st?.isFile()) {
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(fs.readFileSync(dotGit, 'utf8'));
      if (m?.[1]) {
        const gitDir = path.resolve(dir, m[1]);
        if (isGitDir(gitDir)) return { gitDir, commonDir: commonDirOf(gitDir), workTree: dir };
      }
    }
    // A bare repository, or a call from inside a git directory.
    if (isGitDir(dir) && path.basename(dir) !== '.git' && fs.existsSync(path.join(dir, 'config'))) {
      if (statOrUndefined(path.join(dir, 'objects'))?.isDirectory()) {
        return { gitDir: dir, commonDir: commonDirOf(dir), workTree: undefined };
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function isGitDir(dir: string): boolean {
  return statOrUndefined(path.join(dir, 'HEAD'))?.isFile() === true;
}

function commonDirOf(gitDir: string): string {
  try {
    const rel = fs.readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim();
    return path.resolve(gitDir, rel);
  } catch {
    return gitDir;
  }
}

function statOrUndefined(p: string): fs.Stats | undefined {
  try {
    return fs.statSync(p);
  } catch {
    return undefined;
  }
}

/** The branch HEAD points at (`refs/heads/<b>` -> `<b>`), or undefined when detached. */
export function currentBranch(gitDir: string): string | undefined {
  const head = fs.readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim();
  const m = /^ref:\s*refs\/heads\/(.+)$/.exec(head);
  return m?.[1];
}
