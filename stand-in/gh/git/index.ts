import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { GhError } from '../errors.js';
import { configValue, parseGitConfig, type GitConfig } from './config.js';
import { currentBranch, type GitDirs } from './gitdir.js';
import { parseRemoteUrl, type RepoName } from './remote.js';
import { runGit } from './run.js';

export { findGitDirs, currentBranch, type GitDirs } from './gitdir.js';
export { parseRemoteUrl, type RepoName } from './remote.js';
export { parseGitConfig, configValue, type GitConfig } from './config.js';
export { runGit, type GitOutput } from './run.js';

/** gh's answer outside a git repository. */
export const NOT_A_GIT_REPOSITORY =
  'failed to run git: fatal: not a git repository (or any of the parent directories): .git';

/** The repository a call works in: its git files and, lazily, what the remote holds. */
export class RepoContext {
  private configCache: GitConfig | undefined;
  private remoteRefsCache: Map<string, string> | undefined;
  private remoteHeadCache: string | null | undefined;

  constructor(
    readonly dirs: GitDirs,
    readonly cwd: string,
  ) {}

  /** The repository's git config (the common one, shared by worktrees). */
  config(): GitConfig {
    if (!this.configCache) {
      let text = '';
      try {
        text = readFileSync(join(this.dirs.commonDir, 'config'), 'utf8');
      } catch {
        // A repository with no config has no remote; resolution says so below.
      }
      this.configCache = parseGitConfig(text);
    }
    return this.configCache;
  }

  /** The URL of `origin` (throws gh's error when there is none). */
  originUrl(): string {
    const url = configValue(this.config(), 'remote.origin.url');
    if (url !== undefined) return url;
    const anyRemote = [...this.config().keys()].some((k) => /^remote\..+\.url$/.test(k));
    if (!anyRemote) throw new GhError('no git remotes found');
    throw new GhError(
      'none of the git remotes configured for this repository point to a known GitHub host. ' +
        'To tell gh about a new GitHub host, please use `gh auth login`',
    );
  }

  /** OWNER/REPO, from the origin remote. */
  repoName(): RepoName {
    const url = this.originUrl();
    const name = parseRemoteUrl(url);
    if (!name) {
      throw new GhError(
        'none of the git remotes configured for this repository point to a known GitHub host. ' +
          'To tell gh about a new GitHub host, please use `gh auth login`',
      );
    }
    return name;
  }

  /** The branch HEAD is on, or undefined when detached. */
  branch(): string | undefined {
    return currentBranch(this.dirs.gitDir);
  }

  /** Runs git in the call's directory. */
  git(args: string[]): ReturnType<typeof runGit> {
    return runGit(this.cwd, args);
  }

  /** The commit HEAD points at, or undefined (an unborn branch). */
  headCommit(): string | undefined {
    const r = this.git(['rev-parse', '--verify', '--quiet', 'HEAD']);
    return r.status === 0 ? r.stdout.trim() : undefined;
  }

  private loadRemote(): void {
    if (this.remoteRefsCache) return;
    // One ls-remote answers both questions (branch tips and the default branch), asked of
    // the remote itself: a local tracking ref may be stale.
    const r = this.git(['ls-remote', '--symref', 'origin']);
    const refs = new Map<string, string>();
    let head: string | null = null;
    if (r.status === 0) {
      for (const line of r.stdout.split('\n')) {
        const sym = /^ref: refs\/heads\/(\S+)\tHEAD$/.exec(line);
        if (sym) head = sym[1] ?? null;
        const m = /^([0-9a-f]{40,64})\t(\S+)$/.exec(line);
        if (m) refs.set(m[2] ?? '', m[1] ?? '');
      }
    }
    this.remoteRefsCache = refs;
    this.remoteHeadCache = head;
  }

  /** The commit the remote holds for a branch, or undefined. */
  remoteBranchCommit(branch: string): string | undefined {
    this.loadRemote();
    return this.remoteRefsCache?.get(`refs/heads/${branch}`);
  }

  /** The remote's default branch (its HEAD), else `main`. */
  defaultBranch(): string {
    this.loadRemote();
    return this.remoteHeadCache ?? 'main';
  }
}
