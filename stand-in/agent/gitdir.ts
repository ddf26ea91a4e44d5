import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The git directory of `cwd`, found as git finds it: walking up for `.git`, a
 * folder or a `gitdir:` file (worktrees, submodules). Undefined outside a
 * repository. No git process is spawned.
 */
export function findGitDir(cwd: string): string | undefined {
  let dir = path.resolve(cwd);
  for (;;) {
    const dotGit = path.join(dir, '.git');
    const st = statSync(dotGit, { throwIfNoEntry: false });
    if (st?.isDirectory()) return dotGit;
    if (st?.isFile()) {
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'));
      if (m?.[1]) return path.resolve(dir, m[1]);
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
