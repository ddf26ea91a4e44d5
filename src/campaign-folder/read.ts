import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import type {
  ComparisonFile,
  ConditionsFile,
  GradingFile,
  RunRecord,
  SequentialFile,
  StopRecord,
} from '../artifacts/index.js';
import { readFlight, type FlightRecord } from '../flight/index.js';
import { parseArtifact, readBytes, readJsonArtifact, SYNC_READ_BYTES } from './json.js';
import { campaignFiles, flightFiles, runFiles, STOP_PATH } from './layout.js';
import type { Read } from './result.js';

/** A finished run as read and verified: its record and every stop it lists, in order. */
export interface StoredRun {
  readonly dir: string;
  readonly record: RunRecord;
  readonly stops: readonly StopRecord[];
}

/** conditions.json of the campaign in `outDir`, checked against its schema. */
export function readConditions(outDir: string): Promise<Read<ConditionsFile>> {
  return readJsonArtifact<ConditionsFile>('conditions', campaignFiles(outDir).conditions);
}

/** sequential.json of the campaign in `outDir` (--until-decided), checked. */
export function readSequential(outDir: string): Promise<Read<SequentialFile>> {
  return readJsonArtifact<SequentialFile>('sequential', campaignFiles(outDir).sequential);
}

/** benchmark.json of the campaign in `outDir` (written by the report), checked. */
export function readBenchmark<T>(outDir: string): Promise<Read<T>> {
  return readJsonArtifact<T>('benchmark', campaignFiles(outDir).benchmark);
}

/** A sentence for a conditions.json that is missing: the folder is no campaign's. */
export function notACampaign(read: Read<unknown>, outDir: string): string {
  return read.status === 'missing'
    ? `${read.file} is missing: ${outDir} is not a campaign folder (evalrig run writes it first)`
    : (read as { problem: string }).problem;
}

/**
 * Reads a run folder under the one rule every reader keeps (resume, grade, report, compare,
 * judge): run.json against its schema, then each stop it lists, which must be one of evalrig's
 * stop files (stops/stop-NN.json), be the file the run wrote (the sha256 run.json recorded)
 * and match its schema. Missing when the run has no run.json yet (it is unfinished); broken,
 * with the first problem, when anything else is wrong.
 *
 * @example
 * const read = await readRun('out/runs/fix-bug/with_skill/run-01');
 * if (read.status === 'ok') console.log(read.value.record.status, read.value.stops.length);
 */
export async function readRun(dir: string): Promise<Read<StoredRun>> {
  const files = runFiles(dir);
  const run = await readJsonArtifact<RunRecord>('run', files.runJson);
  if (run.status !== 'ok') return run;
  const record = run.value;
  const stops: StopRecord[] = [];
  const broken = (problem: string): Read<StoredRun> => ({
    status: 'broken',
    file: files.runJson,
    problem,
  });
  for (const rel of record.stops) {
    if (!STOP_PATH.test(rel))
      return broken(`${files.runJson} names a stop that is not evalrig's: ${rel}`);
    const stopFile = path.join(dir, rel);
    const bytes = await readBytes(stopFile);
    if (bytes.status === 'missing') return broken(`${stopFile} is missing`);
    if (bytes.status === 'broken') return broken(bytes.problem);
    const expected = record.stops_sha256?.[rel];
    if (expected !== undefined && sha256(bytes.value) !== expected)
      return broken(`${stopFile} is not the file the run wrote (its sha256 differs)`);
    const stop = parseArtifact<StopRecord>('stop', stopFile, bytes.value);
    if (stop.status !== 'ok') return broken((stop as { problem: string }).problem);
    stops.push(stop.value);
  }
  return { status: 'ok', file: files.runJson, value: { dir, record, stops } };
}

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** The judge's grading.json of a run folder, checked against its schema. */
export function readGrading(dir: string): Promise<Read<GradingFile>> {
  return readJsonArtifact<GradingFile>('grading', runFiles(dir).gradingJson);
}

/** A blind comparison's comparison.json (see comparisonFiles), checked against its schema. */
export function readComparison(file: string): Promise<Read<ComparisonFile>> {
  return readJsonArtifact<ComparisonFile>('comparison', file);
}

/** The flight record of a run folder: what its model gateway relayed (src/flight's format). */
export function readRunFlight(
  dir: string,
  options: Parameters<typeof readFlight>[1] = {},
): Promise<FlightRecord> {
  return readFlight(flightFiles(dir), options);
}

/**
 * The first or last `max` bytes of a file of a run folder (marked when cut), or null when it has
 * none. Bounded whatever the file's size, and following no link: the judge reads a run's diff
 * and transcripts this way.
 */
export async function readRunPart(
  file: string,
  max: number,
  end: 'head' | 'tail',
): Promise<string | null> {
  // Opened and read with synchronous calls when small (a missing review or grading is the
  // common case of a listing): see SYNC_READ_BYTES.
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ELOOP') return null;
    throw error;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return null;
    const size = info.size;
    const length = Math.min(size, max);
    if (length <= SYNC_READ_BYTES) {
      const buffer = Buffer.alloc(length);
      const bytesRead = readSync(fd, buffer, 0, length, end === 'head' ? 0 : size - length);
      return partText(buffer.subarray(0, bytesRead).toString('utf8'), size, length, end);
    }
  } finally {
    closeSync(fd);
  }
  return readLargePart(file, max, end);
}

/** The text of a part, with a mark where it was cut. */
function partText(text: string, size: number, length: number, end: 'head' | 'tail'): string {
  if (size <= length) return text;
  return end === 'head'
    ? `${text}\n[evalrig: cut here, ${size - length} more bytes not shown]\n`
    : `[evalrig: ${size - length} earlier bytes not shown]\n${text}`;
}

/**
 * readRunPart of a part over SYNC_READ_BYTES, without blocking the event loop. The file is
 * opened again, so it is checked again: a link, a file gone or no longer a file gives null.
 */
async function readLargePart(
  file: string,
  max: number,
  end: 'head' | 'tail',
): Promise<string | null> {
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ELOOP') return null;
    throw error;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return null;
    const size = info.size;
    const length = Math.min(size, max);
    const buffer = Buffer.alloc(length);
    const position = end === 'head' ? 0 : size - length;
    const { bytesRead } = await handle.read(buffer, 0, length, position);
    return partText(buffer.subarray(0, bytesRead).toString('utf8'), size, length, end);
  } finally {
    await handle.close();
  }
}
