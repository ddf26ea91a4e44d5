import { realpathSync, statSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { git, runGit } from '../git/index.js';
import {
  CodebaseCacheError,
  materializeCodebase,
  snapshotIntoCache,
  type CacheOptions,
} from './cache.js';
import { isFullCommit, isShortCommitHash } from './ref.js';
import { noSuchRef } from './missing-ref.js';
import { listRemote, normalizeUrl, pickRef, type RemoteRefs } from './remote.js';
import { CodebaseSourceError, type CodebaseSource, type ResolvedCodebase } from './types.js';

/** A source as declared, with the folder its relative paths are read from (the declaring file's). */
export interface SourceDeclaration {
  source: CodebaseSource;
  baseDir: string;
}

/** A git source pinned to a full hash that none of its source's refs names: to be fetched. */
type Pinned = ResolvedCodebase & { unadvertised?: true };
type Inspected = Pinned | { snapshot: string };

/**
 * Pins every source to a commit before anything is built: git sources with one
 * `git ls-remote` per distinct URL, path sources at the commit of their
 * committed state. A bad URL, an unknown ref, a short hash or a missing path
 * throws a {@link CodebaseSourceError} naming the source, with git's reason;
 * only when every source resolves are full commit hashes that no branch or
 * tag of their source names fetched into the cache (which is the one way to
 * know the source has them), and plain folders (not repositories)
 * snapshotted into it, which is what gives them a commit.
 *
 * @example
 * const [resolved] = await resolveCodebases([
 *   { source: { url: 'https://example.org/acme/toy.git', ref: 'v1.4.0' }, baseDir: '/evals' },
 * ]);
 * for (const warning of resolved.warnings) console.warn(warning);
 */
export async function resolveCodebases(
  sources: ReadonlyArray<SourceDeclaration>,
  options: CacheOptions = {},
): Promise<ResolvedCodebase[]> {
  for (const { source } of sources) checkDeclared(source);

  const remotes = new Map<string, Promise<RemoteRefs>>();
  for (const { source, baseDir } of sources) {
    if (!('url' in source)) continue;
    const url = normalizeUrl(source.url, baseDir);
    if (!remotes.has(url)) {
      const listed = listRemote(url, baseDir);
      listed.catch(() => undefined); // awaited (and reported) below, in declaration order
      remotes.set(url, listed);
    }
  }

  const inspected: Inspected[] = [];
  for (const { source, baseDir } of sources) {
    inspected.push(
      'url' in source
        ? await resolveGit(source, baseDir, remotes)
        : await inspectPath(source, baseDir),
    );
  }

  for (const [i, item] of inspected.entries()) {
    if ('snapshot' in item || !item.unadvertised) continue;
    delete item.unadvertised;
    await checkFetchable(sources[i]!.source, item, options);
  }

  const results: ResolvedCodebase[] = [];
  for (const item of inspected) {
    if (!('snapshot' in item)) {
      results.push(item);
      continue;
    }
    const commit = await snapshotIntoCache(item.snapshot, options);
    results.push({
      kind: 'snapshot',
      path: item.snapshot,
      commit,
      branch: 'main',
      host_local: true,
      warnings: [
        `codebase ${item.snapshot} is host-local and not a git repository: taken as a snapshot of its files (commit ${commit}); nobody else can resolve it`,
      ],
    });
  }
  return results;
}

function checkDeclared(source: CodebaseSource): void {
  if ('url' in source) {
    if (!source.url) throw new CodebaseSourceError(source, '"url" is empty');
    if (!source.ref)
      throw new CodebaseSourceError(
        source,
        '"ref" is required: a branch, a tag or a full 40-hex commit',
      );
    if (isShortCommitHash(source.ref)) {
      throw new CodebaseSourceError(
        source,
        `ref "${source.ref}" looks like a short commit hash; write the full 40-hex commit, a branch or a tag`,
      );
    }
  } else if (!source.path) {
    throw new CodebaseSourceError(source, '"path" is empty');
  }
}

async function resolveGit(
  source: { url: string; ref: string },
  baseDir: string,
  remotes: Map<string, Promise<RemoteRefs>>,
): Promise<Pinned> {
  const url = normalizeUrl(source.url, baseDir);
  let remote: RemoteRefs;
  try {
    remote = await (remotes.get(url) ?? listRemote(url, baseDir));
  } catch (error) {
    throw new CodebaseSourceError(
      source,
      `cannot read the repository: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  const base = { kind: 'git' as const, url, ref: source.ref, warnings: [] };
  if (isFullCommit(source.ref)) {
    const commit = source.ref.toLowerCase();
    const advertised = [...remote.refs.values()].includes(commit);
    return {
      ...base,
      commit,
      branch: remote.defaultBranch ?? 'main',
      ...(advertised ? {} : { unadvertised: true as const }),
    };
  }
  const picked = pickRef(remote, source.ref);
  if (!picked) throw new CodebaseSourceError(source, noSuchRef(source.ref, url, remote));
  return { ...base, ...picked };
}

/**
 * Fills the cache with a full hash no ref advertises: a source that does not
 * have it is refused here, before anything else is made, with git's reason.
 */
async function checkFetchable(
  source: CodebaseSource,
  resolved: ResolvedCodebase,
  options: CacheOptions,
): Promise<void> {
  try {
    await materializeCodebase(resolved, options);
  } catch (error) {
    if (!(error instanceof CodebaseCacheError)) throw error;
    throw new CodebaseSourceError(source, error.message, { cause: error });
  }
}

async function inspectPath(source: { path: string }, baseDir: string): Promise<Inspected> {
  const path = resolvePath(baseDir, source.path);
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    throw new CodebaseSourceError(source, `path does not exist (looked at ${path})`);
  }
  if (!isDirectory) throw new CodebaseSourceError(source, `path is not a folder (${path})`);

  const real = realpathSync(path);
  const probe = await runGit(
    ['rev-parse', '--is-bare-repository', '--absolute-git-dir', '--show-toplevel'],
    {
      cwd: real,
      reject: false,
    },
  );
  const [bare, gitDir, topLevel] = probe.stdout.trim().split('\n');
  const isRepository =
    probe.exitCode === 0 &&
    (bare === 'true' ? gitDir !== undefined && realpathSync(gitDir) === real : topLevel === real);
  // A folder inside someone's repository is still just a folder: snapshot it.
  if (!isRepository) return { snapshot: real };

  const head = await runGit(['rev-parse', '--verify', '-q', 'HEAD^{commit}'], {
    cwd: real,
    reject: false,
  });
  if (head.exitCode !== 0)
    throw new CodebaseSourceError(source, `repository ${real} has no commit yet`);
  const commit = head.stdout.trim();
  const onBranch = await runGit(['symbolic-ref', '-q', '--short', 'HEAD'], {
    cwd: real,
    reject: false,
  });
  const branch = onBranch.exitCode === 0 ? onBranch.stdout.trim() : 'main';
  const originUrl = await runGit(['remote', 'get-url', 'origin'], { cwd: real, reject: false });
  const origin = originUrl.exitCode === 0 ? withoutCredentials(originUrl.stdout.trim()) : undefined;
  // --no-optional-locks: looking must not rewrite the user's index.
  const status =
    bare === 'true'
      ? ''
      : await git(['--no-optional-locks', 'status', '--porcelain', '--untracked-files=normal'], {
          cwd: real,
        });
  const dirty = status.trim() !== '';

  const warnings = [
    `codebase ${real} is host-local: nobody else can resolve it; recorded with commit ${commit}` +
      (origin ? ` (origin ${origin})` : ''),
  ];
  if (dirty) {
    warnings.push(
      `codebase ${real} has uncommitted work, which is not carried: environments start from commit ${commit}`,
    );
  }
  return {
    kind: 'path',
    path: real,
    commit,
    branch,
    host_local: true,
    ...(origin ? { origin } : {}),
    ...(dirty ? { dirty: true as const } : {}),
    warnings,
  };
}

/** Drops `user:token@` from a URL so no credential reaches a report. */
function withoutCredentials(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1');
}
