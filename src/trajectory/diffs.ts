/**
 * A run's diff and its eval's reference diff (a mined task's tasks/<id>/reference.patch), for
 * the viewer's run page and report.html to show side by side. The reference is read host-side from the eval set's
 * folder that conditions.json names, as data: a regular file inside that folder, never through
 * a link, up to a cap (its head past it). Both are shown as text.
 */
import path from 'node:path';
import { runFiles } from '../campaign-folder/index.js';
import { readBounded, readConditions, runFolder } from './source.js';

/** The most of each diff the page is sent: a larger one comes as its head and a mark. */
export const MAX_DIFF_BYTES = 512 * 1024;

export interface RunDiffs {
  /** The run's diff.patch (null: the run kept none). */
  readonly run: string | null;
  /** The reference diff (null: the eval has none, or it is gone from the eval set's folder). */
  readonly reference: string | null;
  /** Where the reference was read, relative to the eval set's folder. */
  readonly reference_path?: string;
}

/** Inside `dir`: a relative path that does not climb out of it. */
const inside = (dir: string, file: string): boolean => {
  const rel = path.relative(dir, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
};

export async function readRunDiffs(
  outDir: string,
  id: { eval: string; condition: string; run: number },
): Promise<RunDiffs> {
  const dir = runFolder(outDir, id.eval, id.condition, id.run);
  const run = await readBounded(runFiles(dir).diffPatch, MAX_DIFF_BYTES);
  const conditions = await readConditions(outDir).catch(() => null);
  const declared = conditions?.evals.find((e) => e.id === id.eval)?.reference;
  if (!conditions || declared === undefined) return { run, reference: null };
  const setDir = path.dirname(conditions.eval_set.path);
  const file = path.resolve(setDir, declared);
  // conditions.json is the host's, but a folder moved or edited must not lead the viewer out.
  if (!inside(setDir, file)) return { run, reference: null, reference_path: declared };
  const reference = await readBounded(file, MAX_DIFF_BYTES).catch(() => null);
  return { run, reference, reference_path: declared };
}
