/**
 * Another campaign's finished runs, read to be copied into this one (`evalrig run --reuse`).
 * The other folder is data: every folder on the way to a run must be a real folder (a link is
 * not followed), every file a regular file under a size cap, read through one handle that
 * follows no link; run.json, its stops, the flight record's manifest and grading.json are
 * checked against their schemas. Nothing there is written.
 */
import { constants, createWriteStream } from 'node:fs';
import { lstat, mkdir, open, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { GradingFile, RunRecord } from '../artifacts/index.js';
import { readJsonArtifact } from './json.js';
import { campaignFiles, flightFiles, runFiles, STOP_PATH, TURN_FILE } from './layout.js';
import { readGrading, readRun, type StoredRun } from './read.js';
import type { Read } from './result.js';
import { writeGrading, writeRun } from './write.js';

/** The most a file of a run folder may hold to be copied (a flight record's bodies included). */
export const MAX_COPIED_BYTES = 1024 * 1024 * 1024;

/** A finished run of another campaign folder, verified, with the files a copy takes. */
export interface SourceRun {
  readonly stored: StoredRun;
  /** The files beside run.json a copy takes, relative to the run folder ('/'-separated). */
  readonly files: readonly string[];
  /** Its grading.json when there is a whole one. */
  readonly grading?: GradingFile;
}

const broken = <T>(file: string, problem: string): Read<T> => ({
  status: 'broken',
  file,
  problem,
});

/** What is at `p`, never followed: a folder, a file, nothing, or something else (a link). */
async function kindAt(p: string): Promise<'folder' | 'file' | 'none' | 'other'> {
  try {
    const s = await lstat(p);
    return s.isDirectory() ? 'folder' : s.isFile() ? 'file' : 'other';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'none';
    throw error;
  }
}

/**
 * The run `key` (eval/condition/run-NN) of the campaign folder `folder`, read and verified the
 * way every reader of a run does, with every file a copy would take checked to be a regular
 * file. Missing when there is no such run.json; broken, with the first problem, otherwise.
 */
export async function readSourceRun(folder: string, key: string): Promise<Read<SourceRun>> {
  const top = campaignFiles(folder).runs;
  let dir = top;
  for (const part of ['', ...key.split('/')]) {
    dir = part === '' ? top : path.join(dir, part);
    const kind = await kindAt(dir);
    if (kind === 'none') return { status: 'missing', file: runFiles(dir).runJson };
    if (kind !== 'folder') return broken(dir, `${dir} is not a folder (a link is not followed)`);
  }
  const read = await readRun(dir);
  if (read.status !== 'ok') return read;
  const listed = await filesToCopy(dir, read.value.record);
  if (typeof listed === 'string') return broken(dir, listed);
  const manifest = await readJsonArtifact('model-record', flightFiles(dir).manifest);
  if (manifest.status === 'broken') return broken(dir, manifest.problem);
  const grading = await readGrading(dir);
  return {
    status: 'ok',
    file: read.file,
    value: {
      stored: read.value,
      files: listed,
      ...(grading.status === 'ok' ? { grading: grading.value } : {}),
    },
  };
}

/** The files beside run.json a copy takes, or the problem that keeps the run from being copied. */
async function filesToCopy(dir: string, record: RunRecord): Promise<string[] | string> {
  const files = runFiles(dir);
  const flight = flightFiles(dir);
  const wanted = [files.callsJsonl, files.diffPatch, flight.calls, flight.blocks, flight.manifest];
  const out: string[] = [];
  const take = async (file: string, required: boolean): Promise<string | undefined> => {
    const kind = await kindAt(file);
    if (kind === 'file') out.push(path.relative(dir, file).split(path.sep).join('/'));
    else if (kind === 'other') return `${file} is not a regular file (a link is not followed)`;
    else if (required) return `${file} is missing`;
    return undefined;
  };
  for (const file of wanted) {
    const problem = await take(file, false);
    if (problem) return problem;
  }
  for (const rel of record.stops) {
    if (!STOP_PATH.test(rel)) return `${files.runJson} names a stop that is not evalrig's: ${rel}`;
    const problem =
      (await take(path.join(dir, rel), true)) ??
      (await take(path.join(dir, rel.replace(/\.json$/u, '.patch')), false));
    if (problem) return problem;
  }
  const turns = await kindAt(files.turnsDir);
  if (turns === 'other') return `${files.turnsDir} is not a folder (a link is not followed)`;
  if (turns === 'folder') {
    for (const name of (await readdir(files.turnsDir)).sort()) {
      if (!TURN_FILE.test(name)) continue;
      const problem = await take(path.join(files.turnsDir, name), true);
      if (problem) return problem;
    }
  }
  return out;
}

/**
 * Copies a file's bytes to `to` (created, never over anything), through one handle that
 * follows no link, refusing what is not a regular file or is over the cap.
 */
async function copyRegular(from: string, to: string): Promise<void> {
  const handle = await open(from, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new Error(`${from} is not a regular file`);
    if (info.size > MAX_COPIED_BYTES) throw new Error(`${from} is ${info.size} bytes: too big`);
    // Its size when opened, no more: a file that grows meanwhile is not copied past the cap.
    const read =
      info.size === 0
        ? []
        : handle.createReadStream({ start: 0, end: info.size - 1, autoClose: false });
    await pipeline(read, createWriteStream(to, { flags: 'wx', mode: 0o644 }));
  } finally {
    await handle.close();
  }
}

/**
 * Copies the run `source` into the run folder `dir` of this campaign (emptied first): its
 * files, its grading when `withGrading`, then `record` as its run.json, written last as every
 * run's is. The copy is then read back under the readers' rule; a copy that does not read back
 * whole is removed, and the problem returned.
 */
export async function copySourceRun(
  source: SourceRun,
  dir: string,
  record: RunRecord,
  withGrading: boolean,
): Promise<Read<StoredRun>> {
  const files = runFiles(dir);
  await rm(dir, { recursive: true, force: true });
  await mkdir(files.stopsDir, { recursive: true });
  await mkdir(files.turnsDir, { recursive: true });
  try {
    for (const rel of source.files)
      await copyRegular(path.join(source.stored.dir, rel), path.join(dir, rel));
    if (withGrading && source.grading) await writeGrading(dir, source.grading);
    await writeRun(dir, record);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    return broken(dir, `cannot copy ${source.stored.dir}: ${(error as Error).message}`);
  }
  const copied = await readRun(dir);
  if (copied.status !== 'ok') await rm(dir, { recursive: true, force: true });
  return copied;
}
