/**
 * What a campaign folder says was spent: the model gateways' own logs, the agents' (each run's
 * model-calls.jsonl) and the judge's (judge-calls.jsonl of each grading and blind comparison),
 * also those of run folders since replayed, set aside under replaced/ before the replay. The
 * host wrote every one of them; no file the agent writes is read.
 */
import { mkdir, readdir, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { EvalrigError } from '../errors/index.js';
import type { ModelCall } from '../flight/index.js';
import type { RunRecord } from '../artifacts/index.js';
import { readBytes, readJsonArtifact } from './json.js';
import { campaignFiles, runFiles } from './layout.js';

const GONE = new Set(['ENOENT', 'ENOTDIR']);

/** One model call log of the folder, and whose calls it holds. */
export interface CallLog {
  readonly who: 'agent' | 'judge';
  readonly file: string;
}

/** The folders `depth` levels below `dir` (runs/<eval>/<condition>/run-NN is 3). */
export async function foldersBelow(dir: string, depth: number): Promise<string[]> {
  if (depth === 0) return [dir];
  let names: string[];
  try {
    const found = await readdir(dir, { withFileTypes: true });
    names = found.filter((e) => e.isDirectory()).map((e) => e.name);
  } catch (error) {
    // No such folder, or a file in its place: nothing logged there (the folder's own check says why).
    if (GONE.has(String((error as NodeJS.ErrnoException).code))) return [];
    throw error;
  }
  const below = await Promise.all(
    names.sort().map((n) => foldersBelow(path.join(dir, n), depth - 1)),
  );
  return below.flat();
}

/** Whether the run folder holds a run copied from an earlier campaign (evalrig run --reuse). */
async function isReused(dir: string): Promise<boolean> {
  const read = await readJsonArtifact<RunRecord>('run', runFiles(dir).runJson);
  return read.status === 'ok' && read.value.reused_from !== undefined;
}

/**
 * Every model call log the folder holds (a file listed may be absent: a run with no calls). A
 * reused run's agent log is left out: the campaign that played it spent that.
 */
export async function callLogs(outDir: string): Promise<CallLog[]> {
  const top = campaignFiles(outDir);
  const logsIn = (dir: string, reused = false): CallLog[] => {
    const files = runFiles(dir);
    return [
      ...(reused ? [] : [{ who: 'agent' as const, file: files.modelCallsJsonl }]),
      { who: 'judge', file: files.judgeCallsJsonl },
    ];
  };
  const runs = await foldersBelow(top.runs, 3);
  const reused = await Promise.all(runs.map(isReused));
  const comparisons = await foldersBelow(top.comparisons, 3);
  const replaced = await foldersBelow(top.replaced, 4);
  return [
    ...runs.flatMap((dir, i) => logsIn(dir, reused[i])),
    ...[...replaced, ...comparisons].flatMap((dir) => logsIn(dir)),
  ];
}

/**
 * The calls of one log as the gateway wrote them, read as every file of the folder is (no link
 * followed, a size cap, regular files only). A line that is not a call (torn by a cut run) is
 * skipped: it was never finished, and nothing was priced from it. A log that cannot be read
 * whole stops the count: the spend it holds would be unknown.
 */
export async function readCallLog(
  file: string,
): Promise<Pick<ModelCall, 'model' | 'tokens' | 'outcome' | 'serverTools'>[]> {
  const read = await readBytes(file);
  if (read.status === 'missing') return [];
  if (read.status === 'broken') {
    throw new EvalrigError(`cannot count what this campaign spent before: ${read.problem}`);
  }
  const calls: Pick<ModelCall, 'model' | 'tokens' | 'outcome' | 'serverTools'>[] = [];
  for (const line of read.value.toString('utf8').split('\n')) {
    if (line === '') continue;
    try {
      const c = JSON.parse(line) as ModelCall;
      if (c && typeof c.tokens === 'object' && c.tokens !== null) calls.push(c);
    } catch {
      // torn
    }
  }
  return calls;
}

/**
 * Moves the call logs of run folder `runDir` (about to be replayed, which empties it) under
 * replaced/, so that what it spent stays counted. `key` is its eval/condition/run-NN.
 */
export async function setAsideCallLogs(outDir: string, runDir: string, key: string): Promise<void> {
  const files = runFiles(runDir);
  const logs = [files.modelCallsJsonl, files.judgeCallsJsonl];
  const present = await Promise.all(
    logs.map((l) =>
      stat(l).then(
        () => l,
        () => null,
      ),
    ),
  );
  const moved = present.filter((l): l is string => l !== null);
  if (moved.length === 0) return;
  const base = path.join(campaignFiles(outDir).replaced, ...key.split('/'));
  const taken = await readdir(base).catch(() => [] as string[]);
  const to = path.join(base, String(taken.length + 1));
  await mkdir(to, { recursive: true, mode: 0o700 });
  for (const log of moved) await rename(log, path.join(to, path.basename(log)));
}
