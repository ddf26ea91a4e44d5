/**
 * The eval set's folder as a command agent is given it at /evalset: the folder itself, or, when
 * some eval has check files (a mined task's tests: the future), a copy without them, made once
 * per campaign. Copied, not filtered by mounts, so every engine (mounted or copying) serves it.
 */
import { cp, rm } from 'node:fs/promises';
import path from 'node:path';
import { campaignFiles } from '../campaign-folder/index.js';
import type { EvalSet } from '../config/index.js';

const views = new WeakMap<EvalSet, Promise<string>>();

/** Whether `file` is `root` or inside it. */
const within = (file: string, root: string): boolean =>
  file === root || file.startsWith(`${root}${path.sep}`);

async function makeView(evalSet: EvalSet, outDir: string): Promise<string> {
  const hidden = evalSet.evals.flatMap((e) => e.check_files.map((f) => path.resolve(f.from)));
  if (hidden.length === 0) return evalSet.dir;
  const view = path.join(campaignFiles(outDir).work, '.evalset');
  // The campaign's own folder may sit inside the eval set's: never copied into itself.
  const skip = [...hidden, path.resolve(outDir)];
  await rm(view, { recursive: true, force: true });
  await cp(evalSet.dir, view, {
    recursive: true,
    verbatimSymlinks: true,
    filter: (source) => !skip.some((s) => within(path.resolve(source), s)),
  });
  return view;
}

/** The host folder to mount at /evalset for a command agent's runs of this campaign. */
export function evalSetFolderForRuns(evalSet: EvalSet, outDir: string): Promise<string> {
  let view = views.get(evalSet);
  if (!view) views.set(evalSet, (view = makeView(evalSet, outDir)));
  return view;
}
