/**
 * The campaign folder as the campaign's phases meet it: what an earlier
 * campaign left there, the claim on it (its lock), which runs are finished,
 * and its file-system errors as the user's problem.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, stat } from 'node:fs/promises';
import type { ConditionsFile } from '../../artifacts/index.js';
import { readConditions, readRun } from '../../campaign-folder/index.js';
import type { EvalSet } from '../../config/index.js';
import { EvalrigError, InputError } from '../../errors/index.js';
import { leftOut } from '../../measure/index.js';
import { runLayout } from '../layout.js';
import { lockCampaignFolder } from '../lock.js';
import type { PlannedRun } from '../plan.js';

export function newCampaignId(name: string): string {
  const stamp = new Date().toISOString().replace(/[-:]/gu, '').replace(/\..*$/u, '');
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/gu, '-')
    .replace(/^-|-$/gu, '')
    .slice(0, 40);
  return `${slug || 'campaign'}-${stamp}-${randomBytes(3).toString('hex')}`;
}

/**
 * What is already at the output folder, read without writing anything: a
 * file in its place or a garbled conditions.json is the user's to sort out,
 * named with what to do.
 */
export async function existingConditions(outDir: string): Promise<ConditionsFile | undefined> {
  try {
    if (!(await stat(outDir)).isDirectory())
      throw new InputError(
        `--out ${outDir} is a file, not a folder: choose another --out or move the file away`,
      );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw folderError(outDir, error);
  }
  const read = await readConditions(outDir);
  if (read.status === 'missing') return undefined;
  if (read.status === 'ok') return read.value;
  throw new InputError(
    `${read.problem}: it is not a campaign's conditions.json; move ${outDir} away to start afresh, or choose another --out`,
  );
}

const FOLDER_FAULTS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted (immutable?)',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  ENOTDIR: 'a file is where a folder should be',
  EEXIST: 'a file is where a folder should be',
  EISDIR: 'a folder is where a file should be',
};

/**
 * A file-system error under the output folder, as the user's problem: the
 * folder, the cause, what to do. Anything else passes through unchanged.
 */
export function folderError(outDir: string, error: unknown): unknown {
  if (error instanceof EvalrigError) return error;
  const e = error as NodeJS.ErrnoException;
  const cause = typeof e?.code === 'string' ? FOLDER_FAULTS[e.code] : undefined;
  if (!cause) return error;
  const where = typeof e.path === 'string' ? ` (${e.path})` : '';
  return new EvalrigError(
    `cannot write the campaign folder ${outDir}: ${cause}${where}; make it writable or choose another --out`,
    { cause: error },
  );
}

/**
 * The `folder` phase: refuses a folder that holds another eval set's
 * campaign, then creates and locks it. Returns the lock's release.
 */
export async function claimFolder(
  outDir: string,
  previous: ConditionsFile | undefined,
  evalSet: EvalSet,
): Promise<() => Promise<void>> {
  if (previous && previous.eval_set.sha256 !== evalSet.sha256) {
    throw new InputError(
      `${outDir} holds a campaign of another eval set (${previous.eval_set.path}, sha256 ${previous.eval_set.sha256.slice(0, 12)}); choose another --out or remove it`,
    );
  }
  await mkdir(outDir, { recursive: true });
  return lockCampaignFolder(outDir);
}

/**
 * A run is finished when its files are whole (run.json and its stops match
 * their schemas and digests) and it says something of its agent: not a
 * failure of the harness, not cut by the campaign's budget (a resume with more
 * budget plays it). A failure while the agent had control is finished: it
 * counts against its condition. A run whose files are broken is replayed, and
 * said so.
 */
export async function isFinished(
  outDir: string,
  planned: PlannedRun,
  log: NodeJS.WritableStream,
): Promise<boolean> {
  const read = await readRun(runLayout(outDir, planned.key).dir);
  if (read.status === 'missing') return false;
  if (read.status === 'broken') {
    log.write(`evalrig: ${planned.key}: its files are broken (${read.problem}); replaying it\n`);
    return false;
  }
  return !leftOut(read.value.record);
}
