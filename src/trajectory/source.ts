/**
 * The one place the trajectory, the viewer and the judge's excerpt read a campaign folder
 * (and the viewer writes its review notes). Runs, stops, gradings, conditions and the flight
 * record are read through src/campaign-folder (verified, one rule for broken); what is only
 * the viewer's (review notes, the live view's stamps) is here.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  writeFileAtomic,
  type ConditionsFile,
  type GhCall,
  type GradingFile,
  type RunRecord,
} from '../artifacts/index.js';
import {
  campaignFiles,
  flightFiles,
  readBenchmark as readBenchmarkFile,
  readConditions as readConditionsFile,
  readGrading as readGradingFile,
  reachedThroughNoLink,
  readRun,
  readRunFlight,
  readRunPart,
  runFiles,
  runKey,
  runName,
  stopPatchPath,
  transcriptName,
  turnOutputName,
  type Read,
  type StoredRun,
} from '../campaign-folder/index.js';
import { InputError } from '../errors/index.js';
import type { TrajectoryInputs } from './build.js';

/** What one file of a run is read up to: a text past it is read by its head. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

/** A run's folder: runs/<eval>/<condition>/run-NN under the campaign folder. */
export function runFolder(outDir: string, evalId: string, condition: string, run: number): string {
  return path.join(campaignFiles(outDir).runs, runKey(evalId, condition, run));
}

/**
 * Reads a regular file (never through a link) up to `max` bytes, or null when there is none.
 * Past `max`, its head and a mark saying how much more there was.
 */
export function readBounded(file: string, max = MAX_FILE_BYTES): Promise<string | null> {
  return readRunPart(file, max, 'head');
}

/** A read's value; null when the file is missing; a broken file is an error naming it. */
function valueOrNull<T>(read: Read<T>): T | null {
  if (read.status === 'ok') return read.value;
  if (read.status === 'missing') return null;
  throw new InputError(read.problem);
}

function jsonLines<T>(text: string | null): T[] {
  if (text === null) return [];
  return text.split('\n').flatMap((line) => {
    if (line.trim() === '') return [];
    try {
      return [JSON.parse(line) as T];
    } catch {
      return [];
    }
  });
}

/** The run's model gateway kept a flight record (an adapter agent's run). */
export async function hasFlightRecord(runDir: string): Promise<boolean> {
  return (await stat(flightFiles(runDir).calls).catch(() => null))?.isFile() ?? false;
}

/** A finished run, verified (its record and its stops); an error when it is unfinished or broken. */
export async function readStoredRun(runDir: string): Promise<StoredRun> {
  const stored = valueOrNull(await readRun(runDir));
  if (stored === null)
    throw new InputError(`${runFiles(runDir).runJson} is missing: the run has not finished`);
  return stored;
}

/** A run's record, verified with its stops. */
export async function readRunRecord(runDir: string): Promise<RunRecord> {
  return (await readStoredRun(runDir)).record;
}

/** A run's grading.json, or null when it was not graded. */
export async function readGrading(runDir: string): Promise<GradingFile | null> {
  return valueOrNull(await readGradingFile(runDir));
}

/**
 * Everything a run's trajectory is built from: its record, stops and their patches, its flight
 * record (where its gateway kept one), the host's gh record, each turn's output, its grading.
 */
export async function readTrajectoryInputs(runDir: string): Promise<TrajectoryInputs> {
  const { record, stops } = await readStoredRun(runDir);
  const files = runFiles(runDir);
  const patches = await Promise.all(
    stops.map((s, k) => patchAt(runDir, s.turn, k === stops.length - 1)),
  );
  const hasFlight = await hasFlightRecord(runDir);
  const turns = Math.max(record.turns_completed, ...stops.map((s) => s.turn)) + 1;
  const outputs = [];
  for (let turn = 1; turn <= turns; turn++) {
    const [stdout, stderr, transcript] = await Promise.all([
      readBounded(path.join(files.turnsDir, turnOutputName(turn, 'stdout'))),
      readBounded(path.join(files.turnsDir, turnOutputName(turn, 'stderr'))),
      hasFlight || !record.agent
        ? null
        : readBounded(path.join(files.turnsDir, transcriptName(turn))),
    ]);
    if (stdout !== null || stderr !== null || transcript !== null)
      outputs.push({ turn, stdout, stderr, transcript });
  }
  return {
    record,
    stops,
    patches,
    // Bodies only read, never changed: a growing history is rebuilt once, not once per call.
    flight: hasFlight ? await readRunFlight(runDir, { shared: true }) : null,
    ghCalls: jsonLines<GhCall>(await readBounded(files.callsJsonl, 32 << 20)),
    outputs,
    grading: await readGrading(runDir).catch(() => null),
  };
}

/** The patch at a stop: stops/stop-NN.patch, or diff.patch for the run's last stop. */
async function patchAt(runDir: string, turn: number, last: boolean): Promise<string | null> {
  const own = await readBounded(path.join(runDir, stopPatchPath(turn)));
  if (own !== null || !last) return own;
  return readBounded(runFiles(runDir).diffPatch);
}

/** The campaign's conditions.json, or null before the campaign wrote it. */
export async function readConditions(outDir: string): Promise<ConditionsFile | null> {
  return valueOrNull(await readConditionsFile(outDir));
}

/** The campaign's benchmark.json (its shape is the report's: T), or null before a report was written. */
export async function readBenchmark<T>(outDir: string): Promise<T | null> {
  return valueOrNull(await readBenchmarkFile<T>(outDir));
}

/** When benchmark.json last changed (ms), or null when there is none. */
export async function benchmarkChanged(outDir: string): Promise<number | null> {
  return (await stat(campaignFiles(outDir).benchmark).catch(() => null))?.mtimeMs ?? null;
}

/** A run folder and when it last changed: what the live view polls. */
export interface RunFolderStamp {
  readonly eval: string;
  readonly condition: string;
  readonly run: number;
  readonly changedMs: number;
}

/**
 * Every run folder with the time it last changed (an entry added: run.json renamed in, a
 * grading written), one directory listed at a time: what is held is one listing, never a run.
 */
export async function* runFolderStamps(outDir: string): AsyncGenerator<RunFolderStamp> {
  const runsDir = path.join(outDir, 'runs');
  // A runs/ folder that is a link leads out of the campaign: nothing is listed through it.
  if (!(await reachedThroughNoLink(outDir, runsDir))) return;
  for (const evalId of await dirs(runsDir)) {
    for (const condition of await dirs(path.join(runsDir, evalId))) {
      for (const name of await dirs(path.join(runsDir, evalId, condition))) {
        const m = /^run-(\d+)$/u.exec(name);
        if (!m) continue;
        const info = await stat(path.join(runsDir, evalId, condition, name)).catch(() => null);
        if (info) yield { eval: evalId, condition, run: Number(m[1]), changedMs: info.mtimeMs };
      }
    }
  }
}

async function dirs(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/** Where a run's review note is kept: reviews/<eval>/<condition>/run-NN.json. */
export function reviewFile(outDir: string, evalId: string, condition: string, run: number): string {
  return path.join(outDir, 'reviews', evalId, condition, `${runName(run)}.json`);
}

/** A review note's text, or null when the run has none. */
export async function readReviewText(
  outDir: string,
  evalId: string,
  condition: string,
  run: number,
): Promise<string | null> {
  return readBounded(reviewFile(outDir, evalId, condition, run), 64 * 1024);
}

/** Writes a review note (already validated by the caller), atomically. */
export async function writeReviewText(
  outDir: string,
  evalId: string,
  condition: string,
  run: number,
  text: string,
): Promise<void> {
  await writeFileAtomic(reviewFile(outDir, evalId, condition, run), text);
}

/**
 * The text of every review note of the campaign (reviews/<eval>/<condition>/run-NN.json), in
 * the campaign's order: only reviewed runs are read.
 */
export async function* reviewTexts(outDir: string): AsyncGenerator<{ file: string; text: string }> {
  const root = path.join(outDir, 'reviews');
  if (!(await reachedThroughNoLink(outDir, root))) return;
  for (const evalId of await dirs(root)) {
    for (const condition of await dirs(path.join(root, evalId))) {
      const dir = path.join(root, evalId, condition);
      const names = (await readdir(dir).catch(() => [] as string[]))
        .filter((n) => /^run-\d+\.json$/u.test(n))
        .sort((a, b) => Number(/\d+/u.exec(a)![0]) - Number(/\d+/u.exec(b)![0]));
      for (const name of names) {
        const text = await readBounded(path.join(dir, name), 64 * 1024);
        if (text !== null) yield { file: path.join(dir, name), text };
      }
    }
  }
}
