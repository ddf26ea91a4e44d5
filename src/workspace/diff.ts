import { lstat, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { git, runGit, type GitResult } from '../git/index.js';
import { UntrustedFileError, readUntrustedFile } from '../untrusted/index.js';
import type { Seal } from './seal.js';
import { WorkspaceError, type DiffCounts, type DiffMeasure } from './types.js';

/** Patch size kept by default (bytes). */
export const DEFAULT_MAX_PATCH_BYTES = 1_000_000;

/** What {@link measureDiff} is asked for. */
export interface MeasureOptions {
  /** Patch size kept (bytes); default {@link DEFAULT_MAX_PATCH_BYTES}. */
  maxPatchBytes?: number;
  /** `false`: counts only, no patch made (less work for git on a large change). Default true. */
  patch?: boolean;
}

/**
 * Room kept for the counts (one `--raw` and one `--numstat` line per changed
 * file) ahead of the patch, so that one git process gives both: about 7,000
 * changed files. A larger change costs two more processes, not a wrong figure.
 */
const COUNTS_ROOM = 1024 * 1024;

/** The agent's index is read (for the untracked count) up to this size. */
const MAX_AGENT_INDEX_BYTES = 256 * 1024 * 1024;

/**
 * Measures what changed in a workspace since its baseline: the work tree
 * as it is (committed or not, untracked non-ignored files included, ignored
 * files excluded) against the baseline commit the host recorded.
 *
 * git runs only in the seal's git dir (evalrig's config, the host's own
 * index, no transport), with the work tree read as data: nothing the agent
 * wrote into its repository (config, hooks, refs, index, objects, alternates)
 * is read or run, nested repositories are left out rather than followed, and
 * the index of the last measure spares re-reading unchanged files.
 *
 * Three git processes: one add (the only walk git makes of the work tree), the
 * agent's index's paths (for the untracked count), one diff giving the counts
 * and the patch.
 *
 * @example
 * const diff = await measureDiff(seal, { maxPatchBytes: 200_000 });
 * console.log(diff.files_modified, diff.lines_added, diff.patch_truncated);
 * const counts = await measureDiff(seal, { patch: false });
 */
export async function measureDiff(
  seal: Seal,
  options: MeasureOptions & { patch: false },
): Promise<DiffCounts>;
export async function measureDiff(seal: Seal, options?: MeasureOptions): Promise<DiffMeasure>;
export async function measureDiff(
  seal: Seal,
  options: MeasureOptions = {},
): Promise<DiffCounts | DiffMeasure> {
  const limit = options.maxPatchBytes ?? DEFAULT_MAX_PATCH_BYTES;
  const { workTree, gitDir, baseline } = seal;
  const top = await lstat(workTree).catch(() => undefined);
  if (!top?.isDirectory()) throw new WorkspaceError(`${workTree} is not a folder any more`);
  const where = [`--git-dir=${gitDir}`, `--work-tree=${workTree}`];
  const opts = { cwd: gitDir };
  const excluded = await nestedRepositories(workTree);
  const [added, tracked] = await Promise.all([
    git([...where, 'add', '-A', '--verbose', '--pathspec-from-file=-', '--pathspec-file-nul'], {
      ...opts,
      input: excluded.map((dir) => `:(exclude,literal)${dir}\0`).join(''),
    }),
    trackedPaths(seal, where),
  ]);
  const untracked = added
    .split('\n')
    .filter((line) => line.startsWith("add '") && !tracked.has(line.slice(5, -1))).length;
  const diff = [
    ...where,
    'diff',
    '--cached',
    '--no-renames',
    '--no-ext-diff',
    '--no-textconv',
    '--no-color',
  ];
  if (options.patch === false) {
    const counts = await git([...diff, '--raw', '--numstat', baseline], opts);
    return { ...countsOf(counts.split('\n')), untracked };
  }
  // Counts first (ASCII: paths are quoted), a blank line, then the patch.
  const both = await runGit([...diff, '--raw', '--numstat', '--patch', baseline], {
    ...opts,
    maxStdoutBytes: limit + COUNTS_ROOM,
  });
  const split = splitCounts(both, limit);
  if (split) return { ...split.counts, untracked, ...split.patch };
  // Too many files for the room, or bytes that are not UTF-8 where the patch is cut: apart.
  const [counts, patch] = await Promise.all([
    git([...diff, '--raw', '--numstat', baseline], opts),
    runGit([...diff, '--patch', baseline], { ...opts, maxStdoutBytes: limit }),
  ]);
  return {
    ...countsOf(counts.split('\n')),
    untracked,
    ...capPatch(patch.stdout, patch.stdoutBytes, patch.stdoutTruncated),
  };
}

/**
 * Folders below the top that hold a `.git` of their own (a nested
 * repository, or a `.git` file pointing anywhere on the host): git would
 * follow them, so they are left out of the measure.
 */
async function nestedRepositories(workTree: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    const entries = await readdir(join(workTree, rel), { withFileTypes: true }).catch(() => []);
    if (rel !== '' && entries.some((e) => e.name === '.git')) {
      found.push(rel);
      return;
    }
    await Promise.all(
      entries
        .filter((e) => e.isDirectory() && e.name !== '.git')
        .map((e) => walk(rel === '' ? e.name : `${rel}/${e.name}`)),
    );
  };
  await walk('');
  return found.sort();
}

/**
 * The paths the agent's own index tracks, from a copy taken as data (a
 * regular file, no link followed, capped); the baseline's paths when it has
 * none git can read.
 */
async function trackedPaths(seal: Seal, where: readonly string[]): Promise<Set<string>> {
  const opts = { cwd: seal.gitDir };
  let bytes: Buffer | undefined;
  try {
    bytes = await readUntrustedFile(seal.workTree, '.git/index', {
      maxBytes: MAX_AGENT_INDEX_BYTES,
    });
  } catch (error) {
    if (!(error instanceof UntrustedFileError)) throw error;
  }
  if (bytes !== undefined) {
    const copy = join(seal.gitDir, 'agent-index');
    await writeFile(copy, bytes);
    const listed = await runGit([...where, 'ls-files', '-z'], {
      ...opts,
      env: { GIT_INDEX_FILE: copy },
      reject: false,
    });
    if (listed.exitCode === 0) return new Set(listed.stdout.split('\0'));
  }
  const inBaseline = await git(
    [...where, 'ls-tree', '-r', '-z', '--name-only', seal.baseline],
    opts,
  );
  return new Set(inBaseline.split('\0'));
}

/**
 * Counts from `--raw` and `--numstat` lines (no `-z`, so every path is quoted
 * onto its one line): one `:<modes> <ids> <status>\t<path>` and one
 * `<added>\t<removed>\t<path>` line per file; binary files count "-" lines.
 */
function countsOf(lines: readonly string[]): Omit<DiffCounts, 'untracked'> {
  const counts = {
    files_added: 0,
    files_modified: 0,
    files_deleted: 0,
    lines_added: 0,
    lines_removed: 0,
  };
  for (const line of lines) {
    if (line.startsWith(':')) {
      const letter = line[line.indexOf('\t') - 1];
      if (letter === 'A') counts.files_added += 1;
      else if (letter === 'D') counts.files_deleted += 1;
      else counts.files_modified += 1;
    } else if (line) {
      const [plus = '', minus = ''] = line.split('\t');
      counts.lines_added += Number.parseInt(plus, 10) || 0;
      counts.lines_removed += Number.parseInt(minus, 10) || 0;
    }
  }
  return counts;
}

/**
 * Splits the output of one `diff --raw --numstat --patch` (kept up to
 * `limit + COUNTS_ROOM` bytes) into counts and a patch capped at `limit`
 * exactly as a patch-only diff kept up to `limit` bytes would be; undefined
 * when that cannot be done from what was kept.
 */
function splitCounts(
  output: GitResult,
  limit: number,
): { counts: Omit<DiffCounts, 'untracked'>; patch: PatchPart } | undefined {
  const text = output.stdout;
  if (text === '') return { counts: countsOf([]), patch: capPatch('', 0, false) };
  // The counts end at the first empty line; the patch follows.
  const end = text.indexOf('\n\n');
  if (end < 0) return undefined;
  const prefix = text.slice(0, end);
  // Quoted paths make the counts ASCII, so characters are bytes.
  if (/[^\t\n\x20-\x7e]/.test(prefix)) return undefined;
  const patchStart = end + 2;
  const total = output.stdoutBytes - patchStart;
  // The counts took more than their room: less than `limit` bytes of the patch kept.
  if (output.stdoutTruncated && patchStart > COUNTS_ROOM) return undefined;
  const counts = countsOf(prefix.split('\n'));
  const kept = text.slice(patchStart);
  if (total <= limit) return { counts, patch: capPatch(kept, total, false) };
  // Cut: the first `limit` bytes of the patch, decoded, as a patch-only diff
  // would keep them. Bytes that were not UTF-8 decoded to U+FFFD, of another
  // length, so where they come before the cut the patch is made apart.
  if (kept.slice(0, limit).includes('\uFFFD')) return undefined;
  const head = Buffer.from(kept, 'utf8').subarray(0, limit).toString('utf8');
  return { counts, patch: capPatch(head, total, true) };
}

type PatchPart = Pick<DiffMeasure, 'patch' | 'patch_truncated' | 'patch_bytes'>;

function capPatch(kept: string, total: number, truncated: boolean): PatchPart {
  if (!truncated) return { patch: kept, patch_truncated: false, patch_bytes: total };
  // Cut at a line end so no line (or UTF-8 character) is shown half.
  const end = kept.lastIndexOf('\n');
  const shown = end >= 0 ? kept.slice(0, end + 1) : '';
  const mark = `[evalrig: patch truncated: ${Buffer.byteLength(shown)} of ${total} bytes shown]\n`;
  return { patch: shown + mark, patch_truncated: true, patch_bytes: total };
}
