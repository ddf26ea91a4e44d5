import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * Plain git for building fixtures, outside evalrig's isolation but with no
 * operator configuration either, so fixtures are the same on every host.
 */
export function rawGit(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    env: {
      PATH: process.env.PATH ?? '',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: 'fixture',
      GIT_AUTHOR_EMAIL: 'fixture@example.com',
      GIT_COMMITTER_NAME: 'fixture',
      GIT_COMMITTER_EMAIL: 'fixture@example.com',
    },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

export interface SourceRepo {
  /** Work tree of the source repository. */
  dir: string;
  /** Commits of main, oldest first ("first", "second"). */
  commits: string[];
  /** Tip of branch `feature` ("feature work", on top of "first"). */
  feature: string;
}

/**
 * A small codebase with history: main has "first" and "second" (tagged v1.0,
 * annotated), a branch `feature`, a .gitignore ignoring target/ and
 * node_modules/ and .claude/.
 */
export function makeSourceRepo(dir: string): SourceRepo {
  mkdirSync(dir, { recursive: true });
  rawGit(dir, 'init', '-q', '-b', 'main');
  writeFiles(dir, {
    '.gitignore': 'target/\nnode_modules/\n.claude/\n*.log\n',
    'README.md': '# toy\n',
    'src/lib.txt': 'one\ntwo\nthree\n',
  });
  rawGit(dir, 'add', '.');
  rawGit(dir, 'commit', '-q', '-m', 'first');
  const first = rawGit(dir, 'rev-parse', 'HEAD');
  rawGit(dir, 'checkout', '-q', '-b', 'feature');
  writeFiles(dir, { 'feature.txt': 'feature\n' });
  rawGit(dir, 'add', '.');
  rawGit(dir, 'commit', '-q', '-m', 'feature work');
  const feature = rawGit(dir, 'rev-parse', 'HEAD');
  rawGit(dir, 'checkout', '-q', 'main');
  writeFiles(dir, { 'src/lib.txt': 'one\ntwo\nthree\nfour\n' });
  rawGit(dir, 'commit', '-q', '-am', 'second');
  rawGit(dir, 'tag', '-a', '-m', 'release', 'v1.0');
  const second = rawGit(dir, 'rev-parse', 'HEAD');
  return { dir, commits: [first, second], feature };
}

/** A temporary folder for one test, removed by `cleanup`. */
export function tempDir(prefix: string): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `evalrig-${prefix}-`));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
