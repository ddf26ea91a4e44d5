/**
 * The file inputs of a campaign, hashed once before any run plays: each planned condition's
 * staged files, each planned eval's placed files, the model scripts, and the rest of the eval
 * set folder.
 */
import { stat } from 'node:fs/promises';
import { agentOf, type EvalSet } from '../../config/index.js';
import { modelScriptOf } from '../agent.js';
import type { PlannedRun } from '../plan.js';
import { fileSha256, folderHashes, placedHashes } from './files.js';
import { FILE_INPUT } from './fingerprint.js';
import type { FileSources } from './inputs.js';

/** The file inputs, and why none of the runs can be reused when the folder is too big to take. */
export interface CampaignFiles {
  readonly files: FileSources;
  /** Set when the eval set folder could not be fingerprinted: no run is reused. */
  readonly refused?: string;
}

/**
 * Hashes the file inputs of the planned runs. `campaignFolders` (the campaign's own folder and
 * those it reuses) are no input of the runs, wherever they are.
 */
export async function campaignFileInputs(
  evalSet: EvalSet,
  planned: readonly PlannedRun[],
  campaignFolders: readonly string[],
): Promise<CampaignFiles> {
  const staged = new Map<string, Record<string, string>>();
  const overlays = new Map<string, Record<string, string>>();
  const scripts = new Map<string, string>();
  for (const p of planned) {
    if (!staged.has(p.condition.name))
      staged.set(p.condition.name, await placedHashes(p.condition.stage, FILE_INPUT.staged));
    if (!overlays.has(p.eval.id))
      overlays.set(p.eval.id, await placedHashes(p.eval.files, FILE_INPUT.overlay));
    const script = modelScriptOf(evalSet, p);
    if (script !== undefined && !scripts.has(script)) scripts.set(script, await fileSha256(script));
  }
  const exclusions = await ownInputs(evalSet);
  const folder = await folderHashes(evalSet.dir, {
    files: exclusions.files,
    folders: [...exclusions.folders, ...campaignFolders],
  });
  const files = { staged, overlays, scripts, folder: folder.ok ? folder.files : {} };
  return folder.ok ? { files } : { files, refused: folder.why };
}

/**
 * The eval set's files that are inputs of their own, or of no run: evals.json (each part of it
 * that matters is an input), what any condition stages and any eval places (a run's own are its
 * inputs by their path in the work tree), every model script and the judge's.
 */
async function ownInputs(evalSet: EvalSet): Promise<{ files: string[]; folders: string[] }> {
  const placed = [
    ...evalSet.conditions.flatMap((c) => c.stage.map((s) => s.from)),
    ...evalSet.evals.flatMap((e) => e.files.map((f) => f.from)),
  ];
  const files = [evalSet.file];
  const folders: string[] = [];
  for (const from of placed) {
    const isFolder = await stat(from).then(
      (s) => s.isDirectory(),
      () => false,
    );
    (isFolder ? folders : files).push(from);
  }
  for (const c of evalSet.conditions) {
    const agent = agentOf(evalSet, c);
    for (const e of evalSet.evals) {
      const script = modelScriptOf(evalSet, { eval: e, condition: c });
      if (script !== undefined) files.push(script);
    }
    if (agent.model && 'script' in agent.model) files.push(agent.model.script);
  }
  const judge = evalSet.judge?.model;
  if (judge && 'script' in judge) files.push(judge.script);
  return { files, folders };
}
