/**
 * What earlier commands played in a campaign folder, for the budget and the account: each run's
 * turns with the calls its gateway logged (a turn's expected cost is learnt from them before the
 * first run of a resume is admitted), and the calls of runs since replayed, set aside under
 * replaced/ (what a replay spent again). Only the host's logs and run.json are read.
 */
import path from 'node:path';
import type { ModelCall } from '../flight/index.js';
import { readJsonArtifact } from './json.js';
import { campaignFiles, runFiles } from './layout.js';
import type { RunRecord } from '../artifacts/index.js';
import { foldersBelow, readCallLog } from './spent.js';

type LoggedCall = Pick<ModelCall, 'model' | 'tokens' | 'outcome' | 'serverTools'>;

/** A run the folder holds: the turns it completed and its agent's calls. */
export interface PlayedRun {
  readonly turns: number;
  readonly calls: readonly LoggedCall[];
}

/**
 * The runs of runs/ played in this folder (a run copied by --reuse is left out: its turns are
 * another campaign's), each with its completed turns and its gateway's calls.
 */
export async function playedRuns(outDir: string): Promise<PlayedRun[]> {
  const played: PlayedRun[] = [];
  for (const dir of await foldersBelow(campaignFiles(outDir).runs, 3)) {
    const files = runFiles(dir);
    const read = await readJsonArtifact<RunRecord>('run', files.runJson);
    if (read.status !== 'ok' || read.value.reused_from !== undefined) continue;
    played.push({
      turns: read.value.turns_completed,
      calls: await readCallLog(files.modelCallsJsonl),
    });
  }
  return played;
}

/** A run played over: its key (eval/condition/run-NN) and the calls its earlier plays logged. */
export interface ReplayedRun {
  readonly key: string;
  readonly calls: readonly LoggedCall[];
}

/** The runs set aside under replaced/ before a replay, with every call (agent and judge) they logged. */
export async function replayedRuns(outDir: string): Promise<ReplayedRun[]> {
  const top = campaignFiles(outDir).replaced;
  const byKey = new Map<string, LoggedCall[]>();
  for (const dir of await foldersBelow(top, 4)) {
    const key = path.relative(top, path.dirname(dir)).split(path.sep).join('/');
    const files = runFiles(dir);
    const calls = byKey.get(key) ?? [];
    for (const log of [files.modelCallsJsonl, files.judgeCallsJsonl]) {
      calls.push(...(await readCallLog(log)));
    }
    byKey.set(key, calls);
  }
  return [...byKey].map(([key, calls]) => ({ key, calls }));
}
