import path from 'node:path';
import { notACampaign, readConditions } from '../campaign-folder/index.js';
import { loadEvalSet } from '../config/index.js';
import { InputError } from '../errors/index.js';
import { CampaignGrader, type GradeSummary } from '../judge/index.js';
import { lockCampaignFolder } from './lock.js';

/**
 * `evalrig grade <out>`: grades a finished campaign's runs again with its eval set's judge
 * (the file conditions.json names, or `evalSetFile`). Only runs whose judge inputs, expectations,
 * rubric or judge (its model, a script's bytes) changed, or whose grading is missing or an
 * error, call the judge (every run with `force`); the blind comparisons likewise. Holds the folder's lock: no campaign writes it meanwhile.
 */
export async function gradeCampaignFolder(
  outDir: string,
  options: {
    readonly evalSetFile?: string;
    readonly log?: NodeJS.WritableStream;
    /** Ask the judge again for every run and comparison, whatever is stored. */
    readonly force?: boolean;
  } = {},
): Promise<GradeSummary> {
  const dir = path.resolve(outDir);
  const log = options.log ?? process.stderr;
  const read = await readConditions(dir);
  if (read.status !== 'ok') throw new InputError(notACampaign(read, outDir));
  const conditions = read.value;
  const file = options.evalSetFile ?? conditions.eval_set.path;
  const evalSet = await loadEvalSet(file);
  if (evalSet.sha256 !== conditions.eval_set.sha256) {
    log.write(
      `evalrig: note: ${file} changed since the campaign ran (sha256 ${conditions.eval_set.sha256.slice(0, 12)} then, ${evalSet.sha256.slice(0, 12)} now): grading with its expectations and judge as they are now\n`,
    );
  }
  if (!evalSet.judge) {
    throw new InputError(
      `${file} has no "judge": give one ({ "model": { "script" } } or { "model": { "url", "key_env" }, "model_name" }) to grade expectations`,
    );
  }
  const release = await lockCampaignFolder(dir);
  try {
    const grader = await CampaignGrader.prepare(evalSet, {
      campaign: conditions.campaign,
      outDir: dir,
      log,
      ...(options.force ? { force: true } : {}),
    });
    if (!grader) throw new InputError(`${file}: no eval has "expectations": nothing to grade`);
    return await grader.sweep();
  } finally {
    await release();
  }
}
