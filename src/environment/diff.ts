import { copyFile, mkdir, mkdtemp, rm, writeFile, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, runGit } from '../git/index.js';
import { BASELINE_REF, EnvironmentError, type DiffMeasure } from './types.js';

/** Patch size kept by default (bytes). */
export const DEFAULT_MAX_PATCH_BYTES = 1_000_000;

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
 * @example
 * const diff = await measureDiff(env.workTree, { maxPatchBytes: 200_000 });
 * console.log(diff.files_modified, diff.lines_added, diff.patch_truncated);
 */
export async function measureDiff(
  workTree: string,
  options: { maxPatchBytes?: number } = {},
): Promise<DiffMeasure> {
  const limit = options.maxPatchBytes ?? DEFAULT_MAX_PATCH_BYTES;
  const real = await locate(workTree);
  const scratch = await mkdtemp(join(tmpdir(), 'evalrig-diff-'));
  try {
    const gitDir = await scratchGitDir(scratch, real);
    const where = [`--git-dir=${gitDir}`, `--work-tree=${workTree}`];
    const opts = { cwd: workTree };
    // The index's paths, read before the scratch add: anything add -A adds beyond them
    // is untracked. One walk of the work tree (add's), not two.
    const tracked = new Set(
      (
        await git([...where, 'ls-files', '-z'], { ...opts, env: { GIT_INDEX_FILE: real.index } })
      ).split('\0'),
    );
    const added = await git([...where, 'add', '-A', '--verbose'], opts);
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
    const [status, numstat, patch] = await Promise.all([
      git([...diff, '--name-status', '-z', real.baseline], opts),
      git([...diff, '--numstat', '-z', real.baseline], opts),
      runGit([...diff, real.baseline], { ...opts, maxStdoutBytes: limit }),
    ]);
    return {
      ...countStatus(status),
      ...countLines(numstat),
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
  const opts = { cwd: workTree };
  const probe = await runGit(['rev-parse', '--absolute-git-dir', '--git-common-dir'], {
    ...opts,
    reject: false,
  });
  if (probe.exitCode !== 0) throw new EnvironmentError(`${workTree} is not a git work tree`);
  const [gitDir = '', commonDir = ''] = probe.stdout.trim().split('\n');
  const common = commonDir.startsWith('/') ? commonDir : join(workTree, commonDir);
  const baseline = await runGit(['rev-parse', '--verify', '-q', `${BASELINE_REF}^{commit}`], {
    ...opts,
    reject: false,
  });
  if (baseline.exitCode !== 0) {
    throw new EnvironmentError(
      `${workTree} has no ${BASELINE_REF}: it is not an environment evalrig prepared`,
    );
  }
  return {
    objects: join(common, 'objects'),
    index: join(gitDir, 'index'),
    baseline: baseline.stdout.trim(),
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

function countStatus(
  output: string,
): Pick<DiffMeasure, 'files_added' | 'files_modified' | 'files_deleted'> {
  const counts = { files_added: 0, files_modified: 0, files_deleted: 0 };
  const fields = output.split('\0');
  // -z --name-status: "<status>\0<path>\0" pairs (no renames, so one path each).
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const letter = fields[i]?.[0];
    if (letter === 'A') counts.files_added += 1;
    else if (letter === 'D') counts.files_deleted += 1;
    else if (letter) counts.files_modified += 1;
  }
  return counts;
}

function countLines(output: string): Pick<DiffMeasure, 'lines_added' | 'lines_removed'> {
  let added = 0;
  let removed = 0;
  // -z --numstat: "<added>\t<removed>\t<path>\0"; binary files say "-".
  for (const record of output.split('\0')) {
    const [plus, minus] = record.split('\t');
    if (plus === undefined || minus === undefined) continue;
    added += Number.parseInt(plus, 10) || 0;
    removed += Number.parseInt(minus, 10) || 0;
  }
  return { lines_added: added, lines_removed: removed };
}

function capPatch(
  kept: string,
  total: number,
  truncated: boolean,
): Pick<DiffMeasure, 'patch' | 'patch_truncated' | 'patch_bytes'> {
  if (!truncated) return { patch: kept, patch_truncated: false, patch_bytes: total };
  // Cut at a line end so no line (or UTF-8 character) is shown half.
  const end = kept.lastIndexOf('\n');
  const shown = end >= 0 ? kept.slice(0, end + 1) : '';
  const mark = `[evalrig: patch truncated: ${Buffer.byteLength(shown)} of ${total} bytes shown]\n`;
  return { patch: shown + mark, patch_truncated: true, patch_bytes: total };
}
