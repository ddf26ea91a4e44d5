/**
 * The one place the trajectory, the viewer and the judge's excerpt read a campaign folder
 * (and the viewer writes its review notes). Everything goes through today's readers
 * (src/artifacts, src/flight, src/report/runs.ts); when the campaign folder gets a module of
 * its own, this file alone is re-pointed to it.
 */
import { constants } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  readArtifact,
  writeFileAtomic,
  type ConditionsFile,
  type GhCall,
  type GradingFile,
  type RunRecord,
} from '../artifacts/index.js';
import { flightFiles, readFlight } from '../flight/index.js';
import type { BenchmarkFile } from '../report/index.js';
import { readStops, storedRuns, type RunLocation } from '../report/runs.js';
import type { TrajectoryInputs } from './build.js';

const pad = (n: number): string => String(n).padStart(2, '0');
/** What one file of a run is read up to: a text past it is read by its head. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

/** A run's folder: runs/<eval>/<condition>/run-NN under the campaign folder. */
export function runFolder(outDir: string, evalId: string, condition: string, run: number): string {
  return path.join(outDir, 'runs', evalId, condition, `run-${pad(run)}`);
}

/**
 * Reads a regular file (never through a link) up to `max` bytes, or null when there is none.
 * Past `max`, its head and a mark saying how much more there was.
 */
export async function readBounded(file: string, max = MAX_FILE_BYTES): Promise<string | null> {
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ELOOP' || code === 'ENOTDIR') return null;
    throw error;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return null;
    const length = Math.min(info.size, max);
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    const text = buffer.subarray(0, bytesRead).toString('utf8');
    return info.size <= max ? text : `${text}\n[evalrig: ${info.size - max} more bytes not read]\n`;
  } finally {
    await handle.close();
  }
}

async function exists(file: string): Promise<boolean> {
  return (await stat(file).catch(() => null))?.isFile() ?? false;
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
  return exists(flightFiles(runDir).calls);
}

/** A run's record, checked against its schema. */
export async function readRunRecord(runDir: string): Promise<RunRecord> {
  return readArtifact<RunRecord>('run', path.join(runDir, 'run.json'));
}

/** A run's grading.json, or null when it was not graded. */
export async function readGrading(runDir: string): Promise<GradingFile | null> {
  const file = path.join(runDir, 'grading.json');
  if (!(await exists(file))) return null;
  return readArtifact<GradingFile>('grading', file);
}

/**
 * Everything a run's trajectory is built from: its record, stops and their patches, its flight
 * record (where its gateway kept one), the host's gh record, each turn's output, its grading.
 */
export async function readTrajectoryInputs(runDir: string): Promise<TrajectoryInputs> {
  const record = await readRunRecord(runDir);
  const location: RunLocation = {
    eval: record.eval,
    condition: record.condition,
    dir: runDir,
    file: path.join(runDir, 'run.json'),
  };
  const names = record.stops.filter((s) => /^stops\/stop-\d+\.json$/u.test(s));
  const stops = await readStops(location, names);
  const patches = await Promise.all(
    names.map((s, k) => patchAt(runDir, s, k === names.length - 1)),
  );
  const hasFlight = await exists(flightFiles(runDir).calls);
  const turns = Math.max(record.turns_completed, ...stops.map((s) => s?.turn ?? 0)) + 1;
  const outputs = [];
  for (let turn = 1; turn <= turns; turn++) {
    const base = path.join(runDir, 'turns', `turn-${pad(turn)}`);
    const [stdout, stderr, transcript] = await Promise.all([
      readBounded(`${base}.stdout.txt`),
      readBounded(`${base}.stderr.txt`),
      hasFlight || !record.agent ? null : readBounded(`${base}.jsonl`),
    ]);
    if (stdout !== null || stderr !== null || transcript !== null)
      outputs.push({ turn, stdout, stderr, transcript });
  }
  return {
    record,
    stops,
    patches,
    // Bodies only read, never changed: a growing history is rebuilt once, not once per call.
    flight: hasFlight ? await readFlight(runDir, { shared: true }) : null,
    ghCalls: jsonLines<GhCall>(await readBounded(path.join(runDir, 'calls.jsonl'), 32 << 20)),
    outputs,
    grading: await readGrading(runDir).catch(() => null),
  };
}

/** The patch at a stop: stops/stop-NN.patch, or diff.patch for the run's last stop. */
async function patchAt(runDir: string, stop: string, last: boolean): Promise<string | null> {
  const own = await readBounded(path.join(runDir, stop.replace(/\.json$/u, '.patch')));
  if (own !== null || !last) return own;
  return readBounded(path.join(runDir, 'diff.patch'));
}

/** The campaign's conditions.json, or null before the campaign wrote it. */
export async function readConditions(outDir: string): Promise<ConditionsFile | null> {
  const file = path.join(outDir, 'conditions.json');
  if (!(await exists(file))) return null;
  return readArtifact<ConditionsFile>('conditions', file);
}

/** The campaign's benchmark.json, or null before a report was written. */
export async function readBenchmark(outDir: string): Promise<BenchmarkFile | null> {
  const file = path.join(outDir, 'benchmark.json');
  if (!(await exists(file))) return null;
  return readArtifact<BenchmarkFile>('benchmark', file);
}

/** When benchmark.json last changed (ms), or null when there is none. */
export async function benchmarkChanged(outDir: string): Promise<number | null> {
  return (await stat(path.join(outDir, 'benchmark.json')).catch(() => null))?.mtimeMs ?? null;
}

export { storedRuns };

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
  return path.join(outDir, 'reviews', evalId, condition, `run-${pad(run)}.json`);
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
