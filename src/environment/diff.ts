import { copyFile, mkdir, mkdtemp, rm, writeFile, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, runGit, type GitResult } from '../git/index.js';
import { BASELINE_REF, EnvironmentError, type DiffCounts, type DiffMeasure } from './types.js';

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

/**
 * Measures what changed in a work tree since `refs/evalrig/baseline`: the
 * work tree as it is (committed or not, untracked non-ignored files included,
 * ignored files excluded) against the baseline commit.
 *
 * It never writes to the repository and never copies the baseline: git runs
 * with a scratch git dir (the repository's objects as an alternate, a copy of
 * its index so unchanged files are not re-read) and the work tree. The scratch
 * git dir has evalrig's configuration only, so nothing the agent wrote into
 * .git/config (filters, external diff, textconv) runs on the host.
 *
 * Four git processes: where the repository is, its index's paths, one add
 * (the only walk of the work tree), one diff giving the counts and the patch.
 *
 * @example
 * const diff = await measureDiff(env.workTree, { maxPatchBytes: 200_000 });
 * console.log(diff.files_modified, diff.lines_added, diff.patch_truncated);
 * const counts = await measureDiff(env.workTree, { patch: false });
 */
export async function measureDiff(
  workTree: string,
  options: MeasureOptions & { patch: false },
): Promise<DiffCounts>;
export async function measureDiff(workTree: string, options?: MeasureOptions): Promise<DiffMeasure>;
export async function measureDiff(
  workTree: string,
  options: MeasureOptions = {},
): Promise<DiffCounts | DiffMeasure> {
  const limit = options.maxPatchBytes ?? DEFAULT_MAX_PATCH_BYTES;
  const real = await locate(workTree);
  const scratch = await mkdtemp(join(tmpdir(), 'evalrig-diff-'));
  try {
    const gitDir = await scratchGitDir(scratch, real);
    const where = [`--git-dir=${gitDir}`, `--work-tree=${workTree}`];
    const opts = { cwd: workTree };
    // The index's paths (read from the real index, no walk) beside the scratch
    // add: anything add -A adds beyond them is untracked. One walk of the work tree.
    const [listed, added] = await Promise.all([
      git([...where, 'ls-files', '-z'], { ...opts, env: { GIT_INDEX_FILE: real.index } }),
      git([...where, 'add', '-A', '--verbose'], opts),
    ]);
    const tracked = new Set(listed.split('\0'));
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
      const counts = await git([...diff, '--raw', '--numstat', real.baseline], opts);
      return { ...countsOf(counts.split('\n')), untracked };
    }
    // Counts first (ASCII: paths are quoted), a blank line, then the patch.
    const both = await runGit([...diff, '--raw', '--numstat', '--patch', real.baseline], {
      ...opts,
      maxStdoutBytes: limit + COUNTS_ROOM,
    });
    const split = splitCounts(both, limit);
    if (split) return { ...split.counts, untracked, ...split.patch };
    // Too many files for the room, or bytes that are not UTF-8 where the patch is cut: apart.
    const [counts, patch] = await Promise.all([
      git([...diff, '--raw', '--numstat', real.baseline], opts),
      runGit([...diff, '--patch', real.baseline], { ...opts, maxStdoutBytes: limit }),
    ]);
    return {
      ...countsOf(counts.split('\n')),
      untracked,
      ...capPatch(patch.stdout, patch.stdoutBytes, patch.stdoutTruncated),
    };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

interface RealRepository {
  objects: string;
  index: string;
  baseline: string;
  exclude: string;
}

async function locate(workTree: string): Promise<RealRepository> {
  // One process: the git dirs, then the baseline (exit 1 and no third line when it is missing).
  const probe = await runGit(
    [
      'rev-parse',
      '--absolute-git-dir',
      '--git-common-dir',
      '--verify',
      '-q',
      `${BASELINE_REF}^{commit}`,
    ],
    { cwd: workTree, reject: false },
  );
  const [gitDir = '', commonDir = '', baseline = ''] = probe.stdout.trim().split('\n');
  if (!gitDir.startsWith('/')) throw new EnvironmentError(`${workTree} is not a git work tree`);
  if (probe.exitCode !== 0 || !/^[0-9a-f]{40,64}$/.test(baseline)) {
    throw new EnvironmentError(
      `${workTree} has no ${BASELINE_REF}: it is not an environment evalrig prepared`,
    );
  }
  const common = commonDir.startsWith('/') ? commonDir : join(workTree, commonDir);
  return {
    objects: join(common, 'objects'),
    index: join(gitDir, 'index'),
    baseline,
    exclude: join(common, 'info', 'exclude'),
  };
}

async function scratchGitDir(scratch: string, real: RealRepository): Promise<string> {
  const gitDir = join(scratch, 'git');
  await mkdir(join(gitDir, 'objects', 'info'), { recursive: true });
  await mkdir(join(gitDir, 'refs'), { recursive: true });
  await mkdir(join(gitDir, 'info'), { recursive: true });
  await writeFile(join(gitDir, 'HEAD'), `${real.baseline}\n`);
  await writeFile(
    join(gitDir, 'config'),
    '[core]\n\trepositoryformatversion = 0\n\tbare = false\n',
  );
  await writeFile(join(gitDir, 'objects', 'info', 'alternates'), `${real.objects}\n`);
  if (existsSync(real.exclude))
    await writeFile(join(gitDir, 'info', 'exclude'), await readFile(real.exclude));
  if (existsSync(real.index)) await copyFile(real.index, join(gitDir, 'index'));
  return gitDir;
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
