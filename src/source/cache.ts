import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { EvalrigError } from '../errors/index.js';
import { git, runGit } from '../git/index.js';
import { gitReason } from './reason.js';
import { sweepStaleTemps } from './sweep.js';
import type { ResolvedCodebase } from './types.js';

/** Where the codebase cache lives unless told otherwise. */
export interface CacheOptions {
  /** Cache folder; default `$EVALRIG_CACHE_DIR`, else `${XDG_CACHE_HOME:-~/.cache}/evalrig/codebases`. */
  cacheDir?: string;
  /** Told when a cache entry failed its check and is filled again. */
  onWarning?: (text: string) => void;
}

/** Message of the commit a snapshot source becomes. Constant, so equal files give an equal commit. */
export const SNAPSHOT_MESSAGE = 'evalrig snapshot';

/**
 * The layout of cache entries, a folder of the cache root. Entries of an
 * older layout (the whole source, every branch and tag, directly under the
 * root) are never read: a new layout gets a new folder.
 */
export const CACHE_LAYOUT = 'v2';

/** The file in each entry recording what it holds and the digests it is checked against. */
export const CACHE_MANIFEST = 'evalrig-cache.json';

/** The codebase cache could not be filled (the source vanished, a commit is not in it, a disk error). */
export class CodebaseCacheError extends EvalrigError {}

/** What a cache entry holds, as its manifest records it. */
export interface CacheEntry {
  /** Folder of the entry (a bare repository). */
  path: string;
  /** The one commit the entry holds, with everything it reaches and nothing else. */
  commit: string;
  /** The commit's committer date, raw (`<seconds> <zone>`). */
  committerDate: string;
  /** Names of the files under `objects/pack` (one pack and its index). */
  packFiles: string[];
  /**
   * Paths a fresh checkout of the commit shows as changed (line endings
   * normalised under a `text` attribute, filters): re-added into every
   * baseline, so an agent is not charged with them.
   */
  renormalize: string[];
}

interface Manifest {
  layout: 2;
  commit: string;
  committer_date: string;
  renormalize: string[];
  /** Entry-relative path -> sha256 of its bytes: the pack, its index, HEAD and the pinning ref. */
  files: Record<string, string>;
}

const PIN_REF = 'refs/evalrig/commit';

/** The cache folder: the option, else $EVALRIG_CACHE_DIR, else the user-level default. */
export function cacheRoot(options: CacheOptions = {}): string {
  if (options.cacheDir) return options.cacheDir;
  const fromEnv = process.env.EVALRIG_CACHE_DIR;
  if (fromEnv) return fromEnv;
  const xdg = process.env.XDG_CACHE_HOME;
  return join(xdg ? xdg : join(homedir(), '.cache'), 'evalrig', 'codebases');
}

/**
 * Returns the cache entry of `resolved.commit`, filling it the first time: a
 * bare repository at `<cache>/v2/<commit>` whose single pack holds exactly
 * the objects the commit reaches (no later commit, no other branch or tag),
 * `refs/evalrig/commit` and a detached HEAD pinning it, and a manifest with
 * the sha256 of every file. An entry is checked against its manifest before
 * it is reused; one that fails is filled again. Idempotent, and safe when
 * several processes fill it at once: each builds in a temporary folder and
 * renames it into place; the loser discards its copy.
 *
 * @example
 * const [resolved] = await resolveCodebases([{ source, baseDir }]);
 * const cachePath = await materializeCodebase(resolved);
 */
export async function materializeCodebase(
  resolved: ResolvedCodebase,
  options: CacheOptions = {},
): Promise<string> {
  const root = join(cacheRoot(options), CACHE_LAYOUT);
  const final = join(root, resolved.commit);
  if (await reusable(final, resolved.commit, options)) return final;
  return fillEntry(root, resolved.commit, async (scratch) => {
    if (resolved.kind === 'snapshot') {
      const commit = await buildSnapshot(requirePath(resolved), scratch);
      if (commit !== resolved.commit) {
        throw new CodebaseCacheError(
          `snapshot ${resolved.path} changed since it was resolved (commit ${resolved.commit}, now ${commit})`,
        );
      }
    } else {
      await fetchCommit(resolved, scratch);
    }
    return resolved.commit;
  });
}

/**
 * Takes a folder that is not a repository as a snapshot of its files: makes
 * the commit in a new cache entry and returns the commit. The folder's own
 * .gitignore files are respected, and nothing is written into it.
 */
export async function snapshotIntoCache(path: string, options: CacheOptions = {}): Promise<string> {
  const root = join(cacheRoot(options), CACHE_LAYOUT);
  const entry = await fillEntry(root, 'snapshot', (scratch) => buildSnapshot(path, scratch));
  return basename(entry);
}

/** Reads an entry's manifest (not its digests: {@link materializeCodebase} checked those). */
export async function readCacheEntry(path: string): Promise<CacheEntry> {
  const manifest = await readManifest(path);
  if (typeof manifest === 'string') throw new CodebaseCacheError(`${path}: ${manifest}`);
  return {
    path,
    commit: manifest.commit,
    committerDate: manifest.committer_date,
    packFiles: Object.keys(manifest.files)
      .filter((file) => file.startsWith('objects/pack/'))
      .map((file) => basename(file)),
    renormalize: manifest.renormalize,
  };
}

/**
 * Checks an entry against its manifest: the recorded files are there with
 * their recorded sha256, no other pack sits beside them, HEAD and the pinning
 * ref name the commit. Returns what is wrong, or undefined. Reads every byte
 * of the pack (about 1 s per GB), once per campaign and commit.
 */
export async function verifyCacheEntry(path: string, commit: string): Promise<string | undefined> {
  const manifest = await readManifest(path);
  if (typeof manifest === 'string') return manifest;
  if (manifest.commit !== commit) return `the manifest names commit ${manifest.commit}`;
  let packDir: string[];
  try {
    packDir = (await readdir(join(path, 'objects', 'pack'))).sort();
  } catch {
    return 'objects/pack is missing';
  }
  const recorded = Object.keys(manifest.files)
    .filter((file) => file.startsWith('objects/pack/'))
    .map((file) => basename(file))
    .sort();
  if (packDir.join('\n') !== recorded.join('\n')) {
    return `objects/pack holds ${packDir.join(', ') || 'nothing'}, the manifest ${recorded.join(', ')}`;
  }
  for (const [file, digest] of Object.entries(manifest.files)) {
    let actual: string;
    try {
      actual = await sha256File(join(path, file));
    } catch {
      return `${file} is missing`;
    }
    if (actual !== digest) return `${file} does not match its recorded sha256`;
  }
  return undefined;
}

async function reusable(final: string, commit: string, options: CacheOptions): Promise<boolean> {
  if (!existsSync(final)) return false;
  const problem = await verifyCacheEntry(final, commit);
  if (problem === undefined) return true;
  options.onWarning?.(
    `codebase cache entry ${final} failed its check (${problem}); filling it again`,
  );
  // Moved aside first, so a concurrent reader never sees it half removed.
  const aside = `${join(final, '..')}/.tmp-${process.pid}-discard-${commit}-${Date.now()}`;
  try {
    await rename(final, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await rm(aside, { recursive: true, force: true });
  return false;
}

/**
 * Builds an entry in a temporary folder of the cache (`.tmp-<pid>-...`, so a
 * crashed fill is recognised and swept later): `source` fills a scratch
 * repository and returns the commit, whose objects are packed into the
 * entry, which is renamed into place.
 */
async function fillEntry(
  root: string,
  label: string,
  source: (scratch: string) => Promise<string>,
): Promise<string> {
  await mkdir(root, { recursive: true });
  await sweepStaleTemps(root);
  const temp = await mkdtemp(join(root, `.tmp-${process.pid}-${label}-`));
  try {
    const scratch = join(temp, 'scratch.git');
    await git(['init', '-q', '--bare', scratch], { cwd: temp });
    const commit = await source(scratch);
    const entry = join(temp, 'entry');
    await buildEntry(scratch, entry, commit, temp);
    return await publish(entry, join(root, commit));
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

async function buildSnapshot(path: string, bare: string): Promise<string> {
  const index = join(bare, 'snapshot-index');
  const options = { cwd: path, env: { GIT_INDEX_FILE: index } };
  const where = [`--git-dir=${bare}`, `--work-tree=${path}`];
  await git([...where, 'add', '-A', '--', '.'], options);
  const tree = await git([...where, 'write-tree'], options);
  return git([...where, 'commit-tree', '-m', SNAPSHOT_MESSAGE, tree], options);
}

/**
 * Fetches the commit and what it reaches into the scratch repository: by its
 * name first (the server sends only that history), else by the declared ref
 * (servers that refuse unadvertised names). git's reason is kept.
 */
async function fetchCommit(resolved: ResolvedCodebase, scratch: string): Promise<void> {
  const from = resolved.kind === 'git' ? resolved.url : resolved.path;
  if (from === undefined)
    throw new CodebaseCacheError(`codebase ${resolved.commit} has no url or path`);
  const fetch = (what: string) =>
    runGit(['fetch', '-q', '--no-tags', '--no-write-fetch-head', '--', from, what], {
      cwd: scratch,
      reject: false,
      transport: 'any',
    });
  const byName = await fetch(resolved.commit);
  const reasons = [gitReason(byName.stderr)];
  if (await hasCommit(scratch, resolved.commit)) return;
  if (resolved.ref !== undefined && resolved.ref.toLowerCase() !== resolved.commit) {
    const byRef = await fetch(resolved.ref);
    reasons.push(gitReason(byRef.stderr));
    if (await hasCommit(scratch, resolved.commit)) return;
  }
  const said = reasons.filter(Boolean).join('; ');
  throw new CodebaseCacheError(
    `commit ${resolved.commit} is not in codebase ${from}${said ? ` (git: ${said})` : ''}`,
  );
}

async function hasCommit(repo: string, commit: string): Promise<boolean> {
  const probe = await runGit(['cat-file', '-e', `${commit}^{commit}`], {
    cwd: repo,
    reject: false,
  });
  return probe.exitCode === 0;
}

/**
 * The entry: a new bare repository whose one pack is `pack-objects --revs` of
 * the commit (exactly what it reaches), HEAD detached at it, the pinning ref,
 * the paths a fresh checkout would show as changed, and the manifest of
 * sha256 digests, written last. Files are read-only: nothing is meant to
 * write them, and a link of them elsewhere stays so.
 */
async function buildEntry(
  scratch: string,
  entry: string,
  commit: string,
  temp: string,
): Promise<void> {
  await git(['init', '-q', '--bare', entry], { cwd: temp });
  await git(
    ['pack-objects', '-q', '--revs', '--delta-base-offset', join(entry, 'objects', 'pack', 'pack')],
    { cwd: scratch, input: `${commit}\n` },
  );
  const committerDate = await git(['show', '-s', '--format=%cd', '--date=raw', commit], {
    cwd: scratch,
  });
  const renormalize = await changedByCheckout(scratch, commit, temp);
  await mkdir(join(entry, 'refs', 'evalrig'), { recursive: true });
  await writeFile(join(entry, PIN_REF), `${commit}\n`);
  await writeFile(join(entry, 'HEAD'), `${commit}\n`);

  const files: Record<string, string> = {};
  const packs = (await readdir(join(entry, 'objects', 'pack'))).sort();
  for (const file of [...packs.map((p) => `objects/pack/${p}`), 'HEAD', PIN_REF]) {
    files[file] = await sha256File(join(entry, file));
    await chmod(join(entry, file), 0o444);
  }
  const manifest: Manifest = {
    layout: 2,
    commit,
    committer_date: committerDate,
    renormalize,
    files,
  };
  await writeFile(join(entry, CACHE_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, {
    mode: 0o444,
  });
}

/**
 * The paths a fresh checkout of `commit` shows as changed: checked out in a
 * scratch work tree, re-added with `--renormalize`, compared. Only a tree
 * with a .gitattributes can have any (evalrig's git reads no other
 * configuration), so other trees cost one ls-tree.
 */
async function changedByCheckout(scratch: string, commit: string, temp: string): Promise<string[]> {
  const names = await git(['ls-tree', '-r', '-z', '--name-only', commit], { cwd: scratch });
  const hasAttributes = names
    .split('\0')
    .some((name) => name === '.gitattributes' || name.endsWith('/.gitattributes'));
  if (!hasAttributes) return [];
  const workTree = join(temp, 'checkout');
  await mkdir(workTree);
  const where = [`--git-dir=${scratch}`, `--work-tree=${workTree}`];
  const options = { cwd: workTree, env: { GIT_INDEX_FILE: join(temp, 'checkout-index') } };
  await git([...where, 'read-tree', '-u', '--reset', commit], options);
  await git([...where, 'add', '--renormalize', '--', '.'], options);
  const changed = await git([...where, 'diff', '--cached', '--name-only', '-z', commit], options);
  await rm(workTree, { recursive: true, force: true });
  return changed.split('\0').filter(Boolean);
}

async function readManifest(path: string): Promise<Manifest | string> {
  let text: string;
  try {
    text = await readFile(join(path, CACHE_MANIFEST), 'utf8');
  } catch {
    return `no ${CACHE_MANIFEST}`;
  }
  try {
    const parsed = JSON.parse(text) as Partial<Manifest>;
    const files = parsed.files;
    if (
      parsed.layout === 2 &&
      typeof parsed.commit === 'string' &&
      typeof parsed.committer_date === 'string' &&
      Array.isArray(parsed.renormalize) &&
      parsed.renormalize.every((p) => typeof p === 'string') &&
      typeof files === 'object' &&
      files !== null &&
      Object.keys(files).some((f) => f.endsWith('.pack')) &&
      Object.entries(files).every(
        ([f, d]) => /^[A-Za-z0-9._/-]+$/.test(f) && !f.includes('..') && /^[0-9a-f]{64}$/.test(d),
      )
    ) {
      return parsed as Manifest;
    }
  } catch {
    // falls through to the refusal below
  }
  return `${CACHE_MANIFEST} is not a manifest of layout 2`;
}

async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function publish(temp: string, final: string): Promise<string> {
  try {
    await rename(temp, final);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
    // Another process published the same commit first; its copy is as good as ours.
  }
  return final;
}

function requirePath(resolved: ResolvedCodebase): string {
  if (resolved.path === undefined)
    throw new CodebaseCacheError(`snapshot ${resolved.commit} has no path`);
  return resolved.path;
}
