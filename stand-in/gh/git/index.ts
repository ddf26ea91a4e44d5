import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { GhError } from '../errors.js';
import { configValue, parseGitConfig, type GitConfig } from './config.js';
import { currentBranch, type GitDirs } from './gitdir.js';
import { isKnownHost, parseRemote, remoteSortScore, type RepoName } from './remote.js';
import { runGit } from './run.js';

export { findGitDirs, currentBranch, type GitDirs } from './gitdir.js';
export { parseRemoteUrl, parseRemote, type RepoName } from './remote.js';
export { parseGitConfig, configValue, type GitConfig } from './config.js';
export { runGit, type GitOutput } from './run.js';

/**
 * gh's answer outside a git repository: git's stderr kept whole, newline included, so gh's
 * own newline after the error leaves a blank line (git/errors.go `GitError`).
 */
export const NOT_A_GIT_REPOSITORY =
  'failed to run git: fatal: not a git repository (or any of the parent directories): .git\n';

/** A git remote gh resolves to a GitHub repository. */
export interface Remote {
  name: string;
  repo: RepoName;
}

/** The repository a call works in: its git files and, lazily, what the remote holds. */
export class RepoContext {
  private configCache: GitConfig | undefined;
  private remoteRefsCache: Map<string, string> | undefined;
  private remoteHeadCache: string | null | undefined;
  private remotesCache: Remote[] | undefined;

  constructor(
    readonly dirs: GitDirs,
    readonly cwd: string,
    readonly env: NodeJS.ProcessEnv = {},
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

  /**
   * The remotes gh would keep (context/remote.go, pkg/cmd/factory/remote_resolver.go): fetch
   * URL (push URL as fallback) parsed, those of a known host only, upstream > github > origin >
   * others. Throws gh's errors when there are none.
   */
  remotes(): Remote[] {
    if (this.remotesCache) return this.remotesCache;
    const config = this.config();
    const names: string[] = [];
    for (const key of config.keys()) {
      const m = /^remote\.(.+)\.(url|pushurl)$/.exec(key);
      if (m?.[1] !== undefined && !names.includes(m[1])) names.push(m[1]);
    }
    if (names.length === 0) throw new GhError('no git remotes found');
    const known: Remote[] = [];
    for (const name of names) {
      const url =
        configValue(config, `remote.${name}.url`) ?? configValue(config, `remote.${name}.pushurl`);
      const parsed = url === undefined ? undefined : parseRemote(url);
      if (parsed && isKnownHost(parsed)) {
        known.push({ name, repo: { owner: parsed.owner, name: parsed.name } });
      }
    }
    if (known.length === 0) {
      const env = this.env;
      if (
        env.GH_TOKEN ||
        env.GITHUB_TOKEN ||
        env.GH_ENTERPRISE_TOKEN ||
        env.GITHUB_ENTERPRISE_TOKEN
      ) {
        throw new GhError(
          'set the GH_HOST environment variable to specify which GitHub host to use',
        );
      }
      throw new GhError(
        'none of the git remotes configured for this repository point to a known GitHub host. ' +
          'To tell gh about a new GitHub host, please use `gh auth login`',
      );
    }
    // A stable sort: remotes of one score keep git's order, as gh's small insertion sort does.
    this.remotesCache = known
      .map((r, i) => ({ r, i }))
      .sort((a, b) => remoteSortScore(b.r.name) - remoteSortScore(a.r.name) || a.i - b.i)
      .map((x) => x.r);
    return this.remotesCache;
  }

  /**
   * The remote of the base repository: the one `gh-resolved` names `base`, else the first
   * (gh does not prompt when its output is not a terminal).
   */
  baseRemote(): Remote {
    const remotes = this.remotes();
    const resolved = remotes.find(
      (r) => configValue(this.config(), `remote.${r.name}.gh-resolved`) === 'base',
    );
    return resolved ?? (remotes[0] as Remote);
  }

  /** OWNER/REPO of the base repository. */
  repoName(): RepoName {
    return this.baseRemote().repo;
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
    const r = this.git(['ls-remote', '--symref', this.baseRemote().name]);
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
